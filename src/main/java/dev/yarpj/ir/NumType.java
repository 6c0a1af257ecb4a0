package dev.yarpj.ir;

/**
 * The integer types of the generated programs, with their LP64 properties.
 * Values of every type are held in a Java {@code long} in canonical form: signed types
 * sign-extended, narrower unsigned types zero-extended, unsigned long long as its bit pattern.
 */
public enum NumType {
    BOOL(1, false, 0),
    SCHAR(8, true, 1),
    UCHAR(8, false, 1),
    SHORT(16, true, 2),
    USHORT(16, false, 2),
    INT(32, true, 3),
    UINT(32, false, 3),
    LLONG(64, true, 5),
    ULLONG(64, false, 5);

    public final int bits;
    public final boolean signed;
    /** Integer conversion rank (C11 6.3.1.1); long would be 4, and is not generated. */
    public final int rank;

    NumType(int bits, boolean signed, int rank) {
        this.bits = bits;
        this.signed = signed;
        this.rank = rank;
    }

    /** Storage size in bytes. */
    public int bytes() {
        return this == BOOL ? 1 : bits / 8;
    }

    public long min() {
        if (!signed) return 0;
        return bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
    }

    /** Largest value in canonical form (for ULLONG this is the bit pattern -1). */
    public long max() {
        if (this == BOOL) return 1;
        if (bits == 64) return signed ? Long.MAX_VALUE : -1L;
        return signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
    }

    public NumType toUnsigned() {
        return switch (this) {
            case SCHAR -> UCHAR;
            case SHORT -> USHORT;
            case INT -> UINT;
            case LLONG -> ULLONG;
            default -> this;
        };
    }
}
