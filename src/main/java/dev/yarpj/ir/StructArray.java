package dev.yarpj.ir;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A global array of structs, {@code struct type name[d0]...}, as its fields declare it
 * ({@link ArrayVar.Passing.Field}): a view for the lowerers, which print one declaration
 * for all its fields.
 *
 * @param fields in field order, each an array of the struct's dimensions
 */
public record StructArray(String name, String type, List<ArrayVar> fields) {
    public StructArray {
        fields = List.copyOf(fields);
    }

    /** The dimensions of the array of structs: those of every field. */
    public List<Integer> dims() {
        return fields.get(0).dims();
    }

    /** The arrays of structs of {@code arrays}, in the order their first fields come. */
    public static List<StructArray> of(List<ArrayVar> arrays) {
        Map<String, List<ArrayVar>> by = new LinkedHashMap<>();
        for (ArrayVar a : arrays) if (a.field() != null) by.computeIfAbsent(a.field().structs(), k -> new ArrayList<>()).add(a);
        List<StructArray> out = new ArrayList<>();
        for (List<ArrayVar> fs : by.values()) {
            fs.sort(Comparator.comparingInt(a -> a.field().index()));
            out.add(new StructArray(fs.get(0).field().structs(), fs.get(0).field().type(), fs));
        }
        return out;
    }
}
