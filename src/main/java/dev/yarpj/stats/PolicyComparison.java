package dev.yarpj.stats;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Two policies' remark counts side by side: for each pass (Passed remarks, and all kinds
 * together), each Passed remark name and each Missed and Analysis remark name of the loop
 * optimizations ({@link RemarkCompiler#isLoopRemark}), the mean count per program under A
 * and under B, the ratio A/B and Welch's t-test; then the geometric mean of the Passed
 * ratios over the loop optimizations ({@link RemarkCompiler#isLoopUnit}). A unit whose mean
 * is 0 under one policy has no finite ratio: it is listed as only in A or only in B and left
 * out of the mean.
 */
public final class PolicyComparison {
    /** Where a unit has remarks. */
    public enum Presence { BOTH, ONLY_A, ONLY_B }

    /**
     * One compared unit. {@code kind} is null for a pass over all kinds; {@code name} is null
     * for a pass row. {@code ratio} is NaN unless both means are positive. {@code loop}:
     * whether it is a loop optimization of the geometric mean's kind of unit; always true in
     * {@link #loopMissedAndAnalysisByName}, which holds loop remarks only.
     */
    public record Row(String pass, RemarkKind kind, String name, double meanA, double meanB, double ratio,
                      double pValue, boolean significant, Presence presence, boolean loop) {
        public String verdict() {
            return significant ? "significant" : "n.s.";
        }

        /** "licm" or "opt-info: loop vectorized using N byte vectors". */
        public String unit() {
            return name == null ? pass : pass + ": " + name;
        }
    }

    /**
     * The geometric mean of the ratios over {@code count} loop units (passes, or gcc's remark
     * names, per {@code unit}), {@code significant} of which differ at 95%; units only in one
     * policy are listed, not counted. {@code value} is NaN when {@code count} is 0.
     */
    public record GeoMean(String unit, int count, double value, int significant, List<String> onlyInA, List<String> onlyInB) {}

    private final List<Row> passedByPass = new ArrayList<>();
    private final List<Row> allKindsByPass = new ArrayList<>();
    private final List<Row> passedByName;
    private final List<Row> loopMissedAndAnalysisByName;
    /** Remarks under A and B together of each Missed and Analysis name, to pick the most frequent. */
    private final Map<RemarkTally.Key, Long> missedAndAnalysisTotals = new HashMap<>();
    private final GeoMean geoMean;

    /** @throws IllegalArgumentException if either side has fewer than 2 programs */
    public PolicyComparison(RemarkCompiler compiler, RemarkSummary a, RemarkSummary b) {
        if (a.programs() < 2 || b.programs() < 2) {
            throw new IllegalArgumentException("need at least 2 programs per policy to compare, got "
                    + a.programs() + " and " + b.programs());
        }
        TreeSet<String> passes = new TreeSet<>(a.passes());
        passes.addAll(b.passes());
        boolean byName = compiler.geomeanOverNames();
        for (String pass : passes) {
            double[] pa = a.perProgram(pass, RemarkKind.PASSED);
            double[] pb = b.perProgram(pass, RemarkKind.PASSED);
            if (any(pa) || any(pb)) {
                passedByPass.add(row(pass, RemarkKind.PASSED, null, pa, pb, !byName && compiler.isLoopUnit(pass, "")));
            }
            allKindsByPass.add(row(pass, null, null, a.perProgramAllKinds(pass), b.perProgramAllKinds(pass), false));
        }
        passedByName = nameRows(a, b, List.of(RemarkKind.PASSED), k -> true,
                k -> byName && compiler.isLoopUnit(k.pass(), k.name()));
        loopMissedAndAnalysisByName = nameRows(a, b, List.of(RemarkKind.MISSED, RemarkKind.ANALYSIS),
                k -> compiler.isLoopRemark(k.pass(), k.name()), k -> true);
        for (Row r : loopMissedAndAnalysisByName) {
            missedAndAnalysisTotals.put(key(r), a.total(r.pass(), r.kind(), r.name()) + b.total(r.pass(), r.kind(), r.name()));
        }
        loopMissedAndAnalysisByName.sort(Comparator.comparing(Row::pass).thenComparing(Row::kind)
                .thenComparing(Comparator.comparingLong((Row r) -> missedAndAnalysisTotals.get(key(r))).reversed())
                .thenComparing(Row::name));
        List<Double> ratios = new ArrayList<>();
        List<String> onlyA = new ArrayList<>();
        List<String> onlyB = new ArrayList<>();
        int significant = 0;
        for (Row r : byName ? passedByName : passedByPass) {
            if (!r.loop()) continue;
            switch (r.presence()) {
                case ONLY_A -> onlyA.add(byName ? r.name() : r.pass());
                case ONLY_B -> onlyB.add(byName ? r.name() : r.pass());
                case BOTH -> {
                    ratios.add(r.ratio());
                    if (r.significant()) significant++;
                }
            }
        }
        double[] rs = ratios.stream().mapToDouble(Double::doubleValue).toArray();
        geoMean = new GeoMean(byName ? "loop remarks" : "loop passes", rs.length, Welch.geometricMean(rs), significant,
                List.copyOf(onlyA), List.copyOf(onlyB));
    }

    /**
     * One row per (pass, kind, name) of the given kinds found under A or B and kept by
     * {@code keep}, sorted by pass, kind and name; {@code loop} sets each row's loop flag.
     */
    private static List<Row> nameRows(RemarkSummary a, RemarkSummary b, List<RemarkKind> kinds,
                                    Predicate<RemarkTally.Key> keep, Predicate<RemarkTally.Key> loop) {
        TreeSet<RemarkTally.Key> names = new TreeSet<>();
        for (RemarkKind kind : kinds) {
            names.addAll(a.names(kind));
            names.addAll(b.names(kind));
        }
        List<Row> rows = new ArrayList<>();
        for (RemarkTally.Key k : names) {
            if (!keep.test(k)) continue;
            rows.add(row(k.pass(), k.kind(), k.name(), a.perProgram(k.pass(), k.kind(), k.name()),
                    b.perProgram(k.pass(), k.kind(), k.name()), loop.test(k)));
        }
        return rows;
    }

    private static RemarkTally.Key key(Row r) {
        return new RemarkTally.Key(r.pass(), r.kind(), r.name());
    }

    private static Row row(String pass, RemarkKind kind, String name, double[] a, double[] b, boolean loop) {
        Welch.Result w = Welch.test(a, b);
        Presence presence = w.meanA() > 0 && w.meanB() > 0 ? Presence.BOTH
                : w.meanA() > 0 ? Presence.ONLY_A : w.meanB() > 0 ? Presence.ONLY_B : Presence.BOTH;
        double ratio = w.meanA() > 0 && w.meanB() > 0 ? w.meanA() / w.meanB() : Double.NaN;
        return new Row(pass, kind, name, w.meanA(), w.meanB(), ratio, w.pValue(), w.significant(), presence, loop);
    }

    private static boolean any(double[] v) {
        for (double x : v) if (x != 0) return true;
        return false;
    }

    /** Passed remarks per pass (passes with any Passed remark in either policy), sorted by pass. */
    public List<Row> passedByPass() {
        return passedByPass;
    }

    /** Remarks of every kind per pass, sorted by pass. */
    public List<Row> allKindsByPass() {
        return allKindsByPass;
    }

    /** Passed remarks per (pass, name), sorted by pass and name. */
    public List<Row> passedByName() {
        return passedByName;
    }

    /**
     * Missed and Analysis remarks per (pass, kind, name) of the loop optimizations
     * ({@link RemarkCompiler#isLoopRemark}): why loops were not transformed, or how. Sorted
     * by pass, kind, then remarks under A and B together (most first), then name.
     */
    public List<Row> loopMissedAndAnalysisByName() {
        return loopMissedAndAnalysisByName;
    }

    /** The {@code n} most frequent (under A and B together) of {@link #loopMissedAndAnalysisByName()}, in its order. */
    public List<Row> loopMissedAndAnalysisByName(int n) {
        return RemarkSummary.mostFrequent(loopMissedAndAnalysisByName, r -> missedAndAnalysisTotals.get(key(r)), n);
    }

    public GeoMean geoMean() {
        return geoMean;
    }
}
