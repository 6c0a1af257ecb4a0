package dev.yarpj.triage;

import dev.yarpj.harness.CampaignConfig;
import dev.yarpj.harness.ProcessRunner;
import dev.yarpj.harness.Testbed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether one build of a finding's test still shows its symptom: the question every step
 * of triage asks with other flags or another compiler. The test is one translation unit
 * (the reduced test, or the finding's files merged) and what it links with (an ISPC test:
 * its C or C++ main); for wrong code the reference build (the reference compiler at -O0) is
 * made once and its output kept.
 */
final class Symptom {
    /** What went wrong in a finding. */
    enum Kind {
        WRONG_CODE, COMPILER_CRASH, RUNTIME_CRASH, COMPILE_HANG,
        /** A build whose link fails on the undefined reference the finding's did (crashText): a call of a function the compiler never made. */
        LINK_FAILURE;

        /** Whether the symptom shows when the program built is run (under the target's emulator), not in its build. */
        boolean runsTheProgram() {
            return this == WRONG_CODE || this == RUNTIME_CRASH;
        }
    }

    private final Kind kind;
    private final Path dir;
    private final String file;
    /** The crash message a compiler crash must repeat; null for other kinds. */
    private final String crashText;
    private final double compileTimeout;
    /** The emulator a finding on another target runs its programs under; empty here. */
    private final List<String> emulator;
    private String referenceOutput;
    /**
     * What every build of the test links besides it, after it on the command line: nothing for
     * a test in one file; for a finding whose symptom needs its driver in a translation unit of
     * its own, the driver's object (built once by the reference compiler at -O0, as the harness
     * builds it) and the second file of extern helpers, if any.
     */
    private final List<String> inputs;
    /** Builds tried so far: the cost of triage, reported. */
    int builds;
    /**
     * The CPU seconds a build other than a hang's may take once the symptom has shown ({@link
     * #boundBuildsByLastOne}); 0 until then. Triage's builds turn passes and options off by the dozen, and
     * some of those mixes make a compiler crawl: on 2026-12-07 a gcc 16 build of a test it compiles
     * in a second ran for minutes with half its passes disabled, and labelling one finding took 25
     * minutes of a benchmark. Such a build neither shows the symptom nor gets the test right.
     */
    private double buildCpuBound;
    /** The CPU seconds of the last build of a C or C++ test. */
    private double lastBuildCpu;

    Symptom(Kind kind, Path dir, String file, String reference, String crashText, double compileTimeout, List<String> emulator)
            throws IOException {
        this(kind, dir, file, List.of(), reference, crashText, compileTimeout, emulator);
    }

    Symptom(Kind kind, Path dir, String file, List<String> inputs, String reference, String crashText, double compileTimeout,
            List<String> emulator) throws IOException {
        this.kind = kind;
        this.dir = dir;
        this.file = file;
        this.inputs = List.copyOf(inputs);
        this.crashText = crashText;
        this.compileTimeout = compileTimeout;
        this.emulator = List.copyOf(emulator);
        if (kind == Kind.WRONG_CODE) {
            Run c = buildInto(List.of(reference, "-O0"), "ref.bin", compileTimeout);
            if (c.exit != 0) throw new Triage.TriageException("the test does not build with " + reference + " -O0: " + firstLine(c.output));
            Run r = exec("ref.bin");
            if (r.exit != 0) throw new Triage.TriageException("the reference build of the test exits with " + r.exit);
            referenceOutput = r.output;
        }
    }

    Kind kind() {
        return kind;
    }

    /**
     * The same test, built the same way, with symptom {@code other}: for a wrong code that
     * the builds of triage show as a crash. Its reference output is kept (a report shows it).
     */
    Symptom as(Kind other) throws IOException {
        Symptom s = new Symptom(other, dir, file, inputs, null, crashText, compileTimeout, emulator);
        s.referenceOutput = referenceOutput;
        s.builds = builds;
        s.buildCpuBound = buildCpuBound;
        s.lastBuildCpu = lastBuildCpu;
        return s;
    }

    /** A build once the symptom has shown may take this many times the CPU of the build that showed it. */
    static final double BOUND_PER_SHOWING_BUILD = 8;

    /**
     * Bounds every later build (not a hang's, whose bound is its limit) by {@link
     * #BOUND_PER_SHOWING_BUILD} times the CPU of the last build, the one that showed the symptom,
     * and at least a third of the compile limit (10 s of the lane's 30), so that a compile of a
     * tenth of a second is not held to one: a build past it comes out {@link Effect#OTHER}.
     */
    void boundBuildsByLastOne() {
        if (kind == Kind.COMPILE_HANG || lastBuildCpu <= 0) return;
        buildCpuBound = Math.min(compileTimeout * 4, Math.max(compileTimeout / 3, BOUND_PER_SHOWING_BUILD * lastBuildCpu));
    }

    /** The CPU bound of a build now ({@link #boundBuildsByLastOne}); 0 when there is none. */
    double buildCpuBound() {
        return buildCpuBound;
    }

    /** The CPU seconds one compile may take. */
    double compileTimeout() {
        return compileTimeout;
    }

    /** The directory the test and every build of it are in. */
    Path dir() {
        return dir;
    }

    /** The message a compiler crash repeats; null for other kinds. */
    String crashText() {
        return crashText;
    }

    /** The test's file name in its directory. */
    String file() {
        return file;
    }

    /** What every build links besides the test, in its directory (empty: the test is one file). */
    List<String> inputs() {
        return inputs;
    }

    String referenceOutput() {
        return referenceOutput;
    }

    /** Whether {@code compiler} (a command and its flags) shows the symptom on the test. */
    boolean shows(List<String> compiler) throws IOException {
        return shows(compiler, null);
    }

    /** As {@link #shows(List)}; {@code stderr} (if given) receives what the compiler printed. */
    boolean shows(List<String> compiler, StringBuilder stderr) throws IOException {
        Run c = buildForSymptom(compiler);
        if (stderr != null) stderr.append(c.output);
        return effectOf(c, null) == Effect.SHOWS;
    }

    /**
     * Whether {@code compiler} gets the test right: it builds (in time, without crashing) and,
     * for wrong code and runtime crashes, runs clean and prints what the reference build does.
     * A flag that disables a pass the compiler cannot do without fails here, not just loses the symptom.
     */
    boolean fixes(List<String> compiler) throws IOException {
        return effect(compiler) == Effect.FIXES;
    }

    /** What one build does with the test: gets it right, shows the symptom, or neither (it fails otherwise). */
    enum Effect { FIXES, SHOWS, OTHER }

    /**
     * {@link #fixes} and {@link #shows} from one build: for trying many flags at once, where a
     * build that neither shows the symptom nor gets the test right (a flag the compiler cannot
     * do without) must be told from one that still shows it.
     */
    Effect effect(List<String> compiler) throws IOException {
        return effectOf(buildForSymptom(compiler), null);
    }

    /**
     * As {@link #effect}, for group testing: wrong code shows only as the very output
     * {@code shown} that the buggy build prints. Many passes disabled at once can make other
     * wrong code (a pass the program's correctness needs, disabled); that is neither the bug
     * still there nor the test right, and must not hide a disabler of the bug in the same group.
     */
    Effect effectAs(List<String> compiler, String shown) throws IOException {
        return effectOf(buildForSymptom(compiler), shown);
    }

    /** The build that tells the symptom: a compile hang's by CPU time, any other with four times the compile limit. */
    private Run buildForSymptom(List<String> compiler) throws IOException {
        return kind == Kind.COMPILE_HANG ? buildByCpu(compiler) : build(compiler, compileTimeout * 4);
    }

    /**
     * What build {@code c} (and, for wrong code and runtime crashes, a run of what it built) does
     * with the test; wrong code shows only as output {@code shown} when that is given.
     */
    private Effect effectOf(Run c, String shown) throws IOException {
        switch (kind) {
            case COMPILE_HANG:
                return c.timedOut ? Effect.SHOWS : c.exit == 0 ? Effect.FIXES : Effect.OTHER;
            case LINK_FAILURE:
                if (c.timedOut) return Effect.OTHER;
                if (c.exit == 0) return Effect.FIXES;
                return dev.yarpj.harness.Signature.linkError(c.output).equals(crashText) ? Effect.SHOWS : Effect.OTHER;
            case COMPILER_CRASH:
                if (c.timedOut) return Effect.OTHER;
                if (c.exit == 0) return Effect.FIXES;
                // The crash message, or the crash place a bug key names (a record's recheck has only that, masked).
                return c.exit > 128 || dev.yarpj.harness.Signature.withoutAddresses(c.output).contains(crashText)
                        || dev.yarpj.harness.Signature.crashPoint(c.output).equals(crashText) ? Effect.SHOWS : Effect.OTHER;
            default:
                break;
        }
        if (c.timedOut || c.exit != 0) return Effect.OTHER;
        Run r = exec("bug.bin");
        if (kind == Kind.RUNTIME_CRASH) {
            if (!r.timedOut && r.exit == 0) return Effect.FIXES;
            return !r.timedOut && r.exit != 126 && r.exit != 127 ? Effect.SHOWS : Effect.OTHER;
        }
        if (r.timedOut || r.exit != 0) return Effect.OTHER;
        if (r.output.equals(referenceOutput)) return Effect.FIXES;
        return shown == null || r.output.equals(shown) ? Effect.SHOWS : Effect.OTHER;
    }

    /** Builds the test with {@code compiler} into bug.bin (removed first), counting the build. */
    private Run build(List<String> compiler, double timeoutSeconds) throws IOException {
        builds++;
        return buildInto(compiler, "bug.bin", timeoutSeconds);
    }

    /** Whether the test is ISPC, which ispc compiles to an object that a C or C++ main among the inputs is linked with. */
    private boolean ispc() {
        return file.endsWith(".ispc");
    }

    /**
     * Builds the test with {@code compiler} into {@code out} (removed first), not counted. A C or
     * C++ test is one command. An ISPC test is two, as the harness builds one: ispc compiles it to
     * an object, then the system's C compiler (C++ for a C++ main) links that with the inputs; a
     * compiler crash is told by the first alone, as the object is all it needs.
     */
    private Run buildInto(List<String> compiler, String out, double timeoutSeconds) throws IOException {
        Files.deleteIfExists(dir.resolve(out));
        if (!ispc()) return buildOne(oneCommand(compiler, out), timeoutSeconds);
        List<String> compile = new ArrayList<>(compiler);
        compile.addAll(List.of("--woff", file, "-o", out + ".o"));
        Run c = run(compile, timeoutSeconds);
        if (c.exit != 0 || c.timedOut || kind == Kind.COMPILER_CRASH) return c;
        List<String> link = new ArrayList<>(List.of(inputs.stream().anyMatch(i -> i.endsWith(".cpp")) ? "c++" : "cc"));
        link.addAll(inputs);
        link.addAll(List.of(out + ".o", "-o", out, Testbed.MATH_LIBRARY));
        Run l = run(link, timeoutSeconds);
        return new Run(l.exit, l.timedOut, c.output + l.output);
    }

    /** The one command that builds a C or C++ test and its inputs with {@code compiler} into {@code out}. */
    private List<String> oneCommand(List<String> compiler, String out) {
        List<String> cmd = new ArrayList<>(compiler);
        cmd.addAll(List.of("-w", file));
        cmd.addAll(inputs);
        cmd.addAll(List.of("-o", out, Testbed.MATH_LIBRARY));
        return cmd;
    }

    /**
     * Runs build {@code cmd} of a C or C++ test with {@code timeoutSeconds} of CPU, or the bound
     * once there is one, keeping its CPU: a build past either has timed out.
     */
    private Run buildOne(List<String> cmd, double timeoutSeconds) throws IOException {
        double cpu = buildCpuBound > 0 ? Math.min(buildCpuBound, timeoutSeconds) : timeoutSeconds;
        ProcessRunner.Result r = ProcessRunner.run(dir, "triage-build", cmd, CampaignConfig.hangCheckLimits(cpu));
        lastBuildCpu = r.cpuSeconds();
        return new Run(r.exitCode(), r.pastTimeLimit(cpu), r.stderr() + r.stdout());
    }

    /**
     * Builds the test with {@code compiler} as the campaign compiles: timed out only when it used
     * its {@code compileTimeout} of CPU, so that a busy machine, which makes a compile wait rather
     * than work, never makes a fast compile look like the hang; the build is counted.
     */
    private Run buildByCpu(List<String> compiler) throws IOException {
        if (ispc()) return build(compiler, compileTimeout);
        builds++;
        Files.deleteIfExists(dir.resolve("bug.bin"));
        ProcessRunner.Result r = ProcessRunner.run(dir, "triage-build", oneCommand(compiler, "bug.bin"), CampaignConfig.hangCheckLimits(compileTimeout));
        // Only the CPU limit shows the hang; a build the wall-clock backstop stopped showed nothing, either way.
        if (r.timedOut()) return new Run(WALL_STOPPED, false, r.stderr() + r.stdout());
        return new Run(r.exitCode(), r.reachedCpuLimit(compileTimeout), r.stderr() + r.stdout());
    }

    /** What the buggy build printed (wrong code): the actual output for a report. */
    String output(List<String> compiler) throws IOException {
        if (buildInto(compiler, "bug.bin", compileTimeout * 4).exit != 0) return "(does not build)";
        Run r = exec("bug.bin");
        return r.timedOut ? "(times out)" : r.exit != 0 ? "(exits with " + r.exit + ")" : r.output;
    }

    /**
     * What the build by {@code compiler} prints, when it builds, runs clean and prints the same
     * twice; else null.
     */
    String steadyOutput(List<String> compiler) throws IOException {
        Run c = build(compiler, compileTimeout * 4);
        if (c.timedOut || c.exit != 0) return null;
        Run a = exec("bug.bin");
        Run b = exec("bug.bin");
        return !a.timedOut && a.exit == 0 && !b.timedOut && b.exit == 0 && a.output.equals(b.output) ? a.output : null;
    }

    /** The emulator line of a finding on another target, empty on this machine. */
    List<String> emulator() {
        return emulator;
    }

    /** Runs a program built in the test's directory, under the emulator if there is one (with the harness's allowance then). */
    Run exec(String program) throws IOException {
        List<String> cmd = new ArrayList<>(emulator);
        cmd.add("./" + program);
        return run(cmd, runSeconds());
    }

    /** How long a run of the test may take: the harness's allowance, under the emulator if there is one. */
    double runSeconds() {
        return emulator.isEmpty() ? 10 : 10 * dev.yarpj.harness.Testbed.EMULATION_SLOWDOWN;
    }

    record Run(int exit, boolean timedOut, String output) {}

    /** The exit of a compile-time build stopped by the wall clock before its CPU limit: neither slow nor fast (OTHER). */
    static final int WALL_STOPPED = -2;

    /** Runs {@code cmd} in the test's directory; output is its stdout and stderr merged. */
    Run run(List<String> cmd, double timeoutSeconds) throws IOException {
        ProcessRunner.Captured c = ProcessRunner.capture(dir, cmd, Map.of("ASAN_OPTIONS", "detect_leaks=0"), timeoutSeconds, null);
        return new Run(c.exitCode(), c.timedOut(), c.output());
    }

    static String firstLine(String s) {
        return s.lines().filter(l -> !l.isBlank()).findFirst().orElse("").strip();
    }
}
