package dev.yarpj.lower;

import static dev.yarpj.Commands.onPath;
import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
import dev.yarpj.ir.ReductionOp;
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
 * The ISPC lowering of a hand-built program with a gang loop that counts up by one (with a
 * varying if on the odd/even partition and three folds: a sum, a min and an exclusive or)
 * and one that counts down by three with a narrow iterator: every spelling the rng picks
 * (foreach, foreach_tiled, for over programIndex) compiles with the real ispc and passes
 * the asserts driver, as does the C++ lowering of the same program.
 */
class IspcLowererTest {
    @TempDir
    Path dir;

    static Program gangs() {
        VarType i32 = VarType.uniform(NumType.INT);
        ScalarVar acc = new ScalarVar(0, "acc_0", i32, ScalarVar.Role.OUTPUT, 5, false);
        ScalarVar mn = new ScalarVar(1, "mn_1", i32, ScalarVar.Role.OUTPUT, Integer.MAX_VALUE, false);
        ScalarVar x = new ScalarVar(2, "x_2", VarType.uniform(NumType.UINT), ScalarVar.Role.OUTPUT, 0, false);
        Iterator i = new Iterator(3, "i_3", NumType.INT);
        Iterator j = new Iterator(4, "i_4", NumType.SHORT);
        ArrayVar in = new ArrayVar(0, "arr_5", VarType.uniform(NumType.SCHAR), List.of(40), true, new ArrayVar.Fill(-7, 5, 0));
        ArrayVar out = new ArrayVar(1, "out_6", VarType.uniform(NumType.UINT), List.of(40), false, ArrayVar.Fill.uniform(9));
        ArrayVar out2 = new ArrayVar(2, "out_7", VarType.uniform(NumType.SHORT), List.of(101), false, ArrayVar.Fill.uniform(1));

        Expr iRef = new Expr.IterRef(i);
        Expr elem = Exprs.subscript(in, List.of(iRef));
        LoopHead up = new LoopHead(i, new Expr.Const(NumType.INT, 0), Exprs.binary(BinOp.LT, iRef, new Expr.Const(NumType.INT, 37)),
                Exprs.binary(BinOp.ADD, iRef, new Expr.Const(NumType.INT, 1)), 37, LoopHead.Parallelism.REDUCTION);
        Expr parity = Exprs.binary(BinOp.EQ, Exprs.binary(BinOp.REM, iRef, new Expr.Const(NumType.INT, 2)), new Expr.Const(NumType.INT, 0));
        Stmt store = new Stmt.Assign(Exprs.subscript(out, List.of(iRef)), null, Exprs.convertImplicitly(
                Exprs.binary(BinOp.ADD, Exprs.binary(BinOp.MUL, iRef, new Expr.Const(NumType.INT, 3)), elem), NumType.UINT));
        Stmt odd = new Stmt.If(parity, new Stmt.Block(List.of()), new Stmt.Block(List.of(new Stmt.Assign(
                Exprs.subscript(out, List.of(iRef)), null, Exprs.convertImplicitly(Exprs.unary(dev.yarpj.ir.UnOp.NEG, elem), NumType.UINT)))));
        Stmt sum = new Stmt.Reduce(new Expr.ScalarRef(acc), ReductionOp.SUM, elem);
        Stmt min = new Stmt.Reduce(new Expr.ScalarRef(mn), ReductionOp.MIN, Exprs.binary(BinOp.MUL, elem, iRef));
        Stmt xor = new Stmt.Reduce(new Expr.ScalarRef(x), ReductionOp.XOR, Exprs.cast(iRef, NumType.UINT));
        Stmt upNest = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(up, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                new Stmt.Block(List.of(store, odd, sum, min, xor)));

        Expr jRef = new Expr.IterRef(j);
        // j = 100, 97, ..., 13: thirty iterations, a step of three down.
        LoopHead down = new LoopHead(j, Exprs.convertImplicitly(new Expr.Const(NumType.INT, 100), NumType.SHORT),
                Exprs.binary(BinOp.GT, jRef, new Expr.Const(NumType.INT, 10)),
                Exprs.binary(BinOp.SUB, jRef, new Expr.Const(NumType.INT, 3)), 30, LoopHead.Parallelism.INDEPENDENT);
        Stmt store2 = new Stmt.Assign(Exprs.subscript(out2, List.of(jRef)), null, Exprs.convertImplicitly(
                Exprs.binary(BinOp.ADD, Exprs.binary(BinOp.MUL, jRef, new Expr.Const(NumType.INT, 2)), new Expr.Const(NumType.INT, 1)),
                NumType.SHORT));
        Stmt downNest = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(down, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                new Stmt.Block(List.of(store2)));
        return new Program(List.of(), List.of(acc, mn, x), List.of(in), List.of(out, out2), List.of(),
                new Stmt.Block(List.of(upNest, downNest)), 5, 3);
    }

    @Test
    void everyGangFormAndEveryPartialComputesThePrediction() throws Exception {
        Assumptions.assumeTrue(onPath("ispc"), "ispc is not on the PATH (run scripts/install-ispc.sh)");
        Program p = gangs();
        Prediction expected = Interpreter.run(p, 100_000, true, true);
        Set<String> forms = new HashSet<>();
        Set<String> seen = new HashSet<>();
        for (long seed = 1; seed <= 40 && forms.size() < 3; seed++) {
            LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(seed), false).lower(p, expected, CheckMode.ASSERTS, "ispc test");
            String ispc = t.files().get("func.ispc");
            if (!seen.add(ispc)) continue;
            for (String f : List.of("foreach (", "foreach_tiled (", "programIndex")) if (ispc.contains(f)) forms.add(f);
            if (!ispc.contains("foreach") && !ispc.contains("programIndex")) continue;
            // Three folds under the counting-up gang loop: a sum, a min and an exclusive or.
            if (ispc.contains("part_")) {
                assertTrue(ispc.contains("reduce_add(") && ispc.contains("reduce_min(") && ispc.contains("extract("), ispc);
            }
            assertFalse(ispc.contains("#pragma"), "no C pragma in ISPC");
            Path d = BuildAndRun.write(dir, t, "seed-" + seed);
            for (String target : List.of("sse4-i32x4", "avx2-i32x16")) {
                for (String opt : List.of("-O0", "-O2")) BuildAndRun.withIspc(d, target, opt, "rng " + seed + "\n" + ispc);
            }
            run(d, "g++", "-O2", "-w", "driver.cpp", "func.cpp", "-o", "cpp.bin", "-lm");
            assertEquals("OK", run(d, d.resolve("cpp.bin").toString()).strip(), "the C++ lowering");
        }
        assertEquals(3, forms.size(), "every gang form was picked: " + forms);
    }

    @Test
    void uniformAndVaryingFollowTheGangIterator() {
        Program p = gangs();
        for (long seed = 1; seed <= 20; seed++) {
            String ispc = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(seed), false)
                    .lower(p, Interpreter.run(p, 100_000), CheckMode.HASH, "ispc test").files().get("func.ispc");
            if (ispc.contains("foreach") || ispc.contains("programIndex")) {
                assertTrue(ispc.contains("varying int32 i_3 = ") || ispc.contains("varying int16 i_4 = "), ispc);
            }
            // No conversion from varying to uniform is ever printed.
            assertFalse(ispc.contains("((uniform"), "no cast to uniform: " + ispc);
        }
    }

    @Test
    void theMeasuringBuildCountsMixedMasksOfTheParityIf() throws Exception {
        Assumptions.assumeTrue(onPath("ispc"), "ispc is not on the PATH (run scripts/install-ispc.sh)");
        Program p = gangs();
        Prediction expected = Interpreter.run(p, 100_000);
        for (long seed = 1; seed <= 40; seed++) {
            LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(seed), true).lower(p, expected, CheckMode.HASH, "ispc test");
            String ispc = t.files().get("func.ispc");
            if (!ispc.contains("foreach (i_3_k") && !ispc.contains("i_3_g")) continue;
            assertEquals(1, t.choices().get("varying_ifs"), ispc);
            Path d = BuildAndRun.write(dir, t, "mask-" + seed);
            List<String> lines = BuildAndRun.ispcOutput(d, "avx2-i32x8", "-O1").lines().toList();
            // 37 iterations in gangs of 8: five gangs ran the if, every one with odd and even lanes.
            assertEquals(List.of("yarpj-mask 0 5 5 0", Long.toUnsignedString(expected.checksum())), lines, ispc);
            return;
        }
        fail("no rng made the counting-up loop a gang loop");
    }


    /**
     * Two views of one storage, the second a row behind the first, and a serial loop that
     * writes through one view and then reads the same element through the other:
     * {@code a[i] = 5; b[i + 1] = b[i + 1] ^ 7} (b[i + 1] is a[i]).
     */
    static Program views() {
        VarType u32 = VarType.uniform(NumType.UINT);
        Iterator i = new Iterator(0, "i_0", NumType.INT);
        ArrayVar storage = new ArrayVar(0, "buf_1", u32, List.of(6), false, ArrayVar.Fill.uniform(3), ArrayVar.Passing.GLOBAL);
        ArrayVar a = new ArrayVar(1, "out_2", u32, List.of(5), false, ArrayVar.Fill.uniform(3), new ArrayVar.Passing.View(storage, 1));
        ArrayVar b = new ArrayVar(2, "out_3", u32, List.of(5), false, ArrayVar.Fill.uniform(3), new ArrayVar.Passing.View(storage, 0));
        Expr iRef = new Expr.IterRef(i);
        Expr.Binary next = Exprs.binary(BinOp.ADD, iRef, new Expr.Const(NumType.INT, 1));
        LoopHead head = new LoopHead(i, new Expr.Const(NumType.INT, 0), Exprs.binary(BinOp.LT, iRef, new Expr.Const(NumType.INT, 4)),
                next, 4, LoopHead.Parallelism.SERIAL);
        Stmt write = new Stmt.Assign(Exprs.subscript(a, List.of(iRef)), null, Exprs.convertImplicitly(new Expr.Const(NumType.INT, 5), NumType.UINT));
        Expr readBack = Exprs.subscript(b, List.of(next));
        Stmt update = new Stmt.Assign(Exprs.subscript(b, List.of(next)), null,
                Exprs.binary(BinOp.BXOR, readBack, Exprs.convertImplicitly(new Expr.Const(NumType.INT, 7), NumType.UINT)));
        Stmt nest = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(head, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                new Stmt.Block(List.of(write, update)));
        return new Program(List.of(), List.of(), List.of(), List.of(storage), List.of(), List.of(a, b),
                new Stmt.Block(List.of(nest)), 1, 3);
    }

    @Test
    void viewsOfOneStorageAreReachedThroughOneParameterSinceIspcParametersAreNoalias() throws Exception {
        Program p = views();
        Prediction expected = Interpreter.run(p, 100_000, true, true);
        LoweredTest t = new IspcLowerer(EmitPolicy.DEFAULT.ispc(), new Rng(1), false).lower(p, expected, CheckMode.ASSERTS, "ispc test");
        String ispc = t.files().get("func.ispc");
        // The second view's parameter is unused; the body derives it from the first.
        assertTrue(ispc.contains("uniform unsigned int32 * uniform out_3_unused"), ispc);
        assertTrue(ispc.contains("uniform unsigned int32 * uniform out_3 = (uniform unsigned int32 * uniform) "
                + "(((uniform unsigned int32 * uniform) out_2) - 1);"), ispc);
        assertEquals(1, ispc.split("out_3_unused", -1).length - 1, "named once, in the parameter list: " + ispc);
        Assumptions.assumeTrue(onPath("ispc"), "ispc is not on the PATH (run scripts/install-ispc.sh)");
        Path d = BuildAndRun.write(dir, t, "views");
        // Passing the storage twice as two noalias parameters made ispc -O1 and above keep the
        // stale element in a register (campaign seed 9000027): every level must see the write.
        for (String opt : List.of("-O0", "-O1", "-O2")) BuildAndRun.withIspc(d, "avx2-i32x8", opt, ispc);
    }
}
