package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
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

    private static final class Open {
        final String name;
        final String type;
        int fields;

        Open(String name, String type) {
            this.name = name;
            this.type = type;
        }
    }

    StructFields(StructPolicy p, Rng rng) {
        this.p = p;
        this.rng = rng;
    }

    /** Global, or a field of an array of structs of dimensions {@code dims}. No draw at all when p_field is 0. */
    ArrayVar.Passing place(List<Integer> dims) {
        if (p.pField() <= 0 || !rng.chance(p.pField())) return ArrayVar.Passing.GLOBAL;
        Open o = open.get(dims);
        if (o == null || o.fields >= p.maxFields()) {
            o = new Open("recs_" + structs, "rec_" + structs);
            structs++;
            open.put(List.copyOf(dims), o);
        }
        return new ArrayVar.Passing.Field(o.name, o.type, o.fields++);
    }
}
