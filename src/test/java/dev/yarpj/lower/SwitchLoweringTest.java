package dev.yarpj.lower;

import static dev.yarpj.Commands.onPath;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.Prediction;
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
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hand-built switch in a data-parallel loop, on data that takes every case: two labels on one
 * case, a case that falls through into the next, the last case falling into the default. The
 * interpreter runs it as C does; gcc and clang (C and C++, -O0 and -O3) and ispc (a varying
 * switch in a gang loop) compute that prediction, and the SYCL lowering passes g++'s syntax
 * check. A break in a case, which would leave the switch rather than the loop, is refused.
 */
class SwitchLoweringTest {
    @TempDir
    Path dir;

    private static Expr c(long v) {
        return new Expr.Const(NumType.INT, v);
    }

    private static Stmt.Block store(ArrayVar a, Expr i, Expr v) {
        return new Stmt.Block(List.of(new Stmt.Assign(Exprs.subscript(a, List.of(i)), null, v)));
    }

    /**
     * for (i = 0; i < 16; i++) switch (sel[i]) { case 1: case 2: { a[i] = 10; break; } case 3: { a[i] = 20; }
     * case 5: { b[i] = i + 100; break; } case 7: { a[i] = 70; } default: { b[i] = 0 - i; } }, sel[i] = i % 8;
     * with {@code exit} as the first statement of case 3's body.
     */
    static Program switching(Stmt exit) {
        VarType i32 = VarType.uniform(NumType.INT);
        Iterator it = new Iterator(0, "i_0", NumType.INT);
        ArrayVar sel = new ArrayVar(0, "sel_1", i32, List.of(16), true, ArrayVar.Fill.varied(0, 1, 0, 8));
        ArrayVar a = new ArrayVar(1, "out_2", i32, List.of(16), false, ArrayVar.Fill.uniform(-1));
        ArrayVar b = new ArrayVar(2, "out_3", i32, List.of(16), false, ArrayVar.Fill.uniform(-2));
        Expr i = new Expr.IterRef(it);
        Stmt.Block three = store(a, i, c(20));
        if (exit != null) three = new Stmt.Block(List.of(exit, three.stmts().get(0)));
        Stmt sw = new Stmt.Switch(Exprs.subscript(sel, List.of(i)), List.of(
                new Stmt.Switch.Case(List.of(1L, 2L), store(a, i, c(10)), false),
                new Stmt.Switch.Case(List.of(3L), three, true),
                new Stmt.Switch.Case(List.of(5L), store(b, i, Exprs.binary(BinOp.ADD, i, c(100))), false),
                new Stmt.Switch.Case(List.of(7L), store(a, i, c(70)), true)),
                store(b, i, Exprs.binary(BinOp.SUB, c(0), i)));
        LoopHead head = new LoopHead(it, c(0), Exprs.binary(BinOp.LT, i, c(16)), Exprs.binary(BinOp.ADD, i, c(1)), 16,
                LoopHead.Parallelism.INDEPENDENT);
        Stmt loop = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(head, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                new Stmt.Block(List.of(sw)));
        return new Program(List.of(), List.of(), List.of(sel), List.of(a, b), List.of(), new Stmt.Block(List.of(loop)), 1, 3);
    }

    @Test
    void theInterpreterRunsFromTheSelectedCaseThroughEveryCaseThatFallsThrough() {
        Prediction p = Interpreter.run(switching(null), 100_000);
        long[] a = p.arrays().get(0), b = p.arrays().get(1);
        // sel = 0, 4, 6: the default only.
        assertEquals(List.of(-1L, -0L), List.of(a[0], b[0]));
        assertEquals(List.of(-1L, -4L), List.of(a[4], b[4]));
        assertEquals(List.of(-1L, -14L), List.of(a[14], b[14]));
        // 1 and 2 share a case, which breaks.
        assertEquals(List.of(10L, -2L), List.of(a[1], b[1]));
        assertEquals(List.of(10L, -2L), List.of(a[10], b[10]));
        // 3 falls through into 5's body, which breaks.
        assertEquals(List.of(20L, 103L), List.of(a[3], b[3]));
        assertEquals(List.of(-1L, 113L), List.of(a[13], b[13]));
        // 7, the last case, falls into the default.
        assertEquals(List.of(70L, -7L), List.of(a[7], b[7]));
    }

    @Test
    void aBreakOrContinueInACaseIsRefused() {
        for (Stmt.Exit.Kind k : List.of(Stmt.Exit.Kind.BREAK, Stmt.Exit.Kind.CONTINUE)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> Interpreter.run(switching(new Stmt.Exit(k)), 100_000));
            assertTrue(e.getMessage().contains("in a case of a switch"), e.getMessage());
        }
    }

    @Test
    void aLabelTwiceOrOutsideTheSelectorsTypeIsNoSwitch() {
        Expr sel = c(3);
        Stmt.Block empty = new Stmt.Block(List.of());
        assertThrows(IllegalArgumentException.class, () -> new Stmt.Switch(sel, List.of(
                new Stmt.Switch.Case(List.of(1L, 2L), empty, false), new Stmt.Switch.Case(List.of(2L), empty, false)), null));
        assertThrows(IllegalArgumentException.class, () -> new Stmt.Switch(sel, List.of(
                new Stmt.Switch.Case(List.of(1L << 40), empty, false)), null));
    }

    @Test
    void gccAndClangComputeThePrediction() throws Exception {
        Program p = switching(null);
        Prediction expected = Interpreter.run(p, 100_000);
        for (Language lang : List.of(Language.C, Language.CPP)) {
            LoweredTest t = CFamilyLowerer.lower(p, expected, lang, CheckMode.ASSERTS, "switch test");
            String func = t.files().get("func." + lang.extension);
            assertTrue(func.contains("switch (sel_1[i_0])") && func.contains("default: {"), func);
            BuildAndRun.withGccAndClang(BuildAndRun.write(dir, t, lang.name()), lang, List.of("-O0", "-O3"), func);
        }
    }

    @Test
    void ispcComputesThePredictionWithAVaryingSwitchAndSyclsLoweringIsCpp() throws Exception {
        Program p = switching(null);
        Prediction expected = Interpreter.run(p, 100_000, true, true);
        if (onPath("g++")) {
            LoweredTest t = new SyclLowerer(EmitPolicy.DEFAULT.sycl(), new Rng(1)).lower(p, expected, CheckMode.HASH, "switch test");
            assertTrue(t.files().get("func.cpp").contains("switch ("), t.files().get("func.cpp"));
            BuildAndRun.syclSyntax(BuildAndRun.write(dir, new LoweredTest(t.files(), Map.of()), "sycl"));
        }
        Assumptions.assumeTrue(onPath("ispc"), "ispc is not on the PATH (run scripts/install-ispc.sh)");
        boolean gang = false;
        for (long seed = 1; seed <= 4; seed++) {
            LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(seed), false).lower(p, expected, CheckMode.ASSERTS, "switch test");
            String ispc = t.files().get("func.ispc");
            gang |= ispc.contains("foreach") || ispc.contains("programIndex");
            Path d = BuildAndRun.write(dir, t, "ispc-" + seed);
            for (String opt : List.of("-O0", "-O2")) BuildAndRun.withIspc(d, "avx2-i32x8", opt, "rng " + seed + "\n" + ispc);
        }
        assertTrue(gang, "the loop runs as a gang loop in some lowering: the switch is varying");
    }
}
