package dev.yarpj.policy;

/**
 * The {@code floats:} section of a policy: floating point whose every operation is exact
 * ({@code flesh.FloatStatements}, {@code ir.FloatArith}), so that fast-math, contraction and
 * vectorized reductions may reorder it and still print the prediction.
 */
public record FloatPolicy(
        /* Chance that an element-wise store or a reduction is done in floating point instead: a new float or double output array, or accumulator, over floating expressions (0: none; the same programs as before them). */
        double pFloat,
        /* Chance that such a statement is in double (else float). */
        double pDouble,
        /* Deepest floating expression of such a statement. */
        int maxDepth,
        /* Chance that a floating reduction inside a nest accumulates into a local declared before the nest and stored to an output after it (else into the output itself). */
        double pLocal,
        /* Chance, where p_float is above 0, that an array leaf of an integer expression is an integer made from floating point instead: a comparison of two floating expressions, or one converted (truncated) to an integer type. */
        double pToInteger,
        /* Chance that a min, max, absolute value, product-and-sum or square root is the math library's call (fmin, fmax, fabs, fma, sqrt of a square, in double only) rather than its open-coded form (compare-and-select, a * b + c, |a|); only the spelling changes, every value and every other draw stays the same. */
        double pLibrary,
        /* Chance, where p_float is above 0, that a scalar a loop carries (carried:) is a float or double over floating data: find-last, min or max with its index, a conditional assignment, a first-order recurrence or an induction x += step. */
        double pCarried,
        /* Chance, where p_float is above 0, that a floating statement drawn in float (not double) is in half precision instead: _Float16 in C and C++, float16 in ISPC; not in SYCL. */
        double pHalf) {
}
