package dev.yarpj.cli;

import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyException;
import dev.yarpj.policy.PolicyLoader;
import dev.yarpj.stats.RemarkCompiler;
import dev.yarpj.stats.StatsStage;
import dev.yarpj.stats.ispc.IspcMaskBuild;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Counts the optimization remarks gcc or clang gives on generated tests at -O3, to see which
 * loop optimizations a policy exercises, and compares two policies with Welch's t-test; also
 * reports the shape of the generated programs and how many iterations per entry their loops
 * run (measured by the interpreter during generation), alone with --no-compile. For ISPC
 * tests, what the lowering made of them and, compiled, the execution masks of their varying
 * ifs, measured with the real ispc.
 */
@Command(name = "stats", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {
            "Count optimization remarks on generated tests; measure their loops.",
            "Counts the optimization remarks of clang or gcc on generated tests (for ISPC:",
            "the variety of the lowering and the execution masks of the varying ifs).",
            "",
            "The tests of seeds A..B are generated in-process; each func (with init.h) is",
            "written to a temporary directory, which is removed afterwards, and compiled",
            "with -O3 -c (object code discarded, at most 120 s) with remarks: clang's",
            "-fsave-optimization-record, or gcc's -fopt-info-all, whose remarks name no",
            "pass and are all counted under the pass 'opt-info'. Remarks are counted by",
            "pass and kind (Passed, Missed, Analysis): total, mean per program, programs",
            "with at least one; then the most frequent Passed remark names per pass, and",
            "the Missed and Analysis remark names of the loop passes (why a loop was not",
            "vectorized or versioned; for gcc, the messages that mention a loop).",
            "Also the Passed remarks per compile CPU-second (user + system time), per pass",
            "and in total, and the largest compile with its share of the CPU: compile",
            "times have a heavy tail, and a compile of a fifth of the CPU or more alone",
            "moves these rates (the table says so).",
            "",
            "Then the shape of the generated programs (loop nesting, loops, statements per",
            "loop body) and the trip counts the interpreter measured: per static loop (each",
            "level of each nest), the times it was entered and its iterations in all. Every",
            "loop, the loops of each idiom, the innermost levels alone, and the loops that a",
            "break, a header exit or a return may leave (scope exits) are shown as the",
            "number of loops, the share never entered and the shares whose iterations per",
            "entry average <= 1, 2-7 (over 1, under 8), 8-63 and >= 64, and the median",
            "iterations per entry over the entered loops. Then what the input sets gave",
            "them: the distinct trip counts per entry of each innermost loop over a test's",
            "sets; of the innermost loops whose trip moved, those that ran 2VF+1 iterations",
            "or more per entry in one set and fewer than VF in another, for VF 8 to 64 (one",
            "build on both sides of that vector width); the outcomes each if in a loop met;",
            "and the data-parallel loops with partial and whole gang steps of 4, 8 and 16",
            "lanes. --no-compile reports only these (nothing is compiled; --compiler and",
            "--cc are ignored), fast enough for thousands of seeds.",
            "",
            "--compare FILE2 runs policy A (--policy, or the built-in one) and policy B",
            "(FILE2) on the same seeds and shows, per pass and per remark name, the",
            "mean per program under A and B, the ratio A/B, Welch's t-test p-value and a",
            "verdict at alpha 0.05; then the geometric mean of the ratios over the loop",
            "passes (clang: loop-vectorize, loop-unroll, licm, gvn, ...) or, for gcc, over",
            "the Passed remark names other than the inliner's. A pass or name found under",
            "only one policy has no finite ratio: it is listed apart, not averaged. The trip",
            "counts of A and B are shown one above the other, with Welch's t-test on the",
            "per-program mean of log2(1 + iterations per entry) over entered loops.",
            "The remarks per CPU-second get their ratios A/B and the geometric mean over",
            "the loop passes, with a 95%% bootstrap interval (1000 resamples of the seeds",
            "both policies compiled, drawn from a fixed seed): which tests the seeds draw",
            "moves these rates, and an interval that holds 1 does not tell A from B.",
            "",
            "With --lang=sycl (and --no-compile, which it needs) the report adds what the",
            "SYCL lowering made of the tests: kernels by kind (parallel_for over range by",
            "dimension or nd_range, single_task), reductions and memory modes.",
            "",
            "With --lang=ispc the report adds what the ISPC lowering made of the tests: per",
            "test, the data-parallel loops (those that may run as a gang), the gang loops and",
            "their split among foreach, foreach_tiled and a for over programIndex, the",
            "data-parallel loops left serial, the reductions (the IR's Reduce statements) and",
            "those lowered as varying partial results, the varying ifs, lane queries",
            "(any/all/none) and select()s; and the trip counts per entry of the data-parallel",
            "loops alone. For ISPC the compile mode measures execution masks instead of",
            "counting remarks: each test is generated in its measurement variant (the same",
            "program, counting per varying if the runs with some lane on and those with a",
            "mixed mask), built with 'ispc --pic --woff LEVEL --target=TARGET'",
            "(--ispc-target, --ispc-opt; --cc names the ispc binary, --compiler is",
            "ignored) and 'g++ -O0' for the driver, run (at most 60 s), and its checksum",
            "checked against the prediction; the report adds the varying ifs that ran, the",
            "share of them with a mixed mask at least once and the share of all their runs",
            "that were mixed. A checksum mismatch is reported loudly on stderr and in the",
            "report, the seed left out of the masks, and the exit code is 1.",
            "",
            "Seeds that fail to generate, to compile or to finish in time are skipped and",
            "counted on stderr; the shape and trip counts cover every generated program,",
            "also those that failed to compile. Exit code: 0 (also with skipped seeds); 2 for",
            "bad input or a compiler that cannot run; 1 if too few programs compiled (or,",
            "with --no-compile, were generated; or temporary files cannot be written; or,",
            "for ISPC, were built and run, or a checksum mismatched).",
            "More in docs/guide.md (stats).",
            ""})
final class StatsCommand implements Callable<Integer> {

    enum Compiler {
        clang(RemarkCompiler.CLANG), gcc(RemarkCompiler.GCC);

        final RemarkCompiler remarks;

        Compiler(RemarkCompiler r) {
            this.remarks = r;
        }
    }

    enum Format {
        table(StatsStage.Format.TABLE), csv(StatsStage.Format.CSV), json(StatsStage.Format.JSON);

        final StatsStage.Format format;

        Format(StatsStage.Format f) {
            this.format = f;
        }
    }

    /** Longest seed range accepted: every program's counts are held in memory. */
    static final long MAX_SEEDS = 100_000;

    @Option(names = "--lang", paramLabel = "c|cpp|ispc|sycl", description = "Target language: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            defaultValue = "c")
    GenCommand.Lang lang;

    @Option(names = "--seeds", paramLabel = "A..B", required = true,
            description = "The seeds of the tests, A to B inclusive, 0 <= A <= B.")
    String seeds;

    @CommandLine.Mixin
    PolicyOption policy;

    @Option(names = "--swarm", description = "Swarm testing: each test switches a random subset of features off (as gen --swarm).")
    boolean swarm;

    @Option(names = "--compare", paramLabel = "FILE2",
            description = "Compare with this second policy (B); the --policy one (or the built-in one) is A.")
    Path compare;

    @Option(names = "--compiler", paramLabel = "clang|gcc", description = "Whose remarks: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            defaultValue = "clang")
    Compiler compiler;

    @Option(names = "--cc", paramLabel = "PATH",
            description = "The compiler binary (default: clang or gcc, per --compiler; with --lang=ispc: ispc); it must take that compiler's options.")
    String cc;

    @Option(names = "--flag", paramLabel = "OPTION",
            description = "An option the remark compiles add to -O3, e.g. --flag=-march=native (gcc vectorizes early exits only with SSE4.1 or later); repeatable. Not used by --no-compile or --lang=ispc.")
    List<String> flags = new ArrayList<>();

    @Option(names = "--ispc-target", paramLabel = "TARGET",
            description = "With --lang=ispc: the ispc --target the mask measurement builds for (default: ${DEFAULT-VALUE}).",
            defaultValue = IspcMaskBuild.DEFAULT_TARGET)
    String ispcTarget;

    @Option(names = "--ispc-opt", paramLabel = "LEVEL",
            description = "With --lang=ispc: the ispc optimization level of the mask measurement, -O0 to -O3 (default: ${DEFAULT-VALUE}).",
            defaultValue = IspcMaskBuild.DEFAULT_LEVEL)
    String ispcLevel;

    @Option(names = "--format", paramLabel = "table|csv|json", description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            defaultValue = "table")
    Format format;

    @Option(names = "-j", paramLabel = "N", description = "Compiles (with --no-compile: generations; for ISPC: builds and runs) at once (default: the number of processors).")
    Integer jobs;

    @Option(names = "--no-compile",
            description = "Compile nothing: report only the program shape and the loop trip counts of generation and the interpreter.")
    boolean noCompile;

    @Option(names = "--per-seed", paramLabel = "FILE",
            description = "Also write one CSV row per seed and policy to FILE: the test's size (func lines and the measures"
                    + " of its compile-cost estimate), the estimate, the compile's CPU seconds and its Passed remarks"
                    + " (all, and those of the loop passes); with --no-compile, or for ISPC, the compile's columns are"
                    + " empty. For calibrating the estimate against a compiler.")
    Path perSeed;

    @Option(names = "--compile-timeout", paramLabel = "CPU-SECONDS",
            description = "CPU seconds a remark compile may use (with 3 times that of wall-clock time) before its seed is"
                    + " skipped as a compile timeout and named on stderr, the first 20 of them (1 to 86400; default: ${DEFAULT-VALUE}). A lower limit, 20 say,"
                    + " keeps the rare compiler hog out of the remarks per CPU-second. Not used by --no-compile or"
                    + " --lang=ispc.",
            defaultValue = "120")
    double compileTimeout;

    /** --compile-timeout's range: ulimit -t counts whole seconds, and a day is past any compile worth waiting for. */
    static final double MIN_COMPILE_TIMEOUT = 1;
    static final double MAX_COMPILE_TIMEOUT = 86400;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        long[] range = parseSeeds(seeds);
        long first = range[0];
        long last = range[1];
        if (jobs == null) jobs = Runtime.getRuntime().availableProcessors();
        if (jobs < 1) throw new Main.UsageError("-j must be at least 1, got " + jobs);
        if (!(compileTimeout >= MIN_COMPILE_TIMEOUT && compileTimeout <= MAX_COMPILE_TIMEOUT)) {
            throw new Main.UsageError("--compile-timeout must be " + (long) MIN_COMPILE_TIMEOUT + " to " + (long) MAX_COMPILE_TIMEOUT
                    + " CPU seconds, got " + compileTimeout);
        }
        if (compare != null && last == first) {
            throw new Main.UsageError("--compare needs at least 2 seeds for its t-tests, got " + seeds);
        }
        List<GenPolicy> policies = new ArrayList<>();
        policies.add(policy.load());
        if (compare != null) {
            try {
                policies.add(PolicyLoader.load(compare));
            } catch (PolicyException e) {
                throw new Main.UsageError(e.getMessage());
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        StatsStage.Options options = new StatsStage.Options(lang.language, first, last, policies, swarm, compiler.remarks, cc,
                ispcTarget, ispcLevel, format.format, jobs, noCompile, perSeed, flags, compileTimeout);
        try {
            return StatsStage.run(options, out, err);
        } catch (StatsStage.BadInput e) {
            throw new Main.UsageError(e.getMessage());
        }
    }

    /** {first, last} of "A..B", or a usage error. */
    static long[] parseSeeds(String s) {
        long[] r = dev.yarpj.harness.CampaignSettings.SeedRange.parse(s);
        if (r == null) throw new Main.UsageError("--seeds must be A..B with 0 <= A <= B, got " + s);
        long a = r[0];
        long b = r[1];
        if (b - a + 1 > MAX_SEEDS) throw new Main.UsageError("--seeds: at most " + MAX_SEEDS + " seeds at once, got " + s);
        return new long[] {a, b};
    }
}
