package dev.yarpj.ir;

import java.util.List;

/**
 * An array of one or more dimensions. Input arrays hold one value everywhere, or two
 * values alternating by the parity of the index along one axis (the odd/even partition);
 * output arrays start filled with one value. {@link #passing} says how {@code test} reaches
 * it: as a global, as a pointer parameter, or as a view into another array's storage.
 */
public record ArrayVar(int slot, String name, VarType elem, List<Integer> dims, boolean isInput, Fill fill,
                       Passing passing) {
    /** A global array. */
    public ArrayVar(int slot, String name, VarType elem, List<Integer> dims, boolean isInput, Fill fill) {
        this(slot, name, elem, dims, isInput, fill, Passing.GLOBAL);
    }

    /** How {@code test} reaches an array. */
    public sealed interface Passing {
        Passing GLOBAL = new Global();

        /** A global of the driver, named in {@code test}. */
        record Global() implements Passing {}

        /**
         * A pointer parameter of {@code test} to the array's own storage (defined in the
         * driver). Nothing else reaches that storage, so the pointer may be declared
         * {@code restrict} where the language has it: {@code mayRestrict}.
         */
        record Pointer(boolean mayRestrict) implements Passing {}

        /**
         * A pointer parameter of {@code test} to row {@code rowOffset} of {@code storage}
         * (offset 0: its start). Two views of one storage overlap where the generator knows
         * exactly; they are never restrict. The view's own dimensions fit in the storage from
         * that row on, and only the storage is an output of the test.
         */
        record View(ArrayVar storage, int rowOffset) implements Passing {}

        /**
         * A global array of structs, {@code struct type structs[d0]...}, of which this array is
         * the field {@code index} (named as this array): element {@code [i][j]} of this array is
         * {@code structs[i][j].name}. Every field of one array of structs has the same
         * dimensions. The fields are disjoint storage, as separate arrays are, so this changes
         * how the program is laid out and printed, never what it computes: a loop that reads
         * or writes several fields makes interleaved accesses of the struct's stride.
         *
         * <p>A field of {@code bits} above 0 is a bit-field, {@code signed int name : bits} (or
         * {@code unsigned int} where not {@code signedBits}): only an input array whose every
         * value fits that width, of a type that promotes to {@code int} as a bit-field under
         * 32 bits does, so reading it gives the values and type the IR says.
         */
        record Field(String structs, String type, int index, int bits, boolean signedBits) implements Passing {
            public Field(String structs, String type, int index) {
                this(structs, type, index, 0, false);
            }

            /** Whether this field is a bit-field, whose elements have no address. */
            public boolean bitField() {
                return bits > 0;
            }
        }
    }

    /** Whether {@code test} receives this array as a parameter. */
    public boolean isParam() {
        return passing instanceof Passing.Pointer || passing instanceof Passing.View;
    }

    /** The array of structs this array is a field of, or null. */
    public Passing.Field field() {
        return passing instanceof Passing.Field f ? f : null;
    }

    /** The storage this array's elements live in: itself, or a view's storage. */
    public ArrayVar storage() {
        return passing instanceof Passing.View v ? v.storage() : this;
    }

    /** Elements from the start of {@link #storage()} to this array's first element. */
    public long storageOffset() {
        if (!(passing instanceof Passing.View v)) return 0;
        long row = 1;
        for (int d = 1; d < dims.size(); d++) row *= dims.get(d);
        return v.rowOffset() * row;
    }

    /**
     * Initial contents: {@code even} everywhere, or {@code even}/{@code odd} by index parity
     * along {@code axis}; with {@code plantAt} at 0 or more, the element at that row-major
     * offset holds {@code plant} instead (a sentinel that a search loop looks for). With
     * {@code span} above 0 the contents vary instead: the element at row-major offset
     * {@code k} holds {@code even + (k * mul + add) % span} (data that the loops carrying a
     * scalar test, see {@link #varied}; in a floating array, that integer as a floating value).
     */
    public record Fill(long even, long odd, int axis, long plantAt, long plant, long mul, long add, long span) {
        public Fill(long even, long odd, int axis) {
            this(even, odd, axis, -1, 0, 0, 0, 0);
        }

        public Fill(long even, long odd, int axis, long plantAt, long plant) {
            this(even, odd, axis, plantAt, plant, 0, 0, 0);
        }

        public static Fill uniform(long v) {
            return new Fill(v, v, -1);
        }

        /** {@code v} everywhere but at offset {@code at}, which holds {@code sentinel}. */
        public static Fill planted(long v, long at, long sentinel) {
            return new Fill(v, v, -1, at, sentinel);
        }

        /**
         * Values from {@code base} to {@code base + span - 1} that change from element to
         * element: offset {@code k} holds {@code base + (k * mul + add) % span}. Every value
         * must fit the array's type; {@code k * mul + add} must fit a long long.
         */
        public static Fill varied(long base, long mul, long add, long span) {
            if (span < 1 || mul < 0 || add < 0) throw new IllegalArgumentException("bad varied fill");
            return new Fill(base, base, -1, -1, 0, mul, add, span);
        }

        /** Whether the contents vary element by element ({@link #varied}). */
        public boolean varies() {
            return span > 0;
        }

        /** The value at row-major offset {@code k} of a varied fill. */
        public long valueAt(long k) {
            return even + (k * mul + add) % span;
        }

        /**
         * The value at row-major offset {@code k} of a varied fill of an array of type {@code t}:
         * in a floating array, the integer {@link #valueAt(long)} as that type holds it (exact:
         * the generator's varied fills hold small integers), as the driver's {@code (float)(...)}
         * computes it.
         */
        public long valueAt(long k, NumType t) {
            long v = valueAt(k);
            return t.isFloat() ? FloatArith.bits((double) v) : v;
        }

        public boolean planted() {
            return plantAt >= 0;
        }

        public boolean alternating() {
            return axis >= 0;
        }

        public long at(int parity) {
            return parity == 0 ? even : odd;
        }
    }

    public NumType base() {
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
