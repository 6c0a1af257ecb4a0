package dev.yarpj.harness;

import dev.yarpj.lower.CFamilyLowerer;
import dev.yarpj.lower.Language;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
    private final Outcome kind;
    /** The language whose files are built, as the CLI names it, and the reference's compiler for its driver. */
    private final String lang;
    private final String reference;
    private final List<String> emulator;
    /** The buggy testbed's commands: the driver's build, then compile, link and run (only the compile for a crash or hang). */
    private final List<List<String>> commands;
    private final String crashText;
    private final double buildLimit;
    private final double slowAfter;
    private final double runLimit;

    public Replay(Finding finding, double buildLimit, double slowAfter) throws IOException {
        this(finding.kind(), finding.commands(), finding.lang(), finding.reference(), finding.emulator(),
                finding.kind() == Outcome.COMPILER_CRASH ? finding.crashMessage() : null, buildLimit, slowAfter);
        if (commands.isEmpty()) throw new Finding.Unreadable("the finding records no commands to replay: " + finding.dir());
    }

    private Replay(Outcome kind, List<List<String>> commands, String lang, String reference, List<String> emulator, String crashText,
                   double buildLimit, double slowAfter) {
        this.kind = kind;
        this.commands = commands;
        this.lang = lang;
        this.reference = reference;
        this.emulator = emulator;
        this.crashText = crashText;
        this.buildLimit = buildLimit;
        this.slowAfter = slowAfter;
        this.runLimit = 10.0 * (emulator.isEmpty() ? 1 : Testbed.EMULATION_SLOWDOWN);
    }

    /** Why a finding's builds have no counterpart in another language; the message is one line. */
    public static final class NoCounterpart extends RuntimeException {
        NoCounterpart(String m) {
            super(m, null, false, false);
        }
    }

    /**
     * The finding's builds for the same program lowered to {@code other}: the buggy compiler's
     * sibling for that language (gcc-16 for g++-16, clang++ for clang, a wrapper script as it
     * is) with the buggy compile's flags on {@code other}'s C or C++ file (an ISPC test's C++
     * twin, a SYCL test's C++ lowering), the driver and the -O0 guard built by the reference's
     * sibling. A triage clue: a symptom that follows the program into C and C++ is the
     * optimizer's, not a front end's.
     *
     * @throws NoCounterpart when the buggy compiler builds its own language only (ispc, a SYCL
     *                       compiler's SYCL) or a sibling is not installed
     */
    public Replay inLanguage(Language other) {
        List<String> buggy = buggyCompile();
        String source = sourceOf(buggy);
        if (source == null || source.endsWith(".ispc") || lang.equals("sycl") && source.equals("func.cpp")) {
            throw new NoCounterpart(buggy.get(0) + " builds " + lang + " only");
        }
        Language c = other.driverLanguage();
        String compiler = sibling(buggy.get(0), c);
        String ref = sibling(reference, c);
        for (String cc : List.of(compiler, ref)) if (!Testbeds.onPath(cc)) throw new NoCounterpart(cc + " is not installed");
        List<String> compile = new ArrayList<>(withoutFiles(buggy));
        compile.set(0, compiler);
        compile.addAll(sourcesOf(buggy, cSource(other.cliName()), c.extension));
        compile.addAll(List.of("-o", "func-other.o"));
        List<String> driver = List.of(ref, "-O0", "-w", "-c", "driver." + c.extension, "-o", "driver.o");
        List<String> run = new ArrayList<>(emulator);
        run.add("./test-other");
        // As the harness records them: a crash or hang ends with its compile, a run with link and run.
        List<List<String>> cmds = kind == Outcome.COMPILER_CRASH || kind == Outcome.COMPILE_HANG ? List.of(driver, List.copyOf(compile))
                : List.of(driver, List.copyOf(compile), List.of(ref, "driver.o", "func-other.o", "-o", "test-other", Testbed.MATH_LIBRARY), List.copyOf(run));
        return new Replay(kind, cmds, other.cliName(), ref, emulator, crashText, buildLimit, slowAfter);
    }

    /** This replay's buggy compile as one would type it: compiler, flags and the test file it compiles (no output). */
    public String buggyCompileText() {
        return String.join(" ", withoutFiles(buggyCompile())) + " " + sourceOf(buggyCompile());
    }

    /** A compile command without its test file, output, {@code -c} and {@code -w}. */
    private static List<String> withoutFiles(List<String> cmd) {
        return Finding.withoutFiles(cmd, sourceOf(cmd));
    }

    /** The test file a compile command compiles ({@code func.*} or {@code func_ref.cpp}), or null. */
    private static String sourceOf(List<String> cmd) {
        return cmd.stream().filter(a -> a.startsWith("func.") || a.equals("func_ref.cpp")).findFirst().orElse(null);
    }

    /**
     * The compiler of {@code driverLang} (C or C++) beside {@code compiler}, by its name: gcc and
     * g++, clang and clang++, cc and c++, with their prefixes, suffixes and directory; a
     * name of neither kind (a wrapper script) compiles both.
     */
    static String sibling(String compiler, Language driverLang) {
        int slash = compiler.lastIndexOf('/');
        String dir = compiler.substring(0, slash + 1);
        String name = compiler.substring(slash + 1);
        boolean cpp = driverLang == Language.CPP;
        String[][] pairs = {{"clang", "clang++"}, {"gcc", "g++"}};
        for (String[] pair : pairs) {
            int at = name.lastIndexOf(pair[1]);
            if (at >= 0) return cpp ? compiler : dir + name.substring(0, at) + pair[0] + name.substring(at + pair[1].length());
            at = name.lastIndexOf(pair[0]);
            if (at >= 0) return !cpp ? compiler : dir + name.substring(0, at) + pair[1] + name.substring(at + pair[0].length());
        }
        if (name.equals("c++") || name.equals("cc")) return dir + (cpp ? "c++" : "cc");
        return compiler;
    }

    /** What the compilers did with one test. */
    public enum Verdict { SHOWS, GONE, NOT_BUILT }

    /** A verdict and, for {@link Verdict#NOT_BUILT}, the step that failed and its first error line. */
    public record Judgement(Verdict verdict, String why) {
        static final Judgement SHOWS = new Judgement(Verdict.SHOWS, "");
        static final Judgement GONE = new Judgement(Verdict.GONE, "");

        static Judgement of(boolean shows) {
            return shows ? SHOWS : GONE;
        }

        static Judgement notBuilt(List<String> cmd, ProcessRunner.Result r) {
            String line = r.timedOut() ? "still running at the limit" : Signature.firstErrorLine(r.stderr());
            return new Judgement(Verdict.NOT_BUILT, String.join(" ", cmd) + ": " + line);
        }
    }

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
        return judge(files, expected, compile).verdict();
    }

    /** As {@link #check(Map, String)}, saying which build failed when none could show the symptom. */
    public Judgement judge(Map<String, String> files, String expected) throws IOException {
        return judge(files, expected, buggyCompile());
    }

    private Judgement judge(Map<String, String> files, String expected, List<String> compile) throws IOException {
        Path work = Files.createTempDirectory("yarpj-ir-");
        try {
            for (Map.Entry<String, String> f : files.entrySet()) Files.writeString(work.resolve(f.getKey()), f.getValue());
            for (List<String> cmd : commands) {
                for (String a : cmd) if (Finding.isSecondFile(a) && !files.containsKey(a)) Files.writeString(work.resolve(a), NO_HELPERS);
            }
            return switch (kind) {
                case WRONG_CODE, RUNTIME_CRASH -> runs(work, expected, compile);
                case COMPILER_CRASH -> {
                    ProcessRunner.Result r = step(work, "compile", compile, buildLimit);
                    if (r.ok()) yield Judgement.GONE;
                    yield !r.timedOut() && Signature.withoutAddresses(r.stderr()).contains(crashText) ? Judgement.SHOWS : Judgement.notBuilt(compile, r);
                }
                case COMPILE_HANG -> {
                    // By CPU time, as the campaign's recheck judges: the reducer builds candidates side by side,
                    // and on a loaded machine a compile waits as well as works, which a wall-clock limit would
                    // count. A compile that uses no CPU (one blocked for good) still ends at the wall-clock limit.
                    ProcessRunner.Result r = ProcessRunner.run(work, "compile", compile, cpuBound(slowAfter));
                    if (!r.pastTimeLimit(slowAfter)) yield r.ok() ? Judgement.GONE : Judgement.notBuilt(compile, r);
                    ProcessRunner.Result ref = ProcessRunner.run(work, "reference", referenceCompile(), cpuBound(slowAfter));
                    yield ref.ok() ? Judgement.SHOWS : Judgement.notBuilt(referenceCompile(), ref);
                }
                default -> throw new Finding.Unreadable("no symptom to replay for a " + kind.dir + " finding");
            };
        } finally {
            ScratchDir.delete(work);
        }
    }

    private Judgement runs(Path work, String expected, List<String> compile) throws IOException {
        int n = commands.size();
        for (int i = 0; i < n - 1; i++) {
            List<String> cmd = i == n - 3 ? compile : commands.get(i);
            ProcessRunner.Result r = step(work, "step" + i, cmd, buildLimit);
            if (!r.ok()) return Judgement.notBuilt(cmd, r);
        }
        ProcessRunner.Result run = step(work, "run", commands.get(n - 1), runLimit);
        if (run.timedOut()) return Judgement.GONE;
        boolean shows = kind == Outcome.WRONG_CODE ? run.ok() && !run.stdout().strip().equals(expected)
                : !run.ok() && run.exitCode() != 126 && run.exitCode() != 127;
        if (!shows) return Judgement.GONE;
        // The reference at -O0 must agree with the prediction, with the same driver object.
        ProcessRunner.Result rc = step(work, "refcompile", referenceCompile(), buildLimit);
        if (!rc.ok()) return Judgement.notBuilt(referenceCompile(), rc);
        List<String> link = new ArrayList<>(List.of(reference, "driver.o", "func-ref.o", "-o", "test-ref", Testbed.MATH_LIBRARY));
        ProcessRunner.Result rl = step(work, "reflink", link, buildLimit);
        if (!rl.ok()) return Judgement.notBuilt(link, rl);
        List<String> exec = new ArrayList<>(emulator);
        exec.add("./test-ref");
        ProcessRunner.Result ref = step(work, "refrun", exec, runLimit);
        return Judgement.of(ref.ok() && ref.stdout().strip().equals(expected));
    }

    /**
     * The reference compiler at -O0 on the plain C or C++ file of the test (ISPC's and SYCL's
     * C++ twin), with its second file when the buggy compile has one.
     */
    private List<String> referenceCompile() {
        List<String> cmd = new ArrayList<>(List.of(reference, "-O0"));
        cmd.addAll(sourcesOf(buggyCompile(), cSource(lang), lang.equals("c") ? "c" : "cpp"));
        cmd.addAll(List.of("-o", "func-ref.o"));
        return cmd;
    }

    /**
     * How a compile names {@code source}, as {@code buggy} names its own: {@code -w -c source},
     * or with a second file {@code -w -r source helpers.EXT} (both into one object).
     */
    private static List<String> sourcesOf(List<String> buggy, String source, String ext) {
        return buggy.stream().anyMatch(Finding::isSecondFile) ? List.of("-w", "-r", source, CFamilyLowerer.HELPERS + ext)
                : List.of("-w", "-c", source);
    }

    /**
     * A second file for a test that has none left (the IR reducer inlined or dropped every
     * extern helper) where a command compiles one: a translation unit with nothing in it.
     */
    static final String NO_HELPERS = "/* no extern helpers left */\ntypedef int yarpj_no_helpers;\n";

    /** The plain C or C++ file of a test in {@code lang}: ISPC's C++ twin, SYCL's C++ lowering. */
    private static String cSource(String lang) {
        return switch (lang) {
            case "c" -> "func.c";
            case "sycl" -> "func_ref.cpp";
            default -> "func.cpp";
        };
    }

    /** {@code cpuSeconds} of CPU time, and a wall-clock limit that leaves room for waiting on a loaded machine. */
    private static ProcessRunner.Limits cpuBound(double cpuSeconds) {
        return new ProcessRunner.Limits(HANG_WALL_FACTOR * cpuSeconds, cpuSeconds, 4096, 1024);
    }

    /** How many times its CPU limit a hang's compile may take in wall-clock time (see {@link #cpuBound}). */
    public static final int HANG_WALL_FACTOR = 4;

    private static ProcessRunner.Result step(Path work, String name, List<String> cmd, double limit) throws IOException {
        return ProcessRunner.run(work, name, cmd, new ProcessRunner.Limits(limit, 4096, 1024));
    }
}
