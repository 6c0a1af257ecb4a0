package dev.yarpj.reduce;

import dev.yarpj.harness.Finding;
import dev.yarpj.harness.Outcome;
import dev.yarpj.harness.ProcessRunner;
import dev.yarpj.harness.ProgramFile;
import dev.yarpj.harness.Testbed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reduces a saved finding with C-Vise. The test's files are merged into one translation
 * unit (C-Vise reduces one file), and an interestingness test keeps a candidate only if it
 * still shows the symptom and is free of UB. The symptom is checked first, since most
 * candidates lose it and it needs only the builds it needs: for wrong code, the buggy
 * testbed's build must print something other than the reference build; for a compiler
 * crash, the buggy compile must fail with the same message; for a compile hang, the buggy
 * compile must still time out while the reference compiles quickly; for a runtime crash,
 * the buggy build must still crash. Then every UB check: no warning that signals UB or
 * nonsense (nor an array of unknown size defined), clean runs under UBSan and ASan built
 * by gcc and by clang at -O0, the same output whatever fills fresh locals, and for wrong
 * code a reference output equal to the sanitized one.
 */
public final class Reducer {
    /**
     * @param slowAfterSeconds for a compile hang: a candidate is kept while the buggy compile is
     *                         still running after this long, and only if the reference compiles
     *                         it within this long. It bounds each try, so it is much shorter
     *                         than the harness's hang limit: a hang that C-Vise keeps is slow
     *                         at any length, and a try that waited for the full limit would
     *                         make reduction crawl.
     * @param maxCandidates    how many candidates each phase may test, 0 for no limit: a budget
     *                         that, unlike {@code budgetSeconds}, buys the same reduction on a busy
     *                         machine as on an idle one (the time budget then only backs it up)
     */
    public record Options(double budgetSeconds, int jobs, String cvise, double slowAfterSeconds, Phases phases, int maxCandidates) {
        public static final double DEFAULT_SLOW_AFTER = 10;

        public Options(double budgetSeconds, int jobs, String cvise) {
            this(budgetSeconds, jobs, cvise, DEFAULT_SLOW_AFTER, Phases.TEXT);
        }

        public Options(double budgetSeconds, int jobs, String cvise, double slowAfterSeconds) {
            this(budgetSeconds, jobs, cvise, slowAfterSeconds, Phases.TEXT);
        }

        public Options(double budgetSeconds, int jobs, String cvise, double slowAfterSeconds, Phases phases) {
            this(budgetSeconds, jobs, cvise, slowAfterSeconds, phases, 0);
        }

        /** The same options with a budget of {@code n} candidates per phase. */
        public Options withMaxCandidates(int n) {
            return new Options(budgetSeconds, jobs, cvise, slowAfterSeconds, phases, n);
        }
    }

    /** Which phases run: the IR phase then C-Vise (C and C++; ISPC and SYCL have the IR phase only), one of them alone. */
    public enum Phases { BOTH, IR, TEXT }

    /**
     * @param ir      what the IR phase did, or null if it did not run
     * @param irNote  why the IR phase did not run, or null
     * @param text    what C-Vise did, or null if it did not run
     */
    public record Reduction(IrReducer.Result ir, String irNote, Result text) {}

    public record Result(Path reduced, int linesBefore, int linesAfter, double seconds, int accepted) {}

    /**
     * Reduces a finding: first in yarpj's IR ({@link IrReducer}), from its saved program
     * ({@code program.json.gz}) or, for a finding saved before programs were, the program
     * its seed gives today if that lowers to the finding's files; then, for C and C++, with
     * C-Vise on what the IR phase left, for the rest of the budget.
     */
    public static Reduction reduceAll(Path finding, Options opt) throws IOException, InterruptedException {
        Finding f;
        try {
            f = Finding.read(finding);
        } catch (Finding.Unreadable e) {
            throw new ReduceException(e.getMessage());
        }
        if (opt.budgetSeconds() < 1) throw new ReduceException("the time budget must be at least 1 s");
        if (opt.slowAfterSeconds() < 1) throw new ReduceException("--slow-after must be at least 1 s");
        if (opt.maxCandidates() < 0) throw new ReduceException("the candidate budget must not be negative");
        checkKind(f);
        boolean textPossible = f.lang().equals("c") || f.lang().equals("cpp");
        if (opt.phases() == Phases.TEXT) {
            if (!textPossible) throw new ReduceException(f.lang().toUpperCase() + " findings reduce in the IR only: drop --text-only");
            return new Reduction(null, "not asked for", reduce(finding, opt));
        }
        if (!f.fromYarpj()) {
            // Another generator's program has no IR: C-Vise alone, with the same interestingness test (which rejects UB).
            if (opt.phases() == Phases.IR) throw new ReduceException(f.generator() + "'s programs have no IR to reduce: drop --ir-only");
            return new Reduction(null, f.generator() + "'s programs have no IR: C-Vise alone", reduce(finding, opt));
        }
        long t0 = System.nanoTime();
        IrReducer.Result ir = null;
        String note = null;
        try {
            ProgramFile saved = ProgramSource.load(f);
            ir = IrReducer.reduce(f, saved, Files.createDirectories(finding.resolve("reduced")).resolve("ir"), opt.budgetSeconds(),
                    opt.slowAfterSeconds(), opt.jobs(), opt.maxCandidates());
        } catch (ReduceException | Finding.Unreadable e) {
            if (!textPossible || opt.phases() == Phases.IR) throw new ReduceException(e.getMessage());
            note = e.getMessage();
        }
        if (!textPossible || opt.phases() == Phases.IR) return new Reduction(ir, note, null);
        double left = opt.budgetSeconds() - (System.nanoTime() - t0) / 1e9;
        if (left < 30) return new Reduction(ir, note, null);
        Options rest = new Options(left, opt.jobs(), opt.cvise(), opt.slowAfterSeconds(), Phases.TEXT, opt.maxCandidates());
        return new Reduction(ir, note, reduce(finding, rest, ir == null ? null : ir.dir()));
    }

    /** A finding that cannot be reduced; the message is one line. */
    public static final class ReduceException extends RuntimeException {
        public ReduceException(String m) {
            super(m, null, false, false);
        }
    }

    private Reducer() {}

    public static Result reduce(Path finding, Options opt) throws IOException, InterruptedException {
        return reduce(finding, opt, null);
    }

    /**
     * Removes a merged file that does not pass the interestingness test (its {@code .orig}
     * stays, to look at): triage takes {@code reduced/merged.*} as the smallest test there is,
     * and would refuse a finding whose IR phase's result shows the symptom.
     */
    private static void discard(Path merged) throws IOException {
        Files.deleteIfExists(merged);
    }

    /** C-Vise on the finding's test, or on the test in {@code from} (the IR phase's result) if not null. */
    public static Result reduce(Path finding, Options opt, Path from) throws IOException, InterruptedException {
        Finding f;
        List<String> buggy;
        try {
            f = Finding.read(finding);
            checkReducible(f);
            buggy = f.compileCommand();
        } catch (Finding.Unreadable e) {
            throw new ReduceException(e.getMessage());
        }
        if (opt.budgetSeconds() < 1) throw new ReduceException("the time budget must be at least 1 s");
        if (opt.slowAfterSeconds() < 1) throw new ReduceException("--slow-after must be at least 1 s");
        Outcome kind = f.kind();
        String ext = f.ext();
        String reference = f.reference();
        Path dir = Files.createDirectories(finding.resolve("reduced"));
        String file = "merged." + ext;
        String merged = from == null ? f.merged() : Finding.merge(from, ext);
        Files.writeString(dir.resolve(file), merged);
        Files.writeString(dir.resolve(file + ".orig"), merged);
        Path log = dir.resolve("accepted.log");
        Files.deleteIfExists(log);
        String crashText;
        try {
            crashText = kind == Outcome.COMPILER_CRASH ? f.crashMessage() : null;
        } catch (Finding.Unreadable e) {
            throw new ReduceException(e.getMessage());
        }
        Path script = dir.resolve("interesting.sh");
        Path limits = dir.resolve("warning-limits.txt");
        long slowAfter = (long) Math.ceil(opt.slowAfterSeconds());
        long buildLimit = buildLimit(kind, buggy, file, merged);
        long candidateLimit = CANDIDATE_BUILDS * buildLimit + slowAfter + 60;
        Files.writeString(script, InterestingnessTest.script(kind, ext, file, buggy, reference, crashText, slowAfter, buildLimit,
                log, limits, f.emulator()));
        script.toFile().setExecutable(true);

        // What the original has of warnings that are not harmless: no candidate may have more.
        int crc = runScriptOn(script, file, merged, 2 * buildLimit + 60, "--calibrate");
        if (crc != 0) {
            // clang 14 refuses _Float16 on x86-64 (floats: p_half); the IR phase's result stands without C-Vise.
            String half = merged.contains("_Float16") ? " (it has _Float16, which needs clang 15 or newer as clang)" : "";
            discard(dir.resolve(file));
            throw new ReduceException("the merged test does not compile with gcc and clang" + half + "; see " + script);
        }

        // The symptom must show on the merged file before anything is cut away.
        int rc = runScriptOn(script, file, merged, candidateLimit);
        if (rc != 0) {
            discard(dir.resolve(file));
            throw new ReduceException("the merged test is not interesting (interestingness test exit " + rc
                    + "): the symptom does not show on one file, or it is not sanitizer-clean; see " + script);
        }
        Files.deleteIfExists(log);

        long start = System.nanoTime();
        // bash records the pid of timeout(1), which it then becomes: the candidate budget stops C-Vise through it.
        Path budget = dir.resolve("candidates");
        Files.deleteIfExists(budget);
        List<String> cmd = new ArrayList<>(List.of("bash", "-c", "echo $$ > \"$0.pid\" && exec \"$@\"", budget.toAbsolutePath().toString(),
                "timeout", "--signal=INT", "--kill-after=30",
                Long.toString((long) Math.ceil(opt.budgetSeconds())), opt.cvise(), "--n", Integer.toString(opt.jobs()),
                "--timeout", Long.toString(candidateLimit)));
        cmd.add(script.toAbsolutePath().toString());
        cmd.add(file);
        Path cviseLog = dir.resolve("cvise.log");
        Map<String, String> env = opt.maxCandidates() == 0 ? Map.of()
                : Map.of(InterestingnessTest.BUDGET_FILE, budget.toAbsolutePath().toString(),
                        InterestingnessTest.BUDGET, Integer.toString(opt.maxCandidates()),
                        InterestingnessTest.HARD_LIMIT, Integer.toString(hardLimit(opt)));
        // timeout(1) stops C-Vise at the budget (or when the candidate budget is spent) and kills it 30 s later;
        // the runner's own limit is a last resort.
        ProcessRunner.capture(dir, cmd, env, Math.ceil(opt.budgetSeconds()) + 120, cviseLog);
        // Each candidate C-Vise ran counted one; those past the budget were refused untested while C-Vise stopped.
        int counted = Files.exists(budget) ? (int) Files.size(budget) : -1;
        int tested = counted < 0 ? -1 : Math.min(counted, opt.maxCandidates());
        int pastBudget = Math.max(0, counted - opt.maxCandidates());
        for (String suffix : List.of("", ".pid", ".lock")) Files.deleteIfExists(budget.resolveSibling(budget.getFileName() + suffix));
        double secs = (System.nanoTime() - start) / 1e9;
        String reduced = Files.readString(dir.resolve(file));
        // Whatever C-Vise left must still pass the test (it keeps only accepted candidates).
        int verdict = runScriptOn(script, file, reduced, candidateLimit);
        if (verdict != 0) {
            discard(dir.resolve(file));
            throw new ReduceException("the reduced file no longer passes the interestingness test; see " + cviseLog);
        }
        int accepted = Files.exists(log) ? Files.readAllLines(log).size() : 0;
        Result r = new Result(dir.resolve(file), lines(merged), lines(reduced), secs, accepted);
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("lines_before", r.linesBefore());
        info.put("lines_after", r.linesAfter());
        info.put("seconds", Math.round(secs));
        info.put("accepted_candidates", accepted);
        if (tested >= 0) info.put("tested_candidates", tested);
        if (opt.maxCandidates() > 0) {
            info.put("candidate_budget", opt.maxCandidates());
            info.put("refused_past_budget", pastBudget);
        }
        info.put("buggy_command", String.join(" ", buggy) + " " + file);
        info.put("reference_command", reference + " -O0 " + file);
        Files.writeString(dir.resolve("reduce.json"), dev.yarpj.harness.JsonFiles.write(info) + "\n");
        Files.writeString(dir.resolve("README.txt"), "Reduced from " + r.linesBefore() + " to " + r.linesAfter() + " lines in "
                + Math.round(secs) + " s.\nSee the bug:\n  " + String.join(" ", buggy) + " -w " + file
                + " -o bug " + Testbed.MATH_LIBRARY + " && ./bug\n  " + reference + " -O0 -w " + file + " -o ref " + Testbed.MATH_LIBRARY + " && ./ref\n"
                + "interesting.sh is the test every kept candidate passed (sanitizer-clean, same symptom).\n");
        return r;
    }

    /**
     * The count of candidates past which C-Vise is ended with SIGTERM, not asked to stop with
     * SIGINT: the budget, the candidates each job had started when the first refusal came, and
     * as many again for a SIGINT that takes a moment to land.
     */
    static int hardLimit(Options opt) {
        return opt.maxCandidates() + 2 * opt.jobs() + 2;
    }

    /** Builds the interestingness test may run on one candidate: warnings (2), symptom (2), sanitizers (2), auto-var-init (2). */
    private static final int CANDIDATE_BUILDS = 8;

    /**
     * Seconds each build of the interestingness test may take: three times what the buggy
     * build of the original takes, and at least 120. The merged file of a test of thousands
     * of lines can take minutes at the buggy flags; candidates only get smaller. A compile
     * hang's original is not timed.
     */
    private static long buildLimit(Outcome kind, List<String> buggy, String file, String merged) throws IOException, InterruptedException {
        if (kind == Outcome.COMPILE_HANG) return 120;
        List<String> cmd = new ArrayList<>(buggy);
        cmd.addAll(List.of("-w", file, "-o", "bug.bin", Testbed.MATH_LIBRARY));
        long t0 = System.nanoTime();
        runOn(file, merged, cmd, 1800);
        return Math.max(120, (long) Math.ceil(3 * (System.nanoTime() - t0) / 1e9));
    }

    /** Refuses, in one line, kinds without an interestingness test and findings without a buggy testbed. */
    private static void checkKind(Finding f) {
        if (!REDUCIBLE.contains(f.kind())) {
            throw new ReduceException("cannot reduce a " + f.kind().dir + " finding ("
                    + String.join(", ", REDUCIBLE.stream().map(k -> k.dir).toList()) + " can be)");
        }
        if (!f.hasBuggyTestbed()) throw new ReduceException("this finding has no buggy testbed to reduce against");
    }

    /**
     * Refuses, in one line, a finding this reducer cannot reduce: ISPC and SYCL ones (C-Vise's
     * passes and the UB checks of the interestingness test are written for C and C++), kinds
     * without an interestingness test, and findings without a buggy testbed.
     */
    private static void checkReducible(Finding f) {
        if (f.lang().equals("ispc")) {
            throw new ReduceException("C-Vise reduces C and C++ findings; an ISPC finding reduces in the IR only");
        }
        if (f.lang().equals("sycl")) {
            // The sanitizer builds of the interestingness test need a plain C++ program; a SYCL
            // test's func_ref.cpp is one, but the buggy compiler sees only func.cpp.
            throw new ReduceException("C-Vise reduces C and C++ findings; a SYCL finding reduces in the IR only");
        }
        checkKind(f);
    }

    /** The kinds of finding the interestingness test knows the symptom of. */
    private static final List<Outcome> REDUCIBLE = List.of(Outcome.WRONG_CODE, Outcome.COMPILER_CRASH, Outcome.COMPILE_HANG,
            Outcome.RUNTIME_CRASH);

    private static int lines(String s) {
        return (int) s.lines().count();
    }

    /** Runs the interestingness script (with {@code args}) on {@code content} as {@code file}. */
    private static int runScriptOn(Path script, String file, String content, long timeoutS, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(script.toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        return runOn(file, content, cmd, timeoutS);
    }

    /** Runs {@code cmd} in a fresh directory of its own that holds {@code content} as {@code file}. */
    private static int runOn(String file, String content, List<String> cmd, long timeoutS) throws IOException, InterruptedException {
        Path work = Files.createTempDirectory("yarpj-reduce-");
        try {
            Files.writeString(work.resolve(file), content);
            return run(cmd, work, timeoutS);
        } finally {
            dev.yarpj.harness.ScratchDir.delete(work);
        }
    }

    private static int run(List<String> cmd, Path dir, long timeoutS) throws IOException {
        return ProcessRunner.capture(dir, cmd, Map.of(), timeoutS, null).exitCode();
    }
}
