package dev.yarpj.lower;

import static dev.yarpj.Commands.onPath;
import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.VarType;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.Rng;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hand-built program with the scalars that loops carry across iterations (policy
 * {@code carried:}), over an input array whose values vary element by element: find-last,
 * the first index of the minimum ({@code <}), the last index of the minimum ({@code <=}), the
 * last index of the maximum as selects ({@code >=}), a conditional assignment, and a
 * first-order recurrence whose previous value is a local declared before the loop. The
 * interpreter predicts what a direct computation gives; gcc and clang (C and C++, -O0 and
 * -O3) and ispc compute it; no loop of it is a gang loop or a parallel_for.
 */
class CarriedLoweringTest {
    @TempDir
    Path dir;

    private static final int N = 40;
    /** d[k] = -5 + (7k + 3) % 11: values -5..5, each about four times. */
    private static final ArrayVar.Fill DATA = ArrayVar.Fill.varied(-5, 7, 3, 11);

    private static long data(int k) {
        return -5 + (7L * k + 3) % 11;
    }

    private static Expr c(long v) {
        return new Expr.Const(NumType.INT, v);
    }

    private static Stmt.LoopNest loop(Iterator it, Stmt... body) {
        Expr r = new Expr.IterRef(it);
        LoopHead h = new LoopHead(it, c(0), Exprs.binary(BinOp.LT, r, c(N)), Exprs.binary(BinOp.ADD, r, c(1)), N,
                LoopHead.Parallelism.SERIAL);
        return new Stmt.LoopNest(List.of(new Stmt.LoopLevel(h, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                new Stmt.Block(List.of(body)));
    }

    private static Stmt set(ScalarVar v, Expr e) {
        return new Stmt.Assign(new Expr.ScalarRef(v), null, Exprs.convertImplicitly(e, v.base()));
    }

    private static Stmt ifThen(Expr cond, Stmt... then) {
        return new Stmt.If(cond, new Stmt.Block(List.of(then)), null);
    }

    private static Expr ref(ScalarVar v) {
        return new Expr.ScalarRef(v);
    }

    static Program carried() {
        VarType i32 = VarType.uniform(NumType.INT);
        int slot = 0;
        ScalarVar last = new ScalarVar(slot++, "res_last", i32, ScalarVar.Role.OUTPUT, -1, false);
        ScalarVar minFirst = new ScalarVar(slot++, "res_min", i32, ScalarVar.Role.OUTPUT, NumType.INT.max(), false);
        ScalarVar minFirstAt = new ScalarVar(slot++, "res_min_at", i32, ScalarVar.Role.OUTPUT, -1, false);
        ScalarVar minLast = new ScalarVar(slot++, "res_min2", i32, ScalarVar.Role.OUTPUT, NumType.INT.max(), false);
        ScalarVar minLastAt = new ScalarVar(slot++, "res_min2_at", i32, ScalarVar.Role.OUTPUT, -1, false);
        ScalarVar maxLast = new ScalarVar(slot++, "res_max", i32, ScalarVar.Role.OUTPUT, NumType.INT.min(), false);
        ScalarVar maxLastAt = new ScalarVar(slot++, "res_max_at", i32, ScalarVar.Role.OUTPUT, -1, false);
        ScalarVar cond = new ScalarVar(slot++, "res_cond", i32, ScalarVar.Role.OUTPUT, 77, false);
        ScalarVar prevOut = new ScalarVar(slot++, "res_prev", i32, ScalarVar.Role.OUTPUT, 0, false);
        ScalarVar prev = new ScalarVar(slot++, "tmp_prev", i32, ScalarVar.Role.LOCAL, 0, false);
        List<Iterator> its = new ArrayList<>();
        for (int k = 0; k < 6; k++) its.add(new Iterator(slot++, "i_" + k, NumType.INT));
        ArrayVar d = new ArrayVar(0, "arr_d", i32, List.of(N), true, DATA);
        ArrayVar out = new ArrayVar(1, "out_diff", i32, List.of(N), false, ArrayVar.Fill.uniform(9));
        List<Stmt> body = new ArrayList<>();
        Expr[] e = new Expr[6];
        Expr[] i = new Expr[6];
        for (int k = 0; k < 6; k++) {
            i[k] = new Expr.IterRef(its.get(k));
            e[k] = Exprs.subscript(d, List.of(i[k]));
        }
        // if (d[i] == 2) last = i;
        body.add(loop(its.get(0), ifThen(Exprs.binary(BinOp.EQ, e[0], c(2)), set(last, i[0]))));
        // if (d[i] < m) { m = d[i]; at = i; }: the first index of the minimum
        body.add(loop(its.get(1), ifThen(Exprs.binary(BinOp.LT, e[1], ref(minFirst)), set(minFirst, e[1]), set(minFirstAt, i[1]))));
        // if (d[i] <= m) { m = d[i]; at = i; }: the last index of the minimum
        body.add(loop(its.get(2), ifThen(Exprs.binary(BinOp.LE, e[2], ref(minLast)), set(minLast, e[2]), set(minLastAt, i[2]))));
        // at = d[i] >= m ? i : at; m = d[i] >= m ? d[i] : m;: the last index of the maximum, as selects
        Expr ge = Exprs.binary(BinOp.GE, e[3], ref(maxLast));
        body.add(loop(its.get(3), set(maxLastAt, Exprs.ternary(ge, i[3], ref(maxLastAt))),
                set(maxLast, Exprs.ternary(ge, e[3], ref(maxLast)))));
        // s = d[i] > 3 ? d[i] + 10 : s;
        body.add(loop(its.get(4), set(cond, Exprs.ternary(Exprs.binary(BinOp.GT, e[4], c(3)),
                Exprs.binary(BinOp.ADD, e[4], c(10)), ref(cond)))));
        // { int prev = 1; for (...) { out[i] = d[i] - prev; prev = d[i]; } res_prev = prev; }
        body.add(new Stmt.Block(List.of(new Stmt.LocalDecl(prev, c(1)),
                loop(its.get(5), new Stmt.Assign(Exprs.subscript(out, List.of(i[5])), null, Exprs.binary(BinOp.SUB, e[5], ref(prev))),
                        set(prev, e[5])),
                set(prevOut, ref(prev)))));
        return new Program(List.of(), List.of(last, minFirst, minFirstAt, minLast, minLastAt, maxLast, maxLastAt, cond, prevOut),
                List.of(d), List.of(out), List.of(), new Stmt.Block(body), slot, 2);
    }

    @Test
    void theInterpreterPredictsFindLastAndTheIndexOfTheMinimumAndMaximum() {
        long lastTwo = -1;
        long min = Long.MAX_VALUE, minFirstAt = -1, minLastAt = -1, max = Long.MIN_VALUE, maxLastAt = -1;
        long cond = 77;
        for (int k = 0; k < N; k++) {
            long v = data(k);
            if (v == 2) lastTwo = k;
            if (v < min) {
                min = v;
                minFirstAt = k;
            }
            if (v == min) minLastAt = k;
            if (v >= max) {
                max = v;
                maxLastAt = k;
            }
            if (v > 3) cond = v + 10;
        }
        assertTrue(minFirstAt != minLastAt, "the minimum occurs more than once: first and last index differ");
        Prediction p = Interpreter.run(carried(), 100_000);
        assertEquals(List.of(lastTwo, min, minFirstAt, min, minLastAt, max, maxLastAt, cond, data(N - 1)), p.scalars());
        long[] diff = p.arrays().get(0);
        assertEquals(data(0) - 1, diff[0]);
        for (int k = 1; k < N; k++) assertEquals(data(k) - data(k - 1), diff[k], "out[" + k + "]");
    }

    @Test
    void aScalarAssignedInALoopMarkedParallelIsRefused() {
        ScalarVar idx = new ScalarVar(0, "res_0", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, -1, false);
        Iterator it = new Iterator(1, "i_1", NumType.INT);
        Stmt.LoopNest serial = loop(it, ifThen(Exprs.binary(BinOp.GT, new Expr.IterRef(it), c(3)), set(idx, new Expr.IterRef(it))));
        Stmt.LoopLevel lv = serial.levels().get(0);
        Stmt.LoopNest parallel = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(lv.head().withParallelism(LoopHead.Parallelism.INDEPENDENT),
                lv.prefix(), lv.suffix())), serial.body());
        Program ok = new Program(List.of(), List.of(idx), List.of(), List.of(), List.of(), new Stmt.Block(List.of(serial)), 2, 0);
        assertEquals(List.of((long) N - 1), Interpreter.run(ok, 1000).scalars());
        Program bad = new Program(List.of(), List.of(idx), List.of(), List.of(), List.of(), new Stmt.Block(List.of(parallel)), 2, 0);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Interpreter.run(bad, 1000));
        assertTrue(e.getMessage().contains("marked parallel"), e.getMessage());
    }

    @Test
    void gccAndClangComputeThePrediction() throws Exception {
        Program p = carried();
        Prediction expected = Interpreter.run(p, 100_000);
        for (Language lang : List.of(Language.C, Language.CPP)) {
            LoweredTest t = CFamilyLowerer.lower(p, expected, lang, CheckMode.ASSERTS, "carried test");
            String driver = t.files().get("driver." + lang.extension);
            assertTrue(driver.contains("(long long)i0 * 7 + 3) % 11"), driver);
            Path d = BuildAndRun.write(dir, t, lang.name());
            BuildAndRun.withGccAndClang(d, lang, List.of("-O0", "-O3"), t.files().get("func." + lang.extension));
        }
    }

    @Test
    void ispcComputesThePredictionWithoutAGangLoop() throws Exception {
        Program p = carried();
        Prediction expected = Interpreter.run(p, 100_000, true, true);
        for (long seed = 1; seed <= 4; seed++) {
            LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(seed), false).lower(p, expected, CheckMode.ASSERTS, "carried test");
            String ispc = t.files().get("func.ispc");
            assertFalse(ispc.contains("foreach") || ispc.contains("programIndex"), "a loop that carries a scalar is no gang loop:\n" + ispc);
            if (!onPath("ispc")) continue;
            Path d = BuildAndRun.write(dir, t, "ispc-" + seed);
            for (String opt : List.of("-O0", "-O2")) BuildAndRun.withIspc(d, "avx2-i32x8", opt, "rng " + seed + "\n" + ispc);
        }
    }

    @Test
    void syclRunsTheLoopsInSingleTasks() throws Exception {
        Program p = carried();
        Prediction expected = Interpreter.run(p, 100_000);
        for (long seed = 1; seed <= 4; seed++) {
            LoweredTest t = new SyclLowerer(EmitPolicy.DEFAULT.sycl(), new Rng(seed)).lower(p, expected, CheckMode.HASH, "carried test");
            String f = t.files().get("func.cpp");
            assertFalse(f.contains("parallel_for"), "a loop that carries a scalar is no parallel_for:\n" + f);
            if (!onPath("g++")) continue;
            Path d = BuildAndRun.write(dir, t, "sycl-" + seed);
            BuildAndRun.syclSyntax(d);
        }
    }
}
