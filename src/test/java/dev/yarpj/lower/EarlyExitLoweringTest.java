package dev.yarpj.lower;

import static dev.yarpj.Commands.onPath;
import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import dev.yarpj.policy.Rng;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hand-built program with early exits: a search loop that breaks on data (serial), a
 * data-parallel loop that skips iterations with continue (a gang loop in ISPC, a parallel_for
 * in SYCL, where continue leaves the work-item), and a nest whose parallel outer loop holds
 * an inner loop that breaks under a condition on both iterators (varying in ISPC). The
 * interpreter predicts where each exit fires; gcc and clang (C and C++, -O0 and -O3) and ispc
 * (every gang form) compute that prediction, and the SYCL lowering passes the syntax check.
 */
class EarlyExitLoweringTest {
    @TempDir
    Path dir;

    private static Expr c(long v) {
        return new Expr.Const(NumType.INT, v);
    }

    private static LoopHead upTo(Iterator it, long n, LoopHead.Parallelism par) {
        Expr r = new Expr.IterRef(it);
        return new LoopHead(it, c(0), Exprs.binary(BinOp.LT, r, c(n)), Exprs.binary(BinOp.ADD, r, c(1)), n, par);
    }

    private static Stmt.LoopNest nest(List<Stmt.LoopLevel> levels, Stmt... body) {
        return new Stmt.LoopNest(levels, new Stmt.Block(List.of(body)));
    }

    private static Stmt.LoopLevel level(LoopHead h) {
        return new Stmt.LoopLevel(h, new Stmt.Block(List.of()), new Stmt.Block(List.of()));
    }

    private static Stmt ifThen(Expr cond, Stmt... then) {
        return new Stmt.If(cond, new Stmt.Block(List.of(then)), null);
    }

    static Program exits() {
        VarType i32 = VarType.uniform(NumType.INT);
        ScalarVar found = new ScalarVar(0, "found_0", i32, ScalarVar.Role.OUTPUT, -1, false);
        Iterator i = new Iterator(1, "i_1", NumType.INT);
        Iterator j = new Iterator(2, "i_2", NumType.INT);
        Iterator k = new Iterator(3, "i_3", NumType.INT);
        Iterator m = new Iterator(4, "i_4", NumType.INT);
        // -7 at even indices, 5 at odd ones.
        ArrayVar in = new ArrayVar(0, "arr_5", VarType.uniform(NumType.SCHAR), List.of(40), true, new ArrayVar.Fill(-7, 5, 0));
        ArrayVar outA = new ArrayVar(1, "out_6", i32, List.of(40), false, ArrayVar.Fill.uniform(1));
        ArrayVar outB = new ArrayVar(2, "out_7", i32, List.of(40), false, ArrayVar.Fill.uniform(2));
        ArrayVar outC = new ArrayVar(3, "out_8", i32, List.of(8), false, ArrayVar.Fill.uniform(0));
        Expr iRef = new Expr.IterRef(i);
        Expr jRef = new Expr.IterRef(j);
        Expr kRef = new Expr.IterRef(k);
        Expr mRef = new Expr.IterRef(m);
        Stmt brk = new Stmt.Exit(Stmt.Exit.Kind.BREAK);
        Stmt cont = new Stmt.Exit(Stmt.Exit.Kind.CONTINUE);

        // for (i = 0; i < 40; i++) { if (in[i] + i > 20) { found = i; break; } out_6[i] = 2 * in[i]; }
        // The first i with in[i] + i > 20 is 17: eighteen iterations of forty.
        Expr elemI = Exprs.subscript(in, List.of(iRef));
        Stmt search = nest(List.of(level(upTo(i, 40, LoopHead.Parallelism.SERIAL))),
                ifThen(Exprs.binary(BinOp.GT, Exprs.binary(BinOp.ADD, elemI, iRef), c(20)),
                        new Stmt.Assign(new Expr.ScalarRef(found), null, iRef), brk),
                new Stmt.Assign(Exprs.subscript(outA, List.of(iRef)), null, Exprs.binary(BinOp.MUL, c(2), elemI)));

        // for (j = 0; j < 40; j++) { if (in[j] < 0) continue; out_7[j] = 3 * j; }: every other iteration skips.
        Stmt skip = nest(List.of(level(upTo(j, 40, LoopHead.Parallelism.INDEPENDENT))),
                ifThen(Exprs.binary(BinOp.LT, Exprs.subscript(in, List.of(jRef)), c(0)), cont),
                new Stmt.Assign(Exprs.subscript(outB, List.of(jRef)), null, Exprs.binary(BinOp.MUL, c(3), jRef)));

        // for (k = 0; k < 8; k++) for (m = 0; m < 10; m++) { if (in[m] + k > 6) break; if (in[m] > 0) continue; out_8[k] += m + 1; }
        // k >= 2 leaves at m = 1; k = 0 and 1 run all ten, adding 1 + 3 + 5 + 7 + 9.
        Expr elemM = Exprs.subscript(in, List.of(mRef));
        Stmt inner = nest(List.of(level(upTo(k, 8, LoopHead.Parallelism.INDEPENDENT)), level(upTo(m, 10, LoopHead.Parallelism.SERIAL))),
                ifThen(Exprs.binary(BinOp.GT, Exprs.binary(BinOp.ADD, elemM, kRef), c(6)), brk),
                ifThen(Exprs.binary(BinOp.GT, elemM, c(0)), cont),
                new Stmt.Assign(Exprs.subscript(outC, List.of(kRef)), BinOp.ADD, Exprs.binary(BinOp.ADD, mRef, c(1))));

        return new Program(List.of(), List.of(found), List.of(in), List.of(outA, outB, outC), List.of(),
                new Stmt.Block(List.of(search, skip, inner)), 5, 4);
    }

    @Test
    void theInterpreterStopsWhereTheExitsFire() {
        Prediction p = Interpreter.run(exits(), 100_000);
        assertEquals(List.of(17L), p.scalars());
        long[] a = p.arrays().get(0);
        assertEquals(-14, a[16]);
        assertEquals(1, a[17], "the break comes before the store");
        long[] b = p.arrays().get(1);
        assertEquals(2, b[0], "in[0] < 0: skipped");
        assertEquals(3, b[1]);
        long[] cs = p.arrays().get(2);
        assertEquals(25, cs[0]);
        assertEquals(25, cs[1]);
        assertEquals(1, cs[2], "k = 2 adds 1 at m = 0, leaves at m = 1");
        List<LoopTrips> loops = p.loops();
        assertEquals(18, loops.get(0).iterations());
        assertEquals(40, loops.get(1).iterations());
        assertEquals(2 * 10 + 6 * 2, loops.get(3).iterations());
    }

    @Test
    void aBreakOutOfALoopMarkedParallelIsRefused() {
        Iterator i = new Iterator(1, "i_1", NumType.INT);
        Stmt bad = nest(List.of(level(upTo(i, 10, LoopHead.Parallelism.INDEPENDENT))),
                ifThen(Exprs.binary(BinOp.GT, new Expr.IterRef(i), c(3)), new Stmt.Exit(Stmt.Exit.Kind.BREAK)));
        Program p = new Program(List.of(), List.of(), List.of(), List.of(), List.of(), new Stmt.Block(List.of(bad)), 2, 0);
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> Interpreter.run(p, 1000));
        assertTrue(e.getMessage().contains("marked parallel"), e.getMessage());
    }

    @Test
    void gccAndClangComputeThePrediction() throws Exception {
        Program p = exits();
        Prediction expected = Interpreter.run(p, 100_000);
        for (Language lang : List.of(Language.C, Language.CPP)) {
            LoweredTest t = CFamilyLowerer.lower(p, expected, lang, CheckMode.ASSERTS, "exit test");
            String func = t.files().get("func." + lang.extension);
            assertTrue(func.contains("break;") && func.contains("continue;"), func);
            Path d = BuildAndRun.write(dir, t, lang.name());
            BuildAndRun.withGccAndClang(d, lang, List.of("-O0", "-O3"), func);
        }
    }

    @Test
    void ispcComputesThePredictionInEveryGangForm() throws Exception {
        Assumptions.assumeTrue(onPath("ispc"), "ispc is not on the PATH (run scripts/install-ispc.sh)");
        Program p = exits();
        Prediction expected = Interpreter.run(p, 100_000, true, true);
        Set<String> forms = new HashSet<>();
        Set<String> seen = new HashSet<>();
        for (long seed = 1; seed <= 40 && forms.size() < 3; seed++) {
            LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(seed), false).lower(p, expected, CheckMode.ASSERTS, "exit test");
            String ispc = t.files().get("func.ispc");
            if (!seen.add(ispc)) continue;
            for (String f : List.of("foreach (", "foreach_tiled (", "programIndex")) if (ispc.contains(f)) forms.add(f);
            Path d = BuildAndRun.write(dir, t, "ispc-" + seed);
            for (String opt : List.of("-O0", "-O2")) BuildAndRun.withIspc(d, "avx2-i32x8", opt, "rng " + seed + "\n" + ispc);
        }
        assertEquals(3, forms.size(), "every gang form: " + forms);
    }

    @Test
    void ispcMeasuredCountsTheMixedMasksOfItsVaryingExits() throws Exception {
        Assumptions.assumeTrue(onPath("ispc"), "ispc is not on the PATH (run scripts/install-ispc.sh)");
        Program p = exits();
        Prediction expected = Interpreter.run(p, 100_000, true, true);
        for (long seed = 1; seed <= 40; seed++) {
            LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(seed), true).lower(p, expected, CheckMode.HASH, "exit test");
            // Both parallel loops as gangs: the continue's if (in[j] < 0) and the break's (in[m] + k > 6) are varying.
            if (t.choices().get("varying_ifs") != 2) continue;
            Path d = BuildAndRun.write(dir, t, "masks-" + seed);
            List<String> lines = BuildAndRun.ispcOutput(d, "avx2-i32x8", "-O1").lines().toList();
            // Each if is marked as an exit's, and ran mixed: odd and even j in every gang; at m = 1, k >= 2 leave and k = 0, 1 go on.
            assertEquals(3, lines.size(), lines.toString());
            for (String l : lines.subList(0, 2)) assertTrue(l.matches("yarpj-mask [01] ([1-9]\\d*) [1-9]\\d* 1"), lines + "\n" + t.files().get("func.ispc"));
            assertEquals(Long.toUnsignedString(expected.checksum()), lines.get(2));
            return;
        }
        org.junit.jupiter.api.Assertions.fail("no rng made both parallel loops gang loops");
    }

    @Test
    void syclLeavesTheWorkItemWhereTheLoopWouldContinue() throws Exception {
        Assumptions.assumeTrue(onPath("g++"), "g++ is not on the PATH");
        Program p = exits();
        Prediction expected = Interpreter.run(p, 100_000);
        boolean returned = false;
        for (long seed = 1; seed <= 12; seed++) {
            LoweredTest t = new SyclLowerer(EmitPolicy.DEFAULT.sycl(), new Rng(seed)).lower(p, expected, CheckMode.HASH, "exit test");
            String f = t.files().get("func.cpp");
            returned |= f.contains("return;");
            Path d = BuildAndRun.write(dir, t, "sycl-" + seed);
            BuildAndRun.syclSyntax(d);
        }
        assertTrue(returned, "some seed runs the continue loop as a parallel_for");
    }
}
