package dev.yarpj.skeleton;

import dev.yarpj.ir.Idiom;
import dev.yarpj.ir.Pragma;
import java.util.List;

/**
 * The high-level structure of a test, laid out top-down before any expression exists
 * (YARPGen v2, section 3.3). Policy decisions that must be coordinated across statements
 * (nest depth, imperfect levels, the odd/even split, fusible sequences) are fixed here and
 * honoured by fleshing.
 */
public sealed interface Shape {

    /** Whether any of {@code shapes} is or holds a loop. */
    static boolean hasLoop(List<? extends Shape> shapes) {
        for (Shape s : shapes) if (s.hasLoop()) return true;
        return false;
    }

    /** Whether this shape is or holds a loop. */
    default boolean hasLoop() {
        if (this instanceof Nest || this instanceof Seq) return true;
        return this instanceof IfShape i && (hasLoop(i.then()) || (i.otherwise() != null && hasLoop(i.otherwise())));
    }

    /**
     * Kinds of single statements. The first three can go anywhere; the others are the
     * bodies of idiom nests and the statement idioms that only make sense in a loop.
     */
    enum SlotKind {
        ASSIGN, COMPOUND, LOCAL,
        /** An element-wise store {@code a[..][i] = f(b[..][i], ...)} in a vectorizable nest. */
        ELEMENTWISE,
        /** A reduction of an element-wise expression into an output of lower rank. */
        REDUCE,
        /** A stencil stored element-wise, or reduced when the plan says so. */
        STENCIL,
        MEMSET, MEMCPY,
        /** {@code if (d != 0) t = e op (x / d)}: loop-invariant division under a guard (LICM). */
        GUARDED_DIV,
        /** {@code if (x == y) t = f(x) op f(y)}: a redundancy GVN sees through the equality. */
        REDUNDANT_EXPR,
        /** {@code p[i] = f(q[i])} with p and q two pointer views of one array at a known offset. */
        ALIASED_UPDATE,
        /** {@code if (c) { ... }} with c false on every run and operations inside that would be UB. */
        DEAD_CODE,
        /**
         * A scalar carried across the iterations of the innermost loop around it (policy
         * {@code carried:}): find-last, min/max with its index, a conditional assignment or a
         * first-order recurrence. Only in a nest's innermost body.
         */
        CARRIED,
        /**
         * {@code r[i + s] = f(r[i])} along the innermost loop, stepping {@code s}: each
         * iteration reads the element the one before it stored, a dependence through memory
         * that no vector covers. Only in the innermost body of a distributable nest
         * ({@link Nest#distributable}).
         */
        RECURRENCE,
        /** {@code switch (e) { case ...: { ... } ... default: { ... } }}, its case bodies assignments (anywhere). */
        SWITCH
    }

    /** A statement slot that fleshing fills with one statement of its kind. */
    record Slot(SlotKind kind) implements Shape {}

    /** What an if tests. */
    enum CondKind {
        ANY,
        /** The parity of the split iterator (paper Listing 5). */
        PARITY,
        /** Only values that do not change inside the loop (loop unswitching). */
        INVARIANT
    }

    record IfShape(List<Shape> then, List<Shape> otherwise, CondKind cond) implements Shape {}

    /** How a nest's array subscripts relate to its loops (policy access_weights). */
    enum Access { RANDOM, IN_ORDER, COLUMN_MAJOR, DIAGONAL, SLICE }

    /**
     * A stencil: {@code taps} elements at offsets that are multiples of {@code stride}, at most
     * {@code reach} strides from the centre, along the {@code dims} innermost loops, spread over
     * {@code arrays} input arrays; stored, or {@code reduced} into an output of lower rank.
     */
    record StencilPlan(int dims, int reach, int stride, int taps, int arrays, boolean reduced) {
        /** How far from the centre a tap can reach: the margin every spanned loop keeps from the array's edge. */
        public int halo() {
            return reach * stride;
        }
    }

    /**
     * The decisions that make a nest an idiom; {@code stencil} is null unless the idiom is
     * STENCIL. {@code group} above 1: the innermost loop walks the last dimension of the
     * nest's arrays in interleaved groups of that many elements, {@code a[group*i + j]}.
     */
    record NestPlan(Idiom idiom, Access access, Pragma pragma, StencilPlan stencil, int group) {
        public static final NestPlan PLAIN = new NestPlan(Idiom.PLAIN, Access.RANDOM, Pragma.NONE, null, 1);

        public NestPlan withStencil(StencilPlan s) {
            return new NestPlan(idiom, access, pragma, s, group);
        }

        public int halo() {
            return stencil == null ? 0 : stencil.halo();
        }

        /**
         * Whether the nest is built like an idiom nest (unsplit, counting up by 1, its
         * innermost loop holding only the idiom's statements): every idiom, and plain nests
         * that walk their arrays column-major, which are element-wise stores in the wrong
         * loop order: the case for loop interchange.
         */
        public boolean walksLikeAnIdiom() {
            return idiom != Idiom.PLAIN || access == Access.COLUMN_MAJOR;
        }
    }

    /**
     * A loop nest. {@code splitLevel} is the level whose iteration space is partitioned into
     * odd and even elements, or -1.
     */
    record Nest(List<Level> levels, List<Shape> body, int splitLevel, NestPlan plan) implements Shape {
        public int depth() {
            return levels.size();
        }

        /**
         * Whether the nest was built for loop distribution: a recurrence through memory in its
         * innermost body beside independent statements, and (fleshing's part) no early exit,
         * since LoopDistribute only splits loops with one exit.
         */
        public boolean distributable() {
            for (Shape s : body) if (s instanceof Slot slot && slot.kind() == SlotKind.RECURRENCE) return true;
            return false;
        }
    }

    /**
     * One loop of a nest with the statements before and after the next loop; {@code trip} is
     * its planned trip count ({@link TripPlanner}), which fleshing builds its space around.
     */
    record Level(List<Shape> prefix, List<Shape> suffix, int trip) {
        Level withTrip(int t) {
            return new Level(prefix, suffix, t);
        }
    }

    /** Adjacent nests; with {@code sharedSpace} they iterate over one space and are fusible. */
    record Seq(List<Nest> nests, boolean sharedSpace) implements Shape {}
}
