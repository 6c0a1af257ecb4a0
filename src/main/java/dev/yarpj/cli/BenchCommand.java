package dev.yarpj.cli;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.interp.UndefinedBehaviorException;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.stats.Distribution;
import dev.yarpj.stats.ProgramShape;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Measures generation speed in one thread, without writing files: programs per second,
 * func lines per second and the share of time in each stage. A warm-up pass over other
 * seeds runs first, so the figures are for a long-running campaign, not JVM start-up.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {"Measure generation speed (one thread, no file output); with --bugs, how fast each generator's programs expose the"
            + " known bugs.",
            "--bugs: for each open bug of the record (or those named) whose smallest configuration runs here, every generator of"
            + " --generators walks the same seeds from --seed, built at that configuration alone, run as the record says (emulator,"
            + " vector length, freedoms) and judged against the reference of its target. The generators take turns of --chunk"
            + " seeds on the same cores; on each bug the one with the least CPU so far goes next, so each gets about the same CPU."
            + " The triage lane labels every finding: the bug itself, another bug, or not labelled yet. Prints per bug and"
            + " generator: tests, dropped tests, CPU, exposures (tests with a finding of the bug), other bugs, unlabelled findings,"
            + " exposures per CPU-hour, CPU to the first exposure and the lane's CPU; also OUT/table.txt. The same command goes on"
            + " where it stopped; OUT/bench.json keeps the settings and refuses others, but --tests may grow and --generators take"
            + " in another generator, which walks the same seeds and takes the turns until it has had the others' CPU."})
final class BenchCommand implements Callable<Integer> {
    @Option(names = "--bugs", arity = "0..1", fallbackValue = "", paramLabel = "ID,ID",
            description = "Benchmark of known bugs: every open one of the record, or those named (their directories in known-bugs).")
    String bugs;

    @Option(names = "--generators", paramLabel = "G,G", defaultValue = "yarpj,csmith", split = ",",
            description = "With --bugs: the generators, in the order of their turns (default: ${DEFAULT-VALUE}; yarpgen needs --yarpgen).")
    java.util.List<String> generators;

    @Option(names = "--yarpgen", paramLabel = "PATH", description = "With --bugs: the YARPGen v2 binary of the generator yarpgen.")
    Path yarpgen;

    @Option(names = "--tests", paramLabel = "N", defaultValue = "100", description = "With --bugs: seeds per bug and generator (default: ${DEFAULT-VALUE}).")
    int tests;

    @Option(names = "--chunk", paramLabel = "N", defaultValue = "4", description = "With --bugs: seeds a generator runs in its turn (default: ${DEFAULT-VALUE}).")
    int chunk;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "With --bugs: tests run at once (default: number of cores).")
    Integer jobs;

    @Option(names = "--duration", paramLabel = "TIME", description = "With --bugs: start no turn after TIME (30m, 2h); run again to go on.")
    String duration;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-bugs", description = "With --bugs: where the campaigns and the table go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--known-bugs", paramLabel = "DIR", description = "With --bugs: the record (default: known-bugs of yarpj).")
    Path knownBugs;

    @Option(names = "--table", description = "With --bugs: print the table of what OUT holds now, and run nothing.")
    boolean tableOnly;

    @Option(names = "--compile-timeout", paramLabel = "CPU-SECONDS", defaultValue = "60", description = "With --bugs: as yarpj fuzz's (default: ${DEFAULT-VALUE}).")
    double compileTimeout;

    @Option(names = "--run-timeout", paramLabel = "SECONDS", defaultValue = "10", description = "With --bugs: as yarpj fuzz's (default: ${DEFAULT-VALUE}).")
    double runTimeout;

    @Option(names = "--lang", defaultValue = "c", description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    GenCommand.Lang lang;

    @Option(names = "--seed", defaultValue = "1", description = "First seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--count", defaultValue = "2000", description = "Tests to time (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--warmup", defaultValue = "300", description = "Tests generated first and not timed (default: ${DEFAULT-VALUE}).")
    int warmup;

    @CommandLine.Mixin
    PolicyOption policy;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (bugs != null) return benchBugs();
        if (count < 1 || warmup < 0) throw new Main.UsageError("--count must be at least 1 and --warmup not negative");
        GenPolicy genPolicy = policy.load();
        run(new Generator(genPolicy, lang.language, CheckMode.HASH), seed + 1_000_000_000L, warmup, false);
        Generator gen = new Generator(genPolicy, lang.language, CheckMode.HASH);
        long start = System.nanoTime();
        long[] totals = run(gen, seed, count, true);
        double secs = (System.nanoTime() - start) / 1e9;
        var out = spec.commandLine().getOut();
        out.printf("tests: %d (%d rejected), func lines: %d, seconds: %.2f%n", count, totals[1], totals[0], secs);
        out.printf("programs/s: %.1f%nfunc lines/s: %.0f%n", (count - totals[1]) / secs, totals[0] / secs);
        long[] ns = gen.stageNanos();
        long all = 0;
        for (long n : ns) all += n;
        for (int i = 0; i < ns.length; i++) {
            out.printf("  %-10s %5.1f%%%n", Generator.STAGES.get(i), 100.0 * ns[i] / Math.max(1, all));
        }
        out.println("variety over the timed tests:");
        out.println("  func lines:              " + lines.summary());
        out.println("  deepest loop nesting:    " + depth.histogram());
        out.println("  loops per program:       " + loops.summary());
        out.println("  statements per loop body: " + bodies.summary());
        return totals[1] > 0 ? 1 : 0;
    }

    private int benchBugs() throws Exception {
        var err = spec.commandLine().getErr();
        var w = spec.commandLine().getOut();
        if (tests < 1 || chunk < 1) throw new Main.UsageError("--tests and --chunk must be at least 1");
        if (jobs != null && jobs < 1) throw new Main.UsageError("-j must be at least 1");
        if (!(compileTimeout > 0 && runTimeout > 0)) throw new Main.UsageError("timeouts must be positive numbers of seconds");
        for (String g : generators) {
            if (!dev.yarpj.source.TestSources.names().contains(g)) {
                throw new Main.UsageError("--generators: unknown generator " + g + " (known: " + String.join(", ", dev.yarpj.source.TestSources.names()) + ")");
            }
        }
        if (generators.contains("yarpgen") && yarpgen == null) throw new Main.UsageError("--generators yarpgen needs --yarpgen PATH");
        Double seconds = duration == null ? null : FuzzCommand.parseDuration("--duration", duration);
        java.util.Set<String> ids = bugs.isBlank() ? null : new java.util.LinkedHashSet<>(java.util.List.of(bugs.split(",")));
        var bench = new dev.yarpj.bench.KnownBugBench(new dev.yarpj.bench.KnownBugBench.Options(out, FuzzCommand.home(),
                FuzzCommand.knownBugs(knownBugs, true), ids, java.util.List.copyOf(generators), yarpgen == null ? null : yarpgen.toAbsolutePath().toString(),
                policy.load(), policy.file, tests, seed, jobs != null ? jobs : Runtime.getRuntime().availableProcessors(), chunk, seconds, compileTimeout, runTimeout));
        try {
            var subjects = bench.subjects();
            for (var s : subjects) {
                w.println(s.skipped() == null ? "bug " + s.id() + ": " + String.join(" ", s.testbed().compiler(s.lang())) + " "
                        + String.join(" ", s.testbed().flags()) + (s.testbed().emulated() ? " under " + String.join(" ", s.testbed().run()) : "")
                        : "bug " + s.id() + ": not run: " + s.skipped());
            }
            w.flush();
            if (subjects.stream().allMatch(s -> s.skipped() != null)) throw new Main.UsageError("no bug asked for runs here");
            var cells = tableOnly ? bench.cells(subjects.stream().filter(s -> s.skipped() == null).toList(), bench.triageCpu()) : bench.run(err);
            var table = dev.yarpj.bench.KnownBugBench.table(cells);
            java.nio.file.Files.write(out.resolve("table.txt"), table);
            table.forEach(w::println);
            w.flush();
            return 0;
        } catch (dev.yarpj.bench.KnownBugBench.BenchException | dev.yarpj.harness.HarnessException e) {
            throw new Main.UsageError(e.getMessage());
        }
    }

    private final Distribution lines = new Distribution();
    private final Distribution depth = new Distribution();
    private final Distribution loops = new Distribution();
    private final Distribution bodies = new Distribution();

    /** Returns {func lines, rejected}; records variety of the tests when {@code record} is set. */
    private long[] run(Generator gen, long first, int n, boolean record) {
        long total = 0;
        long rejected = 0;
        for (long s = first; s < first + n; s++) {
            try {
                GeneratedTest t = gen.generate(s, "bench");
                total += t.funcLines();
                if (record) {
                    ProgramShape shape = ProgramShape.of(t.program());
                    lines.add(t.funcLines());
                    depth.add(shape.maxLoopDepth());
                    loops.add(shape.loops());
                    bodies.addAll(shape.stmtsPerLoopBody());
                }
            } catch (UndefinedBehaviorException e) {
                rejected++;
            }
        }
        return new long[] {total, rejected};
    }
}
