package dev.yarpj.harness;

import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.source.TestSource;
import dev.yarpj.source.TestSources;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything a test of a campaign needs to know, fixed for the campaign. {@code runShare} is the
 * largest share of the campaign's CPU its runs may take before builds stop running beyond their
 * first emulator setting ({@link #RUN_SHARE} by default; 0: each build runs once).
 */
public record CampaignConfig(Language lang, GenPolicy policy, Path policyFile, boolean swarm, Testbed reference,
                      List<Testbed> testbeds, ProcessRunner.Limits compileLimits, ProcessRunner.Limits recheckLimits,
                      ProcessRunner.Limits runLimits, String yarpj, Map<String, String> compilerVersions, double runShare,
                      TestSource source) {
    /** A compile-time outlier's recheck gets this many times the compile limit, by default. */
    public static final double RECHECK_FACTOR = 4;

    /**
     * The default run share. Under qemu a run of vector code costs a tenth to a half of its
     * compile, so running every length of a scalable build (five for SVE) could take more CPU
     * than the compiles and the campaign would compile fewer tests; a quarter keeps at least
     * three quarters of the CPU compiling while a typical build still runs at every length.
     */
    public static final double RUN_SHARE = 0.25;

    /** A campaign of yarpj's generator. */
    public CampaignConfig(Language lang, GenPolicy policy, Path policyFile, boolean swarm, Testbed reference, List<Testbed> testbeds,
                          ProcessRunner.Limits compileLimits, ProcessRunner.Limits recheckLimits, ProcessRunner.Limits runLimits,
                          String yarpj, Map<String, String> compilerVersions, double runShare) {
        this(lang, policy, policyFile, swarm, reference, testbeds, compileLimits, recheckLimits, runLimits, yarpj, compilerVersions, runShare,
                TestSources.of("yarpj", new TestSources.Setup(lang, policy, policyFile, swarm, yarpj, null)));
    }


    /** A campaign of yarpj's generator with the default run share. */
    public CampaignConfig(Language lang, GenPolicy policy, Path policyFile, boolean swarm, Testbed reference, List<Testbed> testbeds,
                          ProcessRunner.Limits compileLimits, ProcessRunner.Limits recheckLimits, ProcessRunner.Limits runLimits,
                          String yarpj, Map<String, String> compilerVersions) {
        this(lang, policy, policyFile, swarm, reference, testbeds, compileLimits, recheckLimits, runLimits, yarpj, compilerVersions, RUN_SHARE);
    }

    /**
     * What one compile may use: {@code seconds} of CPU time (a compile that reaches it is a slow
     * compile), {@link ProcessRunner.Limits#COMPILE_WALL_PER_CPU} times that of wall-clock time (one that sleeps or
     * waits that long is slow too), 4 GiB of memory (a compiler past it is a slow compile, not a
     * finding) and a 256 MiB object.
     */
    public static ProcessRunner.Limits compileLimits(double seconds) {
        return ProcessRunner.Limits.compile(seconds, 4096, 256);
    }

    /** {@link #compileLimits} of a compile that asks whether the compiler hangs: CPU alone decides ({@link ProcessRunner.Limits#hangCheck}). */
    public static ProcessRunner.Limits hangCheckLimits(double seconds) {
        return ProcessRunner.Limits.hangCheck(seconds, 4096, 256);
    }

    /** The run limit of {@code tb}'s programs: longer under an emulator ({@link Testbed#EMULATION_SLOWDOWN}). */
    public ProcessRunner.Limits runLimitsOf(Testbed tb) {
        ProcessRunner.Limits rl = runLimits;
        return tb.emulated() ? new ProcessRunner.Limits(rl.timeoutSeconds() * Testbed.EMULATION_SLOWDOWN, rl.memoryMiB(), rl.fileSizeMiB()) : rl;
    }

    /** What one run of a test may use: {@code seconds}, 2 GiB of memory and 64 MiB of output. */
    public static ProcessRunner.Limits runLimits(double seconds) {
        return new ProcessRunner.Limits(seconds, 2048, 64);
    }
}
