package dev.yarpj.policy;

import java.util.List;

/**
 * The {@code functions:} section of a policy: helper functions that expressions call
 * ({@code flesh.HelperCalls}). A helper is defined where it is first called, its body built
 * for that call's argument values; a later call of it passes other values, and is made only
 * when the body is defined for them too. What the compilers do with a call depends on how the
 * helper is declared: inlined or not, const, with SIMD clones.
 */
public record FunctionPolicy(
        /* Chance that an inner node of an expression is a call of a helper (0: no helpers at all, and the programs of a seed are those without this section). */
        double pCall,
        /* At most this many helpers in a program; past it, calls only reuse them. */
        int maxHelpers,
        /* At most this many parameters of a helper (at least 1). */
        int maxParams,
        /* Deepest expression of a helper's body (at least 1). */
        int maxBodyDepth,
        /* Chance that a call reuses a helper defined before (else it defines a new one). */
        double pReuse,
        /* Chance that a parameter of a new helper is passed by pointer, where the call may read an array: the call passes &a[i][j] of an input array, the body reads *p (0: none; the same programs as before them). Not in SYCL. */
        double pPointer,
        /* Chance that a parameter passed by pointer is passed as an array and an index instead: the call passes the row a[i] and j, the body reads p[p_at] (0: none; the same programs as before them). */
        double pArrayParam,
        /* Chance that a parameter of a new helper is a struct, where the call may read an array: an element of an array of structs (some of its input fields, which the body reads), passed by pointer with chance p_pointer, else by value (0: none; the same programs as before them). Not in SYCL. */
        double pStruct,
        /* Chance that a new helper returns a struct of several values, each an expression over its parameters, and a call reads one field of it (0: every helper returns one value; the same programs as before them). */
        double pStructResult,
        /* At most this many fields of a struct a helper returns (at least 2). */
        int maxResultFields,
        /* Chance that a parameter (or the result) keeps its argument's (or body's) promoted type, else one drawn by type_weights: a conversion at the call. */
        double pKeepType,
        /* Chance that a helper is declared __attribute__((const)) (each is: it reads its parameters alone), or pure if it takes a pointer. */
        double pConst,
        /* Chance that a helper asks for SIMD clones (gcc's __attribute__((simd)), #pragma omp declare simd). */
        double pSimd,
        /* How a helper is declared: static, static inline, noinline, always_inline, or extern: defined in a second file, for LTO. */
        java.util.Map<String, Integer> linkageWeights) {

    public static final List<String> LINKAGE_NAMES = List.of("static", "inline", "noinline", "always_inline", "extern");
}
