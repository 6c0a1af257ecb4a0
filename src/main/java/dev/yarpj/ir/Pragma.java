package dev.yarpj.ir;

/**
 * A loop pragma on the innermost loop of a nest. Each only asks a compiler to do what it
 * may do anyway (none asserts anything about the program), except {@link #GCC_IVDEP},
 * which asserts there is no loop-carried dependence and is only put on loops without one.
 */
public enum Pragma {
    NONE(null),
    CLANG_VECTORIZE("clang loop vectorize(enable)"),
    CLANG_INTERLEAVE("clang loop interleave(enable)"),
    CLANG_UNROLL("clang loop unroll(enable)"),
    CLANG_UNROLL_COUNT("clang loop unroll_count(4)"),
    CLANG_VECTORIZE_PREDICATE("clang loop vectorize(enable) vectorize_predicate(enable)"),
    CLANG_DISTRIBUTE("clang loop distribute(enable)"),
    GCC_UNROLL("GCC unroll 4"),
    GCC_IVDEP("GCC ivdep");

    /** The text after {@code #pragma}; null for none. */
    public final String text;

    Pragma(String text) {
        this.text = text;
    }

    /** The pragma a policy names, e.g. {@code clang_unroll_count}. */
    public static Pragma byPolicyName(String name) {
        return valueOf(name.toUpperCase());
    }
}
