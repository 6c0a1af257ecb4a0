package dev.yarpj.stats.ispc;

import dev.yarpj.interp.LoopTrips;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The {@link IspcLowering}s of a set of ISPC tests as per-test figures: for each measure
 * (data-parallel loops, gang loops and their forms, loops left serial, reductions and
 * partials, varying ifs, lane queries, selects) the total, the mean per test, the tests with
 * at least one, and its share of the measure it is part of (a form of the gang loops, the
 * gang loops of the data-parallel loops, the partials of the reductions); and the trip
 * counts of the data-parallel loops, per test, which the report summarises as it does
 * those of all loops.
 */
public final class IspcSummary {

    /**
     * One figure: {@code key} for CSV and JSON, {@code label} for the table, {@code depth}
     * its indentation there, {@code partOf} the key of the measure it is a part of (null for
     * none).
     */
    public record Measure(String key, String label, int depth, String partOf, ToIntFunction<IspcLowering> count) {}

    public static final List<Measure> MEASURES = List.of(
            new Measure("data_parallel_loops", "data-parallel loops", 0, null, IspcLowering::dataParallelLoops),
            new Measure("gang_loops", "run as a gang", 1, "data_parallel_loops", IspcLowering::gangLoops),
            new Measure("gang_foreach", "foreach", 2, "gang_loops", IspcLowering::foreach),
            new Measure("gang_foreach_tiled", "foreach_tiled", 2, "gang_loops", IspcLowering::foreachTiled),
            new Measure("gang_program_index", "for over programIndex", 2, "gang_loops", IspcLowering::programIndex),
            new Measure("serial_parallel_loops", "left serial", 1, "data_parallel_loops", IspcLowering::serialParallel),
            new Measure("unplanned_parallel_loops", "no planned trip count (serial)", 1, "data_parallel_loops",
                    IspcLowering::unplannedParallel),
            new Measure("reductions", "reductions (Reduce statements)", 0, null, IspcLowering::reductions),
            new Measure("partials", "as varying partials", 1, "reductions", IspcLowering::partials),
            new Measure("varying_ifs", "varying ifs", 0, null, IspcLowering::varyingIfs),
            new Measure("lane_queries", "lane queries (any/all/none)", 0, null, IspcLowering::laneQueries),
            new Measure("selects", "select()", 0, null, IspcLowering::selects));

    /** One measure over the tests; {@code share}: of the total of its {@code partOf} measure (NaN if none or 0). */
    public record Row(Measure measure, long total, double mean, int tests, double share) {}

    private final int tests;
    private final List<Row> rows = new ArrayList<>();
    private final List<List<LoopTrips>> parallelLoops;

    public IspcSummary(List<IspcLowering> programs) {
        this.tests = programs.size();
        Map<String, Long> totals = new LinkedHashMap<>();
        List<List<LoopTrips>> parallel = new ArrayList<>();
        for (IspcLowering p : programs) parallel.add(p.parallelLoops());
        for (Measure m : MEASURES) {
            long total = 0;
            int with = 0;
            for (IspcLowering p : programs) {
                int n = m.count().applyAsInt(p);
                total += n;
                if (n > 0) with++;
            }
            totals.put(m.key(), total);
            double share = Double.NaN;
            if (m.partOf() != null) {
                long whole = totals.get(m.partOf());
                share = whole == 0 ? Double.NaN : (double) total / whole;
            }
            rows.add(new Row(m, total, tests == 0 ? Double.NaN : (double) total / tests, with, share));
        }
        this.parallelLoops = List.copyOf(parallel);
    }

    /** The tests summarised. */
    public int tests() {
        return tests;
    }

    /** One row per measure, in {@link #MEASURES} order. */
    public List<Row> rows() {
        return rows;
    }

    public Row row(String key) {
        for (Row r : rows) if (r.measure().key().equals(key)) return r;
        throw new IllegalArgumentException("unknown measure " + key);
    }

    /** The trip counts of the data-parallel loops only, per test. */
    public List<List<LoopTrips>> parallelLoops() {
        return parallelLoops;
    }
}
