package dev.yarpj.ir;

import static dev.yarpj.ir.FloatArith.bits;
import static dev.yarpj.ir.FloatArith.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The exactness rule of floating point: what rounds is refused, what does not is computed exactly. */
class FloatArithTest {
    private static UbKind ub(BinOp op, NumType t, double a, double b) {
        return Arith.binaryUb(op, t, bits(a), t, bits(b));
    }

    private static double apply(BinOp op, NumType t, double a, double b) {
        assertNull(ub(op, t, a, b), a + " " + op.symbol + " " + b + " in " + t);
        return value(Arith.binary(op, t, bits(a), t, bits(b)));
    }

    @Test
    void aSumThatWouldRoundIsRefusedInFloatAndKeptInDouble() {
        double big = 0x1p24; // 16777216: float has no 16777217
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.ADD, NumType.FLOAT, big, 1));
        assertEquals(16777217.0, apply(BinOp.ADD, NumType.DOUBLE, big, 1));
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.ADD, NumType.DOUBLE, 0x1p53, 1));
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.SUB, NumType.FLOAT, 1, 0x1p-30));
        assertEquals(-2.75, apply(BinOp.SUB, NumType.FLOAT, 0.25, 3));
    }

    @Test
    void halfPrecisionHoldsElevenSignificantBitsAndNormalNumbersUpTo65504() {
        // Every integer up to 2048, then only even ones; 65504 is the largest half, 2^-14 the smallest normal.
        assertEquals(2048.0, apply(BinOp.ADD, NumType.HALF, 2047, 1));
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.ADD, NumType.HALF, 2048, 1));
        assertEquals(2050.0, apply(BinOp.ADD, NumType.HALF, 2048, 2));
        assertEquals(65504.0, apply(BinOp.MUL, NumType.HALF, 32752, 2));
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.ADD, NumType.HALF, 65504, 32));
        assertEquals(0x1p-14, apply(BinOp.DIV, NumType.HALF, 0x1p-13, 2));
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.DIV, NumType.HALF, 0x1p-14, 2));
        assertEquals(65504.0, NumType.HALF.largest());
        assertEquals(bits(-65504.0), ReductionOp.MAX.identity(NumType.HALF));
        // A conversion from int rounds above 2048 where the value is odd; to an integer, past its range it is undefined.
        assertEquals(UbKind.FP_INEXACT, Arith.conversionUb(2049, NumType.INT, NumType.HALF));
        assertNull(Arith.conversionUb(4096, NumType.INT, NumType.HALF));
        assertEquals(UbKind.FLOAT_CAST_OVERFLOW, Arith.conversionUb(bits(65504.0), NumType.HALF, NumType.SHORT));
        assertEquals(-1023L, Arith.convert(bits(-1023.5), NumType.HALF, NumType.INT));
    }

    @Test
    void productsAreExactOrRefused() {
        assertEquals(3.375, apply(BinOp.MUL, NumType.FLOAT, 1.5, 2.25));
        // 4097 * 4097 = 16785409 needs 25 significant bits.
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.MUL, NumType.FLOAT, 4097, 4097));
        assertEquals(16785409.0, apply(BinOp.MUL, NumType.DOUBLE, 4097, 4097));
        // Overflow, and a result below the normal range (flushed to zero under fast-math), are refused too.
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.MUL, NumType.FLOAT, Float.MAX_VALUE, 2));
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.MUL, NumType.FLOAT, Float.MIN_NORMAL, 0.5));
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.MUL, NumType.DOUBLE, Double.MIN_NORMAL, 0x1p-60));
    }

    @Test
    void divisionOnlyByAPowerOfTwo() {
        assertEquals(0.75, apply(BinOp.DIV, NumType.FLOAT, 3, 4));
        assertEquals(-12.0, apply(BinOp.DIV, NumType.DOUBLE, 3, -0.25));
        // 6 / 3 is exact, but its reciprocal 1/3 is not: fast-math may multiply by it.
        assertEquals(UbKind.FP_DIVISOR, ub(BinOp.DIV, NumType.DOUBLE, 6, 3));
        assertEquals(UbKind.FP_DIVISOR, ub(BinOp.DIV, NumType.FLOAT, 1, 0));
        assertEquals(UbKind.FP_INEXACT, ub(BinOp.DIV, NumType.FLOAT, Float.MIN_NORMAL, 2));
    }

    @Test
    void theMathLibrarysCallsAreExactOrRefused() {
        // fma(a, b, c) must be exact split as a * b, then + c, so that contraction changes nothing.
        assertNull(FloatArith.callUb(Builtin.FMA, NumType.FLOAT, bits(1.5), bits(2.25), bits(-0.375)));
        assertEquals(3.0, value(Arith.builtin(Builtin.FMA, NumType.FLOAT, bits(1.5), bits(2.25), bits(-0.375))));
        // 4097 * 4097 rounds in float, although the fused result 4097 * 4097 - 16785409 = 0 would not.
        assertEquals(UbKind.FP_INEXACT, FloatArith.callUb(Builtin.FMA, NumType.FLOAT, bits(4097), bits(4097), bits(-16785409)));
        assertEquals(UbKind.FP_INEXACT, FloatArith.callUb(Builtin.FMA, NumType.FLOAT, bits(0x1p24), bits(1), bits(1)));
        // A square root only of a square.
        assertEquals(1.5, value(Arith.builtin(Builtin.SQRT, NumType.DOUBLE, bits(2.25))));
        assertNull(Arith.builtinUb(Builtin.SQRT, NumType.DOUBLE, bits(0x1p-40)));
        assertEquals(UbKind.FP_INEXACT, Arith.builtinUb(Builtin.SQRT, NumType.DOUBLE, bits(2)));
        assertEquals(UbKind.FP_INEXACT, Arith.builtinUb(Builtin.SQRT, NumType.DOUBLE, bits(-4)));
        assertEquals(0L, Arith.builtin(Builtin.SQRT, NumType.DOUBLE, bits(0)));
        // fmin, fmax and fabs always are exact.
        assertEquals(-2.0, value(Arith.builtin(Builtin.FMIN, NumType.DOUBLE, bits(-2), bits(0.5))));
        assertEquals(0.5, value(Arith.builtin(Builtin.FMAX, NumType.FLOAT, bits(-2), bits(0.5))));
        assertEquals(2.0, value(Arith.builtin(Builtin.FABS, NumType.FLOAT, bits(-2))));
        assertNull(Arith.builtinUb(Builtin.FABS, NumType.FLOAT, bits(-2)));
    }

    @Test
    void aZeroIsAlwaysHeldAsPlusZero() {
        assertEquals(0L, Arith.binary(BinOp.MUL, NumType.DOUBLE, bits(-1.0), NumType.DOUBLE, bits(0.0)));
        assertEquals(0L, Arith.unary(UnOp.NEG, NumType.FLOAT, bits(0.0)));
        assertEquals(0L, bits(-0.0));
        assertEquals(1L, Arith.binary(BinOp.EQ, NumType.DOUBLE, bits(0.0), NumType.DOUBLE, bits(-0.0)));
    }

    @Test
    void conversionsAreExactOrRefused() {
        // To an integer: truncated toward zero; an integral part out of range is undefined.
        assertEquals(3L, Arith.convert(bits(3.75), NumType.DOUBLE, NumType.INT));
        assertEquals(-3L, Arith.convert(bits(-3.75), NumType.FLOAT, NumType.SCHAR));
        assertNull(Arith.conversionUb(bits(-0.5), NumType.DOUBLE, NumType.UINT));
        assertEquals(0L, Arith.convert(bits(-0.5), NumType.DOUBLE, NumType.UINT));
        assertEquals(UbKind.FLOAT_CAST_OVERFLOW, Arith.conversionUb(bits(-1.0), NumType.DOUBLE, NumType.UINT));
        assertEquals(UbKind.FLOAT_CAST_OVERFLOW, Arith.conversionUb(bits(256.0), NumType.FLOAT, NumType.UCHAR));
        assertNull(Arith.conversionUb(bits(255.5), NumType.FLOAT, NumType.UCHAR));
        assertEquals(UbKind.FLOAT_CAST_OVERFLOW, Arith.conversionUb(bits(0x1p63), NumType.DOUBLE, NumType.LLONG));
        assertEquals(Long.MIN_VALUE, Arith.convert(bits(0x1p63), NumType.DOUBLE, NumType.ULLONG)); // 2^63 as unsigned
        assertEquals(1L, Arith.convert(bits(0.25), NumType.DOUBLE, NumType.BOOL));
        // From an integer: only a value the type holds exactly.
        assertEquals(16777216.0, value(Arith.convert(1 << 24, NumType.INT, NumType.FLOAT)));
        assertEquals(UbKind.FP_INEXACT, Arith.conversionUb((1 << 24) + 1, NumType.INT, NumType.FLOAT));
        assertNull(Arith.conversionUb((1 << 24) + 1, NumType.INT, NumType.DOUBLE));
        assertEquals(UbKind.FP_INEXACT, Arith.conversionUb(-1L, NumType.ULLONG, NumType.DOUBLE)); // 2^64 - 1
        assertNull(Arith.conversionUb(Long.MIN_VALUE, NumType.ULLONG, NumType.DOUBLE));
        assertEquals(0x1p63, value(Arith.convert(Long.MIN_VALUE, NumType.ULLONG, NumType.DOUBLE)));
        // Between the floating types: double to float only where float holds it.
        assertEquals(UbKind.FP_INEXACT, Arith.conversionUb(bits(0.1), NumType.DOUBLE, NumType.FLOAT));
        assertNull(Arith.conversionUb(bits(0.375), NumType.DOUBLE, NumType.FLOAT));
        assertEquals(UbKind.FP_INEXACT, Arith.conversionUb(bits(1e300), NumType.DOUBLE, NumType.FLOAT));
    }

    @Test
    void theUsualArithmeticConversionsPickTheWiderFloatingType() {
        assertEquals(NumType.FLOAT, Arith.common(NumType.ULLONG, NumType.FLOAT));
        assertEquals(NumType.DOUBLE, Arith.common(NumType.FLOAT, NumType.DOUBLE));
        assertEquals(NumType.DOUBLE, Arith.common(NumType.DOUBLE, NumType.SCHAR));
        assertEquals(NumType.INT, Arith.resultType(BinOp.LT, NumType.FLOAT, NumType.FLOAT));
    }

    @Test
    void whatATypeHolds() {
        assertTrue(FloatArith.holds(NumType.FLOAT, 0x1.fffffep127));
        assertFalse(FloatArith.holds(NumType.FLOAT, 0x1.fffffe1p0));
        assertFalse(FloatArith.holds(NumType.DOUBLE, Double.MIN_VALUE)); // subnormal
        assertFalse(FloatArith.holds(NumType.DOUBLE, Double.NaN));
        assertTrue(FloatArith.powerOfTwo(0x1p-20) && FloatArith.powerOfTwo(-8) && !FloatArith.powerOfTwo(6));
        assertEquals(FloatArith.bits(Float.MAX_VALUE), ReductionOp.MIN.identity(NumType.FLOAT));
    }
}
