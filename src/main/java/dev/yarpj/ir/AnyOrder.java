package dev.yarpj.ir;

/**
 * The rule that keeps a floating expression exact in any order a compiler may compute it,
 * beside {@link FloatArith}'s rule that keeps it exact as written. Fast-math may reassociate
 * ({@code (a + b) + c} as {@code a + (b + c)}), undistribute ({@code x*a + x*b} as {@code x*(a
 * + b)}), contract into FMA, or add a reduction's terms in another order: the values it makes
 * on the way are not the program's. So every expression carries a quantum {@code 2^quantum}
 * (every value any rearrangement of it makes is a multiple of it) and a bound on their
 * magnitudes, and it is exact in any order where {@code bound < 2^(p + quantum)} for its
 * type's precision {@code p} ({@link #holds}).
 *
 * <p>A value {@code x} alone has the quantum {@code min(0, lowest set bit of x)} and the bound
 * {@code max(1, |x|)} (a quantum never above 0 and a bound never below 1 make a
 * subexpression of a rearrangement no worse than the whole); a sum has the finer quantum and
 * the sum of the bounds; a product the sum of the quanta and the product of the bounds; a
 * division by {@code 2^k} is a product by {@code 2^-k}; a min or max of two the finer quantum
 * and the larger bound. A select ({@code c ? a : b}) has, in the generator, both arms'
 * (joined, as it does not know {@code c} for every iteration) and, in the interpreter, the arm
 * taken: the other is not the value, whatever a compiler computes of it. The generator keeps an operation only
 * where its result holds ({@code flesh.FloatStatements}); the interpreter checks every
 * operation it runs against the same rule ({@code interp.Interpreter}), so that a program
 * changed after generation (by reduction) cannot start to depend on the order.
 *
 * @param quantum the exponent of the quantum: every value is a multiple of {@code 2^quantum}
 * @param bound   a bound on the magnitude of every value
 */
public record AnyOrder(int quantum, double bound) {
    /** A value alone ({@code bits} of a floating value, as {@link FloatArith} holds it). */
    public static AnyOrder of(long bits) {
        double x = FloatArith.value(bits);
        return new AnyOrder(x == 0 ? 0 : Math.min(0, lowBit(x)), Math.max(1, Math.abs(x)));
    }

    /** {@code this op other} for +, - and *. */
    public AnyOrder combine(BinOp op, AnyOrder other) {
        return switch (op) {
            case ADD, SUB -> new AnyOrder(Math.min(quantum, other.quantum), Math.nextUp(bound + other.bound));
            case MUL -> new AnyOrder(quantum + other.quantum, Math.nextUp(bound * other.bound));
            default -> throw new IllegalArgumentException(op + " has no floating rearrangement here");
        };
    }

    /**
     * {@code this / d}, {@code d} a power of two ({@code divisor}'s bits): the product by its
     * reciprocal {@code r = 1/d}, which fast-math may compute instead, with {@code r}'s own
     * quantum and bound ({@code min(0, log2 r)}, {@code max(1, r)}). Both are powers of two, so
     * the bound is exact without rounding up: by 2, 4 or 8 it stays, by 1/4 it is 4 times.
     */
    public AnyOrder dividedBy(long divisor) {
        int e = -Math.getExponent(FloatArith.value(divisor));
        return new AnyOrder(quantum + Math.min(0, e), bound * Math.max(1, Math.scalb(1.0, e)));
    }

    /** {@code this op other} for +, -, * and / by a power of two ({@code other}'s bits {@code otherBits}). */
    public AnyOrder combine(BinOp op, AnyOrder other, long otherBits) {
        return op == BinOp.DIV ? dividedBy(otherBits) : combine(op, other);
    }

    /** One of the two: the finer quantum and the larger bound. */
    public AnyOrder joined(AnyOrder other) {
        return new AnyOrder(Math.min(quantum, other.quantum), Math.max(bound, other.bound));
    }

    /** Whether every value any rearrangement makes is a value {@code t} holds. */
    public boolean holds(NumType t) {
        return holdsAll(t, quantum, bound);
    }

    /** Whether every multiple of {@code 2^q} up to {@code bound} in magnitude is a value {@code t} holds. */
    public static boolean holdsAll(NumType t, int q, double bound) {
        return q >= t.minExponent() && bound < Math.scalb(1.0, t.precision + q);
    }

    /** The exponent of {@code x}'s lowest set bit: {@code x = m * 2^e} with {@code m} an odd integer. */
    static int lowBit(double x) {
        long bits = Double.doubleToRawLongBits(Math.abs(x));
        int exponent = Math.getExponent(x) - 52;
        long mantissa = (bits & ((1L << 52) - 1)) | (1L << 52);
        return exponent + Long.numberOfTrailingZeros(mantissa);
    }
}
