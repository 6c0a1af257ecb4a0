package dev.yarpj.cli;

import dev.yarpj.harness.FindingLock;
import dev.yarpj.harness.Testbeds;
import dev.yarpj.reduce.Reducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "reduce", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {
            "Reduce a finding saved by 'yarpj fuzz', in two phases.",
            "The IR phase cuts statements, ifs, loop levels and expressions from the",
            "finding's program (program.json.gz, saved with it); each candidate is run",
            "by the interpreter first (UB never reaches a compiler), then built by the",
            "buggy testbed alone against the prediction. It writes FINDING/reduced/ir/:",
            "the test's files, edits.json (the edits, in order), ir-reduce.json,",
            "progress.log, and as-<lang>/ (the program in the other languages, each",
            "built as the buggy testbed built it by its compiler's C or C++ sibling,",
            "g++ for gcc say: whether the symptom shows there too is printed).",
            "Then, for C and C++, C-Vise on what is left for the rest of the budget:",
            "FINDING/reduced/merged.<ext>, merged.<ext>.orig, interesting.sh (the test",
            "every kept candidate passed: sanitizer-clean with gcc and clang, same",
            "symptom), reduce.json and README.txt. ISPC and SYCL reduce in the IR only.",
            "More in docs/guide.md (reduce)."})
final class ReduceCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FINDING", description = "A finding directory: results/<kind>/<signature>/<seed>.")
    Path finding;

    @Option(names = "--budget", paramLabel = "TIME", defaultValue = "30m", description = "Time budget, e.g. 90s, 10m, 1h (default: ${DEFAULT-VALUE}).")
    String budget;

    @Option(names = "--candidates", paramLabel = "N", defaultValue = "0",
            description = "Test at most N candidates in each phase (default: no limit). Unlike --budget, it buys the"
                    + " same reduction on a busy machine as on an idle one; --budget still bounds the time.")
    int candidates;

    @Option(names = "--slow-after", paramLabel = "TIME",
            description = {"For a compile hang: a candidate is kept while the buggy compile still runs after this much",
                "CPU time, and only if the reference compiler builds it within it (default: the CPU time that made the",
                "finding a compile-time outlier, its bar, rounded up; 10s for a finding that does not say).",
                "A compile that uses no CPU is stopped after four times this long."})
    String slowAfter;

    /** The slow-after of a finding that says what made it an outlier (meta.json's outlier_from_cpu_s), else 10 s. */
    static double defaultSlowAfter(Path finding) {
        try {
            Object bar = dev.yarpj.harness.Finding.read(finding).meta().get("outlier_from_cpu_s");
            // An outlier that finished in 7 CPU-s past a bar of 3.5 never reached 10: a reduction waiting for 10 kept nothing.
            if (bar instanceof Number n && n.doubleValue() > 0) return Math.max(1, Math.ceil(n.doubleValue()));
        } catch (RuntimeException | java.io.IOException e) {
            // the reduction says what is wrong with the finding
        }
        return 10;
    }

    @Option(names = "--ir-only", description = "Only the IR phase (no C-Vise).")
    boolean irOnly;

    @Option(names = "--text-only", description = "Only C-Vise (C and C++), as before the IR phase existed.")
    boolean textOnly;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Candidates tested at once (default: number of cores).")
    Integer jobs;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(finding)) throw new Main.UsageError("not a directory: " + finding);
        if (irOnly && textOnly) throw new Main.UsageError("--ir-only and --text-only exclude each other");
        Reducer.Phases phases = irOnly ? Reducer.Phases.IR : textOnly ? Reducer.Phases.TEXT : Reducer.Phases.BOTH;
        java.io.PrintWriter out = spec.commandLine().getOut();
        if (phases != Reducer.Phases.IR && !Testbeds.onPath("cvise")) {
            if (phases == Reducer.Phases.TEXT) throw new Main.UsageError("cvise is not installed (run scripts/setup.sh, or apt-get install cvise)");
            out.println("cvise is not installed (run scripts/setup.sh): the IR phase only");
            phases = Reducer.Phases.IR;
        }
        int n = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        if (n < 1) throw new Main.UsageError("-j must be at least 1");
        if (candidates < 0) throw new Main.UsageError("--candidates must not be negative");
        Reducer.Reduction r;
        try (FindingLock lock = Main.lock(finding, FindingLock.REDUCE)) {
            r = Reducer.reduceAll(finding, new Reducer.Options(FuzzCommand.parseDuration("--budget", budget), n, "cvise",
                    slowAfter != null ? FuzzCommand.parseDuration("--slow-after", slowAfter) : defaultSlowAfter(finding), phases, candidates));
        } catch (Reducer.ReduceException e) {
            throw new Main.UsageError(e.getMessage());
        }
        if (r.ir() != null) {
            var ir = r.ir();
            out.printf("IR phase: func %d -> %d lines in %.0f s (%d edits kept of %d candidates built; %d refused by the interpreter, "
                    + "never compiled): %s%n", ir.linesBefore(), ir.linesAfter(), ir.seconds(), ir.accepted(), ir.built(), ir.refusedUb(), ir.dir());
            ir.otherLanguages().forEach((lang, verdict) -> out.printf("  the reduced program in %s: %s%n", lang, verdict));
        } else if (r.irNote() != null && phases != Reducer.Phases.TEXT) {
            out.println("IR phase skipped: " + r.irNote());
        }
        if (r.text() != null) {
            Reducer.Result t = r.text();
            out.printf("C-Vise: %d -> %d lines in %.0f s (%d candidates accepted, each sanitizer-clean): %s%n",
                    t.linesBefore(), t.linesAfter(), t.seconds(), t.accepted(), t.reduced());
        }
        return 0;
    }
}
