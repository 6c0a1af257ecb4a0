package dev.yarpj.harness;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Of the testbeds with a configuration space: per testbed, axis and alternative, how many runs
 * drew it and how many of those were findings. The campaign counts its runs with it for its
 * summary, and the report counts the logs' lines with it, so both say the same.
 */
public final class OptionCounts {
    /** One alternative's runs, and those of them that were findings. */
    public record Count(long runs, long findings) {}

    private final Map<String, Map<String, Map<String, long[]>>> counts = new TreeMap<>();

    /** Counts one run of {@code testbed} that drew {@code options} (axis to alternative) and had {@code outcome} (its log name). */
    public synchronized void add(String testbed, Map<?, ?> options, String outcome) {
        Outcome o = Outcome.fromDir(outcome);
        // Every outcome but a pass and a slow compile is a finding (see Outcome).
        boolean finding = o != null && o != Outcome.PASS && o != Outcome.SLOW_COMPILE;
        Map<String, Map<String, long[]>> axes = counts.computeIfAbsent(testbed, k -> new LinkedHashMap<>());
        options.forEach((axis, value) -> {
            long[] n = axes.computeIfAbsent(String.valueOf(axis), k -> new TreeMap<>()).computeIfAbsent(String.valueOf(value), k -> new long[2]);
            n[0]++;
            if (finding) n[1]++;
        });
    }

    public synchronized boolean isEmpty() {
        return counts.isEmpty();
    }

    /** Testbed (in name order), axis (in the space's order), alternative (in name order) to its count. */
    public synchronized Map<String, Map<String, Map<String, Count>>> counts() {
        Map<String, Map<String, Map<String, Count>>> out = new TreeMap<>();
        counts.forEach((tb, axes) -> {
            Map<String, Map<String, Count>> a = new LinkedHashMap<>();
            axes.forEach((axis, values) -> {
                Map<String, Count> v = new TreeMap<>();
                values.forEach((value, n) -> v.put(value, new Count(n[0], n[1])));
                a.put(axis, v);
            });
            out.put(tb, a);
        });
        return out;
    }
}
