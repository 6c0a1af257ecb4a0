package dev.yarpj.policy;

/**
 * The {@code skeleton:} section of a policy: the odds of the program's structure that the
 * flat keys leave to {@code SkeletonBuilder} and {@code TripPlanner}.
 */
public record SkeletonPolicy(
        /* Chance that a test's top-level statement count is scaled by a heavy-tailed factor. */
        double pBigTest,
        /* The largest such factor; it is drawn log-uniform from 1 to this. */
        int maxBigTestFactor,
        /* Chance that an if has an else branch. */
        double pElse,
        /* Chance, per level, that a nest goes one loop deeper (while room is left). */
        double pDeeperNest,
        /* Chance that a stencil is reduced instead of stored element-wise. */
        double pStencilReduced,
        /* Chance that an imperfect level has statements before its inner loop. */
        double pLevelPrefix,
        /* Chance that it also has statements after it (always, when it has none before). */
        double pLevelSuffix,
        /* Statements before or after an inner loop: uniform between these two. */
        int minLevelStmts,
        int maxLevelStmts,
        /* Chance that a later statement of an element-wise idiom nest is a local temporary. */
        double pElementwiseLocal,
        /* Chance that a later statement of a reduction nest is an element-wise store. */
        double pReductionElementwise,
        /* Chance that the loop-invariant if around an idiom statement has an else. */
        double pGuardElse,
        /* When trips are cut to the budget, outer loops are halved first until they are this many times shorter. */
        int innerPreference,
        /* Chance that a vectorizable or reduction nest walks its arrays' last dimension in interleaved groups, a[k*i + j]. */
        double pInterleaved,
        /* The group size k of such a nest: uniform between 2 and this. */
        int maxGroup,
        /* Chance that a nest with the clang_distribute pragma gets a recurrence through memory in its innermost loop. */
        double pDistributable) {}
