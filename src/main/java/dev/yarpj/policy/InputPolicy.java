package dev.yarpj.policy;

/**
 * The {@code inputs:} section of a policy: how many input sets a test carries. The driver
 * calls {@code test()} once per set, setting the inputs again before each call, and prints a
 * checksum per set, so one compile checks several paths through its loops: the sets beyond
 * the first give the loops whose bounds are inputs other trip counts, early exits other
 * iterations to fire at, and (with {@code values}) the other integer inputs that no index or
 * loop head reads other values, so that conditions hold never, always or at one iteration
 * ({@code inputs.InputSets}).
 * In ISPC only the bounds of loops counting up by one move, in SYCL only those of loops that
 * are no kernel's range (the lowerings print the planned trips of the others).
 */
public record InputPolicy(
        /* Input sets per test, the planned one included (1: one call of test(), as before input sets). */
        int count,
        /* Whether the sets change the values of inputs other than loop bounds and exit sentinels too. */
        boolean values,
        /* The most iterations a loop whose bound is an input has its arrays sized for
           (its planned trip when longer; 0: the planned trip), so that sets can move its trip
           count above the planned one. Whatever the count: func is the same for every count. */
        int reach) {}
