package dev.yarpj.policy;

import java.util.List;
import java.util.Map;

/** The {@code expressions:} section of a policy: leaves, constants and array accesses ({@code ExprBuilder}). */
public record ExprPolicy(
        /* Chance that an expression stops at a leaf before its drawn depth. */
        double pLeaf,
        /* What a leaf is: a constant, a local, an input array element, an input scalar. */
        Map<String, Integer> leafWeights,
        /* Outside every loop, only this much of the array weight reads an array (the rest an input scalar). */
        int arrayLeafWeightOutsideLoops,
        /* Chance that an input scalar leaf reads an existing input (else a new one). */
        double pReuseInput,
        /* Chance that an array leaf reads an existing input array (else a new one). */
        double pReuseInputArray,
        /* Chance that a random-access read of an array that differs by parity is indexed by the split iterator there. */
        double pSplitSubscript,
        /* Chance that a random-access subscript is the innermost loop that fits (else any that fits). */
        double pInnermostSubscript,
        /* Chance that a rank-1 array in a slice nest is read at a constant element. */
        double pSliceConstant,
        /* A patterned nest's new array has as many dimensions as loops in scope, give or take up to this. */
        int rankSpread,
        /* Chance that a dimension of a random-access array is sized to a loop in scope. */
        double pDimFromLoop,
        /* A dimension sized to a loop is 0 to this longer than the loop's space. */
        int maxArrayPadding,
        /* A dimension sized to no loop has 1 to this elements. */
        int maxUnwalkedDim,
        /* Chance that a new input array inside a split loop holds different values at even and odd elements. */
        double pAlternatingFill,
        /* Which special constant (see p_special_const). */
        Map<String, Integer> specialConstWeights,
        /* A small special constant is between minus this and this. */
        int maxSmallConst,
        /* C1 of a mask test (e & C1) op C2: a run of low bits, a single bit, random. */
        Map<String, Integer> maskWeights,
        /* Chance that C2 is C1 itself (else C1 & a random value). */
        double pMaskWhole,
        /* The op of a mask test. */
        Map<String, Integer> maskOpWeights,
        /* How a parity test is spelt: i % 2 == 0, i % 2 == 1, i % 2 != 0, i & 1. */
        Map<String, Integer> parityFormWeights) {
    public static final List<String> LEAF_NAMES = List.of("constant", "local", "array", "input");
    public static final List<String> SPECIAL_CONST_NAMES = List.of(
            "zero", "one", "minus_one", "min", "max", "power_of_two", "low_mask", "small", "random");
    public static final List<String> MASK_NAMES = List.of("low_bits", "single_bit", "random");
    public static final List<String> MASK_OP_NAMES = List.of("eq", "ne", "bor", "bxor", "band");
    public static final List<String> PARITY_FORM_NAMES = List.of("rem_eq_0", "rem_eq_1", "rem_ne_0", "and_1");
}
