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
        description = "Measure generation speed (one thread, no file output).")
final class BenchCommand implements Callable<Integer> {
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
    public Integer call() {
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
