package dev.yarpj.flesh;

import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.NumType;

/**
 * The values a loop's iterator takes: {@code first}, then {@code trip - 1} more, each
 * {@code step} apart, upward or downward, ending when {@code iter cmp bound} fails.
 * Decided before any array is sized, so that arrays can be sized to it. {@code reach} is
 * the most iterations the space is sized for (at least {@code trip}): a loop whose bound is
 * an input may run that many in another input set, so {@link #min} and {@link #max}, which
 * arrays and iterator types are sized by, cover them.
 */
record IterationSpace(NumType type, long first, long step, int trip, int reach, boolean up, BinOp cmp, long bound) {
    IterationSpace {
        if (reach < trip) throw new IllegalArgumentException("reach " + reach + " below trip " + trip);
    }

    /** The value of iteration {@code t} (from 0). */
    long at(long t) {
        return up ? first + t * step : first - t * step;
    }

    /** The smallest value of any iteration up to the reach. */
    long min() {
        return Math.min(first, at(reach - 1));
    }

    /** The largest value of any iteration up to the reach. */
    long max() {
        return Math.max(first, at(reach - 1));
    }

    /** Whether consecutive iterations alternate between even and odd values. */
    boolean alternates() {
        return step % 2 == 1 && trip > 1;
    }

    IterationSpace withType(NumType t) {
        return new IterationSpace(t, first, step, trip, reach, up, cmp, bound);
    }
}
