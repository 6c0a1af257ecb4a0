package dev.yarpj.stats;

/**
 * One seed under one policy: measured by the collector of the mode (a remark tally, the
 * masks of an ISPC test, or only generated), or skipped and why. {@code test} is null only
 * when the generator failed: a test that failed to compile or run still counts in the
 * shape and trip counts.
 */
sealed interface SeedResult<R> {
    long seed();

    TestFigures test();

    record Measured<R>(long seed, TestFigures test, R measure) implements SeedResult<R> {}

    record Skipped<R>(long seed, TestFigures test, Skip why, String message) implements SeedResult<R> {}
}
