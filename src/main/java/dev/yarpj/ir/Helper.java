package dev.yarpj.ir;

import java.util.List;

/**
 * A helper function that test() calls: scalar parameters (by value, or by pointer to an
 * element of an input array), and a body that returns one
 * expression over them, constants and calls of helpers defined before it (so the call graph
 * is acyclic and a program lists its helpers callees first). Every call passes arguments
 * the generator knows the values of, and the body is defined for those values: the UB check
 * is per call, on that call's values, as for any other expression.
 *
 * <p>How a helper is declared is what the inliner, IPSCCP and the vectorizer of calls look
 * at: its linkage, whether it is {@code const} (its result depends on its arguments alone,
 * which the body makes true: it reads nothing else), and whether the compiler is asked for
 * SIMD clones of it (gcc's {@code __attribute__((simd))}).
 */
public record Helper(String name, IntType result, List<ScalarVar> params, Expr body, Linkage linkage, boolean pure,
                     boolean simd) {
    /** How a helper is declared; the languages spell each their own way. */
    public enum Linkage {
        /** {@code static}: the compiler decides whether to inline it. */
        STATIC,
        /** {@code static inline}. */
        INLINE,
        /** {@code static __attribute__((noinline))}: kept out of line, the call stays in the loop. */
        NOINLINE,
        /** {@code static inline __attribute__((always_inline))}. */
        ALWAYS_INLINE,
        /**
         * Defined in a second file, compiled on its own ({@code helpers.c}): the caller sees only
         * its declaration, so only link-time optimization can inline it or propagate into it.
         * Its body calls only helpers of this linkage, which that file defines too. Where a
         * language has one file of test code (ISPC, SYCL, ISPC's C++ twin) it is out of line
         * in that file, as {@link #NOINLINE} is.
         */
        EXTERN
    }

    public Helper {
        params = List.copyOf(params);
        if (body.type() != result) throw new IllegalArgumentException("helper " + name + " returns " + result + ", its body is " + body.type());
        for (ScalarVar p : params) {
            if (!p.isHelperParameter()) throw new IllegalArgumentException(p.name() + " is not a parameter");
        }
    }

    /**
     * Whether the body reads memory: through a parameter passed by pointer. Such a helper is
     * at most {@code pure} in gcc's sense, never {@code const}: it reads elements of input
     * arrays, which no code writes, so it returns the same for the same arguments all the same.
     */
    public boolean readsMemory() {
        return params.stream().anyMatch(ScalarVar::byPointer);
    }
}
