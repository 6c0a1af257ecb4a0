package dev.yarpj.stats;

import dev.yarpj.stats.ispc.IfMask;
import dev.yarpj.stats.ispc.IspcSummary;
import dev.yarpj.stats.ispc.MaskSummary;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code yarpj stats} found, built once from the results of one policy or two (A and
 * B) and printed by one printer per format ({@link TablePrinter}, {@link CsvPrinter},
 * {@link JsonPrinter}), which only format it: per policy the remark counts (when remarks
 * were collected), the shape and trip counts of the generated programs, for ISPC what the
 * lowering made of them and the masks (when measured), for SYCL its lowering choices, and
 * for two policies their comparisons.
 *
 * @param remarks   the comparison of the remarks of A and B; null for one policy or no remarks
 * @param rates     the comparison of the remarks per CPU-second of A and B (with its bootstrap
 *                  interval, which resamples the seeds: computed here, once); null when {@code remarks} is
 * @param trips     the comparison of the trip counts of A and B; null for one policy
 * @param ispcTrips the data-parallel loops' trip rows of A and B paired by group, those either
 *                  side shows; empty unless both are ISPC
 */
record StatsReport(RunInfo info, List<Side> sides, PolicyComparison remarks, RemarkRate.Comparison rates, TripComparison trips,
                   List<TripPair> ispcTrips) {

    /** Remark names shown per pass in the table (CSV and JSON have them all). */
    static final int TOP_NAMES = 10;

    /** Missed and Analysis remark names of the loop passes shown in the table, the most frequent (CSV and JSON have them all). */
    static final int TOP_LOOP_MISSED_ANALYSIS = 30;

    /**
     * One policy's figures. {@code label}: "" alone, "A (name)" or "B (name)" in a comparison;
     * {@code programs}: those compiled when remarks were collected, else those generated;
     * {@code remarks} null when no remarks were collected, {@code ispc} null for other languages.
     */
    record Side(String label, String policy, Map<Skip, Integer> skipped, int programs, Remarks remarks, ShapeSummary shape,
                TripSummary trips, Ispc ispc, SyclChoices sycl, InputSetTrips inputSets) {
        int skippedTotal() {
            int n = 0;
            for (int c : skipped.values()) n += c;
            return n;
        }
    }

    /**
     * The remarks of one policy's compiles and their rate per CPU-second; {@code loopMissedAndAnalysis}:
     * every Missed and Analysis name of the loop optimizations, {@code topLoopMissedAndAnalysis} the
     * most frequent of them (the table's), {@code topPassed} the most frequent Passed names per pass.
     */
    record Remarks(RemarkSummary summary, RemarkRate rate, List<RemarkSummary.Row> topPassed,
                   List<RemarkSummary.Row> loopMissedAndAnalysis, List<RemarkSummary.Row> topLoopMissedAndAnalysis) {
        static Remarks of(RemarkCompiler compiler, RemarkSummary s, RemarkRate rate) {
            return new Remarks(s, rate, s.topNames(RemarkKind.PASSED, TOP_NAMES), s.loopMissedAndAnalysis(compiler, Integer.MAX_VALUE),
                    s.loopMissedAndAnalysis(compiler, TOP_LOOP_MISSED_ANALYSIS));
        }

        /** Share of the loops that leave early the loop vectorizer vectorized; NaN for none. */
        double earlyExitVectorizedShare() {
            return Cells.share(summary.earlyExitLoopsVectorized(), summary.earlyExitLoops());
        }
    }

    /**
     * What the ISPC lowering made of one policy's tests, the trips of its data-parallel loops
     * ({@code parallelTripRows}: those shown), and the masks (null when not measured).
     */
    record Ispc(IspcSummary lowering, TripSummary parallelTrips, List<TripSummary.Row> parallelTripRows, Masks masks) {
        /** Share of the tests with at least one of a measure; NaN for no tests. */
        double testsShare(IspcSummary.Row r) {
            return Cells.share(r.tests(), lowering.tests());
        }
    }

    /** One group's trip row under A and under B. */
    record TripPair(TripSummary.Row a, TripSummary.Row b) {}

    /**
     * The masks of the tests that ran with the right checksum, the seeds that printed a wrong
     * one, and each mask figure with its share ({@link MaskFigure}).
     */
    record Masks(MaskSummary summary, List<Long> mismatchSeeds, List<MaskFigure> figures) {
        /** Tests that ran to a checksum: measured, or mismatched. */
        int checked() {
            return summary.tests() + mismatchSeeds.size();
        }

        MaskFigure figure(String key) {
            for (MaskFigure f : figures) if (f.key().equals(key)) return f;
            throw new IllegalArgumentException(key);
        }

        static Masks of(MaskSummary m, List<Long> mismatchSeeds) {
            int mismatches = mismatchSeeds.size();
            List<MaskFigure> f = new ArrayList<>();
            f.add(new MaskFigure("varying_ifs", m.ifs(), Cells.share(m.ifs(), m.tests())));
            f.add(new MaskFigure("ran", m.ran(), Cells.share(m.ran(), m.ifs())));
            f.add(new MaskFigure("tests_with_ran", m.testsWithRan(), Cells.share(m.testsWithRan(), m.tests())));
            f.add(new MaskFigure("mixed_at_least_once", m.mixedOnce(), m.mixedOnceShare()));
            f.add(new MaskFigure("runs", m.runs(), Double.NaN));
            f.add(new MaskFigure("mixed_runs", m.mixedRuns(), m.mixedRunShare()));
            for (MaskSummary.Bucket k : MaskSummary.Bucket.values()) f.add(new MaskFigure("ifs_" + k.key, m.count(k), m.share(k)));
            f.add(new MaskFigure("checksum_mismatches", mismatches, Cells.share(mismatches, m.tests() + mismatches)));
            return new Masks(m, List.copyOf(mismatchSeeds), List.copyOf(f));
        }
    }

    /**
     * A mask figure and its share: ran of the varying ifs, tests_with_ran of the tests,
     * mixed_at_least_once and the ifs_ buckets of the ifs that ran, mixed_runs of the runs,
     * checksum_mismatches of the tests checked; varying_ifs: per test, not a share; runs: NaN.
     */
    record MaskFigure(String key, long count, double share) {}

    /**
     * What the SYCL lowering chose over {@code tests} tests: the kernels of every kind, and
     * per choice its count over all tests, per test, and the share of the tests with any.
     */
    record SyclChoices(int tests, long kernels, List<Choice> choices) {
        record Choice(String name, long total, double perTest, double testsShare) {}

        private static final List<String> KERNEL_KINDS = List.of("range.1", "range.2", "range.3", "nd_range", "single_task");

        double kernelsPerTest() {
            return (double) kernels / Math.max(1, tests);
        }

        static SyclChoices of(List<Map<String, Integer>> perTest) {
            Map<String, long[]> sums = new LinkedHashMap<>();
            for (Map<String, Integer> c : perTest) {
                for (Map.Entry<String, Integer> e : c.entrySet()) {
                    long[] v = sums.computeIfAbsent(e.getKey(), k -> new long[2]);
                    v[0] += e.getValue();
                    if (e.getValue() > 0) v[1]++;
                }
            }
            long kernels = 0;
            for (String k : KERNEL_KINDS) kernels += sums.getOrDefault(k, new long[2])[0];
            List<Choice> choices = new ArrayList<>();
            for (Map.Entry<String, long[]> e : sums.entrySet()) {
                long[] v = e.getValue();
                choices.add(new Choice(e.getKey(), v[0], (double) v[0] / Math.max(1, perTest.size()), Cells.share(v[1], perTest.size())));
            }
            return new SyclChoices(perTest.size(), kernels, List.copyOf(choices));
        }
    }

    boolean compares() {
        return sides.size() == 2;
    }

    /** Remark mode: one summary per policy, compared when there are two. */
    static StatsReport ofRemarks(RunInfo info, List<PolicyResults<RemarkTally>> results) {
        List<Side> sides = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            PolicyResults<RemarkTally> r = results.get(i);
            RemarkSummary s = new RemarkSummary(r.measures());
            sides.add(side(label(results, i), r, s.programs(), Remarks.of(info.compiler(), s, new RemarkRate(info.compiler(), r.measured())),
                    null));
        }
        if (sides.size() != 2) return of(info, sides, null, null);
        Remarks a = sides.get(0).remarks();
        Remarks b = sides.get(1).remarks();
        return of(info, sides, new PolicyComparison(info.compiler(), a.summary(), b.summary()), RemarkRate.compare(a.rate(), b.rate()));
    }

    /** --no-compile: the figures of the generated tests only. */
    static StatsReport ofGenerated(RunInfo info, List<? extends PolicyResults<?>> results) {
        List<Side> sides = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            PolicyResults<?> r = results.get(i);
            sides.add(side(label(results, i), r, r.tests().size(), null, null));
        }
        return of(info, sides, null, null);
    }

    /** ISPC mask mode: the generated tests' figures and the masks of those built and run. */
    static StatsReport ofMasks(RunInfo info, List<PolicyResults<List<IfMask>>> results) {
        List<Side> sides = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            PolicyResults<List<IfMask>> r = results.get(i);
            List<Long> bad = new ArrayList<>();
            for (SeedResult.Skipped<List<IfMask>> s : r.skipped(Skip.MISMATCH)) bad.add(s.seed());
            sides.add(side(label(results, i), r, r.tests().size(), null, Masks.of(new MaskSummary(r.measures()), bad)));
        }
        return of(info, sides, null, null);
    }

    private static StatsReport of(RunInfo info, List<Side> sides, PolicyComparison remarks, RemarkRate.Comparison rates) {
        boolean two = sides.size() == 2;
        TripComparison trips = two ? new TripComparison(sides.get(0).trips(), sides.get(1).trips()) : null;
        List<TripPair> ispcTrips = two && sides.get(0).ispc() != null && sides.get(1).ispc() != null
                ? pairs(sides.get(0).ispc(), sides.get(1).ispc()) : List.of();
        return new StatsReport(info, List.copyOf(sides), remarks, rates, trips, ispcTrips);
    }

    /** The data-parallel loops' trip rows either side shows, paired by group: A's in order, then those only B shows. */
    private static List<TripPair> pairs(Ispc a, Ispc b) {
        List<TripPair> pairs = new ArrayList<>();
        for (TripSummary.Row r : a.parallelTripRows()) pairs.add(new TripPair(r, b.parallelTrips().row(r.group())));
        for (TripSummary.Row r : b.parallelTripRows()) {
            if (pairs.stream().noneMatch(p -> p.b().equals(r))) pairs.add(new TripPair(a.parallelTrips().row(r.group()), r));
        }
        return List.copyOf(pairs);
    }

    /** The data-parallel loops' trip rows shown: all loops, each idiom that has any, innermost loops (none leaves early). */
    private static List<TripSummary.Row> shownParallelTripRows(TripSummary t) {
        List<TripSummary.Row> rows = new ArrayList<>();
        for (TripSummary.Row r : t.rows()) {
            TripSummary.Group g = r.group();
            if (g.leavesEarlyOnly()) continue;
            if (g.idiom() == null || (!g.innermostOnly() && r.loops() > 0)) rows.add(r);
        }
        return List.copyOf(rows);
    }

    private static String label(List<? extends PolicyResults<?>> results, int i) {
        return results.size() == 1 ? "" : (i == 0 ? "A (" : "B (") + results.get(i).policyName() + ")";
    }

    private static Side side(String label, PolicyResults<?> r, int programs, Remarks remarks, Masks masks) {
        Map<Skip, Integer> skipped = new EnumMap<>(Skip.class);
        for (Skip k : Skip.values()) skipped.put(k, r.skippedCount(k));
        var lowerings = r.tests(TestFigures::ispc);
        Ispc ispc = null;
        if (!lowerings.isEmpty()) {
            IspcSummary lowering = new IspcSummary(lowerings);
            TripSummary parallel = new TripSummary(lowering.parallelLoops());
            ispc = new Ispc(lowering, parallel, shownParallelTripRows(parallel), masks);
        }
        return new Side(label, r.policyName(), skipped, programs, remarks, new ShapeSummary(r.tests(TestFigures::shape)),
                new TripSummary(r.tests(TestFigures::loops)), ispc, SyclChoices.of(r.tests(TestFigures::choices)),
                InputSetTrips.sum(r.tests(TestFigures::inputSets)));
    }
}
