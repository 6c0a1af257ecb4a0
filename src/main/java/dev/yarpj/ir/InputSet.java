package dev.yarpj.ir;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One set of values the driver gives a test's inputs before a call of {@code test()}: the
 * input scalars it changes, by name, each to its value; every other input keeps its
 * {@link ScalarVar#initValue}. A program's first set is {@link #PLANNED}, the values the
 * generator built it around; the others give its loops other trip counts, so that one build
 * runs its loops' scalar paths, main vector loops, epilogues and masked tails.
 */
public record InputSet(Map<String, Long> values) {
    /** The planned values: nothing changed. */
    public static final InputSet PLANNED = new InputSet(Map.of());

    public InputSet {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** The value this set gives {@code v}. */
    public long valueOf(ScalarVar v) {
        Long x = values.get(v.name());
        return x != null ? x : v.initValue();
    }
}
