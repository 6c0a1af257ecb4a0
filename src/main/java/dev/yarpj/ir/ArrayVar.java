package dev.yarpj.ir;

import java.util.List;

/**
 * A global array of one or more dimensions. Input arrays hold one value everywhere, or two
 * values alternating by the parity of the index along one axis (the odd/even partition);
 * output arrays start filled with one value.
 */
public record ArrayVar(int slot, String name, VarType elem, List<Integer> dims, boolean isInput, Fill fill) {
    /** Initial contents: {@code even} everywhere, or {@code even}/{@code odd} by index parity along {@code axis}. */
    public record Fill(long even, long odd, int axis) {
        public static Fill uniform(long v) {
            return new Fill(v, v, -1);
        }

        public boolean alternating() {
            return axis >= 0;
        }

        public long at(int parity) {
            return parity == 0 ? even : odd;
        }
    }

    public IntType base() {
        return elem.base();
    }

    public int rank() {
        return dims.size();
    }

    public long elements() {
        long n = 1;
        for (int d : dims) n *= d;
        return n;
    }

    public long bytes() {
        return elements() * elem.base().bytes();
    }
}
