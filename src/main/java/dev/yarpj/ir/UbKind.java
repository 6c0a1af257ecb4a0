package dev.yarpj.ir;

/**
 * What the generator must avoid and the interpreter refuses: integer undefined behaviour, a
 * floating-point conversion that is undefined, and the floating-point operations that would
 * round (see {@link FloatArith}), which are not UB in C but would make the prediction depend
 * on the order fast-math may choose.
 */
public enum UbKind {
    SIGNED_OVERFLOW,
    DIVISION_BY_ZERO,
    DIVISION_OVERFLOW,
    SHIFT_AMOUNT,
    SHIFT_OF_NEGATIVE,
    SHIFT_OVERFLOW,
    /** A floating value converted to an integer type that cannot hold its integral part (C11 6.3.1.4). */
    FLOAT_CAST_OVERFLOW,
    /** A floating-point result its type would round, or could not hold (infinite, NaN, subnormal). */
    FP_INEXACT,
    /** A floating-point division by other than a power of two, whose reciprocal would round. */
    FP_DIVISOR
}
