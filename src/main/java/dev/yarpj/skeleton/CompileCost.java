package dev.yarpj.skeleton;

import java.util.List;

/**
 * What a test will cost to compile, estimated from its planned skeleton before anything is
 * fleshed: the measures an optimizer's work grows with, and a model that turns them into
 * seconds of {@code gcc -O3} on the machine yarpj was calibrated on.
 *
 * <p>Compile time is not linear in the size of a test: every loop gets versioned, peeled,
 * vectorized with an epilogue and unrolled, and a loop with a short constant trip count is
 * unrolled completely, so what counts is the code those transformations make, not the lines
 * written. The measures are:
 * <ul>
 * <li>{@code slots}: statements (each is one fleshed statement, with an expression tree);</li>
 * <li>{@code loops}: loop levels;</li>
 * <li>{@code loopSlots}: statements inside at least one loop (the ones loop passes transform);</li>
 * <li>{@code unrolled}: each statement counted once per copy complete unrolling could make of
 * it: the product, over the loops around it, of their trip counts where a trip is at most
 * {@link #FULL_UNROLL_TRIP} (gcc's {@code max-completely-peel-times}), else 1.</li>
 * </ul>
 */
public record CompileCost(int slots, int loops, int loopSlots, double unrolled) {
    /** Longest trip count complete unrolling takes on (gcc's param max-completely-peel-times). */
    static final int FULL_UNROLL_TRIP = 16;

    /** The measures of a planned skeleton (its trips set by the trip planner). */
    public static CompileCost of(Skeleton sk) {
        return of(sk.body());
    }

    /** The measures of some top-level statements of a planned skeleton. */
    public static CompileCost of(List<Shape> shapes) {
        Counter c = new Counter();
        c.block(shapes, 0, 1.0);
        return new CompileCost(c.slots, c.loops, c.loopSlots, c.unrolled);
    }

    /**
     * Estimated CPU seconds of GCC trunk at {@code -O3 -c} on the machine yarpj was calibrated
     * on (docs/measurements.md, "The compile budget"): {@value #FIXED_S} s to start, plus a power
     * of the statement count. Fitted to 300 C tests, it is within a factor of two of the
     * measured time for 91% of them and within 0.66 to 1.3 times for every test over 2 s;
     * the loop count and the unrolled size, tried too, added nothing (the loop count moves
     * with the statements; the unrolled size overstates what gcc's size limits let it unroll).
     */
    public double seconds() {
        return FIXED_S + PER_SLOT_S * Math.pow(slots, SLOT_EXPONENT);
    }

    static final double FIXED_S = 0.05;
    static final double PER_SLOT_S = 0.0025;
    static final double SLOT_EXPONENT = 1.34;

    /** The sum of two measures: the cost of two parts of one test. */
    public CompileCost plus(CompileCost o) {
        return new CompileCost(slots + o.slots, loops + o.loops, loopSlots + o.loopSlots, unrolled + o.unrolled);
    }

    private static final class Counter {
        int slots;
        int loops;
        int loopSlots;
        double unrolled;

        void block(List<Shape> shapes, int depth, double copies) {
            for (Shape s : shapes) shape(s, depth, copies);
        }

        void shape(Shape s, int depth, double copies) {
            if (s instanceof Shape.Slot) {
                slots++;
                if (depth > 0) loopSlots++;
                unrolled += copies;
            } else if (s instanceof Shape.IfShape i) {
                block(i.then(), depth, copies);
                if (i.otherwise() != null) block(i.otherwise(), depth, copies);
            } else if (s instanceof Shape.Nest n) {
                nest(n, depth, copies);
            } else if (s instanceof Shape.Seq q) {
                for (Shape.Nest n : q.nests()) nest(n, depth, copies);
            }
        }

        void nest(Shape.Nest n, int depth, double copies) {
            double c = copies;
            for (int l = 0; l < n.depth(); l++) {
                Shape.Level lv = n.levels().get(l);
                loops++;
                int trip = lv.trip();
                c *= trip >= 2 && trip <= FULL_UNROLL_TRIP ? trip : 1;
                block(lv.prefix(), depth + l + 1, c);
                block(lv.suffix(), depth + l + 1, c);
            }
            block(n.body(), depth + n.depth(), c);
        }
    }
}
