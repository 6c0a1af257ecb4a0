package dev.yarpj.reduce;

import dev.yarpj.gen.Recipe;
import dev.yarpj.harness.Finding;
import dev.yarpj.harness.Replay;
import dev.yarpj.harness.JsonFiles;
import dev.yarpj.harness.ProgramFile;
import dev.yarpj.harness.ProgramJson;
import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.Language;
import dev.yarpj.lower.LoweredTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The IR phase of {@code yarpj reduce}: shrinks a finding's program by {@link Edit}s to the
 * program itself, each candidate interpreted first (a candidate with UB, or that the
 * interpreter cannot run, is never handed to a compiler) and lowered by the finding's recipe,
 * then built and run by the buggy testbed alone against the interpreter's prediction
 * ({@link Replay}). Edits go from big to small: statements deleted in chunks (the biggest
 * first: half the body, a quarter, ... one statement), unused globals dropped, ifs unwrapped,
 * braces dropped, nests of a sequence and outer or inner loop levels dropped, loops run once
 * or half as often, expressions replaced by an operand or a constant, unused globals again,
 * helpers' struct parameters passed field by field, pointer parameters by value and the
 * parameters their bodies do not read dropped (a field leaves its struct only once no helper
 * takes the struct), arrays cut to fewer rows; rounds repeat until one changes nothing or the time is up. Each
 * candidate's planner draws are those of the program it came from, for what the edit left
 * alone ({@link Draws}).
 * Candidates are tried {@code jobs} at a time; of those that keep the symptom, the first in
 * order is taken, so the result depends on the compilers only, not on timing.
 */
public final class IrReducer {
    /**
     * @param program     the reduced program
     * @param edits       the edits that lead to it from the finding's program, in order
     * @param candidates  candidates made (edits that gave a program)
     * @param refusedUb   candidates the interpreter refused (UB, or a run it cannot predict): never compiled
     * @param refusedScope edits refused before interpretation (a local or an exit out of its scope)
     * @param built       candidates built and run
     * @param accepted    candidates kept
     * @param otherLanguages for each other language, whether the reduced program shows the symptom there too
     *                    ({@link #otherLanguages}: "shows it", "does not show it" or "not run: why"), with the build that said so
     */
    public record Result(Program program, List<Edit> edits, int linesBefore, int linesAfter, double seconds, int candidates,
                         int refusedUb, int refusedScope, int built, int accepted, Path dir, Map<String, String> otherLanguages) {}

    /** Seconds each build of the finding's own program may take. */
    private static final double FIRST_BUILD_LIMIT = 1800;

    /** The recipe of the program reduced so far: the finding's, its planner's draws kept with their statements ({@link Draws}). */
    private Recipe recipe;
    private final Replay symptom;
    private final int jobs;
    private final long deadline;
    /** How many candidates may be built, 0 for no limit: a budget that does not depend on the machine's load. */
    private final int maxBuilt;
    private final Set<String> tried = new HashSet<>();
    private int candidates;
    private int refusedUb;
    private int refusedScope;
    private int built;
    private final long started = System.nanoTime();
    /** Where each accepted edit is logged as it is found ({@code progress.log}). */
    private final Path log;

    private IrReducer(Recipe recipe, Replay symptom, int jobs, double budgetSeconds, int maxBuilt, Path log) {
        this.recipe = recipe;
        this.maxBuilt = maxBuilt;
        this.log = log;
        this.symptom = symptom;
        this.jobs = Math.max(1, jobs);
        this.deadline = System.nanoTime() + (long) (budgetSeconds * 1e9);
    }

    /**
     * Reduces the program of {@code finding}, saved as {@code saved}, writing the result to
     * {@code out}: the reduced test's files, {@code edits.json}, {@code program.json.gz} and
     * {@code ir-reduce.json}, and the same program in the other languages under {@code as-LANG/};
     * building at most {@code maxBuilt} candidates (0: no limit) within {@code budgetSeconds}.
     */
    public static Result reduce(Finding finding, ProgramFile saved, Path out, double budgetSeconds, double slowAfter, int jobs,
                                int maxBuilt) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Recipe recipe = saved.recipe();
        Program p = saved.program();
        Prediction pred = recipe.interpret(p);
        LoweredTest files = recipe.lower(p, pred);
        // The original's builds bound every candidate's: three times what they took, at least a minute.
        Replay first = new Replay(finding, FIRST_BUILD_LIMIT, slowAfter);
        if (first.check(files.files(), expected(pred)) != Replay.Verdict.SHOWS) {
            throw new Reducer.ReduceException("the finding's program, built again as its testbed built it, no longer shows "
                    + finding.kind().dir + " (a flaky symptom, or other compilers than the finding's)");
        }
        double took = (System.nanoTime() - start) / 1e9;
        Replay symptom = new Replay(finding, Math.max(60, 3 * took), slowAfter);
        Files.createDirectories(out);
        Files.deleteIfExists(out.resolve("progress.log"));
        IrReducer r = new IrReducer(recipe, symptom, jobs, budgetSeconds - took, maxBuilt, out.resolve("progress.log"));
        r.tried.add(key(files));
        List<Edit> edits = new ArrayList<>();
        Program reduced = r.run(p, edits);
        // The reduced test says what it is, not how to generate the seed's test, which it no longer is.
        Recipe reducedRecipe = r.recipe.withProvenance("Reduced by yarpj reduce from seed " + recipe.seed() + ": the edits in edits.json");
        Prediction rp = reducedRecipe.interpret(reduced);
        LoweredTest rf = reducedRecipe.lower(reduced, rp);
        double secs = (System.nanoTime() - start) / 1e9;
        Map<String, Map<String, String>> others = otherLanguages(symptom, reducedRecipe, reduced, out);
        Map<String, String> verdicts = new LinkedHashMap<>();
        others.forEach((l, m) -> verdicts.put(l, m.get("symptom") + (m.containsKey("built_by") ? " (" + m.get("built_by") + ")" : "")));
        Result res = new Result(reduced, List.copyOf(edits), funcLines(files), funcLines(rf), secs, r.candidates, r.refusedUb,
                r.refusedScope, r.built, edits.size(), out, verdicts);
        write(res, reducedRecipe, rf, expected(rp), others, out);
        return res;
    }

    /** An {@code edits.json}: where the edits apply, and each with what it does, for people. */
    private record EditsFile(String from, List<Entry> edits) {}

    private record Entry(Edit edit, String what) {}

    /** The edits an {@code edits.json} lists, in order. */
    public static List<Edit> readEdits(Path file) throws IOException {
        com.fasterxml.jackson.databind.JsonNode m = ProgramJson.readTree(Files.readString(file));
        if (m == null || !m.path("edits").isArray()) throw new Reducer.ReduceException("not an edits file: " + file);
        List<Edit> out = new ArrayList<>();
        try {
            for (com.fasterxml.jackson.databind.JsonNode e : m.get("edits")) out.add(ProgramJson.fromTree(e.get("edit"), Edit.class));
        } catch (ProgramJson.Malformed e) {
            throw new Reducer.ReduceException("cannot read " + file + ": " + e.getMessage());
        }
        return out;
    }

    /** Writes {@code edits} to {@code file} as {@link #readEdits} reads them, each with what it does. */
    static void writeEdits(List<Edit> edits, Path file) throws IOException {
        List<Entry> entries = edits.stream().map(e -> new Entry(e, e.describe())).toList();
        Files.writeString(file, ProgramJson.writePretty(new EditsFile("the program.json.gz of the finding", entries), EditsFile.class) + "\n");
    }

    /** The program the edits lead to from {@code p}, in order; null if one no longer applies. */
    public static Program replay(Program p, List<Edit> edits) {
        for (Edit e : edits) {
            p = Rewrite.apply(p, e);
            if (p == null) return null;
        }
        return p;
    }

    /** The program and recipe (the planner's draws kept with their statements) the edits lead to from {@code saved}; null if one no longer applies. */
    public static ProgramFile replay(ProgramFile saved, List<Edit> edits) {
        Program p = saved.program();
        Recipe r = saved.recipe();
        for (Edit e : edits) {
            Rewrite.Applied a = Rewrite.applied(p, e);
            if (a == null) return null;
            r = Draws.align(r, p, a);
            p = a.program();
        }
        return new ProgramFile(p, r);
    }

    private Program run(Program p, List<Edit> edits) throws IOException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(jobs);
        try {
            // 0. one input set: the planned one alone, else the planned one and the first other set that
            // still shows the symptom (each call of test() costs a run of every candidate after this).
            if (p.inputSets().size() > 1) {
                List<Edit> keep = new ArrayList<>();
                for (int k = 0; k < p.inputSets().size(); k++) keep.add(new Edit.KeepInputSet(k));
                Accepted a = firstThatShows(p, keep, pool);
                if (a != null) {
                    accept(a, edits);
                    p = a.program;
                }
            }
            boolean progress = true;
            while (progress && timeLeft()) {
                progress = false;
                // 1. statements, in chunks, the biggest first over all blocks (half the body before a whole
                // inner block of three); after a chunk goes, the pass goes on with chunks no bigger, and
                // starts again from the biggest once it has tried them all.
                int bound = Integer.MAX_VALUE;
                boolean changed = false;
                while (timeLeft()) {
                    Accepted a = firstThatShows(p, deletions(Rewrite.inventory(p), bound), pool);
                    if (a == null) {
                        if (bound == Integer.MAX_VALUE || !changed) break;
                        bound = Integer.MAX_VALUE;
                        changed = false;
                        continue;
                    }
                    Edit.DeleteStmts d = (Edit.DeleteStmts) a.edit;
                    bound = d.to() - d.from();
                    changed = true;
                    accept(a, edits);
                    p = a.program;
                    progress = true;
                }
                // Then unused globals (one cheap candidate that often takes most of what deletions left:
                // the declarations), structure, expressions, and unused globals again. Numbers before an
                // accepted edit's own are the same in the program it leaves, and those candidates were
                // tried: the pass goes on from there.
                for (String phase : List.of("unused", "structure", "trips", "expressions", "unused", "helpers", "arrays")) {
                    int from = 0;
                    while (timeLeft()) {
                        Rewrite.Inventory inv = Rewrite.inventory(p);
                        List<Edit> cands = switch (phase) {
                            case "structure" -> structural(inv);
                            case "trips" -> trips(inv);
                            case "expressions" -> expressions(inv);
                            case "arrays" -> shrinks(p);
                            case "helpers" -> helperEdits(p);
                            default -> List.of(new Edit.DropUnused());
                        };
                        int start = from;
                        Accepted a = firstThatShows(p, cands.stream().filter(e -> e.at() >= start).toList(), pool);
                        if (a == null) break;
                        accept(a, edits);
                        p = a.program;
                        from = a.edit.at();
                        progress = true;
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return p;
    }

    /** Keeps an accepted edit, and logs it with the size of the test it leaves and the time. */
    private void accept(Accepted a, List<Edit> edits) throws IOException {
        edits.add(a.edit);
        recipe = a.recipe;
        Files.writeString(log, String.format(java.util.Locale.ROOT, "%7.1f s  %5d func lines  %s%n",
                (System.nanoTime() - started) / 1e9, funcLines(a.files), a.edit.describe()), java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    private boolean timeLeft() {
        return System.nanoTime() < deadline && (maxBuilt == 0 || built < maxBuilt);
    }

    /**
     * Deletions of chunks of every block no bigger than {@code bound} statements: each block cut in
     * halves, quarters, ... down to single statements (and whole), the biggest chunks first, in
     * program order among chunks of one size.
     */
    static List<Edit> deletions(Rewrite.Inventory inv, int bound) {
        List<Edit.DeleteStmts> out = new ArrayList<>();
        for (int b = 0; b < inv.blockSizes().size(); b++) {
            int k = inv.blockSizes().get(b);
            int last = -1;
            for (int level = 0; k > 0; level++) {
                int chunk = Math.max(1, (int) Math.ceil(k / Math.pow(2, level)));
                if (chunk != last && chunk <= bound) {
                    for (int from = 0; from < k; from += chunk) out.add(new Edit.DeleteStmts(b, from, Math.min(k, from + chunk)));
                }
                if (chunk == 1) break;
                last = chunk;
            }
        }
        // Stable: program order among chunks of one size.
        out.sort(java.util.Comparator.comparingInt((Edit.DeleteStmts d) -> d.to() - d.from()).reversed());
        return List.copyOf(out);
    }

    static List<Edit> structural(Rewrite.Inventory inv) {
        List<Edit> out = new ArrayList<>();
        for (int n = 0; n < inv.stmts().size(); n++) {
            Stmt s = inv.stmts().get(n);
            if (s instanceof Stmt.If i) {
                out.add(new Edit.UnwrapIf(n, true));
                out.add(new Edit.UnwrapIf(n, false));
            } else if (s instanceof Stmt.Switch w) {
                for (int k = 0; k <= w.cases().size(); k++) out.add(new Edit.UnwrapSwitch(n, k));
                for (int k = 0; k < w.cases().size(); k++) out.add(new Edit.DropCase(n, k));
            } else if (s instanceof Stmt.LoopSeq q) {
                for (int k = 0; k < q.nests().size(); k++) out.add(new Edit.DropNest(n, k));
            }
            Stmt.LoopNest nest = Rewrite.soleNest(s);
            if (nest != null) out.add(new Edit.DropLevel(n));
            if (nest != null && nest.depth() > 1) out.add(new Edit.DropInnermost(n));
            if (s instanceof Stmt.Block) out.add(new Edit.Unblock(n));
        }
        return out;
    }

    /**
     * Each while or do-while spelt as a for loop, without its header exit; each loop run once,
     * or half its trips: where its start and step are known and a constant bound stops it there.
     */
    static List<Edit> trips(Rewrite.Inventory inv) {
        List<Edit> out = new ArrayList<>();
        for (int k = 0; k < inv.loops().size(); k++) {
            dev.yarpj.ir.LoopHead h = inv.loops().get(k);
            if (h.form() != dev.yarpj.ir.LoopHead.Form.FOR) out.add(new Edit.ToFor(k));
            for (long t : new java.util.TreeSet<>(List.of(1L, Math.max(1, h.trip() / 2)))) {
                if (Rewrite.lowerTrip(h, t) != null) out.add(new Edit.LowerTrip(k, t));
            }
        }
        return out;
    }

    /**
     * Each array of more than one row cut to one row, or half its rows (an access to a row cut
     * away is refused by the interpreter); a field of an array of structs taken out of it
     * first (its rows are its struct's).
     */
    static List<Edit> shrinks(Program p) {
        List<Edit> out = new ArrayList<>();
        for (dev.yarpj.ir.ArrayVar a : Rewrite.allArrays(p)) {
            if (a.field() != null) {
                out.add(new Edit.Unfield(a.slot()));
                continue;
            }
            int rows = a.dims().get(0);
            if (rows < 2 || a.passing() instanceof dev.yarpj.ir.ArrayVar.Passing.View) continue;
            for (int k : new java.util.TreeSet<>(List.of(1, (rows + 1) / 2))) if (k < rows) out.add(new Edit.ShrinkArray(a.slot(), k));
        }
        out.sort(java.util.Comparator.comparingInt(Edit::at));
        return out;
    }

    /**
     * For each helper: its struct parameters passed field by field, its pointer parameters by
     * value, each parameter its body does not read dropped, and each field of the struct it
     * returns that no call reads.
     */
    static List<Edit> helperEdits(Program p) {
        List<Edit> out = new ArrayList<>();
        for (int k = 0; k < p.helpers().size(); k++) {
            dev.yarpj.ir.Helper h = p.helpers().get(k);
            if (!h.structParams().isEmpty()) out.add(new Edit.Unstruct(k));
            if (h.params().stream().anyMatch(dev.yarpj.ir.ScalarVar::byPointer)) out.add(new Edit.Unpoint(k));
            for (int i = 0; i < h.params().size(); i++) out.add(new Edit.DropParam(k, i));
            // From the last field down: dropping one renumbers those after it.
            if (h.returnsStruct()) for (int f = h.results().size() - 1; f >= 0; f--) out.add(new Edit.DropResult(k, f));
        }
        return out;
    }

    static List<Edit> expressions(Rewrite.Inventory inv) {
        List<Edit> out = new ArrayList<>();
        for (int n = 0; n < inv.exprs().size(); n++) {
            Expr e = inv.exprs().get(n);
            if (e instanceof Expr.Const c) {
                long one = c.type().isFloat() ? dev.yarpj.ir.FloatArith.bits(1) : 1;
                if (c.value() != 0) out.add(new Edit.ToConst(n, 0));
                if (c.value() != 0 && c.value() != one) out.add(new Edit.ToConst(n, 1));
                continue;
            }
            out.add(new Edit.ToConst(n, 0));
            out.add(new Edit.ToConst(n, 1));
            if (e instanceof Expr.HelperCall) out.add(new Edit.InlineCall(n));
            List<Expr> ops = Rewrite.operands(e);
            for (int k = 0; k < ops.size(); k++) out.add(new Edit.ToOperand(n, k));
        }
        return out;
    }

    private record Accepted(Edit edit, Program program, Recipe recipe, LoweredTest files) {}

    private record Candidate(Edit edit, Program program, Recipe recipe, LoweredTest files, String expected) {}

    /** The first of {@code edits} (in order) whose program keeps the symptom, trying {@code jobs} at once; null if none. */
    private Accepted firstThatShows(Program p, List<Edit> edits, ExecutorService pool) throws IOException, InterruptedException {
        List<Candidate> window = new ArrayList<>();
        for (Edit e : edits) {
            if (!timeLeft()) return null;
            Candidate c = candidate(p, e);
            if (c == null) continue;
            window.add(c);
            if (window.size() == jobs) {
                Accepted a = tryAll(window, pool);
                if (a != null) return a;
                window.clear();
            }
        }
        return window.isEmpty() ? null : tryAll(window, pool);
    }

    /** The candidate an edit makes, or null: refused, or a program already tried. */
    private Candidate candidate(Program p, Edit e) {
        Rewrite.Applied applied = Rewrite.applied(p, e);
        if (applied == null) {
            refusedScope++;
            return null;
        }
        Program q = applied.program();
        Recipe rq = Draws.align(recipe, p, applied);
        candidates++;
        Prediction pred;
        try {
            pred = rq.interpret(q);
        } catch (RuntimeException ex) {
            // UB (UndefinedBehaviorException), or a run the interpreter cannot finish (a step limit, a refused exit): not a test.
            refusedUb++;
            return null;
        }
        LoweredTest files = rq.lower(q, pred);
        if (!tried.add(key(files))) return null;
        return new Candidate(e, q, rq, files, expected(pred));
    }

    private Accepted tryAll(List<Candidate> window, ExecutorService pool) throws InterruptedException, IOException {
        List<Future<Replay.Verdict>> verdicts = new ArrayList<>();
        for (Candidate c : window) verdicts.add(pool.submit(() -> symptom.check(c.files.files(), c.expected)));
        built += window.size();
        Accepted first = null;
        for (int i = 0; i < window.size(); i++) {
            Replay.Verdict v;
            try {
                v = verdicts.get(i).get();
            } catch (java.util.concurrent.ExecutionException ex) {
                if (ex.getCause() instanceof IOException io) throw io;
                throw new IllegalStateException(ex.getCause());
            }
            if (first == null && v == Replay.Verdict.SHOWS) first = new Accepted(window.get(i).edit, window.get(i).program, window.get(i).recipe, window.get(i).files);
        }
        return first;
    }

    private static String expected(Prediction pred) {
        return pred.expectedOutput();
    }

    private static String key(LoweredTest files) {
        return String.join("\u0000", files.files().values());
    }

    private static int funcLines(LoweredTest files) {
        String func = files.files().values().iterator().next();
        return (int) func.lines().count();
    }

    private static void write(Result r, Recipe recipe, LoweredTest files, String expected, Map<String, Map<String, String>> others, Path out) throws IOException {
        for (Map.Entry<String, String> f : files.files().entrySet()) Files.writeString(out.resolve(f.getKey()), f.getValue());
        Files.writeString(out.resolve("expected.txt"), expected + "\n");
        new ProgramFile(r.program(), recipe).write(out.resolve(ProgramFile.NAME));
        writeEdits(r.edits(), out.resolve("edits.json"));
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("func_lines_before", r.linesBefore());
        info.put("func_lines_after", r.linesAfter());
        info.put("seconds", Math.round(r.seconds()));
        info.put("candidates", r.candidates());
        info.put("refused_by_interpreter", r.refusedUb());
        info.put("refused_out_of_scope", r.refusedScope());
        info.put("built", r.built());
        info.put("accepted", r.accepted());
        info.put("built_per_second", r.seconds() > 0 ? r.built() / r.seconds() : 0.0);
        info.put("other_languages", others);
        Files.writeString(out.resolve("ir-reduce.json"), JsonFiles.writePretty(info) + "\n");
    }

    /**
     * The reduced program in each other language, written to {@code as-LANG/}, and whether it
     * shows the symptom there too when built as the finding's testbed built it, by the buggy
     * compiler's sibling for that language ({@link Replay#inLanguage}): for each language, the
     * directory ({@code files}), the build ({@code built_by}) and the verdict ({@code symptom}).
     */
    private static Map<String, Map<String, String>> otherLanguages(Replay symptom, Recipe recipe, Program p, Path out) throws IOException {
        Map<String, Map<String, String>> others = new LinkedHashMap<>();
        for (Language l : Language.values()) {
            if (l == recipe.lang()) continue;
            Map<String, String> m = new LinkedHashMap<>();
            others.put(l.cliName(), m);
            Recipe as = recipe.in(l);
            LoweredTest t;
            Prediction pred;
            try {
                pred = as.interpret(p);
                t = as.lower(p, pred);
            } catch (RuntimeException ex) {
                m.put("symptom", "not run: not printed in " + l.cliName() + ": " + ex.getMessage());
                continue;
            }
            Path d = Files.createDirectories(out.resolve("as-" + l.cliName()));
            for (Map.Entry<String, String> f : t.files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            m.put("files", "as-" + l.cliName());
            try {
                Replay there = symptom.inLanguage(l);
                m.put("built_by", there.buggyCompileText());
                Replay.Judgement j = there.judge(t.files(), expected(pred));
                m.put("symptom", switch (j.verdict()) {
                    case SHOWS -> "shows it";
                    case GONE -> "does not show it";
                    case NOT_BUILT -> "not built: " + j.why();
                });
            } catch (Replay.NoCounterpart ex) {
                m.put("symptom", "not run: " + ex.getMessage());
            }
        }
        return others;
    }
}
