package dev.yarpj.flesh;

import static dev.yarpj.ir.FloatArith.bits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.NumType;
import org.junit.jupiter.api.Test;

/**
 * How floating expressions are kept exact: an operation that would round is dropped for its
 * left operand, and so is one that is exact as written but that some rearrangement a compiler
 * may make under fast-math would round.
 */
class FloatStatementsTest {
    private static FloatStatements.FValue leaf(NumType t, double x) {
        return FloatStatements.FValue.leaf(new Expr.Const(t, bits(x)), new long[] {bits(x), bits(x)});
    }

    @Test
    void anOperationThatWouldRoundIsRewrittenToItsLeftOperand() {
        FloatStatements.FValue big = leaf(NumType.FLOAT, 0x1p24);
        FloatStatements.FValue half = leaf(NumType.FLOAT, 0.5);
        assertSame(big, FloatStatements.combine(BinOp.ADD, big, half, Valued.BOTH, NumType.FLOAT));
        // In double the same sum is exact and kept.
        FloatStatements.FValue sum = FloatStatements.combine(BinOp.ADD, leaf(NumType.DOUBLE, 0x1p24), leaf(NumType.DOUBLE, 0.5),
                Valued.BOTH, NumType.DOUBLE);
        assertTrue(sum.expr() instanceof Expr.Binary, sum.expr().toString());
        assertEquals(bits(0x1p24 + 0.5), sum.values()[0]);
    }

    @Test
    void anExactOperationIsRewrittenWhereAReassociationWouldRound() {
        // (2^20 + -2^20) + 2^-4 is exact in float as written (0, then 2^-4), but a compiler may
        // add -2^20 + 2^-4 first, which needs 25 significant bits: the second addition is dropped.
        FloatStatements.FValue zero = FloatStatements.combine(BinOp.ADD, leaf(NumType.FLOAT, 0x1p20), leaf(NumType.FLOAT, -0x1p20),
                Valued.BOTH, NumType.FLOAT);
        assertTrue(zero.expr() instanceof Expr.Binary, "2^20 + -2^20 alone is kept: every order of it is exact");
        assertEquals(0L, zero.values()[0]);
        assertSame(zero, FloatStatements.combine(BinOp.ADD, zero, leaf(NumType.FLOAT, 0x1p-4), Valued.BOTH, NumType.FLOAT));
        // Products: 1.5 * 3.25 is exact, but with a quantum of 2^-3 a bound of 2^21 is the most float allows.
        FloatStatements.FValue p = FloatStatements.combine(BinOp.MUL, leaf(NumType.FLOAT, 1.5), leaf(NumType.FLOAT, 3.25),
                Valued.BOTH, NumType.FLOAT);
        assertEquals(bits(4.875), p.values()[1]);
        FloatStatements.FValue wide = leaf(NumType.FLOAT, 0x1p20);
        assertSame(p, FloatStatements.combine(BinOp.MUL, p, wide, Valued.BOTH, NumType.FLOAT));
    }

    @Test
    void aSumOverBothContextsCountsTheFinestQuantumWithTheLargestBound() {
        // The value is 0.125 on even iterations and 2^18 on odd ones. Each context alone could
        // be summed 32 times in float, but the one accumulator gets both: 2^18 * 16 + 0.125
        // already needs more than 24 significant bits.
        FloatStatements.FValue e = FloatStatements.FValue.leaf(null, new long[] {bits(0.125), bits(0x1p18)});
        assertTrue(!FloatStatements.sumExactInAnyOrder(NumType.FLOAT, 0, e, Valued.BOTH, 32));
        assertTrue(FloatStatements.sumExactInAnyOrder(NumType.FLOAT, 0, e, Valued.EVEN, 32));
        assertTrue(FloatStatements.sumExactInAnyOrder(NumType.FLOAT, 0, e, Valued.ODD, 32));
        assertTrue(FloatStatements.sumExactInAnyOrder(NumType.DOUBLE, 0, e, Valued.BOTH, 32));
    }

    @Test
    void anInductionIsKeptOnlyWhereEveryValueAVectorizerMakesOfItIsExact() {
        // 0.125 + n * 0.5 for n up to twice 1000 iterations (and a few vectors more) needs 3
        // fraction bits and 11 integer bits: float holds them all.
        assertTrue(FloatStatements.inductionExact(NumType.FLOAT, bits(0.125), bits(0.5), 1000, 100));
        // Four million iterations take it past 2^21, which with eighths needs more than 24 bits.
        assertTrue(!FloatStatements.inductionExact(NumType.FLOAT, bits(0.125), bits(0.5), 4_000_000, 100));
        // Double holds it.
        assertTrue(FloatStatements.inductionExact(NumType.DOUBLE, bits(0.125), bits(0.5), 4_000_000, 100));
        // An integer start and a step of eighths: the step's quantum counts, as the start's
        // does, and a step under 1 counts as 1, as the interpreter's check counts it (2^21
        // steps reach 2^21, where eighths no longer fit in float).
        assertTrue(FloatStatements.inductionExact(NumType.FLOAT, bits(3), bits(-0.125), 1 << 19, 100));
        assertTrue(!FloatStatements.inductionExact(NumType.FLOAT, bits(3), bits(-0.125), 1 << 20, 100));
    }

    @Test
    void anAbsoluteValueIsACompareAndSelectWithItsOperandsQuantumAndBound() {
        FloatStatements.FValue x = FloatStatements.FValue.leaf(new Expr.Const(NumType.FLOAT, bits(-2.5)), new long[] {bits(-2.5), bits(0.75)});
        FloatStatements.FValue a = FloatStatements.abs(x, NumType.FLOAT);
        assertTrue(a.expr() instanceof Expr.Ternary t && t.cond() instanceof Expr.Binary b && b.op() == BinOp.LT, a.expr().toString());
        assertEquals(bits(2.5), a.values()[0]);
        assertEquals(bits(0.75), a.values()[1]);
        assertEquals(x.quantum()[0], a.quantum()[0]);
        assertEquals(x.bound()[1], a.bound()[1]);
    }

    @Test
    void aProductAndSumIsAnFmaOnlyWhereBothAreExact() {
        FloatStatements.FValue a = leaf(NumType.FLOAT, 1.5), b = leaf(NumType.FLOAT, 2.25), c = leaf(NumType.FLOAT, -0.375);
        FloatStatements.FValue fused = FloatStatements.fma(a, b, c, Valued.BOTH, NumType.FLOAT, true);
        assertTrue(fused.expr() instanceof Expr.Call call && call.fn() == Builtin.FMA, fused.expr().toString());
        assertEquals(bits(3.0), fused.values()[0]);
        FloatStatements.FValue open = FloatStatements.fma(a, b, c, Valued.BOTH, NumType.FLOAT, false);
        assertTrue(open.expr() instanceof Expr.Binary s && s.op() == BinOp.ADD && s.lhs() instanceof Expr.Binary, open.expr().toString());
        assertEquals(fused.values()[1], open.values()[1]);
        assertEquals(fused.bound()[0], open.bound()[0]);
        // 2^20 * 1.5 + 2^-4 would round in some order: the product alone.
        FloatStatements.FValue product = FloatStatements.fma(leaf(NumType.FLOAT, 0x1p20), a, leaf(NumType.FLOAT, 0x1p-4), Valued.BOTH, NumType.FLOAT, true);
        assertTrue(product.expr() instanceof Expr.Binary p && p.op() == BinOp.MUL, product.expr().toString());
    }

    @Test
    void aSquareRootIsOfAnExactSquareInDoubleOnly() {
        FloatStatements.FValue x = FloatStatements.FValue.leaf(new Expr.Const(NumType.DOUBLE, bits(-2.5)), new long[] {bits(-2.5), bits(0.75)});
        FloatStatements.FValue r = FloatStatements.squareRoot(x, Valued.BOTH, NumType.DOUBLE, true);
        assertTrue(r.expr() instanceof Expr.Call c && c.fn() == Builtin.SQRT && c.args().get(0) instanceof Expr.Binary m && m.op() == BinOp.MUL,
                r.expr().toString());
        assertEquals(bits(2.5), r.values()[0]);
        assertEquals(bits(0.75), r.values()[1]);
        // Its bound is the square's too, and the open-coded |x| carries the same.
        assertEquals(2.5 * 2.5, r.bound()[0], 0.01);
        FloatStatements.FValue open = FloatStatements.squareRoot(x, Valued.BOTH, NumType.DOUBLE, false);
        assertTrue(open.expr() instanceof Expr.Ternary, open.expr().toString());
        assertEquals(r.bound()[0], open.bound()[0]);
        assertEquals(r.quantum()[1], open.quantum()[1]);
        // In float, no sqrtf (fast-math may estimate it): fabsf.
        FloatStatements.FValue f = leaf(NumType.FLOAT, -3);
        FloatStatements.FValue fr = FloatStatements.squareRoot(f, Valued.BOTH, NumType.FLOAT, true);
        assertTrue(fr.expr() instanceof Expr.Call c && c.fn() == Builtin.FABS, fr.expr().toString());
        assertEquals(bits(3), fr.values()[0]);
    }

}
