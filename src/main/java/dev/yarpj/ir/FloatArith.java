package dev.yarpj.ir;

import java.math.BigDecimal;

/**
 * Floating point in which no operation ever rounds. A program's {@code float} and {@code double}
 * values are chosen so that every operation's exact result is a value of its type: then every
 * association, contraction into FMA, vectorized reduction and fast-math rewrite gives the same
 * bits, and {@code -Ofast} can be tested against a prediction as integer code is. This class is
 * the rule, as {@link Arith} is for integers: an operation whose exact result its type does not
 * hold is "undefined" here ({@link UbKind#FP_INEXACT}), so the generator rewrites it and the
 * interpreter refuses it, as for integer UB.
 *
 * <p>A value is held as the bits of the Java {@code double} equal to it (a float's value is a
 * double's), with a zero always {@code +0.0}: no operation of the programs tells a zero's sign
 * (no division but by a power of two, no {@code copysign}; a min or max of two zeros is zero
 * either way; the driver's checksum reads every zero as 0), so fast-math, which may change it,
 * changes nothing the test prints. The values a type holds here are zero and its normal finite
 * numbers: no infinity, no NaN, and no subnormal, which {@code -ffast-math} flushes to zero on
 * x86-64 (its start-up code sets FTZ and DAZ).
 */
public final class FloatArith {
    private FloatArith() {}

    /** The value held in {@code bits}. */
    public static double value(long bits) {
        return Double.longBitsToDouble(bits);
    }

    /** How {@code v} is held: its double's bits, a zero as {@code +0.0}. */
    public static long bits(double v) {
        return v == 0 ? 0L : Double.doubleToRawLongBits(v);
    }

    /** Whether {@code v} is a value of {@code t} a program may hold: zero, or a normal finite number of {@code t}, exactly. */
    public static boolean holds(NumType t, double v) {
        if (!Double.isFinite(v)) return false;
        if (v == 0) return true;
        int e = Math.getExponent(v);
        // Normal, and its lowest set bit within the type's precision of its highest.
        return e >= t.minExponent() && e <= t.maxExponent() && AnyOrder.lowBit(v) > e - t.precision;
    }

    /** Whether {@code v} is 2 to some power, positive or negative: a divisor whose reciprocal is exact. */
    public static boolean powerOfTwo(double v) {
        double a = Math.abs(v);
        return a >= Double.MIN_NORMAL && Double.isFinite(a) && a == Math.scalb(1.0, Math.getExponent(a));
    }

    /**
     * What makes {@code a op b} in floating type {@code t} unfit, or null: a result that would
     * round, overflow, or be subnormal ({@link UbKind#FP_INEXACT}), a division by other than a
     * power of two ({@link UbKind#FP_DIVISOR}). Comparisons never are.
     */
    public static UbKind binaryUb(BinOp op, NumType t, long a, long b) {
        double x = value(a), y = value(b);
        switch (op) {
            case ADD, SUB: {
                double yy = op == BinOp.SUB ? -y : y;
                double s = x + yy;
                return exactSum(x, yy, s) && holds(t, s) ? null : UbKind.FP_INEXACT;
            }
            case MUL: {
                double p = x * y;
                if (!Double.isFinite(p)) return UbKind.FP_INEXACT;
                // Near the bottom of the range fma's error term is itself below the smallest double.
                if (x != 0 && y != 0 && Math.getExponent(x) + Math.getExponent(y) < Double.MIN_EXPONENT + 53) return UbKind.FP_INEXACT;
                return Math.fma(x, y, -p) == 0 && holds(t, p) && (p != 0 || x == 0 || y == 0) ? null : UbKind.FP_INEXACT;
            }
            case DIV: {
                if (!powerOfTwo(y)) return UbKind.FP_DIVISOR;
                double q = x / y;
                return holds(t, q) && q * y == x ? null : UbKind.FP_INEXACT;
            }
            case LT, GT, LE, GE, EQ, NE, LAND, LOR:
                return null;
            default:
                throw new IllegalArgumentException(op + " on " + t);
        }
    }

    /** Whether {@code s}, the rounded {@code x + y}, is the exact sum (Knuth's TwoSum error is 0). */
    private static boolean exactSum(double x, double y, double s) {
        if (!Double.isFinite(s)) return false;
        double yv = s - x;
        double xv = s - yv;
        return (x - xv) + (y - yv) == 0;
    }

    /** The value of {@code a op b} in floating type {@code t}, where {@link #binaryUb} found nothing. */
    public static long binary(BinOp op, NumType t, long a, long b) {
        double x = value(a), y = value(b);
        return switch (op) {
            case ADD -> bits(x + y);
            case SUB -> bits(x - y);
            case MUL -> bits(x * y);
            case DIV -> bits(x / y);
            case LT -> x < y ? 1 : 0;
            case GT -> x > y ? 1 : 0;
            case LE -> x <= y ? 1 : 0;
            case GE -> x >= y ? 1 : 0;
            case EQ -> x == y ? 1 : 0;
            case NE -> x != y ? 1 : 0;
            case LAND -> x != 0 && y != 0 ? 1 : 0;
            case LOR -> x != 0 || y != 0 ? 1 : 0;
            default -> throw new IllegalArgumentException(op + " on " + t);
        };
    }

    /** The value of {@code op a}: negation is exact, {@code !} tests against zero. */
    public static long unary(UnOp op, NumType t, long a) {
        double x = value(a);
        return switch (op) {
            case PLUS -> a;
            case NEG -> bits(-x);
            case LNOT -> x == 0 ? 1 : 0;
            case BNOT -> throw new IllegalArgumentException("~ on " + t);
        };
    }

    /**
     * What makes the math library's {@code fn} on {@code args} of floating type {@code t}
     * unfit, or null. {@code fma(a, b, c)} must be exact as {@code a * b} and then {@code + c}
     * too, so that a compiler that splits it, or contracts {@code a * b + c} into it, gets the
     * same value; {@code sqrt} must be of a square (a negative or a non-square rounds, or is
     * NaN). fmin, fmax and fabs always are exact.
     */
    public static UbKind callUb(Builtin fn, NumType t, long... args) {
        switch (fn) {
            case FMA: {
                UbKind product = binaryUb(BinOp.MUL, t, args[0], args[1]);
                return product != null ? product : binaryUb(BinOp.ADD, t, binary(BinOp.MUL, t, args[0], args[1]), args[2]);
            }
            case SQRT: {
                double x = value(args[0]);
                if (x < 0 || !holds(t, x)) return UbKind.FP_INEXACT;
                double r = Math.sqrt(x);
                return Math.fma(r, r, -x) == 0 && holds(t, r) ? null : UbKind.FP_INEXACT;
            }
            default:
                return null;
        }
    }

    /** The value of {@code fn} on {@code args} of floating type {@code t}, where {@link #callUb} found nothing. */
    public static long call(Builtin fn, NumType t, long... args) {
        return switch (fn) {
            case MIN, FMIN -> minMax(true, args[0], args[1]);
            case MAX, FMAX -> minMax(false, args[0], args[1]);
            case FMA -> binary(BinOp.ADD, t, binary(BinOp.MUL, t, args[0], args[1]), args[2]);
            case SQRT -> bits(Math.sqrt(value(args[0])));
            case FABS -> bits(Math.abs(value(args[0])));
        };
    }

    /** {@code fmin} or {@code fmax} (no NaN reaches them; of two zeros either is zero). */
    public static long minMax(boolean min, long a, long b) {
        double x = value(a), y = value(b);
        return min ? (x <= y ? a : b) : (x >= y ? a : b);
    }

    public static int compare(long a, long b) {
        return Double.compare(value(a), value(b));
    }

    /**
     * What makes converting {@code v} of type {@code from} to {@code to} unfit, where either is
     * floating, or null: to an integer type (not bool), a value whose integral part that type
     * does not hold is undefined in C ({@link UbKind#FLOAT_CAST_OVERFLOW}); to a floating type,
     * a value it does not hold exactly would round ({@link UbKind#FP_INEXACT}).
     */
    public static UbKind conversionUb(long v, NumType from, NumType to) {
        if (to.isFloat()) {
            double x = from.isFloat() ? value(v) : exactOf(v, from);
            if (!from.isFloat() && !new BigDecimal(x).equals(exactInteger(v, from))) return UbKind.FP_INEXACT;
            return holds(to, x) ? null : UbKind.FP_INEXACT;
        }
        if (to == NumType.BOOL) return null;
        BigDecimal whole = new BigDecimal(value(v)).setScale(0, java.math.RoundingMode.DOWN);
        BigDecimal lo = exactInteger(to.min(), to), hi = exactInteger(to.max(), to);
        return whole.compareTo(lo) < 0 || whole.compareTo(hi) > 0 ? UbKind.FLOAT_CAST_OVERFLOW : null;
    }

    /** {@code v} of type {@code from} converted to {@code to}, either floating; {@link #conversionUb} found nothing. */
    public static long convert(long v, NumType from, NumType to) {
        if (to.isFloat()) return bits(from.isFloat() ? value(v) : exactOf(v, from));
        double x = value(v);
        if (to == NumType.BOOL) return x != 0 ? 1 : 0;
        if (to == NumType.ULLONG && x >= 0x1p63) return new BigDecimal(x).toBigInteger().longValue();
        return Arith.convert((long) x, to); // truncated toward zero, as C converts
    }

    /** The integer {@code v} of type {@code t} as a double (rounded, where it has too many bits). */
    private static double exactOf(long v, NumType t) {
        return t == NumType.ULLONG && v < 0 ? exactInteger(v, t).doubleValue() : (double) v;
    }

    private static BigDecimal exactInteger(long v, NumType t) {
        return t == NumType.ULLONG ? new BigDecimal(Long.toUnsignedString(v)) : BigDecimal.valueOf(v);
    }
}
