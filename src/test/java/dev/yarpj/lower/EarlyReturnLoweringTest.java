package dev.yarpj.lower;

import static dev.yarpj.Commands.onPath;
import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.LoopTrips;
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
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import dev.yarpj.policy.Rng;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hand-built program that leaves {@code test()} early from inside a loop nest: a
 * data-parallel loop runs first (a gang loop in ISPC, a parallel_for in SYCL), then the last
 * statement, a nest of two serial loops, returns on data in its inner loop on the fifth
 * outer iteration. The interpreter predicts which stores ran; gcc and clang (C and C++,
 * -O0 and -O3) and ispc compute that prediction, and the SYCL lowering returns from its
 * last single_task. A return anywhere but in the last statement is refused.
 */
class EarlyReturnLoweringTest {
    @TempDir
    Path dir;

    private static Expr c(long v) {
        return new Expr.Const(NumType.INT, v);
    }

    private static LoopHead upTo(Iterator it, long n, LoopHead.Parallelism par) {
        Expr r = new Expr.IterRef(it);
        return new LoopHead(it, c(0), Exprs.binary(BinOp.LT, r, c(n)), Exprs.binary(BinOp.ADD, r, c(1)), n, par);
    }

    private static Stmt.LoopLevel level(LoopHead h, Stmt... prefix) {
        return new Stmt.LoopLevel(h, new Stmt.Block(List.of(prefix)), new Stmt.Block(List.of()));
    }

    private static final Stmt RETURN = new Stmt.Exit(Stmt.Exit.Kind.RETURN);
    private static final GenPolicy CONTROL_FLOW = PolicyLoader.load(Path.of("policies/control-flow.yaml"));

    /** {@code first} and then {@code last}, the statement that returns, as test()'s body. */
    static Program returning(boolean returnFirst) {
        VarType i32 = VarType.uniform(NumType.INT);
        ScalarVar done = new ScalarVar(0, "done_0", i32, ScalarVar.Role.OUTPUT, -1, false);
        Iterator i = new Iterator(1, "i_1", NumType.INT);
        Iterator k = new Iterator(2, "i_2", NumType.INT);
        Iterator m = new Iterator(3, "i_3", NumType.INT);
        // -7 at even indices, 5 at odd ones.
        ArrayVar in = new ArrayVar(0, "arr_4", VarType.uniform(NumType.SCHAR), List.of(8), true, new ArrayVar.Fill(-7, 5, 0));
        ArrayVar outA = new ArrayVar(1, "out_5", i32, List.of(10), false, ArrayVar.Fill.uniform(-1));
        ArrayVar outB = new ArrayVar(2, "out_6", i32, List.of(6), false, ArrayVar.Fill.uniform(-2));
        ArrayVar outC = new ArrayVar(3, "out_7", i32, List.of(6, 8), false, ArrayVar.Fill.uniform(-3));
        Expr iRef = new Expr.IterRef(i);
        Expr kRef = new Expr.IterRef(k);
        Expr mRef = new Expr.IterRef(m);

        // for (i = 0; i < 10; i++) if (i < 5) out_5[i] = 3 * i;   (a varying if in a gang loop)
        Stmt first = new Stmt.LoopNest(List.of(level(upTo(i, 10, LoopHead.Parallelism.INDEPENDENT))), new Stmt.Block(List.of(
                new Stmt.If(Exprs.binary(BinOp.LT, iRef, c(5)), new Stmt.Block(List.of(
                        new Stmt.Assign(Exprs.subscript(outA, List.of(iRef)), null, Exprs.binary(BinOp.MUL, c(3), iRef)))), null))));
        // for (k = 0; k < 6; k++) { out_6[k] = k + 1; for (m = 0; m < 8; m++) { if (in[m] + k > 8) return; out_7[k][m] = k + m; } }
        // in[m] + k > 8 first at k = 4, m = 1: rows 0..3 whole, row 4 only at m = 0, out_6[5] and row 5 untouched.
        Stmt store = new Stmt.Assign(Exprs.subscript(outB, List.of(kRef)), null, Exprs.binary(BinOp.ADD, kRef, c(1)));
        Stmt leave = new Stmt.If(Exprs.binary(BinOp.GT, Exprs.binary(BinOp.ADD, Exprs.subscript(in, List.of(mRef)), kRef), c(8)),
                new Stmt.Block(List.of(RETURN)), null);
        Stmt last = new Stmt.LoopNest(
                List.of(level(upTo(k, 6, LoopHead.Parallelism.SERIAL), store), level(upTo(m, 8, LoopHead.Parallelism.SERIAL))),
                new Stmt.Block(List.of(leave, new Stmt.Assign(Exprs.subscript(outC, List.of(kRef, mRef)), null, Exprs.binary(BinOp.ADD, kRef, mRef)))));
        Stmt mark = new Stmt.Assign(new Expr.ScalarRef(done), null, c(1));
        List<Stmt> body = returnFirst ? List.of(last, mark) : List.of(mark, first, last);
        return new Program(List.of(), List.of(done), List.of(in), List.of(outA, outB, outC), List.of(),
                new Stmt.Block(body), 4, 4);
    }

    @Test
    void theInterpreterLeavesTestWhereTheReturnFires() {
        Prediction p = Interpreter.run(returning(false), 100_000);
        assertEquals(List.of(1L), p.scalars());
        assertTrue(p.returned());
        assertEquals(12, p.arrays().get(0)[4], "the nest before ran whole");
        assertEquals(-1, p.arrays().get(0)[5]);
        long[] b = p.arrays().get(1);
        assertEquals(5, b[4]);
        assertEquals(-2, b[5], "the outer loop left at k = 4");
        long[] cs = p.arrays().get(2);
        assertEquals(3 + 7, cs[3 * 8 + 7]);
        assertEquals(4, cs[4 * 8], "row 4 stored at m = 0");
        assertEquals(-3, cs[4 * 8 + 1], "and returned at m = 1, before its store");
        assertEquals(-3, cs[5 * 8]);
        List<LoopTrips> loops = p.loops();
        assertEquals(5, loops.get(1).iterations(), "the outer loop ran k = 0..4");
        assertEquals(1, loops.get(1).broken());
        assertEquals(4 * 8 + 2, loops.get(2).iterations());
        assertTrue(loops.get(1).exits() && loops.get(2).exits(), "both loops the return leaves leave early");
    }

    @Test
    void aReturnBeforeTheLastStatementIsRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Interpreter.run(returning(true), 100_000));
        assertTrue(e.getMessage().contains("return before the last"), e.getMessage());
    }

    @Test
    void gccAndClangComputeThePrediction() throws Exception {
        Program p = returning(false);
        Prediction expected = Interpreter.run(p, 100_000);
        for (Language lang : List.of(Language.C, Language.CPP)) {
            LoweredTest t = CFamilyLowerer.lower(p, expected, lang, CheckMode.ASSERTS, "return test");
            String func = t.files().get("func." + lang.extension);
            assertTrue(func.contains("return;"), func);
            Path d = BuildAndRun.write(dir, t, lang.name());
            BuildAndRun.withGccAndClang(d, lang, List.of("-O0", "-O3"), func);
        }
    }

    @Test
    void ispcComputesThePrediction() throws Exception {
        Assumptions.assumeTrue(onPath("ispc"), "ispc is not on the PATH (run scripts/install-ispc.sh)");
        Program p = returning(false);
        Prediction expected = Interpreter.run(p, 100_000, true, true);
        boolean gang = false;
        // Three lowerings (rng seeds 1..3), each built at -O0 and -O2.
        for (long seed = 1; seed <= 3; seed++) {
            LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(seed), false).lower(p, expected, CheckMode.ASSERTS, "return test");
            String ispc = t.files().get("func.ispc");
            assertTrue(ispc.contains("return;"), ispc);
            gang |= ispc.contains("foreach") || ispc.contains("programIndex");
            Path d = BuildAndRun.write(dir, t, "ispc-" + seed);
            for (String opt : List.of("-O0", "-O2")) BuildAndRun.withIspc(d, "avx2-i32x8", opt, "rng " + seed + "\n" + ispc);
        }
        assertTrue(gang, "the first nest runs as a gang loop in some lowering");
    }

    @Test
    void ispcMeasuredForItsMasksStillPrintsThemWhenTestReturnsEarly() throws Exception {
        Assumptions.assumeTrue(onPath("ispc"), "ispc is not on the PATH (run scripts/install-ispc.sh)");
        Program p = returning(false);
        Prediction expected = Interpreter.run(p, 100_000, true, true);
        boolean measured = false;
        for (long seed = 1; seed <= 20 && !measured; seed++) {
            LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(seed), true).lower(p, expected, CheckMode.ASSERTS, "return test");
            if (t.choices().get("varying_ifs") != 1) continue;
            measured = true;
            Path d = BuildAndRun.write(dir, t, "masks-" + seed);
            List<String> lines = BuildAndRun.ispcOutput(d, "avx2-i32x8", "-O1").lines().toList();
            // The if's counts (lanes 0..4 of the first gang take it, 5..7 do not: mixed), then the checks.
            assertEquals(2, lines.size(), lines.toString());
            assertTrue(lines.get(0).matches("yarpj-mask 0 [1-9]\\d* 1 0"), lines + "\n" + t.files().get("func.ispc"));
            assertEquals("OK", lines.get(1));
        }
        assertTrue(measured, "some lowering runs the first nest as a gang loop");
    }

    @Test
    void generatedSyclTestsReturnFromTheirLastKernel() throws Exception {
        Generator g = new Generator(CONTROL_FLOW, Language.SYCL, CheckMode.HASH);
        int checked = 0;
        // The first five (seeds 1..38): returns are rare, and each test checked costs generating the seeds before it.
        for (long seed = 1; seed <= 120 && checked < 5; seed++) {
            GeneratedTest t = g.generate(seed, "return test");
            List<Stmt.Exit.Kind> kinds = new java.util.ArrayList<>();
            new Stmt.Walker() {
                @Override
                public Void exit(Stmt.Exit e) {
                    kinds.add(e.kind());
                    return null;
                }
            }.all(t.program().body().stmts());
            // Where a continue leaves a work-item it is a return too: look where no continue is.
            if (!kinds.contains(Stmt.Exit.Kind.RETURN) || kinds.contains(Stmt.Exit.Kind.CONTINUE)) continue;
            checked++;
            String f = t.files().files().get("func.cpp");
            int ret = f.indexOf("return;");
            assertTrue(ret > 0 && f.lastIndexOf("single_task") < ret && f.indexOf("parallel_for", ret) < 0
                    && f.indexOf("single_task", ret) < 0, "seed " + seed + ": the return is in the last kernel\n" + f);
            if (checked <= 3 && onPath("g++")) BuildAndRun.syclSyntax(BuildAndRun.write(dir, new LoweredTest(t.files().files(), Map.of()), "gen-" + seed));
        }
        assertTrue(checked >= 5, checked + " generated SYCL tests return early");
    }

    @Test
    void syclReturnsFromItsLastSingleTask() throws Exception {
        Assumptions.assumeTrue(onPath("g++"), "g++ is not on the PATH");
        Program p = returning(false);
        Prediction expected = Interpreter.run(p, 100_000);
        for (long seed = 1; seed <= 6; seed++) {
            LoweredTest t = new SyclLowerer(EmitPolicy.DEFAULT.sycl(), new Rng(seed)).lower(p, expected, CheckMode.HASH, "return test");
            String f = t.files().get("func.cpp");
            int ret = f.indexOf("return;");
            assertTrue(ret > 0, f);
            assertTrue(f.lastIndexOf("single_task") < ret && f.indexOf("parallel_for", ret) < 0 && f.indexOf("single_task", ret) < 0,
                    "the return is in the last kernel\n" + f);
            Path d = BuildAndRun.write(dir, t, "sycl-" + seed);
            BuildAndRun.syclSyntax(d);
        }
    }
}
