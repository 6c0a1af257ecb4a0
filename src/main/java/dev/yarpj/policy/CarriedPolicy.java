package dev.yarpj.policy;

import java.util.List;
import java.util.Map;

/**
 * The {@code carried:} section of a policy: statements that carry a scalar from one iteration
 * of the innermost loop to the next, the reduction idioms that LLVM's and GCC's vectorizers
 * learned lately ({@code flesh.CarriedScalar}). Each tests data of an input array of its own that
 * the compiler cannot see (the driver fills it with values that change from element to
 * element), so its result depends on data, yet the interpreter knows it:
 * <ul>
 *   <li>{@code find_last}: {@code if (c(d[i])) idx = i;}
 *   <li>{@code min_max_index}: {@code if (d[i] < m) { m = d[i]; idx = i; }} (or {@code <=},
 *       {@code >}, {@code >=}: the first or the last index of the minimum or maximum);
 *   <li>{@code cond_assign}: {@code if (c(d[i])) s = f(e[i]);}, a select-based reduction;
 *   <li>{@code recurrence}: {@code out[i] = d[i] - prev; prev = d[i];}, a first-order recurrence.
 * </ul>
 * The carried scalars are outputs, or locals declared before the nest and stored to outputs
 * after it. A loop that carries one is never parallel (no gang loop, no parallel_for).
 */
public record CarriedPolicy(
        /* Chance that a loop nest's innermost body gets one carried-scalar statement (planned in the skeleton). */
        double pCarried,
        /* Chance that the statement is then the innermost loop's only one (the shape vectorizers handle; the body drawn is dropped). */
        double pAlone,
        /* Which idiom: find_last, min_max_index, cond_assign or recurrence. */
        Map<String, Integer> kindWeights,
        /* min_max_index's comparison of d[i] with the minimum or maximum so far: lt, le (minimum), gt, ge (maximum). */
        Map<String, Integer> minMaxCmpWeights,
        /* The test c(d[i]) of find_last and cond_assign: d[i] compared with a constant in the data's range. */
        Map<String, Integer> condCmpWeights,
        /* How the conditional update is spelt: branch (if (c) x = v;) or select (x = c ? v : x;). */
        Map<String, Integer> formWeights,
        /* What a recurrence combines the element with the previous one by: sub, add, bxor. */
        Map<String, Integer> recurrenceOpWeights,
        /* The element type of the data arrays (the carried values are that type or its promotion). */
        Map<String, Integer> typeWeights,
        /* Chance that the carried scalars are locals declared before the nest, stored to outputs after it (else outputs). */
        double pLocal,
        /* At most this many distinct values in a data array (at least 2): fewer make ties and repeated hits. */
        int maxSpan) {
    public static final List<String> KIND_NAMES = List.of("find_last", "min_max_index", "cond_assign", "recurrence");
    public static final List<String> MIN_MAX_CMP_NAMES = List.of("lt", "le", "gt", "ge");
    public static final List<String> COND_CMP_NAMES = List.of("eq", "ne", "lt", "le", "gt", "ge");
    public static final List<String> FORM_NAMES = List.of("branch", "select");
    public static final List<String> RECURRENCE_OP_NAMES = List.of("sub", "add", "bxor");
    public static final List<String> TYPE_NAMES = List.of("short", "int", "unsigned int", "long long", "unsigned long long");
}
