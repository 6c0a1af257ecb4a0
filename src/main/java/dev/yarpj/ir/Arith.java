package dev.yarpj.ir;

/**
 * Exact C and C++ integer semantics for LP64: integer promotions, the usual arithmetic
 * conversions, conversions between types, every operator's result and its undefined
 * behaviour. Fleshing (to avoid UB while it builds) and the interpreter (to predict and to
 * re-check) both call these functions, so the two can never disagree on what a node means.
 * Operands of a floating type go to {@link FloatArith}, whose rule is exactness.
 *
 * <p>Left shift follows the C rule (the stricter one, also C++ before C++20): a negative
 * left operand, or a result not representable in the promoted type, is UB.
 */
public final class Arith {
    private Arith() {}

    /** Integer promotion: every type of rank below int becomes int (all their values fit). */
    public static NumType promote(NumType t) {
        return t.rank < NumType.INT.rank ? NumType.INT : t;
    }

    /** The usual arithmetic conversions (C11 6.3.1.8) applied to two operand types. */
    public static NumType common(NumType a, NumType b) {
        // A floating operand makes the other floating too, the wider of the two floating types.
        if (!b.isFloat() && a.isFloat()) return a;
        if (!a.isFloat() && b.isFloat()) return b;
        if (a.isFloat()) return a.rank >= b.rank ? a : b;
        a = promote(a);
        b = promote(b);
        if (a == b) return a;
        if (a.signed == b.signed) return a.rank >= b.rank ? a : b;
        NumType u = a.signed ? b : a;
        NumType s = a.signed ? a : b;
        if (u.rank >= s.rank) return u;
        if (s.bits > u.bits) return s;
        return s.toUnsigned();
    }

    /**
     * Converts a canonical value of an integer type to integer type {@code to} (wrap-around;
     * bool tests against zero); a value of floating type {@code to} stays as it is. A
     * conversion between an integer and a floating type takes {@link #convert(long, NumType,
     * NumType)}.
     */
    public static long convert(long v, NumType to) {
        if (to.isFloat()) return v;
        if (to == NumType.BOOL) return v != 0 ? 1 : 0;
        if (to.bits == 64) return v;
        int shift = 64 - to.bits;
        return to.signed ? (v << shift) >> shift : (v << shift) >>> shift;
    }

    /** Converts {@code v}, a value of type {@code from}, to type {@code to}. */
    public static long convert(long v, NumType from, NumType to) {
        if (from.isFloat() || to.isFloat()) return FloatArith.convert(v, from, to);
        return convert(v, to);
    }

    /** The UB of converting {@code v} of type {@code from} to {@code to}, or null: only a conversion with a floating type has any. */
    public static UbKind conversionUb(long v, NumType from, NumType to) {
        return from.isFloat() || to.isFloat() ? FloatArith.conversionUb(v, from, to) : null;
    }

    /**
     * Whether converting {@code v} (a value of type {@code from}) to {@code to} is
     * implementation-defined: the value is out of range for a signed type (C11 6.3.1.3p3).
     * gcc, clang and ispc all wrap it around, which {@link #convert} models; a policy can
     * ask for programs that never rely on it.
     */
    public static boolean conversionImplDefined(long v, NumType from, NumType to) {
        if (from.isFloat() || to.isFloat() || !to.signed) return false;
        if (!from.signed && from.bits == 64 && v < 0) return true; // above LLONG_MAX
        return v < to.min() || v > to.max();
    }

    /**
     * Whether {@code x op y} is implementation-defined: a right shift of a negative value
     * (C11 6.5.7p5). gcc, clang and ispc all shift arithmetically, which {@link #binary} models.
     */
    public static boolean binaryImplDefined(BinOp op, NumType lt, long x) {
        if (lt.isFloat()) return false;
        return op == BinOp.SHR && isNegative(x, promote(lt));
    }

    /** Whether {@code v}, read as a value of type {@code t}, is negative. */
    public static boolean isNegative(long v, NumType t) {
        return t.signed && v < 0;
    }

    /** The type of {@code op}'s result; for comparisons and logical operators, int. */
    public static NumType resultType(BinOp op, NumType lhs, NumType rhs) {
        if (op.isComparison() || op.isLogical()) return NumType.INT;
        if (op.isShift()) return promote(lhs);
        return common(lhs, rhs);
    }

    /**
     * The type each operand is converted to before {@code op} applies; for shifts each
     * operand is promoted on its own, for logical operators operands are only tested
     * against zero and keep their type.
     */
    public static NumType operandType(BinOp op, NumType lhs, NumType rhs, boolean left) {
        if (op.isLogical()) return left ? lhs : rhs;
        if (op.isShift()) return promote(left ? lhs : rhs);
        return common(lhs, rhs);
    }

    public static NumType resultType(UnOp op, NumType operand) {
        return op == UnOp.LNOT ? NumType.INT : promote(operand);
    }

    /**
     * The UB that {@code a op b} would cause, or null. Operands must already be converted
     * to {@link #operandType}: {@code lt} and {@code rt} are those converted types.
     */
    public static UbKind binaryUb(BinOp op, NumType lt, long a, NumType rt, long b) {
        if (op.isLogical()) return null;
        if (lt.isFloat()) return FloatArith.binaryUb(op, lt, a, b);
        switch (op) {
            case ADD, SUB, MUL:
                if (!lt.signed) return null;
                return signedOverflows(op, lt, a, b) ? UbKind.SIGNED_OVERFLOW : null;
            case DIV, REM:
                if (b == 0) return UbKind.DIVISION_BY_ZERO;
                if (lt.signed && a == lt.min() && b == -1) return UbKind.DIVISION_OVERFLOW;
                return null;
            case SHL, SHR: {
                boolean badAmount = rt.signed
                        ? (b < 0 || b >= lt.bits)
                        : Long.compareUnsigned(b, lt.bits) >= 0;
                if (badAmount) return UbKind.SHIFT_AMOUNT;
                if (op == BinOp.SHL && lt.signed) {
                    if (a < 0) return UbKind.SHIFT_OF_NEGATIVE;
                    if (a > (lt.max() >> b)) return UbKind.SHIFT_OVERFLOW;
                }
                return null;
            }
            default:
                return null;
        }
    }

    /** The value of {@code a op b}, in canonical form of the result type; assumes no UB. */
    public static long binary(BinOp op, NumType lt, long a, NumType rt, long b) {
        // && and || keep each operand's type; a floating zero is held as 0 too (FloatArith.bits).
        if (op == BinOp.LAND) return (a != 0 && b != 0) ? 1 : 0;
        if (op == BinOp.LOR) return (a != 0 || b != 0) ? 1 : 0;
        if (lt.isFloat()) return FloatArith.binary(op, lt, a, b);
        NumType t = lt;
        switch (op) {
            case ADD: return convert(a + b, t);
            case SUB: return convert(a - b, t);
            case MUL: return convert(a * b, t);
            case DIV:
                if (t == NumType.ULLONG) return Long.divideUnsigned(a, b);
                return convert(a / b, t);
            case REM:
                if (t == NumType.ULLONG) return Long.remainderUnsigned(a, b);
                return convert(a % b, t);
            case SHL: return convert(a << b, t);
            case SHR: return t.signed ? a >> b : (t.bits == 64 ? a >>> b : a >> b);
            case BAND: return a & b;
            case BOR: return a | b;
            case BXOR: return a ^ b;
            case LT: return compare(t, a, b) < 0 ? 1 : 0;
            case GT: return compare(t, a, b) > 0 ? 1 : 0;
            case LE: return compare(t, a, b) <= 0 ? 1 : 0;
            case GE: return compare(t, a, b) >= 0 ? 1 : 0;
            case EQ: return a == b ? 1 : 0;
            case NE: return a != b ? 1 : 0;
            case LAND: return (a != 0 && b != 0) ? 1 : 0;
            case LOR: return (a != 0 || b != 0) ? 1 : 0;
            default: throw new AssertionError(op);
        }
    }

    public static UbKind unaryUb(UnOp op, NumType t, long a) {
        if (t.isFloat()) return null; // negation is exact
        if (op == UnOp.NEG && t.signed && a == t.min()) return UbKind.SIGNED_OVERFLOW;
        return null;
    }

    /** The value of {@code op a} where {@code a} is already promoted to {@code t}. */
    public static long unary(UnOp op, NumType t, long a) {
        if (t.isFloat()) return FloatArith.unary(op, t, a);
        return switch (op) {
            case PLUS -> a;
            case NEG -> convert(-a, t);
            case BNOT -> convert(~a, t);
            case LNOT -> a == 0 ? 1 : 0;
        };
    }

    /** A library call over operands already converted to {@code t}, where {@link #builtinUb} found nothing. */
    public static long builtin(Builtin fn, NumType t, long... args) {
        return t.isFloat() ? FloatArith.call(fn, t, args) : minMax(fn, t, args[0], args[1]);
    }

    /**
     * {@link Builtin#MIN} or {@link Builtin#MAX} of two operands already converted to {@code t},
     * without the array {@link #builtin} takes: the interpreter's path for the common case.
     */
    public static long minMax(Builtin fn, NumType t, long a, long b) {
        if (t.isFloat()) return FloatArith.minMax(fn == Builtin.MIN, a, b);
        int c = compare(t, a, b);
        return fn == Builtin.MIN ? (c <= 0 ? a : b) : (c >= 0 ? a : b);
    }

    /** What makes a library call over operands already converted to {@code t} unfit, or null: min and max never are. */
    public static UbKind builtinUb(Builtin fn, NumType t, long... args) {
        return t.isFloat() ? FloatArith.callUb(fn, t, args) : null;
    }

    public static int compare(NumType t, long a, long b) {
        if (t.isFloat()) return FloatArith.compare(a, b);
        return t == NumType.ULLONG ? Long.compareUnsigned(a, b) : Long.compare(a, b);
    }

    /** Whether a signed +, - or * leaves the range of {@code t}. */
    private static boolean signedOverflows(BinOp op, NumType t, long a, long b) {
        if (t.bits < 64) {
            // Operands of int are 32-bit, so the exact result fits a long.
            long r = op == BinOp.ADD ? a + b : op == BinOp.SUB ? a - b : a * b;
            return r < t.min() || r > t.max();
        }
        switch (op) {
            case ADD: { long r = a + b; return ((a ^ r) & (b ^ r)) < 0; }
            case SUB: { long r = a - b; return ((a ^ b) & (a ^ r)) < 0; }
            default: { long r = a * b; return Math.multiplyHigh(a, b) != (r >> 63); }
        }
    }
}
