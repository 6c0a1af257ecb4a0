package dev.yarpj.stats;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Collects integer samples and summarizes them as percentiles. */
public final class Distribution {
    private final List<Integer> samples = new ArrayList<>();

    public void add(int v) {
        samples.add(v);
    }

    public void addAll(List<Integer> vs) {
        samples.addAll(vs);
    }

    public int size() {
        return samples.size();
    }

    /** "min 3, p10 .., median .., p90 .., p99 .., max .." or "no samples". */
    public String summary() {
        if (samples.isEmpty()) return "no samples";
        List<Integer> s = sorted();
        return String.format(Locale.ROOT, "min %d, p10 %d, median %d, p90 %d, p99 %d, max %d, mean %.1f",
                s.get(0), at(s, 0.10), at(s, 0.50), at(s, 0.90), at(s, 0.99), s.get(s.size() - 1), mean());
    }

    /**
     * The figures of {@link #summary()} by name (min, p10, median, p90, p99, max: integers;
     * mean: a double), in that order; empty for no samples.
     */
    public Map<String, Number> figures() {
        Map<String, Number> m = new java.util.LinkedHashMap<>();
        if (samples.isEmpty()) return m;
        List<Integer> s = sorted();
        m.put("min", s.get(0));
        m.put("p10", at(s, 0.10));
        m.put("median", at(s, 0.50));
        m.put("p90", at(s, 0.90));
        m.put("p99", at(s, 0.99));
        m.put("max", s.get(s.size() - 1));
        m.put("mean", mean());
        return m;
    }

    /** How many samples take each value, by value. */
    public TreeMap<Integer, Integer> counts() {
        TreeMap<Integer, Integer> m = new TreeMap<>();
        for (int v : samples) m.merge(v, 1, Integer::sum);
        return m;
    }

    /** How many samples take each value from the smallest to the largest, as "v:count" pairs. */
    public String histogram() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Integer, Integer> e : counts().entrySet()) {
            if (sb.length() > 0) sb.append(", ");
            sb.append(e.getKey()).append(':').append(e.getValue());
        }
        return sb.toString();
    }

    private double mean() {
        return samples.stream().mapToInt(Integer::intValue).average().orElse(0);
    }

    private List<Integer> sorted() {
        List<Integer> s = new ArrayList<>(samples);
        Collections.sort(s);
        return s;
    }

    private static int at(List<Integer> sorted, double q) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(q * sorted.size())));
    }
}
