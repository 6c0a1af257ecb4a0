package dev.yarpj.flesh;

import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.NumType;

/**
 * The values a loop's iterator takes: {@code first}, then {@code trip - 1} more, each
 * {@code step} apart, upward or downward, ending when {@code iter cmp bound} fails.
 * Decided before any array is sized, so that arrays can be sized to it.
 */
record IterationSpace(NumType type, long first, long step, int trip, boolean up, BinOp cmp, long bound) {
    /** The value of iteration {@code t} (from 0). */
    long at(long t) {
        return up ? first + t * step : first - t * step;
    }

    long last() {
        return at(trip - 1);
    }

    long min() {
        return Math.min(first, last());
    }

    long max() {
        return Math.max(first, last());
    }

    /** Whether consecutive iterations alternate between even and odd values. */
    boolean alternates() {
        return step % 2 == 1 && trip > 1;
    }
}
