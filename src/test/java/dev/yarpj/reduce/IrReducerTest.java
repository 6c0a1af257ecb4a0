package dev.yarpj.reduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.harness.Finding;
import dev.yarpj.harness.Replay;
import dev.yarpj.harness.ProgramFile;
import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.Prediction;
import dev.yarpj.interp.UndefinedBehaviorException;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.VarType;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The IR phase of reduction on findings planted by fake compilers that add one to the
 * constants of the test function: each is cut down to a few statements that the fake still
 * miscompiles, the edits replay to the same program, and UB never reaches a compiler.
 */
class IrReducerTest {
    static final Path FAKES = Path.of("src/test/resources/fake-compilers").toAbsolutePath();
    /**
     * The IR phase runs to its fixed point, which takes the same candidates on a busy machine as
     * on an idle one; its time budget is only a backstop, far beyond what a busy machine needs,
     * so that load never cuts a reduction short.
     */
    static final double BACKSTOP_S = 1800;
    /**
     * One candidate built at a time: the IR phase takes the first candidate in order that keeps the symptom, so more jobs
     * give the same reduction sooner, and build the candidates beside each one kept for nothing (a third of the builds).
     */
    static final int JOBS = 1;
    static final Path ISPC_FAKES = Path.of("src/test/resources/ispc-harness").toAbsolutePath();
    static final Path SYCL_FAKES = Path.of("src/test/resources/sycl-harness").toAbsolutePath();

    @Test
    void plantedWrongCodeInCIsReducedInTheIrToAFewStatements(@TempDir Path dir) throws Exception {
        reducesToAFewStatements(dir, "c", "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: fake, c: " + FAKES.resolve("miscompile.sh")
                + ", cpp: " + FAKES.resolve("miscompile.sh") + ", flags: [-O2]}\n");
    }

    @Test
    void plantedWrongCodeInCppIsReducedInTheIrToAFewStatements(@TempDir Path dir) throws Exception {
        Path finding = reducesToAFewStatements(dir, "cpp", "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: fake, c: "
                + FAKES.resolve("miscompile.sh") + ", cpp: " + FAKES.resolve("miscompile.sh") + ", flags: [-O2]}\n");
        // The fake miscompiles C's test() as it does C++'s: the reduced program, built in C by the same fake, shows it too.
        String json = Files.readString(finding.resolve("reduced/ir/ir-reduce.json"));
        assertTrue(json.matches("(?s).*\"c\": \\{\\s*\"files\": \"as-c\",\\s*\"built_by\": \"[^\"]*miscompile.sh -O2 func.c\",\\s*\"symptom\": \"shows it\".*"), json);
        // ISPC's C++ twin declares extern "C" void test(...), which the fake leaves alone: built right, no symptom.
        assertTrue(json.matches("(?s).*\"ispc\": \\{\\s*\"files\": \"as-ispc\",\\s*\"built_by\": \"[^\"]*\",\\s*\"symptom\": \"does not show it\".*"), json);
        assertTrue(Files.exists(finding.resolve("reduced/ir/as-c/func.c")) && Files.exists(finding.resolve("reduced/ir/as-sycl/func_ref.cpp")));
    }

    /** A crash keeps its message, and a hang its slowness with each try bounded: a single loop is left of each. */
    @Test
    void plantedCrashAndHangAreReducedInTheIrToOneLoop(@TempDir Path dir) throws Exception {
        // The hang's limit, 2 CPU-s, is ten times what gcc -O0 may take on the tiny test even on a busy machine.
        for (String fake : List.of("ice-on-loop", "hang-on-loop")) {
            String kind = fake.startsWith("ice") ? "compiler-crash" : "compile-hang";
            String peer = kind.equals("compile-hang") ? "  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n" : "";
            Path d = Files.createDirectories(dir.resolve(fake));
            Path finding = plant(d, "c", "reference: {c: gcc, cpp: g++}\ntestbeds:\n" + peer + "  - {name: fake, c: " + FAKES.resolve(fake + ".sh")
                    + ", cpp: " + FAKES.resolve(fake + ".sh") + ", flags: [-O2]}\n", kind, "--compile-timeout", "2", "--recheck-timeout", "1");
            IrReducer.Result ir = Reducer.reduceAll(finding, new Reducer.Options(BACKSTOP_S, JOBS, "cvise", 1, Reducer.Phases.IR)).ir();
            List<dev.yarpj.ir.Stmt> left = Rewrite.inventory(ir.program()).stmts();
            long loops = left.stream().mapToLong(st -> st instanceof dev.yarpj.ir.Stmt.LoopNest ? 1
                    : st instanceof dev.yarpj.ir.Stmt.LoopSeq q ? q.nests().size() : 0).sum();
            assertEquals(1, loops, fake + ": " + left);
            assertTrue(left.size() <= 3, fake + ": " + left);
        }
    }

    static Path reducesToAFewStatements(Path dir, String lang, String testbeds) throws Exception {
        Path finding = plant(dir, lang, testbeds, "wrong-code");
        ProgramFile saved = ProgramFile.read(finding.resolve(ProgramFile.NAME));
        int before = Rewrite.inventory(saved.program()).stmts().size();

        Reducer.Reduction r = Reducer.reduceAll(finding, new Reducer.Options(BACKSTOP_S, JOBS, "cvise", 10, Reducer.Phases.IR));
        IrReducer.Result ir = r.ir();
        assertNotNull(ir, String.valueOf(r.irNote()));
        int after = Rewrite.inventory(ir.program()).stmts().size();
        assertTrue(after <= 6 && after < before, lang + ": " + before + " statements became " + after + ":\n"
                + Files.readString(ir.dir().resolve("func." + (lang.equals("sycl") ? "cpp" : lang))));
        assertTrue(ir.accepted() > 0 && ir.built() >= ir.accepted());
        // A loop that does nothing cannot carry wrong code: none is left (in ISPC, deleting one used to re-plan the loops after it).
        List<Stmt.LoopNest> empty = emptyNests(ir.program());
        assertTrue(empty.isEmpty(), lang + ": empty loops left: " + empty);
        // The edits, replayed on the finding's program, give the reduced program, and it lowers to the files written.
        assertEquals(ir.program(), IrReducer.replay(saved.program(), ir.edits()));
        assertEquals(ir.edits(), IrReducer.readEdits(ir.dir().resolve("edits.json")));
        ProgramFile back = ProgramFile.read(ir.dir().resolve(ProgramFile.NAME));
        assertEquals(ir.program(), back.program());
        // The planner's draws replay too: the recipe the edits lead to is the one saved (its banner aside).
        ProgramFile replayed = IrReducer.replay(saved, ir.edits());
        assertEquals(back.recipe().tape().kinds(), replayed.recipe().tape().kinds());
        assertEquals(back.recipe().tape().values(), replayed.recipe().tape().values());
        // Independently of the reducer: the fake's build still differs from the reference's and from the prediction.
        String expected = back.recipe().interpret(back.program()).expectedOutput();
        Replay symptom = new Replay(Finding.read(finding), 120, 10);
        Path files = ir.dir();
        java.util.Map<String, String> texts = new java.util.LinkedHashMap<>();
        for (String f : back.recipe().lower(back.program(), back.recipe().interpret(back.program())).files().keySet()) {
            texts.put(f, Files.readString(files.resolve(f)));
        }
        assertEquals(Replay.Verdict.SHOWS, symptom.check(texts, expected));
        assertTrue(Files.exists(ir.dir().resolve("edits.json")) && Files.exists(ir.dir().resolve("ir-reduce.json")));
        assertEquals(expected, Files.readString(ir.dir().resolve("expected.txt")).strip());
        return finding;
    }

    /** The loop nests of {@code p} whose prefixes, suffixes and body hold no statement. */
    private static List<Stmt.LoopNest> emptyNests(Program p) {
        List<Stmt.LoopNest> nests = new java.util.ArrayList<>();
        for (Stmt s : Rewrite.inventory(p).stmts()) {
            if (s instanceof Stmt.LoopNest n) nests.add(n);
            if (s instanceof Stmt.LoopSeq q) nests.addAll(q.nests());
        }
        return nests.stream().filter(n -> n.blocksFrom(0).stream().allMatch(b -> ((Stmt.Block) b).stmts().isEmpty())).toList();
    }

    @Test
    void deletionsComeBiggestChunkFirstOverAllBlocks() {
        // Block 0 of 8 statements, block 1 of 3: 8, 4, 4, 3, 2 (x4), 2 (x2: 3 in halves is 2 + 1), 1 ...
        List<Edit> d = IrReducer.deletions(new Rewrite.Inventory(List.of(8, 3), List.of(), List.of()), Integer.MAX_VALUE);
        assertEquals(new Edit.DeleteStmts(0, 0, 8), d.get(0));
        assertEquals(new Edit.DeleteStmts(0, 0, 4), d.get(1));
        assertEquals(new Edit.DeleteStmts(1, 0, 3), d.get(3));
        for (int i = 1; i < d.size(); i++) assertTrue(size(d.get(i - 1)) >= size(d.get(i)), d.toString());
        assertEquals(8 + 3, d.stream().filter(e -> size(e) == 1).distinct().count(), "every statement alone, last");
        assertTrue(IrReducer.deletions(new Rewrite.Inventory(List.of(8, 3), List.of(), List.of()), 2).stream().allMatch(e -> size(e) <= 2));
    }

    private static int size(Edit e) {
        Edit.DeleteStmts d = (Edit.DeleteStmts) e;
        return d.to() - d.from();
    }

    // ---- a hand-made program: for (i = 0; i < 3; i++) { d += 1; a[i] = i; }  r = 12 / (d - 1); ----------------

    private static final ScalarVar D = new ScalarVar(0, "d", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
    private static final ScalarVar R = new ScalarVar(1, "r", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
    private static final Iterator I = new Iterator(2, "i", NumType.INT);
    private static final ArrayVar A = new ArrayVar(0, "a", VarType.uniform(NumType.INT), List.of(6), false, ArrayVar.Fill.uniform(0));

    private static Program counting(long trip) {
        Expr it = new Expr.IterRef(I);
        LoopHead h = new LoopHead(I, new Expr.Const(NumType.INT, 0), Exprs.binary(BinOp.LT, it, new Expr.Const(NumType.INT, 3)),
                Exprs.binary(BinOp.ADD, it, new Expr.Const(NumType.INT, 1)), trip, LoopHead.Parallelism.SERIAL);
        Stmt.LoopNest loop = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(h, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                new Stmt.Block(List.of(new Stmt.Assign(new Expr.ScalarRef(D), BinOp.ADD, new Expr.Const(NumType.INT, 1)),
                        new Stmt.Assign(Exprs.subscript(A, List.of(it)), null, it))));
        Stmt div = new Stmt.Assign(new Expr.ScalarRef(R), null, Exprs.binary(BinOp.DIV, new Expr.Const(NumType.INT, 12),
                Exprs.binary(BinOp.SUB, new Expr.ScalarRef(D), new Expr.Const(NumType.INT, 1))));
        return new Program(List.of(), List.of(D, R), List.of(), List.of(A), List.of(), new Stmt.Block(List.of(loop, div)), 3, 1);
    }

    private static Prediction run(Program p) {
        return Interpreter.run(p, 100_000, true, false);
    }

    @Test
    void aLoopRunsFewerTimesWithItsPlannedTripAndIsRefusedWhenThatWouldBeUb() {
        Program p = counting(3);
        assertEquals(List.of(new Edit.LowerTrip(0, 1)), IrReducer.trips(Rewrite.inventory(p)), "once, and half of 3 is 1");
        // Twice: the bound is 2, the plan says 2, and the interpreter, which checks the plan, agrees.
        Program twice = Rewrite.apply(p, new Edit.LowerTrip(0, 2));
        LoopHead h = Rewrite.inventory(twice).loops().get(0);
        assertEquals(2, h.trip());
        assertEquals(new Expr.Const(NumType.INT, 2), h.cond().rhs());
        Prediction pred = run(twice);
        assertEquals(2, pred.scalars().get(D.slot()));
        assertEquals(12, pred.scalars().get(R.slot()));
        assertEquals(2, pred.loops().get(0).iterations());
        // Once: d - 1 is 0, and 12 / 0 never reaches a compiler.
        Program once = Rewrite.apply(p, new Edit.LowerTrip(0, 1));
        UndefinedBehaviorException ub = org.junit.jupiter.api.Assertions.assertThrows(UndefinedBehaviorException.class, () -> run(once));
        assertTrue(ub.getMessage().startsWith("DIVISION_BY_ZERO"), ub.getMessage());
        // Not more than it runs, not zero times (a deletion), and a plan that would lie is refused by the interpreter.
        assertEquals(null, Rewrite.apply(p, new Edit.LowerTrip(0, 3)));
        assertEquals(null, Rewrite.apply(p, new Edit.LowerTrip(0, 0)));
        LoopHead lying = new LoopHead(h.iter(), h.start(), h.cond(), h.update(), 3, h.parallelism());
        Program lie = new Program(twice.inputs(), twice.outputs(), twice.inputArrays(), twice.outputArrays(), twice.params(),
                new Stmt.Block(List.of(new Stmt.LoopNest(List.of(new Stmt.LoopLevel(lying, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                        ((Stmt.LoopNest) twice.body().stmts().get(0)).body()), twice.body().stmts().get(1))), 3, 1);
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> run(lie)).getMessage()
                .contains("not its planned 3"));
        // A loop of unknown trip count runs fewer times as well, and stays unplanned.
        Program unknown = Rewrite.apply(counting(-1), new Edit.LowerTrip(0, 2));
        assertEquals(-1, Rewrite.inventory(unknown).loops().get(0).trip());
        assertEquals(2, run(unknown).loops().get(0).iterations());
    }

    /** {@link #counting}'s loop spelt as {@code form}, with header exit {@code guard}. */
    private static Program counting(LoopHead.Form form, Expr guard) {
        Program p = counting(3);
        Stmt.LoopNest n = (Stmt.LoopNest) p.body().stmts().get(0);
        Stmt.LoopLevel lv = n.levels().get(0);
        Stmt.LoopNest spelt = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(lv.head().withForm(form, guard), lv.prefix(), lv.suffix())), n.body());
        return new Program(p.inputs(), p.outputs(), p.inputArrays(), p.outputArrays(), p.params(),
                new Stmt.Block(List.of(spelt, p.body().stmts().get(1))), 3, 1);
    }

    @Test
    void aWhileOrDoWhileKeepsItsFormWhenItRunsFewerTimesAndAHeaderExitKeepsItsLevel() {
        Program doWhile = Rewrite.apply(counting(LoopHead.Form.DO_WHILE, null), new Edit.LowerTrip(0, 2));
        LoopHead h = Rewrite.inventory(doWhile).loops().get(0);
        assertEquals(LoopHead.Form.DO_WHILE, h.form());
        assertEquals(2, run(doWhile).loops().get(0).iterations());
        assertEquals(null, Rewrite.apply(counting(LoopHead.Form.DO_WHILE, null), new Edit.LowerTrip(0, 0)), "a do-while never runs zero times");
        // while (i < 3 && i != 2): the header exit stays with its loop, which a level drop would take away.
        Expr guard = Exprs.binary(BinOp.NE, new Expr.IterRef(I), new Expr.Const(NumType.INT, 2));
        Program guarded = counting(LoopHead.Form.WHILE, guard);
        assertEquals(2, run(guarded).loops().get(0).iterations());
        LoopHead lowered = Rewrite.inventory(Rewrite.apply(guarded, new Edit.LowerTrip(0, 2))).loops().get(0);
        assertEquals(guard, lowered.guard());
        assertEquals(null, Rewrite.apply(guarded, new Edit.DropLevel(0)), "the header exit belongs to the level");
        assertNotNull(Rewrite.apply(counting(LoopHead.Form.WHILE, null), new Edit.DropLevel(0)), "a while without one may go");
    }

    @Test
    void anArrayKeepsTheRowsItsAccessesReachAndNoFewer() {
        Program p = Rewrite.apply(counting(3), new Edit.LowerTrip(0, 2)); // a[0] and a[1] are written
        assertEquals(List.of(new Edit.ShrinkArray(0, 1), new Edit.ShrinkArray(0, 3)), IrReducer.shrinks(p));
        Program three = Rewrite.apply(p, new Edit.ShrinkArray(0, 3));
        assertEquals(List.of(3), three.outputArrays().get(0).dims());
        // Every subscript names the shrunk array: the program runs, its two rows as before.
        assertArrayEquals(new long[] {0, 1, 0}, run(three).arrays().get(0));
        Program one = Rewrite.apply(p, new Edit.ShrinkArray(0, 1));
        UndefinedBehaviorException oob = org.junit.jupiter.api.Assertions.assertThrows(UndefinedBehaviorException.class, () -> run(one));
        assertTrue(oob.getMessage().contains("out of bounds [0, 1) in a"), oob.getMessage());
        assertEquals(null, Rewrite.apply(p, new Edit.ShrinkArray(0, 6)), "not more rows than it has");
    }

    /**
     * The ISPC planner draws as it walks the program: deleting a loop must not hand its draws to
     * the loops after it (a foreach would become a serial loop). With the tape aligned, the test
     * of the edited program is the original without the loop's lines, for every loop deleted.
     */
    @Test
    void deletingALoopKeepsThePlansOfTheLoopsAfterIt() {
        int deleted = 0;
        int shiftedWithoutAlignment = 0;
        // Seeds 5 to 10: 41 loops deleted, in each seed some whose loops after them shift without the alignment. Seeds 2 to 4
        // hold programs that the interpreter takes seconds over at every lowering (two per deletion), which tripled the
        // test's time for 25 more deletions of the same kind.
        for (long seed = 5; seed <= 10; seed++) {
            GeneratedTest t = new Generator(GenPolicy.defaults(), Language.ISPC, CheckMode.HASH).generate(seed, "");
            Program p = t.program();
            List<String> before = funcLines(t.recipe(), p);
            List<dev.yarpj.ir.Stmt> top = p.body().stmts();
            List<Edit> edits = new java.util.ArrayList<>();
            for (int k = 0; k < top.size() - 1; k++) {
                if (top.get(k) instanceof Stmt.LoopNest || top.get(k) instanceof Stmt.LoopSeq) edits.add(new Edit.DeleteStmts(0, k, k + 1));
            }
            // A nest of a sequence, as well: its draws are the nest's, not the whole sequence's.
            List<dev.yarpj.ir.Stmt> all = Rewrite.inventory(p).stmts();
            for (int n = 0; n < all.size(); n++) {
                if (all.get(n) instanceof Stmt.LoopSeq q) for (int j = 0; j < q.nests().size() - 1; j++) edits.add(new Edit.DropNest(n, j));
            }
            for (Edit e : edits) {
                Rewrite.Applied a = Rewrite.applied(p, e);
                if (a == null) continue;
                List<String> aligned;
                try {
                    aligned = funcLines(Draws.align(t.recipe(), p, a), a.program());
                } catch (RuntimeException ub) {
                    continue; // the deletion leaves UB: not a candidate
                }
                assertTrue(subsequence(aligned, before), "seed " + seed + ", " + e.describe() + ":\n" + String.join("\n", aligned));
                assertTrue(aligned.size() < before.size());
                deleted++;
                if (!subsequence(funcLines(t.recipe(), a.program()), before)) shiftedWithoutAlignment++;
            }
        }
        assertTrue(deleted > 20, "loops deleted: " + deleted);
        assertTrue(shiftedWithoutAlignment > 0, "without the alignment, some deletion changes the plan of a loop after it");
    }

    private static List<String> funcLines(dev.yarpj.gen.Recipe r, Program p) {
        String func = r.lower(p, r.interpret(p)).files().values().iterator().next();
        // The partial results of parallel folds are numbered in the order they come: their names aside.
        return func.lines().filter(l -> !l.contains("yarpj")).map(l -> l.replaceAll("part_\\d+", "part_")).toList();
    }

    private static boolean subsequence(List<String> small, List<String> big) {
        int j = 0;
        for (String line : small) {
            while (j < big.size() && !big.get(j).equals(line)) j++;
            if (j++ >= big.size()) return false;
        }
        return true;
    }

    /** A while with a header exit, and a do-while, go back to for loops that run their planned trips; a for loop is left alone. */
    @Test
    void aWhileOrDoWhileIsSpeltAsAForLoopAgainWithoutItsHeaderExit() {
        GenPolicy forms = dev.yarpj.policy.PolicyLoader.load(Path.of("policies/control-flow.yaml"));
        boolean guarded = false;
        boolean doWhile = false;
        for (long seed = 1; seed <= 40 && !(guarded && doWhile); seed++) {
            GeneratedTest t = new Generator(forms, Language.C, CheckMode.HASH).generate(seed, "");
            Program p = t.program();
            List<LoopHead> heads = Rewrite.inventory(p).loops();
            for (int k = 0; k < heads.size(); k++) {
                LoopHead h = heads.get(k);
                if (h.form() == LoopHead.Form.FOR) {
                    assertEquals(null, Rewrite.apply(p, new Edit.ToFor(k)), "a for loop stays");
                    continue;
                }
                if (h.guard() != null ? guarded : doWhile) continue;
                assertTrue(IrReducer.trips(Rewrite.inventory(p)).contains(new Edit.ToFor(k)));
                Program q = Rewrite.apply(p, new Edit.ToFor(k));
                LoopHead now = Rewrite.inventory(q).loops().get(k);
                assertEquals(LoopHead.Form.FOR, now.form());
                assertNull(now.guard());
                assertEquals(h.trip(), now.trip());
                // The interpreter runs it, its planned trips checked.
                t.recipe().interpret(q);
                if (h.guard() != null) guarded = true;
                else if (h.form() == LoopHead.Form.DO_WHILE) doWhile = true;
            }
        }
        assertTrue(guarded && doWhile, "control-flow.yaml C seeds 1..40 have a while with a header exit and a do-while");
    }

    @Test
    void anUnwrappedIfsBlockGivesWayToItsStatementsAndASequenceOfOneNestLosesItsOuterOrInnerLoop() {
        boolean unblocked = false;
        boolean flattened = false;
        // Plain nests (no-idioms.yaml): a level an exit leaves, or whose header tests data, is not dropped (see the tests above).
        GenPolicy plain = dev.yarpj.policy.PolicyLoader.load(Path.of("policies/no-idioms.yaml"));
        for (long seed = 1; seed <= 40 && !(unblocked && flattened); seed++) {
            GeneratedTest t = new Generator(plain, Language.C, CheckMode.HASH).generate(seed, "");
            Program p = t.program();
            List<dev.yarpj.ir.Stmt> stmts = Rewrite.inventory(p).stmts();
            for (int n = 0; n < stmts.size(); n++) {
                if (!unblocked && stmts.get(n) instanceof Stmt.If i && !i.then().stmts().isEmpty()) {
                    // The if becomes its then arm, a braced block numbered as the if was; then the block goes.
                    Program arm = Rewrite.apply(p, new Edit.UnwrapIf(n, true));
                    Rewrite.Inventory inv = Rewrite.inventory(arm);
                    assertTrue(inv.stmts().get(n) instanceof Stmt.Block);
                    Program q = Rewrite.apply(arm, new Edit.Unblock(n));
                    assertNotNull(q);
                    Rewrite.Inventory after = Rewrite.inventory(q);
                    assertEquals(inv.stmts().size() - 1, after.stmts().size(), "the same statements without the braces");
                    assertEquals(inv.exprs(), after.exprs());
                    assertEquals(t.recipe().interpret(arm).checksum(), t.recipe().interpret(q).checksum());
                    unblocked = true;
                }
                if (!flattened && stmts.get(n) instanceof Stmt.LoopSeq s && s.nests().size() == 2 && s.nests().get(0).depth() > 1) {
                    // A sequence left with one nest (the other dropped) is a nest: its outer loop may go.
                    Program one = Rewrite.apply(p, new Edit.DropNest(n, 1));
                    assertTrue(IrReducer.structural(Rewrite.inventory(one)).contains(new Edit.DropLevel(n)));
                    Program q = Rewrite.apply(one, new Edit.DropLevel(n));
                    assertNotNull(q);
                    assertEquals(Rewrite.inventory(one).loops().size() - 1, Rewrite.inventory(q).loops().size());
                    // Or its inner loop: the outer one is left, around what the inner loop held, at its first iteration.
                    Stmt.LoopNest nest = s.nests().get(0);
                    Program inner = Rewrite.apply(one, new Edit.DropInnermost(n));
                    assertNotNull(inner);
                    Stmt.LoopNest left = (Stmt.LoopNest) Rewrite.inventory(inner).stmts().get(n);
                    assertEquals(nest.levels().subList(0, nest.depth() - 1).stream().map(l -> l.head().iter()).toList(),
                            left.levels().stream().map(l -> l.head().iter()).toList());
                    assertTrue(!left.body().toString().contains("name=" + nest.levels().get(nest.depth() - 1).head().iter().name() + ","),
                            "the inner iterator is read nowhere");
                    flattened = true;
                }
            }
        }
        assertTrue(unblocked && flattened, "C tests of seeds 1..40 of no-idioms.yaml have an if and a sequence of two nests, the first of two levels");
    }

    @Test
    void anEditThatWouldDivideByZeroIsRefusedByTheInterpreter() {
        GenPolicy policy = GenPolicy.defaults();
        int refused = 0;
        for (long seed = 1; seed <= 40 && refused == 0; seed++) {
            GeneratedTest t = new Generator(policy, Language.C, CheckMode.HASH).generate(seed, "");
            Rewrite.Inventory inv = Rewrite.inventory(t.program());
            List<Expr> exprs = inv.exprs();
            for (int i = 0; i < exprs.size(); i++) {
                if (!(exprs.get(i) instanceof Expr.Binary b) || (b.op() != BinOp.DIV && b.op() != BinOp.REM) || b.rhs() instanceof Expr.Const) continue;
                int rhs = -1;
                for (int j = i + 1; j < exprs.size(); j++) if (exprs.get(j) == b.rhs()) rhs = j;
                if (rhs < 0) continue;
                Program q = Rewrite.apply(t.program(), new Edit.ToConst(rhs, 0));
                assertNotNull(q);
                // A division that runs (not one in dead code, or in a loop that never iterates) is refused.
                try {
                    t.recipe().interpret(q);
                } catch (UndefinedBehaviorException e) {
                    assertTrue(e.getMessage().startsWith("DIVISION_BY_ZERO"), e.getMessage());
                    refused++;
                }
            }
        }
        assertTrue(refused > 0, "some test of seeds 1..40 divides by a non-constant");
    }

    @Test
    void deletingADeclarationWhoseLocalIsStillReadIsRefused() {
        for (long seed = 1; seed <= 40; seed++) {
            GeneratedTest t = new Generator(GenPolicy.defaults(), Language.C, CheckMode.HASH).generate(seed, "");
            Rewrite.Inventory inv = Rewrite.inventory(t.program());
            // Block 0 is test's body; its first statement that declares a local read later cannot go alone.
            List<dev.yarpj.ir.Stmt> top = t.program().body().stmts();
            for (int k = 0; k < top.size(); k++) {
                if (!(top.get(k) instanceof dev.yarpj.ir.Stmt.LocalDecl d)) continue;
                String name = d.var().name();
                boolean readLater = top.subList(k + 1, top.size()).stream().anyMatch(s -> s.toString().contains("name=" + name + ","));
                if (!readLater) continue;
                assertEquals(null, Rewrite.apply(t.program(), new Edit.DeleteStmts(0, k, k + 1)));
                assertTrue(inv.blockSizes().get(0) == top.size());
                return;
            }
        }
        throw new AssertionError("no test of seeds 1..40 declares a local at the top that is read later");
    }

    @Test
    void aFindingSavedWithoutItsProgramIsRegeneratedFromItsSeedIfTheFilesMatch(@TempDir Path dir) throws Exception {
        assertEquals(0, cli("gen", "--quiet", "--lang=c", "--seed", "5", "--out", dir.toString()));
        Files.writeString(dir.resolve("meta.json"), "{\"kind\": \"wrong-code\", \"seed\": 5, \"lang\": \"c\", \"policy\": \"default\","
                + " \"testbed\": \"t\", \"reference\": \"gcc\"}");
        ProgramFile p = ProgramSource.load(Finding.read(dir));
        assertEquals(new Generator(GenPolicy.defaults(), Language.C, CheckMode.HASH).generate(5, "").program(), p.program());
        // A file edited since (or a generator that changed) gives the text reducer instead, with a one-line reason.
        Files.writeString(dir.resolve("func.c"), Files.readString(dir.resolve("func.c")) + "\n");
        String m = org.junit.jupiter.api.Assertions.assertThrows(Reducer.ReduceException.class, () -> ProgramSource.load(Finding.read(dir))).getMessage();
        assertEquals("the finding has no program.json.gz, and seed 5 gives another program today (its func.c differs)", m);
    }

    /**
     * Fuzzes seed 1 of the tiny policy in {@code lang} with {@code testbeds} (and {@code more} options), where each fake
     * finds something (seeds 2 and 3 gave findings the tests never used: the first finding is the one reduced); that finding of {@code kind}.
     */
    static Path plant(Path dir, String lang, String testbeds, String kind, String... more) throws Exception {
        for (Path d : List.of(FAKES, ISPC_FAKES, SYCL_FAKES)) {
            try (Stream<Path> s = Files.list(d)) {
                s.forEach(p -> p.toFile().setExecutable(true));
            }
        }
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, testbeds);
        Path results = dir.resolve("results");
        List<String> args = new java.util.ArrayList<>(List.of("fuzz", "--quiet", "--triage-share", "0", "--lang=" + lang, "--seeds", "1..1", "-j", "2", "--out",
                results.toString(), "--testbeds", tb.toString(), "--policy", "src/test/resources/policies/tiny.yaml"));
        args.addAll(List.of(more));
        assertEquals(0, cli(args.toArray(String[]::new)));
        try (Stream<Path> s = Files.walk(results.resolve(kind), 2)) {
            Path f = s.filter(p -> p.getFileName().toString().matches("\\d+")).sorted().findFirst()
                    .orElseThrow(() -> new AssertionError("seed 1 of tiny.yaml is no " + kind + " finding: pick another seed"));
            assertTrue(Files.exists(f.resolve(ProgramFile.NAME)), "a finding saves its program");
            return f;
        }
    }

    static int cli(String... args) {
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        return cl.execute(args);
    }
}
