package dev.yarpj.flesh;

import dev.yarpj.ir.Expr;

/**
 * An expression under construction together with its concrete value in each partition
 * context (0: even elements, 1: odd elements). Only contexts in the active mask are meaningful.
 */
record Valued(Expr expr, long[] values) {
    static final int EVEN = 1;
    static final int ODD = 2;
    static final int BOTH = EVEN | ODD;

    static Valued constant(Expr expr, long v) {
        return new Valued(expr, new long[] {v, v});
    }

    static boolean active(int mask, int ctx) {
        return (mask >> ctx & 1) != 0;
    }

    /** The contexts of {@code mask} in which this value is non-zero. */
    int truthMask(int mask) {
        int m = 0;
        for (int c = 0; c < 2; c++) if (active(mask, c) && values[c] != 0) m |= 1 << c;
        return m;
    }
}
