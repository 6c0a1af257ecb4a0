package dev.yarpj.ir;

/**
 * Library calls a vectorizer accepts. {@link #MIN} and {@link #MAX} are std::min and std::max
 * in C++, their compare-and-select idiom in C, on any type. The others are the C math
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
}
