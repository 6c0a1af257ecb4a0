package dev.yarpj.ir;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One set of values the driver gives a test's inputs before a call of {@code test()}: the
 * input scalars it changes, by name, each to its value ({@code values}; every other input
 * keeps its {@link ScalarVar#initValue}), the sentinel arrays of early exits whose one
 * special element it moves ({@code plants}, by name: the element the exit's test is true at,
 * or none), and the input arrays it fills otherwise ({@code fills}, by name: the whole
 * contents, in place of the array's own {@link ArrayVar#fill}). A program's first set is
 * {@link #PLANNED}, the values the generator built it around; the others give its loops other
 * trip counts, its exits other iterations to fire at and its conditions other outcomes, so
 * that one build runs its loops' scalar paths, main vector loops, epilogues and masked tails,
 * with masks all off, all on and on one lane.
 */
public record InputSet(Map<String, Long> values, Map<String, Plant> plants, Map<String, ArrayVar.Fill> fills) {
    /** The planned values: nothing changed. */
    public static final InputSet PLANNED = new InputSet(Map.of(), Map.of(), Map.of());

    /**
     * Where a sentinel array holds its special value in this set: the row-major element
     * {@code at} holds {@code value}, every other element the array's fill; {@code at} -1: no
     * element does (the exit never fires).
     */
    public record Plant(long at, long value) {}

    public InputSet {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values == null ? Map.of() : values));
        plants = Collections.unmodifiableMap(new LinkedHashMap<>(plants == null ? Map.of() : plants));
        fills = Collections.unmodifiableMap(new LinkedHashMap<>(fills == null ? Map.of() : fills));
    }

    /** A set that changes input scalars and moves sentinels only. */
    public InputSet(Map<String, Long> values, Map<String, Plant> plants) {
        this(values, plants, Map.of());
    }

    /** A set that changes input scalars only. */
    public InputSet(Map<String, Long> values) {
        this(values, Map.of());
    }

    /** This set without its changes of array contents. */
    public InputSet withoutFills() {
        return new InputSet(values, plants);
    }

    /** The value this set gives {@code v}. */
    public long valueOf(ScalarVar v) {
        Long x = values.get(v.name());
        return x != null ? x : v.initValue();
    }

    /** The fill array {@code a} has in this set: its own or this set's, with the special element this set moves it to. */
    public ArrayVar.Fill fillOf(ArrayVar a) {
        ArrayVar.Fill f = fills.getOrDefault(a.name(), a.fill());
        Plant p = plants.get(a.name());
        if (p == null) return f;
        return new ArrayVar.Fill(f.even(), f.odd(), f.axis(), p.at(), p.value(), f.mul(), f.add(), f.span());
    }
}
