package dev.yarpj.ir;

/** The kinds of integer undefined behaviour the generator must avoid. */
public enum UbKind {
    SIGNED_OVERFLOW,
    DIVISION_BY_ZERO,
    DIVISION_OVERFLOW,
    SHIFT_AMOUNT,
    SHIFT_OF_NEGATIVE,
    SHIFT_OVERFLOW
}
