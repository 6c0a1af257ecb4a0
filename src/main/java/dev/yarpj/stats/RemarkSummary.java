package dev.yarpj.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToLongFunction;

/**
 * Remark counts over a set of programs: per (pass, kind) and per (pass, kind, name), the
 * total, the mean per program and the number of programs with at least one, and the
 * per-program counts (zero where a program had none) for tests between policies.
 */
public final class RemarkSummary {
    /** One row: {@code name} is null for a (pass, kind) row. */
    public record Row(String pass, RemarkKind kind, String name, long total, int programs, double mean) {}

    private final int programs;
    private final Map<RemarkTally.PassKind, double[]> byPass = new TreeMap<>();
    private final Map<RemarkTally.Key, double[]> byName = new TreeMap<>();

    /** The loops that leave early in all programs, and those of them vectorized ({@link EarlyExitLoops}). */
    private final long earlyExitLoops;
    private final long earlyExitLoopsVectorized;

    public RemarkSummary(List<RemarkTally> tallies) {
        this.programs = tallies.size();
        this.earlyExitLoops = tallies.stream().mapToLong(RemarkTally::earlyExitLoops).sum();
        this.earlyExitLoopsVectorized = tallies.stream().mapToLong(RemarkTally::earlyExitLoopsVectorized).sum();
        for (int i = 0; i < tallies.size(); i++) {
            for (var e : tallies.get(i).byPass().entrySet()) {
                byPass.computeIfAbsent(e.getKey(), k -> new double[programs])[i] = e.getValue();
            }
            for (var e : tallies.get(i).byName().entrySet()) {
                byName.computeIfAbsent(e.getKey(), k -> new double[programs])[i] = e.getValue();
            }
        }
    }

    public long earlyExitLoops() {
        return earlyExitLoops;
    }

    public long earlyExitLoopsVectorized() {
        return earlyExitLoopsVectorized;
    }

    /** Number of programs summarised. */
    public int programs() {
        return programs;
    }

    /** Passes with any remark, sorted. */
    public TreeSet<String> passes() {
        TreeSet<String> s = new TreeSet<>();
        for (RemarkTally.PassKind k : byPass.keySet()) s.add(k.pass());
        return s;
    }

    /** (pass, kind) rows sorted by pass then kind (Passed, Missed, Analysis). */
    public List<Row> passRows() {
        List<Row> rows = new ArrayList<>();
        for (var e : byPass.entrySet()) rows.add(row(e.getKey().pass(), e.getKey().kind(), null, e.getValue()));
        return rows;
    }

    /** (pass, kind, name) rows sorted by pass, kind, then total (largest first), then name. */
    public List<Row> nameRows() {
        List<Row> rows = new ArrayList<>();
        for (var e : byName.entrySet()) {
            rows.add(row(e.getKey().pass(), e.getKey().kind(), e.getKey().name(), e.getValue()));
        }
        rows.sort(Comparator.comparing(Row::pass).thenComparing(Row::kind)
                .thenComparing(Comparator.comparingLong(Row::total).reversed()).thenComparing(Row::name));
        return rows;
    }

    /** The {@code n} most frequent remark names of {@code kind} in each pass, in {@link #nameRows()} order. */
    public List<Row> topNames(RemarkKind kind, int n) {
        List<Row> rows = new ArrayList<>();
        String pass = null;
        int taken = 0;
        for (Row r : nameRows()) {
            if (r.kind() != kind) continue;
            if (!r.pass().equals(pass)) {
                pass = r.pass();
                taken = 0;
            }
            if (taken++ < n) rows.add(r);
        }
        return rows;
    }

    /**
     * The Missed and Analysis (pass, kind, name) rows of the loop optimizations
     * ({@link RemarkCompiler#isLoopRemark}): why loops were not transformed, or how. At most
     * {@code n}, the most frequent by total, in {@link #nameRows()} order.
     */
    public List<Row> loopMissedAndAnalysis(RemarkCompiler compiler, int n) {
        List<Row> rows = new ArrayList<>();
        for (Row r : nameRows()) {
            if (r.kind() != RemarkKind.PASSED && compiler.isLoopRemark(r.pass(), r.name())) rows.add(r);
        }
        return mostFrequent(rows, Row::total, n);
    }

    /** The {@code n} elements of {@code rows} with the largest {@code total} (ties: the earlier), kept in their order. */
    static <T> List<T> mostFrequent(List<T> rows, ToLongFunction<T> total, int n) {
        if (rows.size() <= n) return rows;
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) order.add(i);
        order.sort(Comparator.comparingLong((Integer i) -> total.applyAsLong(rows.get(i))).reversed()
                .thenComparing(Comparator.naturalOrder()));
        List<Integer> kept = new ArrayList<>(order.subList(0, Math.max(n, 0)));
        kept.sort(null);
        List<T> top = new ArrayList<>();
        for (int i : kept) top.add(rows.get(i));
        return top;
    }

    /** Remarks of (pass, kind, name) over all programs. */
    public long total(String pass, RemarkKind kind, String name) {
        long t = 0;
        double[] v = byName.get(new RemarkTally.Key(pass, kind, name));
        if (v != null) for (double c : v) t += (long) c;
        return t;
    }

    /** Per-program counts of (pass, kind); zeros if none. */
    public double[] perProgram(String pass, RemarkKind kind) {
        double[] v = byPass.get(new RemarkTally.PassKind(pass, kind));
        return v == null ? new double[programs] : v.clone();
    }

    /** Per-program counts of (pass, kind, name); zeros if none. */
    public double[] perProgram(String pass, RemarkKind kind, String name) {
        double[] v = byName.get(new RemarkTally.Key(pass, kind, name));
        return v == null ? new double[programs] : v.clone();
    }

    /** Per-program counts of a pass's remarks of every kind. */
    public double[] perProgramAllKinds(String pass) {
        double[] sum = new double[programs];
        for (RemarkKind k : RemarkKind.values()) {
            double[] v = byPass.get(new RemarkTally.PassKind(pass, k));
            if (v != null) for (int i = 0; i < programs; i++) sum[i] += v[i];
        }
        return sum;
    }

    /** (pass, kind, name) keys of one kind with any remark, sorted. */
    public List<RemarkTally.Key> names(RemarkKind kind) {
        List<RemarkTally.Key> keys = new ArrayList<>();
        for (RemarkTally.Key k : byName.keySet()) if (k.kind() == kind) keys.add(k);
        return keys;
    }

    private Row row(String pass, RemarkKind kind, String name, double[] counts) {
        long total = 0;
        int with = 0;
        for (double c : counts) {
            total += (long) c;
            if (c > 0) with++;
        }
        return new Row(pass, kind, name, total, with, programs == 0 ? 0 : (double) total / programs);
    }
}
