package dev.yarpj.policy;

import java.util.List;
import java.util.Map;

/** The {@code dead_code:} section of a policy: what a dead branch holds ({@code DeadCode}). */
public record DeadCodePolicy(
        /* Stores in a dead branch: uniform between these two. */
        int minStores,
        int maxStores,
        /* Chance that a stored value is the undefined operation alone (else combined with an expression). */
        double pBare,
        /* Chance that the operands are int (else long long). */
        double pInt,
        /* The undefined operation: division by zero, INT_MIN / -1, overflow, a bad shift, an index out of bounds. */
        Map<String, Integer> kindWeights,
        /* Chance that a division by zero or INT_MIN / -1 divides (else takes the remainder). */
        double pDiv,
        /* How it overflows: max + k, min - k, a product. */
        Map<String, Integer> overflowWeights,
        /* Chance that a bad shift is by the width or more (else by a negative amount). */
        double pShiftPastWidth,
        /* Chance that a bad shift shifts left (else right). */
        double pShl,
        /* The operator joining an expression and the undefined operation when the value is not bare. */
        Map<String, Integer> combineOpWeights) {
    public static final List<String> KIND_NAMES = List.of("div_by_zero", "div_overflow", "overflow", "bad_shift", "out_of_bounds");
    public static final List<String> COMBINE_OP_NAMES = List.of("bxor", "add", "bor");
    public static final List<String> OVERFLOW_NAMES = List.of("max_plus", "min_minus", "product");
}
