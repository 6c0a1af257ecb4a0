package dev.yarpj.policy;

import java.util.Map;

/** The {@code loops:} section of a policy: how a loop's iteration space is spelt ({@code flesh.LoopBounds}). */
public record LoopPolicy(
        /* An upward loop starts at 0 to this (an empty one a step further). */
        int maxStart,
        /* A downward loop's lowest value is its step plus 0 to this. */
        int maxLowMargin,
        /* The comparison of an upward loop: i < n, i <= n, i != n. */
        Map<String, Integer> upCmpWeights,
        /* The comparison of a downward loop: i >= n, i > n, i != n. */
        Map<String, Integer> downCmpWeights,
        /* The comparison of an idiom loop; an empty one never uses <= (evenly among the others). */
        Map<String, Integer> idiomCmpWeights,
        /* Chance that an opaque bound is an input plus or minus a constant (else an input holding it). */
        double pOpaqueOffset,
        /* That constant: 1 to this. */
        int maxOpaqueOffset,
        /* Chance that it is added (input = value - k) rather than subtracted. */
        double pOpaquePlus,
        /* Chance, per input already holding the value, that the bound reads it instead of a new input. */
        double pReuseBoundInput) {
    public static final java.util.List<String> UP_CMP_NAMES = java.util.List.of("lt", "le", "ne");
    public static final java.util.List<String> DOWN_CMP_NAMES = java.util.List.of("ge", "gt", "ne");
}
