package dev.yarpj.policy;

import java.util.List;
import java.util.Map;

/**
 * The {@code statements:} section of a policy: the odds inside the statement idioms, each key
 * read by one statement form of {@code dev.yarpj.flesh} ({@code AliasedUpdate},
 * {@code GuardedDivision}, {@code RedundancyUnderEquality}, {@code Stencil},
 * {@code Elementwise}).
 */
public record StmtPolicy(
        /* Chance, per pair of views of the right shape, that an aliased update reuses it (else new views). */
        double pReuseViews,
        /* Chance that the first of two new views is the one further ahead in the array. */
        double pFirstViewAhead,
        /* Chance that an aliased update writes through the second view of its pair (else the first). */
        double pFlipViews,
        /* What an aliased update stores: the element read, a comparison of it, unsigned arithmetic on it. */
        Map<String, Integer> aliasedFormWeights,
        /* Chance that the element read is the left operand of that arithmetic. */
        double pReadFirst,
        /* Two near views (p_near_views) are 0 to this many rows apart ... */
        int maxNearViewOffset,
        /* ... far ones one of these, drawn uniformly. */
        List<Integer> farViewOffsets,
        /* The operand a guarded division divides has an operator depth of 0 to this. */
        int maxDividendDepth,
        /* The operand of a redundant_expr has an operator depth between these two. */
        int minRedundantDepth,
        int maxRedundantDepth,
        /* A stencil's input array is 0 to this longer than its loop's space plus the reach. */
        int maxStencilPadding,
        /* The operator joining an idiom's element-wise value and its loop-invariant part (p_invariant_part). */
        Map<String, Integer> invariantPartOpWeights,
        /* The operator joining a guarded division's quotient to the rest of the stored value. */
        Map<String, Integer> guardedDivOpWeights,
        /* redundant_expr: the operator of x op r (and of y op r) ... */
        Map<String, Integer> redundantOpWeights,
        /* ... and the one joining the two halves. */
        Map<String, Integer> redundantCombineOpWeights,
        /* The comparison an aliased update makes of the element read. */
        Map<String, Integer> aliasedCompareOpWeights,
        /* The unsigned arithmetic an aliased update does on it. */
        Map<String, Integer> aliasedArithOpWeights) {
    public static final List<String> ALIASED_FORM_NAMES = List.of("copy", "compare", "arithmetic");
    public static final List<String> INVARIANT_PART_OP_NAMES = List.of("add", "sub", "mul", "bxor", "band");
    public static final List<String> GUARDED_DIV_OP_NAMES = List.of("add", "sub", "bxor", "mul");
    public static final List<String> REDUNDANT_OP_NAMES = List.of("add", "sub", "mul", "bxor", "band", "bor");
    public static final List<String> REDUNDANT_COMBINE_OP_NAMES = List.of("add", "sub", "bxor", "mul");
    public static final List<String> ALIASED_COMPARE_OP_NAMES = List.of("lt", "gt", "le", "ge", "eq", "ne");
    public static final List<String> ALIASED_ARITH_OP_NAMES = List.of("add", "sub", "mul", "band", "bor", "bxor");
}
