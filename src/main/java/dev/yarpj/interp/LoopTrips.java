package dev.yarpj.interp;

import dev.yarpj.ir.Idiom;

/**
 * How often one static loop ran: one level of a {@link dev.yarpj.ir.Stmt.LoopNest}, with
 * the idiom of its nest, its level ({@code 0} is the outermost) and whether it is the
 * nest's innermost level; {@code entered} counts the times its head started (the iterator
 * initialised), {@code iterations} the times its body ran, over the whole execution;
 * {@code parallel} whether its iterations may run as a gang or a parallel range;
 * {@code exits} whether a break (or a header exit) may leave it, {@code broken} the entries
 * one ended. A header exit ends the loop before the body of the iteration it stops, a break
 * in that iteration's body: the same exit counts one iteration fewer in a while header.
 * Of the entries an exit ended, {@code brokenFirst} were ended in their first iteration and
 * {@code brokenLast} in the last one their loop had planned (the positions an exit is planned
 * at: first, middle, last, or never, when it ends no entry).
 */
public record LoopTrips(Idiom idiom, int level, boolean innermost, boolean parallel, boolean exits, long entered,
                        long iterations, long broken, long brokenFirst, long brokenLast) {
    public LoopTrips {
        if (level < 0 || entered < 0 || iterations < 0) {
            throw new IllegalArgumentException("negative level or count: " + level + ", " + entered + ", " + iterations);
        }
        if (brokenFirst < 0 || brokenLast < 0 || brokenFirst + brokenLast > broken || broken > entered) {
            throw new IllegalArgumentException("exit counts " + broken + ", " + brokenFirst + ", " + brokenLast + " of " + entered + " entries");
        }
    }

    /** A loop whose exits' positions are not told apart. */
    public LoopTrips(Idiom idiom, int level, boolean innermost, boolean parallel, boolean exits, long entered,
                     long iterations, long broken) {
        this(idiom, level, innermost, parallel, exits, entered, iterations, broken, 0, 0);
    }

    /** A loop no break leaves. */
    public LoopTrips(Idiom idiom, int level, boolean innermost, boolean parallel, long entered, long iterations) {
        this(idiom, level, innermost, parallel, false, entered, iterations, 0, 0, 0);
    }

    /** A serial loop's counts. */
    public LoopTrips(Idiom idiom, int level, boolean innermost, long entered, long iterations) {
        this(idiom, level, innermost, false, entered, iterations);
    }

    /** Iterations per entry on average; NaN if the loop was never entered. */
    public double perEntry() {
        return entered == 0 ? Double.NaN : (double) iterations / entered;
    }
}
