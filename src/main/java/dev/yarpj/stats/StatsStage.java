package dev.yarpj.stats;

import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.stats.ispc.IfMask;
import dev.yarpj.stats.ispc.IspcMaskBuild;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The stats stage: checks the compiler, picks the mode (remarks, ISPC masks, or only
 * generation with --no-compile), runs the seeds through it ({@link SeedRunner}), reports the
 * seeds it skipped on stderr and prints the report in the format asked for. Returns the exit
 * code; bad input throws {@link BadInput}.
 */
public final class StatsStage {
    /** Output format of the report. */
    public enum Format { TABLE, CSV, JSON }

    /** Input the stage cannot work with (the CLI's usage error: exit code 2). */
    public static final class BadInput extends RuntimeException {
        BadInput(String message) {
            super(message);
        }
    }

    /**
     * What to measure. {@code policies}: A, and B when comparing; {@code cc}: the compiler
     * binary, null for the mode's default; {@code perSeed}: the CSV file of --per-seed, or null;
     * {@code flags}: options the remark compiles add to -O3 ({@code -march=native}, say);
     * {@code compileTimeoutSeconds}: the CPU seconds a remark compile may use before its seed
     * is skipped as a compile timeout.
     */
    public record Options(Language lang, long firstSeed, long lastSeed, List<GenPolicy> policies, boolean swarm,
                          RemarkCompiler compiler, String cc, String ispcTarget, String ispcLevel, Format format, int jobs,
                          boolean noCompile, Path perSeed, List<String> flags, double compileTimeoutSeconds) {}

    /** The default of --compile-timeout, and the limit of each ISPC mask build. */
    static final double COMPILE_TIMEOUT_SECONDS = 120;
    static final double PROGRESS_SECONDS = 5;
    static final double RUN_TIMEOUT_SECONDS = 60;

    private final Options o;
    private final PrintWriter out;
    private final PrintWriter err;

    private StatsStage(Options o, PrintWriter out, PrintWriter err) {
        this.o = o;
        this.out = out;
        this.err = err;
    }

    /** Runs {@code yarpj stats}: the report on {@code out}, progress and skipped seeds on {@code err}; the exit code. */
    public static int run(Options o, PrintWriter out, PrintWriter err) {
        StatsStage s = new StatsStage(o, out, err);
        if (o.noCompile()) return s.generateOnly();
        if (o.lang() == Language.ISPC) return s.measureMasks();
        if (o.lang() == Language.SYCL) {
            throw new BadInput("--lang=sycl counts only what generation and the SYCL lowering give: add --no-compile");
        }
        return s.countRemarks();
    }

    private boolean compares() {
        return o.policies().size() == 2;
    }

    private SeedRunner runner() {
        return new SeedRunner(o.lang(), o.jobs(), err, PROGRESS_SECONDS);
    }

    private int countRemarks() {
        String binary = o.cc() != null ? o.cc() : o.compiler().defaultBinary;
        String version = CompilerProbe.version(binary);
        RemarkCompiler says = CompilerProbe.family(version);
        if (says != o.compiler()) {
            throw new BadInput("--cc " + binary + " does not look like " + o.compiler().defaultBinary + " (its --version says: "
                    + version + "); use --compiler " + says.defaultBinary);
        }
        List<PolicyResults<RemarkTally>> got = collect(new RemarkCollector(o.compiler(), binary, o.flags(), o.compileTimeoutSeconds()));
        if (got == null) return 1;
        writePerSeed(got, o.compiler());
        RunInfo info = new RunInfo(o.compiler(), binary, version, o.lang().cliName(), o.firstSeed(), o.lastSeed(), o.swarm(), null,
                o.flags());
        StatsReport report = StatsReport.ofRemarks(info, got);
        int a = report.sides().get(0).remarks().summary().programs();
        if (!compares()) {
            if (a == 0) {
                err.println("yarpj: no program compiled, nothing to count");
                return 1;
            }
        } else {
            int b = report.sides().get(1).remarks().summary().programs();
            if (a < 2 || b < 2) {
                err.println("yarpj: need at least 2 compiled programs per policy to compare, got " + a + " (A) and " + b + " (B)");
                return 1;
            }
        }
        print(report);
        return 0;
    }

    /** The --per-seed CSV, when asked for; {@code remarks} null when nothing was compiled. */
    private <R> void writePerSeed(List<PolicyResults<R>> got, RemarkCompiler remarks) {
        if (o.perSeed() == null) return;
        try {
            Files.writeString(o.perSeed(), PerSeedCsv.of(got, remarks));
        } catch (IOException e) {
            throw new BadInput("cannot write --per-seed " + o.perSeed() + ": " + e.getMessage());
        }
    }

    /** --no-compile: generation (with the interpreter) only; shape and trip counts. */
    private int generateOnly() {
        List<PolicyResults<NoCompileCollector.Generated>> got = collect(new NoCompileCollector());
        if (got == null) return 1;
        writePerSeed(got, null);
        RunInfo info = new RunInfo(null, null, "", o.lang().cliName(), o.firstSeed(), o.lastSeed(), o.swarm());
        int a = got.get(0).tests().size();
        if (!compares()) {
            if (a == 0) {
                err.println("yarpj: no program generated, nothing to count");
                return 1;
            }
        } else {
            int b = got.get(1).tests().size();
            if (a < 2 || b < 2) {
                err.println("yarpj: need at least 2 generated programs per policy to compare, got " + a + " (A) and " + b + " (B)");
                return 1;
            }
        }
        print(StatsReport.ofGenerated(info, got));
        return 0;
    }

    /**
     * ISPC without --no-compile: build and run each test's measurement variant with ispc and
     * report its masks, besides what --no-compile reports.
     */
    private int measureMasks() {
        if (!IspcMaskBuild.LEVELS.contains(o.ispcLevel())) {
            throw new BadInput("--ispc-opt must be one of " + String.join(", ", IspcMaskBuild.LEVELS) + ", got " + o.ispcLevel());
        }
        if (!o.ispcTarget().matches("[A-Za-z0-9_.-]+")) throw new BadInput("--ispc-target: not a target name: " + o.ispcTarget());
        String binary = o.cc() != null ? o.cc() : "ispc";
        String version = CompilerProbe.version(binary);
        if (!IspcMaskBuild.isIspcVersion(version)) {
            throw new BadInput("--cc " + binary + " does not look like ispc (its --version says: " + version + ")");
        }
        CompilerProbe.version(IspcMaskBuild.DRIVER_COMPILER);
        IspcMaskBuild build = new IspcMaskBuild(binary, IspcMaskBuild.DRIVER_COMPILER, o.ispcTarget(), o.ispcLevel(),
                COMPILE_TIMEOUT_SECONDS, RUN_TIMEOUT_SECONDS);
        String described = build.describe(version);
        List<PolicyResults<List<IfMask>>> got =
                collect(new MaskCollector(build, 2 * COMPILE_TIMEOUT_SECONDS + RUN_TIMEOUT_SECONDS));
        if (got == null) return 1;
        writePerSeed(got, null);
        int mismatches = 0;
        for (PolicyResults<List<IfMask>> c : got) {
            for (SeedResult.Skipped<List<IfMask>> r : c.skipped(Skip.MISMATCH)) {
                mismatches++;
                err.println("yarpj: CHECKSUM MISMATCH: seed " + r.seed() + " (policy " + c.policyName() + ") built with " + described
                        + ": " + r.message() + "; a wrong result from ispc or a yarpj bug: regenerate with yarpj gen --lang=ispc --seed "
                        + r.seed() + " and build as stats --help says");
            }
        }
        err.flush();
        RunInfo info = new RunInfo(null, binary, version, o.lang().cliName(), o.firstSeed(), o.lastSeed(), o.swarm(), described);
        int a = got.get(0).measures().size() + got.get(0).skippedCount(Skip.MISMATCH);
        if (!compares()) {
            if (a == 0) {
                err.println("yarpj: no ISPC test was built and run, no masks to count");
                return 1;
            }
        } else {
            int b = got.get(1).measures().size() + got.get(1).skippedCount(Skip.MISMATCH);
            if (a < 2 || b < 2) {
                err.println("yarpj: need at least 2 ISPC tests built and run per policy to compare, got " + a + " (A) and " + b + " (B)");
                return 1;
            }
        }
        print(StatsReport.ofMasks(info, got));
        return mismatches > 0 ? 1 : 0;
    }

    /** The results of every policy, with skipped seeds reported on {@code err}; null when collecting failed. */
    private <R> List<PolicyResults<R>> collect(SeedCollector<R> collector) {
        List<PolicyResults<R>> got;
        try {
            got = runner().run(collector, o.policies(), o.swarm(), o.firstSeed(), o.lastSeed());
        } catch (SeedRunner.CollectException e) {
            err.println("yarpj: " + e.getMessage());
            return null;
        }
        for (int i = 0; i < got.size(); i++) {
            reportSkipped(compares() ? (i == 0 ? "policy A (" : "policy B (") + got.get(i).policyName() + "): " : "",
                    got.get(i), o.lastSeed() - o.firstSeed() + 1);
        }
        return got;
    }

    private void reportSkipped(String who, PolicyResults<?> c, long seedCount) {
        List<String> parts = new ArrayList<>();
        int n = 0;
        for (Skip k : Skip.values()) {
            var all = c.skipped(k);
            if (all.isEmpty()) continue;
            n += all.size();
            parts.add(all.size() + " " + k.label + (all.size() == 1 ? "" : "s") + " (first: seed " + all.get(0).seed() + ": "
                    + CompilerProbe.firstLine(all.get(0).message()) + ")"
                    + (k == Skip.TIMEOUT && all.size() > 1 ? ", seeds " + seedList(all) : ""));
        }
        if (n > 0) err.println("yarpj: " + who + n + " of " + seedCount + " seeds skipped: " + String.join("; ", parts));
        err.flush();
    }

    /** The seeds of some skipped results: compile timeouts are hogs worth a look, so each is named (up to {@link #LISTED_SEEDS}). */
    private static String seedList(List<? extends SeedResult.Skipped<?>> skipped) {
        List<String> seeds = new ArrayList<>();
        for (int i = 0; i < Math.min(LISTED_SEEDS, skipped.size()); i++) seeds.add(Long.toString(skipped.get(i).seed()));
        return String.join(", ", seeds) + (skipped.size() > LISTED_SEEDS ? ", ..." : "");
    }

    static final int LISTED_SEEDS = 20;

    private void print(StatsReport report) {
        print(o.format(), report, out);
    }

    /** Prints {@code report} to {@code out} in {@code format}. */
    static void print(Format format, StatsReport report, PrintWriter out) {
        switch (format) {
            case TABLE -> new TablePrinter(out).print(report);
            case CSV -> new CsvPrinter(out).print(report);
            case JSON -> new JsonPrinter(out).print(report);
        }
    }
}
