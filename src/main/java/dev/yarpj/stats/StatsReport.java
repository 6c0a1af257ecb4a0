package dev.yarpj.stats;

import dev.yarpj.stats.ispc.IfMask;
import dev.yarpj.stats.ispc.IspcSummary;
import dev.yarpj.stats.ispc.MaskSummary;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code yarpj stats} found, built once from the results of one policy or two (A and
 * B) and printed by one printer per format ({@link TablePrinter}, {@link CsvPrinter},
 * {@link JsonPrinter}): per policy the remark counts (when remarks were collected), the
 * shape and trip counts of the generated programs, for ISPC what the lowering made of them
 * and the masks (when measured), and for two policies their comparisons.
 *
 * @param remarks the comparison of the remarks of A and B; null for one policy or no remarks
 * @param trips   the comparison of the trip counts of A and B; null for one policy
 */
record StatsReport(RunInfo info, List<Side> sides, PolicyComparison remarks, TripComparison trips) {

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
                TripSummary trips, Ispc ispc, List<Map<String, Integer>> choices) {
        int skippedTotal() {
            int n = 0;
            for (int c : skipped.values()) n += c;
            return n;
        }
    }

    /** The remarks of one policy's compiles and their rate per CPU-second. */
    record Remarks(RemarkSummary summary, RemarkRate rate) {}

    /** What the ISPC lowering made of one policy's tests, the trips of its data-parallel loops, and the masks (null when not measured). */
    record Ispc(IspcSummary lowering, TripSummary parallelTrips, Masks masks) {}

    /** The masks of the tests that ran with the right checksum, and the seeds that printed a wrong one. */
    record Masks(MaskSummary summary, List<Long> mismatchSeeds) {
        /** Tests that ran to a checksum: measured, or mismatched. */
        int checked() {
            return summary.tests() + mismatchSeeds.size();
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
            sides.add(side(label(results, i), r, s.programs(), new Remarks(s, new RemarkRate(info.compiler(), r.measured())), null));
        }
        PolicyComparison cmp = sides.size() == 2
                ? new PolicyComparison(info.compiler(), sides.get(0).remarks().summary(), sides.get(1).remarks().summary()) : null;
        return of(info, sides, cmp);
    }

    /** --no-compile: the figures of the generated tests only. */
    static StatsReport ofGenerated(RunInfo info, List<? extends PolicyResults<?>> results) {
        List<Side> sides = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            PolicyResults<?> r = results.get(i);
            sides.add(side(label(results, i), r, r.tests().size(), null, null));
        }
        return of(info, sides, null);
    }

    /** ISPC mask mode: the generated tests' figures and the masks of those built and run. */
    static StatsReport ofMasks(RunInfo info, List<PolicyResults<List<IfMask>>> results) {
        List<Side> sides = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            PolicyResults<List<IfMask>> r = results.get(i);
            List<Long> bad = new ArrayList<>();
            for (SeedResult.Skipped<List<IfMask>> s : r.skipped(Skip.MISMATCH)) bad.add(s.seed());
            sides.add(side(label(results, i), r, r.tests().size(), null, new Masks(new MaskSummary(r.measures()), List.copyOf(bad))));
        }
        return of(info, sides, null);
    }

    private static StatsReport of(RunInfo info, List<Side> sides, PolicyComparison remarks) {
        TripComparison trips = sides.size() == 2 ? new TripComparison(sides.get(0).trips(), sides.get(1).trips()) : null;
        return new StatsReport(info, List.copyOf(sides), remarks, trips);
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
            ispc = new Ispc(lowering, new TripSummary(lowering.parallelLoops()), masks);
        }
        return new Side(label, r.policyName(), skipped, programs, remarks, new ShapeSummary(r.tests(TestFigures::shape)),
                new TripSummary(r.tests(TestFigures::loops)), ispc, r.tests(TestFigures::choices));
    }
}
