package dev.yarpj.harness;

import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Everything a test of a campaign needs to know, fixed for the campaign. */
public record CampaignConfig(Language lang, GenPolicy policy, Path policyFile, boolean swarm, Testbed reference,
                      List<Testbed> testbeds, ProcessRunner.Limits compileLimits, ProcessRunner.Limits recheckLimits,
                      ProcessRunner.Limits runLimits, String yarpj, Map<String, String> compilerVersions) {
    /** A compile-time outlier's recheck gets this many times the compile limit, by default. */
    public static final double RECHECK_FACTOR = 4;

    /**
     * What one compile may use: {@code seconds} of CPU time (a compile that reaches it is a slow
     * compile), {@link ProcessRunner.Limits#COMPILE_WALL_PER_CPU} times that of wall-clock time (one that sleeps or
     * waits that long is slow too), 4 GiB of memory (a compiler past it is a slow compile, not a
     * finding) and a 256 MiB object.
     */
    public static ProcessRunner.Limits compileLimits(double seconds) {
        return ProcessRunner.Limits.compile(seconds, 4096, 256);
    }

    /** What one run of a test may use: {@code seconds}, 2 GiB of memory and 64 MiB of output. */
    public static ProcessRunner.Limits runLimits(double seconds) {
        return new ProcessRunner.Limits(seconds, 2048, 64);
    }
}
