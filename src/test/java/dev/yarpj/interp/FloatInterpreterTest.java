package dev.yarpj.interp;

import static dev.yarpj.ir.FloatArith.bits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.VarType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Floating point in the interpreter: it computes exactly, and refuses a program in which an
 * operation would round or a conversion is undefined, as it refuses integer UB.
 */
class FloatInterpreterTest {
    private static final int N = 12;

    /** {@code acc += a[i] * scale} over {@code a}, all {@code t}, then {@code n = (int) acc}. */
    private static Program sum(NumType t, double element, double start, double scale) {
        VarType ft = VarType.uniform(t);
        ScalarVar acc = new ScalarVar(0, "res_0", ft, ScalarVar.Role.OUTPUT, bits(start), false);
        ScalarVar n = new ScalarVar(1, "res_1", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
        Iterator it = new Iterator(2, "i_2", NumType.INT);
        ArrayVar a = new ArrayVar(0, "arr_0", ft, List.of(N), true, ArrayVar.Fill.uniform(bits(element)));
        Expr i = new Expr.IterRef(it);
        Expr term = Exprs.binary(BinOp.MUL, Exprs.subscript(a, List.of(i)), new Expr.Const(t, bits(scale)));
        LoopHead h = new LoopHead(it, c(0), Exprs.binary(BinOp.LT, i, c(N)), Exprs.binary(BinOp.ADD, i, c(1)), N,
                LoopHead.Parallelism.SERIAL);
        Stmt.LoopNest loop = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(h, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                new Stmt.Block(List.of(new Stmt.Assign(new Expr.ScalarRef(acc), BinOp.ADD, term))));
        Stmt toInt = new Stmt.Assign(new Expr.ScalarRef(n), null, Exprs.cast(new Expr.ScalarRef(acc), NumType.INT));
        return new Program(List.of(), List.of(acc, n), List.of(a), List.of(), List.of(), new Stmt.Block(List.of(loop, toInt)), 3, 1);
    }

    /**
     * {@code res_0 = value(arrays)}, the one statement of a program of type {@code t}, over
     * input arrays each holding one of {@code elements} everywhere.
     */
    private static Program assigned(NumType t, java.util.function.Function<List<ArrayVar>, Expr> value, double... elements) {
        VarType ft = VarType.uniform(t);
        ScalarVar out = new ScalarVar(0, "res_0", ft, ScalarVar.Role.OUTPUT, 0, false);
        List<ArrayVar> arrays = new java.util.ArrayList<>();
        for (double x : elements) {
            arrays.add(new ArrayVar(arrays.size(), "arr_" + arrays.size(), ft, List.of(N), true, ArrayVar.Fill.uniform(bits(x))));
        }
        Stmt s = new Stmt.Assign(new Expr.ScalarRef(out), null, value.apply(arrays));
        return new Program(List.of(), List.of(out), arrays, List.of(), List.of(), new Stmt.Block(List.of(s)), 1, arrays.size());
    }

    private static Expr first(ArrayVar a) {
        return Exprs.subscript(a, List.of(c(0)));
    }

    private static Expr c(long v) {
        return new Expr.Const(NumType.INT, v);
    }

    @Test
    void anExactSumIsPredictedBitForBit() {
        Prediction p = Interpreter.run(sum(NumType.FLOAT, 0.75, 0.5, 0.5), 10_000);
        assertEquals(List.of(bits(0.5 + N * 0.375), 5L), p.scalars());
        Prediction d = Interpreter.run(sum(NumType.DOUBLE, -3.25, 0x1p20, 0x1p-3), 10_000);
        assertEquals(List.of(bits(0x1p20 - N * 3.25 / 8), 1048571L), d.scalars());
    }

    @Test
    void aSumThatWouldRoundIsRefused() {
        // 2^24 + 0.375 needs more than float's 24 significant bits: the first step would round.
        UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class,
                () -> Interpreter.run(sum(NumType.FLOAT, 0.75, 0x1p24, 0.5), 10_000));
        assertTrue(e.getMessage().startsWith("FP_INEXACT"), e.getMessage());
        // The same sum in double is exact.
        Interpreter.run(sum(NumType.DOUBLE, 0.75, 0x1p24, 0.5), 10_000);
    }

    @Test
    void aHalfSumIsRefusedPastElevenBitsWhereAFloatOneIsKept() {
        // 7 + 12 * 170 = 2047: every partial sum is an integer a half holds; 9 + ... = 2049 is not.
        assertEquals(List.of(bits(2047.0), 2047L), Interpreter.run(sum(NumType.HALF, 170, 7, 1), 10_000).scalars());
        UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class,
                () -> Interpreter.run(sum(NumType.HALF, 170, 9, 1), 10_000));
        assertTrue(e.getMessage().startsWith("FP_INEXACT"), e.getMessage());
        assertEquals(List.of(bits(2049.0), 2049L), Interpreter.run(sum(NumType.FLOAT, 170, 9, 1), 10_000).scalars());
    }

    @Test
    void aSumExactAsWrittenIsRefusedWhereAnotherOrderWouldRound() {
        // out = (a[0] + b[0]) + k, in float: (2^22 + -2^22) + 0.125 is exact as written, but a
        // compiler may add -2^22 + 0.125 first, which needs 26 significant bits. In double
        // every order is exact.
        for (NumType t : new NumType[] {NumType.DOUBLE, NumType.FLOAT}) {
            Program p = assigned(t, ab -> Exprs.binary(BinOp.ADD, Exprs.binary(BinOp.ADD, first(ab.get(0)), first(ab.get(1))),
                    new Expr.Const(t, bits(0.125))), 0x1p22, -0x1p22);
            if (t == NumType.DOUBLE) {
                assertEquals(List.of(bits(0.125)), Interpreter.run(p, 10_000).scalars());
            } else {
                UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(p, 10_000));
                assertTrue(e.getMessage().startsWith("FP_INEXACT in some order"), e.getMessage());
            }
        }
    }

    @Test
    void anAccumulatorsBoundGrowsWithEachIteration() {
        // acc += a[i] * 0.5 (0.375: eighths) in float, from 2^20: every order is exact (the
        // bound, 2^20 plus at most 1 a term, stays under 2^21, below which eighths fit in 24
        // bits). From 2^21 - 1 the first step is exact as written (2^21 - 0.625 needs 24
        // bits), but the bound reaches 2^21: refused before any step rounds as written.
        Interpreter.run(sum(NumType.FLOAT, 0.75, 0x1p20, 0.5), 10_000);
        UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class,
                () -> Interpreter.run(sum(NumType.FLOAT, 0.75, 0x1p21 - 1, 0.5), 10_000));
        assertTrue(e.getMessage().startsWith("FP_INEXACT in some order"), e.getMessage());
    }

    @Test
    void aSquareRootThatWouldRoundIsRefused() {
        // out = sqrt(a[0]) over an array of 2.25, then of 2: the root of 2 would round.
        for (double element : new double[] {2.25, 2}) {
            Program p = assigned(NumType.DOUBLE, a -> Exprs.call(dev.yarpj.ir.Builtin.SQRT, first(a.get(0))), element);
            if (element == 2.25) {
                assertEquals(List.of(bits(1.5)), Interpreter.run(p, 10_000).scalars());
            } else {
                UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(p, 10_000));
                assertTrue(e.getMessage().startsWith("FP_INEXACT: sqrt(2.0)"), e.getMessage());
            }
        }
    }

    @Test
    void aConversionOutOfRangeIsRefused() {
        // acc ends at 2^40: (int) acc is undefined.
        UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class,
                () -> Interpreter.run(sum(NumType.DOUBLE, 0, 0x1p40, 1), 10_000));
        assertTrue(e.getMessage().startsWith("FLOAT_CAST_OVERFLOW"), e.getMessage());
    }
}
