package dev.yarpj.ir;

/**
 * A loop pragma on the innermost loop of a nest. Each only asks a compiler to do what it
 * may do anyway (none asserts anything about the program), except {@link #GCC_IVDEP},
 * which asserts there is no loop-carried dependence and is only put on loops without one.
 * Each lowerer spells them its own way (or not at all: ISPC has none of them).
 */
public enum Pragma {
    NONE, CLANG_VECTORIZE, CLANG_INTERLEAVE, CLANG_UNROLL, CLANG_UNROLL_COUNT, CLANG_VECTORIZE_PREDICATE,
    CLANG_DISTRIBUTE, GCC_UNROLL, GCC_IVDEP;

    /** The pragma a policy names, e.g. {@code clang_unroll_count}. */
    public static Pragma byPolicyName(String name) {
        return valueOf(name.toUpperCase());
    }
}
