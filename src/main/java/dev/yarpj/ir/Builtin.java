package dev.yarpj.ir;

/**
 * Library calls a vectorizer accepts. {@link #MIN} and {@link #MAX} are the compare-and-select
 * idiom (a static inline function per type in C and C++, min and max in ISPC and SYCL), on
 * any type. The others are the C math
 * library's, on {@code float} and {@code double} only, and exact where {@link FloatArith}
 * allows them: {@code fmin}, {@code fmax}, {@code fma}, {@code sqrt} and {@code fabs}, which
 * compilers turn into vector instructions or intrinsics and must not get wrong under fast-math.
 */
public enum Builtin {
    MIN(2), MAX(2), FMIN(2), FMAX(2), FMA(3), SQRT(1), FABS(1);

    /** How many operands it takes. */
    public final int arity;

    Builtin(int arity) {
        this.arity = arity;
    }

    /** Whether it is the C math library's (a C program that calls it includes math.h and links with -lm). */
    public boolean mathLibrary() {
        return this != MIN && this != MAX;
    }

    /** Its name in C's math library for double ({@code fmin}), in C++'s std:: and SYCL's sycl:: too. */
    public String cName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
