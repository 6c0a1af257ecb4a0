package dev.yarpj.stats;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Collects integer samples and summarizes them as percentiles. */
public final class Distribution {
    private final List<Integer> samples = new ArrayList<>();

    public void add(int v) {
        samples.add(v);
    }

    public void addAll(List<Integer> vs) {
        samples.addAll(vs);
    }

    /** "min 3, p10 .., median .., p90 .., p99 .., max .." or "no samples". */
    public String summary() {
        if (samples.isEmpty()) return "no samples";
        List<Integer> s = new ArrayList<>(samples);
        Collections.sort(s);
        return String.format("min %d, p10 %d, median %d, p90 %d, p99 %d, max %d, mean %.1f",
                s.get(0), at(s, 0.10), at(s, 0.50), at(s, 0.90), at(s, 0.99), s.get(s.size() - 1),
                s.stream().mapToInt(Integer::intValue).average().orElse(0));
    }

    /** How many samples take each value from the smallest to the largest, as "v:count" pairs. */
    public String histogram() {
        List<Integer> s = new ArrayList<>(samples);
        Collections.sort(s);
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < s.size()) {
            int v = s.get(i);
            int j = i;
            while (j < s.size() && s.get(j) == v) j++;
            if (sb.length() > 0) sb.append(", ");
            sb.append(v).append(':').append(j - i);
            i = j;
        }
        return sb.toString();
    }

    private static int at(List<Integer> sorted, double q) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(q * sorted.size())));
    }
}
