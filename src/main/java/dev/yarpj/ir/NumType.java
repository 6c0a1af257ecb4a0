package dev.yarpj.ir;

/**
 * The arithmetic types of the generated programs: the integer types with their LP64
 * properties, and {@code _Float16}, {@code float} and {@code double} (IEEE binary16, binary32
 * and binary64). Values of every type are held in a Java {@code long}: an integer in
 * canonical form (signed types sign-extended, narrower unsigned types zero-extended,
 * unsigned long long as its bit pattern), a floating-point value as the bits of the Java
 * {@code double} equal to it (a half's or a float's value is a double's too), see {@link
 * FloatArith}.
 */
public enum NumType {
    BOOL(1, false, 0, 0),
    SCHAR(8, true, 1, 0),
    UCHAR(8, false, 1, 0),
    SHORT(16, true, 2, 0),
    USHORT(16, false, 2, 0),
    INT(32, true, 3, 0),
    UINT(32, false, 3, 0),
    LLONG(64, true, 5, 0),
    ULLONG(64, false, 5, 0),
    HALF(16, true, 6, 11),
    FLOAT(32, true, 7, 24),
    DOUBLE(64, true, 8, 53);

    public final int bits;
    public final boolean signed;
    /**
     * Integer conversion rank (C11 6.3.1.1); long would be 4, and is not generated. The
     * floating types rank above every integer type, by width, as the usual arithmetic
     * conversions order them.
     */
    public final int rank;
    /** Significand bits of a floating type (11, 24, 53); 0 for an integer type. */
    public final int precision;

    NumType(int bits, boolean signed, int rank, int precision) {
        this.bits = bits;
        this.signed = signed;
        this.rank = rank;
        this.precision = precision;
    }

    /** Whether this is {@code _Float16}, {@code float} or {@code double}. */
    public boolean isFloat() {
        return precision > 0;
    }

    /** The exponent of a floating type's smallest normal number (-14, -126, -1022). */
    public int minExponent() {
        return 1 - maxExponent();
    }

    /** The exponent of a floating type's largest finite number (15, 127, 1023). */
    public int maxExponent() {
        return switch (this) {
            case HALF -> 15;
            case FLOAT -> Float.MAX_EXPONENT;
            case DOUBLE -> Double.MAX_EXPONENT;
            default -> throw new IllegalStateException(this + " is not floating");
        };
    }

    /** A floating type's largest finite number (65504 for a half). */
    public double largest() {
        return Math.scalb(2 - Math.scalb(1.0, 1 - precision), maxExponent());
    }

    /** Storage size in bytes. */
    public int bytes() {
        return this == BOOL ? 1 : bits / 8;
    }

    /** The smallest value of an integer type. */
    public long min() {
        if (isFloat()) throw new IllegalStateException(this + " has no integer range");
        if (!signed) return 0;
        return bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1));
    }

    /** Largest value of an integer type in canonical form (for ULLONG this is the bit pattern -1). */
    public long max() {
        if (isFloat()) throw new IllegalStateException(this + " has no integer range");
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
