package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.NumType;
import dev.yarpj.policy.Rng;
import dev.yarpj.policy.StructPolicy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a new global array lives: on its own, or as a field of an array of structs whose
 * fields all have its dimensions (policy section {@code structs:}). Fields are disjoint
 * storage as separate arrays are, so the choice changes the layout the compiler sees, not
 * what the program computes: arrays the same nest creates have the same dimensions, and as
 * fields of one struct the nest reads and writes them in interleaved groups.
 */
final class StructFields {
    private final StructPolicy p;
    private final Rng rng;
    /** The array of structs new fields of these dimensions join, until it is full. */
    private final Map<List<Integer>, Open> open = new HashMap<>();
    private int structs;
    /** Whether a field may be a bit-field (C and C++). */
    private final boolean bitFields;

    private static final class Open {
        final String name;
        final String type;
        int fields;

        Open(String name, String type) {
            this.name = name;
            this.type = type;
        }
    }

    StructFields(StructPolicy p, Rng rng, boolean bitFields) {
        this.p = p;
        this.rng = rng;
        this.bitFields = bitFields;
    }

    /**
     * Global, or a field of an array of structs of dimensions {@code dims}; an input field of
     * {@code elem} whose values ({@code fill}) all fit fewer bits may be a bit-field. No draw
     * at all when p_field is 0; none for a bit-field when p_bitfield is 0.
     */
    ArrayVar.Passing place(List<Integer> dims, boolean input, NumType elem, ArrayVar.Fill fill) {
        if (p.pField() <= 0 || !rng.chance(p.pField())) return ArrayVar.Passing.GLOBAL;
        Open o = open.get(dims);
        if (o == null || o.fields >= p.maxFields()) {
            o = new Open("recs_" + structs, "rec_" + structs);
            structs++;
            open.put(List.copyOf(dims), o);
        }
        int bits = bitFields && input && p.pBitfield() > 0 ? bitWidth(elem, fill) : 0;
        if (bits > 0 && rng.chance(p.pBitfield())) {
            bits = Math.min(bits + rng.between(0, 2), elem.bits - 1);
            return new ArrayVar.Passing.Field(o.name, o.type, o.fields++, bits, min(fill) < 0);
        }
        return new ArrayVar.Passing.Field(o.name, o.type, o.fields++);
    }

    /**
     * The fewest bits a bit-field needs for every value of {@code fill} (signed where one is
     * negative), or 0 where it may not be one: no fewer than {@code elem} has, or {@code elem}
     * is no type a bit-field under 32 bits reads as: it must promote to int as the bit-field
     * does (bool is left alone).
     */
    static int bitWidth(NumType elem, ArrayVar.Fill fill) {
        if (elem == NumType.BOOL || Arith.promote(elem) != NumType.INT) return 0;
        long lo = min(fill), hi = max(fill);
        int bits = 1;
        if (lo < 0) {
            while (bits < 64 && (lo < -(1L << (bits - 1)) || hi > (1L << (bits - 1)) - 1)) bits++;
        } else {
            while (bits < 64 && hi > (1L << bits) - 1) bits++;
        }
        return bits < elem.bits ? bits : 0;
    }

    private static long min(ArrayVar.Fill f) {
        long m = Math.min(f.even(), f.odd());
        if (f.planted()) m = Math.min(m, f.plant());
        return m; // a varied fill runs from even up
    }

    private static long max(ArrayVar.Fill f) {
        long m = Math.max(f.even(), f.odd());
        if (f.planted()) m = Math.max(m, f.plant());
        if (f.varies()) m = Math.max(m, f.even() + f.span() - 1);
        return m;
    }
}
