package dev.yarpj.lower;

import static dev.yarpj.Commands.onPath;
import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.LoopTrips;
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
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.VarType;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.Rng;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hand-built program with the three loop forms ({@link LoopHead.Form}): a while loop whose
 * header exit stops it on the iteration of the planted sentinel, a do-while, and a while nest
 * around a do-while. The interpreter runs them as C does (a do-while's body before its test,
 * the header exit only where the condition holds); gcc, clang and ispc compute its prediction.
 */
class LoopFormLoweringTest {
    @TempDir
    Path dir;

    private static Expr c(long v) {
        return new Expr.Const(NumType.INT, v);
    }

    private static LoopHead upTo(Iterator it, long n, LoopHead.Form form, Expr guard) {
        Expr r = new Expr.IterRef(it);
        return new LoopHead(it, c(0), Exprs.binary(BinOp.LT, r, c(n)), Exprs.binary(BinOp.ADD, r, c(1)), n,
                LoopHead.Parallelism.SERIAL, form, guard);
    }

    private static Stmt.LoopLevel level(LoopHead h) {
        return new Stmt.LoopLevel(h, new Stmt.Block(List.of()), new Stmt.Block(List.of()));
    }

    private static Stmt.LoopNest nest(List<Stmt.LoopLevel> levels, Stmt... body) {
        return new Stmt.LoopNest(levels, new Stmt.Block(List.of(body)));
    }

    private static final VarType I32 = VarType.uniform(NumType.INT);
    /** The sentinel array: 0 everywhere but 7 at index 4. */
    private static final ArrayVar SENTINEL = new ArrayVar(0, "arr_0", I32, List.of(10), true, ArrayVar.Fill.planted(0, 4, 7));

    static Program forms() {
        Iterator i = new Iterator(0, "i_0", NumType.INT);
        Iterator j = new Iterator(1, "i_1", NumType.INT);
        Iterator k = new Iterator(2, "i_2", NumType.INT);
        Iterator m = new Iterator(3, "i_3", NumType.INT);
        ArrayVar outA = new ArrayVar(1, "out_1", I32, List.of(10), false, ArrayVar.Fill.uniform(-1));
        ArrayVar outB = new ArrayVar(2, "out_2", I32, List.of(3), false, ArrayVar.Fill.uniform(0));
        ArrayVar outC = new ArrayVar(3, "out_3", I32, List.of(6), false, ArrayVar.Fill.uniform(0));
        Expr iRef = new Expr.IterRef(i);
        Expr kRef = new Expr.IterRef(k);
        Expr mRef = new Expr.IterRef(m);
        // { int i = 0; while (i < 10 && arr_0[i] != 7) { out_1[i] = i + 1; i++; } }: four iterations.
        Expr guard = Exprs.binary(BinOp.NE, Exprs.subscript(SENTINEL, List.of(iRef)), c(7));
        Stmt search = nest(List.of(level(upTo(i, 10, LoopHead.Form.WHILE, guard))),
                new Stmt.Assign(Exprs.subscript(outA, List.of(iRef)), null, Exprs.binary(BinOp.ADD, iRef, c(1))));
        // { int j = 0; do { out_2[j] = 5 - j; j++; } while (j < 3); }
        Expr jRef = new Expr.IterRef(j);
        Stmt once = nest(List.of(level(upTo(j, 3, LoopHead.Form.DO_WHILE, null))),
                new Stmt.Assign(Exprs.subscript(outB, List.of(jRef)), null, Exprs.binary(BinOp.SUB, c(5), jRef)));
        // while (k < 3) do { out_3[2 * k + m] += k + m + 1; } while (m < 2)
        Stmt both = nest(List.of(level(upTo(k, 3, LoopHead.Form.WHILE, null)), level(upTo(m, 2, LoopHead.Form.DO_WHILE, null))),
                new Stmt.Assign(Exprs.subscript(outC, List.of(Exprs.binary(BinOp.ADD, Exprs.binary(BinOp.MUL, c(2), kRef), mRef))),
                        BinOp.ADD, Exprs.binary(BinOp.ADD, Exprs.binary(BinOp.ADD, kRef, mRef), c(1))));
        return new Program(List.of(), List.of(), List.of(SENTINEL), List.of(outA, outB, outC), List.of(),
                new Stmt.Block(List.of(search, once, both)), 4, 4);
    }

    @Test
    void theHeaderExitStopsOnThePlantedIteration() {
        Prediction p = Interpreter.run(forms(), 100_000);
        long[] a = p.arrays().get(0);
        assertEquals(List.of(1L, 2L, 3L, 4L, -1L), List.of(a[0], a[1], a[2], a[3], a[4]), "no body runs at the sentinel");
        LoopTrips search = p.loops().get(0);
        assertEquals(4, search.iterations());
        assertEquals(1, search.broken(), "the header exit ended the loop");
        assertTrue(search.exits());
        assertEquals(List.of(5L, 4L, 3L), java.util.Arrays.stream(p.arrays().get(1)).boxed().toList());
        assertEquals(3, p.loops().get(1).iterations());
        assertEquals(List.of(1L, 2L, 2L, 3L, 3L, 4L), java.util.Arrays.stream(p.arrays().get(2)).boxed().toList());
        assertEquals(6, p.loops().get(3).iterations());
        assertEquals(3, p.loops().get(3).entered());
    }

    @Test
    void aDoWhilePlannedNotToRunIsRefused() {
        // A do-while runs its body before its first test: planned zero trips, it runs one.
        Iterator j = new Iterator(0, "i_0", NumType.INT);
        Expr r = new Expr.IterRef(j);
        LoopHead h = new LoopHead(j, c(0), Exprs.binary(BinOp.LT, r, c(0)), Exprs.binary(BinOp.ADD, r, c(1)), 0,
                LoopHead.Parallelism.SERIAL, LoopHead.Form.DO_WHILE, null);
        Program p = new Program(List.of(), List.of(), List.of(), List.of(), List.of(), new Stmt.Block(List.of(nest(List.of(level(h))))), 1, 0);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Interpreter.run(p, 1000));
        assertTrue(e.getMessage().contains("ran 1 times, not its planned 0"), e.getMessage());
    }

    @Test
    void aContinueInAWhileLoopSkipsTheUpdate() {
        // { int i = 0; while (i < 10) { if (i == 2) continue; i++; } } never ends: the budget refuses it.
        Iterator i = new Iterator(0, "i_0", NumType.INT);
        Expr r = new Expr.IterRef(i);
        Stmt skip = new Stmt.If(Exprs.binary(BinOp.EQ, r, c(2)), new Stmt.Block(List.of(new Stmt.Exit(Stmt.Exit.Kind.CONTINUE))), null);
        Program p = new Program(List.of(), List.of(), List.of(), List.of(), List.of(),
                new Stmt.Block(List.of(nest(List.of(level(upTo(i, 10, LoopHead.Form.WHILE, null))), skip))), 1, 0);
        UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(p, 10_000));
        assertTrue(e.getMessage().contains("step budget"), e.getMessage());
    }

    @Test
    void theCFamilyPrintsEachFormAndComputesThePrediction() throws Exception {
        Program p = forms();
        Prediction expected = Interpreter.run(p, 100_000);
        for (Language lang : List.of(Language.C, Language.CPP)) {
            LoweredTest t = CFamilyLowerer.lower(p, expected, lang, CheckMode.ASSERTS, "form test");
            String func = t.files().get("func." + lang.extension);
            assertTrue(func.contains("while (((i_0 < 10) && (arr_0[i_0] != 7)))"), func);
            assertTrue(func.contains("} while ((i_1 < 3));") && func.contains("} while ((i_3 < 2));"), func);
            assertTrue(!func.contains("for ("), func);
            Path d = BuildAndRun.write(dir, t, lang.name());
            BuildAndRun.withGccAndClang(d, lang, List.of("-O0", "-O2"), func);
        }
    }

    @Test
    void ispcComputesThePrediction() throws Exception {
        Assumptions.assumeTrue(onPath("ispc"), "ispc is not on the PATH (run scripts/install-ispc.sh)");
        Program p = forms();
        Prediction expected = Interpreter.run(p, 100_000, true, true);
        LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(1), false).lower(p, expected, CheckMode.ASSERTS, "form test");
        String ispc = t.files().get("func.ispc");
        assertTrue(ispc.contains("while (((i_0 < 10) && (arr_0[i_0] != 7)))") && ispc.contains("} while ((i_1 < 3));"), ispc);
        Path d = BuildAndRun.write(dir, t, "ispc");
        for (String opt : List.of("-O0", "-O2")) BuildAndRun.withIspc(d, "avx2-i32x8", opt, ispc);
    }

    @Test
    void syclPrintsTheFormsInItsKernels() throws Exception {
        Assumptions.assumeTrue(onPath("g++"), "g++ is not on the PATH");
        Program p = forms();
        Prediction expected = Interpreter.run(p, 100_000);
        LoweredTest t = new SyclLowerer(EmitPolicy.DEFAULT.sycl(), new Rng(1)).lower(p, expected, CheckMode.HASH, "form test");
        String f = t.files().get("func.cpp");
        assertTrue(f.contains("&& (arr_0[i_0] != 7)") && f.contains("} while ("), f);
        Path d = BuildAndRun.write(dir, t, "sycl");
        BuildAndRun.syclSyntax(d);
    }
}
