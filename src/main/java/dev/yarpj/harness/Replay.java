package dev.yarpj.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Whether a test still shows a finding's symptom, judged by the builds the harness ran for
 * the finding (its recorded commands, replayed on the test's files, the buggy compile
 * possibly with other flags) against the test's expected output: for reduction, the
 * interpreter's prediction for a candidate (no reference build needed to know what it must
 * print); for triage, the same test built with other levels or targets. Wrong code and
 * runtime crashes count only if, besides, the reference compiler at -O0 builds a program
 * that prints the expected output: a guard against an edit the interpreter judges
 * differently from C.
 */
public final class Replay {
    private final Finding finding;
    private final Outcome kind;
    /** The buggy testbed's commands: the driver's build, then compile, link and run (only the compile for a crash or hang). */
    private final List<List<String>> commands;
    private final String crashText;
    private final double buildLimit;
    private final double slowAfter;
    private final double runLimit;

    public Replay(Finding finding, double buildLimit, double slowAfter) throws IOException {
        this.finding = finding;
        this.kind = finding.kind();
        this.commands = finding.commands();
        if (commands.isEmpty()) throw new Finding.Unreadable("the finding records no commands to replay: " + finding.dir());
        this.crashText = kind == Outcome.COMPILER_CRASH ? finding.crashMessage() : null;
        this.buildLimit = buildLimit;
        this.slowAfter = slowAfter;
        this.runLimit = 10.0 * (finding.emulator().isEmpty() ? 1 : Testbed.EMULATION_SLOWDOWN);
    }

    /** What the compilers did with one test. */
    public enum Verdict { SHOWS, GONE }

    /** The buggy compile as recorded: the last command of a crash or hang, else the one before link and run. */
    public List<String> buggyCompile() {
        return commands.get(kind == Outcome.COMPILER_CRASH || kind == Outcome.COMPILE_HANG ? commands.size() - 1 : commands.size() - 3);
    }

    /** Builds and runs {@code files} (name to text) as the finding's testbed did; {@code expected} is the expected output. */
    public Verdict check(Map<String, String> files, String expected) throws IOException {
        return check(files, expected, buggyCompile());
    }

    /** As {@link #check(Map, String)}, with {@code compile} for the buggy compile. */
    public Verdict check(Map<String, String> files, String expected, List<String> compile) throws IOException {
        Path work = Files.createTempDirectory("yarpj-ir-");
        try {
            for (Map.Entry<String, String> f : files.entrySet()) Files.writeString(work.resolve(f.getKey()), f.getValue());
            return switch (kind) {
                case WRONG_CODE, RUNTIME_CRASH -> runs(work, expected, compile);
                case COMPILER_CRASH -> {
                    ProcessRunner.Result r = step(work, "compile", compile, buildLimit);
                    yield !r.timedOut() && !r.ok() && r.stderr().contains(crashText) ? Verdict.SHOWS : Verdict.GONE;
                }
                case COMPILE_HANG -> {
                    ProcessRunner.Result r = step(work, "compile", compile, slowAfter);
                    if (!r.timedOut()) yield Verdict.GONE;
                    ProcessRunner.Result ref = step(work, "reference", referenceCompile(), slowAfter);
                    yield ref.ok() ? Verdict.SHOWS : Verdict.GONE;
                }
                default -> throw new Finding.Unreadable("no symptom to replay for a " + kind.dir + " finding");
            };
        } finally {
            try (Stream<Path> s = Files.walk(work)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private Verdict runs(Path work, String expected, List<String> compile) throws IOException {
        int n = commands.size();
        for (int i = 0; i < n - 1; i++) {
            List<String> cmd = i == n - 3 ? compile : commands.get(i);
            if (!step(work, "step" + i, cmd, buildLimit).ok()) return Verdict.GONE;
        }
        ProcessRunner.Result run = step(work, "run", commands.get(n - 1), runLimit);
        if (run.timedOut()) return Verdict.GONE;
        boolean shows = kind == Outcome.WRONG_CODE ? run.ok() && !run.stdout().strip().equals(expected)
                : !run.ok() && run.exitCode() != 126 && run.exitCode() != 127;
        if (!shows) return Verdict.GONE;
        // The reference at -O0 must agree with the prediction, with the same driver object.
        if (!step(work, "refcompile", referenceCompile(), buildLimit).ok()) return Verdict.GONE;
        List<String> link = new ArrayList<>(List.of(finding.reference(), "driver.o", "func-ref.o", "-o", "test-ref"));
        if (!step(work, "reflink", link, buildLimit).ok()) return Verdict.GONE;
        List<String> exec = new ArrayList<>(finding.emulator());
        exec.add("./test-ref");
        ProcessRunner.Result ref = step(work, "refrun", exec, runLimit);
        return ref.ok() && ref.stdout().strip().equals(expected) ? Verdict.SHOWS : Verdict.GONE;
    }

    /** The reference compiler at -O0 on the plain C or C++ file of the test (ISPC's and SYCL's C++ twin). */
    private List<String> referenceCompile() {
        String source = switch (finding.lang()) {
            case "c" -> "func.c";
            case "sycl" -> "func_ref.cpp";
            default -> "func.cpp";
        };
        return List.of(finding.reference(), "-O0", "-w", "-c", source, "-o", "func-ref.o");
    }

    private static ProcessRunner.Result step(Path work, String name, List<String> cmd, double limit) throws IOException {
        return ProcessRunner.run(work, name, cmd, new ProcessRunner.Limits(limit, 4096, 1024));
    }
}
