package dev.yarpj.stats;

import dev.yarpj.harness.Json;
import dev.yarpj.stats.ispc.IspcSummary;
import dev.yarpj.stats.ispc.MaskSummary;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Prints a {@link StatsReport} as one JSON object (for people and scripts: {@link Json#writePretty}). */
final class JsonPrinter {
    private static final String[] SHAPE_KEYS = {"deepest_loop_nesting", "loops_per_program", "stmts_per_loop_body"};

    private final PrintWriter out;

    JsonPrinter(PrintWriter out) {
        this.out = out;
    }

    void print(StatsReport report) {
        out.print(Json.writePretty(report.compares() ? compare(report) : single(report)));
        out.flush();
    }

    private static Map<String, Object> single(StatsReport report) {
        RunInfo info = report.info();
        StatsReport.Side side = report.sides().get(0);
        Map<String, Object> m = header(info);
        m.put("policy", side.policy());
        m.put("programs", side.programs());
        m.put("skipped", skipped(side));
        if (side.remarks() != null) {
            RemarkSummary s = side.remarks().summary();
            List<Object> passes = new ArrayList<>();
            for (RemarkSummary.Row r : s.passRows()) passes.add(remarkRow(r));
            m.put("passes", passes);
            List<Object> names = new ArrayList<>();
            for (RemarkSummary.Row r : s.nameRows()) names.add(remarkRow(r));
            m.put("remarks", names);
            List<Object> why = new ArrayList<>();
            for (RemarkSummary.Row r : s.loopMissedAndAnalysis(info.compiler(), Integer.MAX_VALUE)) why.add(remarkRow(r));
            m.put("remarks_missed_analysis_loop", why);
            m.put("rate", rate(side.remarks().rate()));
            m.put("early_exit_loops", s.earlyExitLoops());
            m.put("early_exit_loops_vectorized", s.earlyExitLoopsVectorized());
        }
        m.put("generated_programs", side.trips().programs());
        m.put("shape", shape(side.shape()));
        List<Object> rows = new ArrayList<>();
        for (TripSummary.Row r : side.trips().rows()) {
            Map<String, Object> o = group(r.group());
            o.putAll(trip(r));
            rows.add(o);
        }
        m.put("trips", rows);
        m.put("exit_ends", exitEnds(side.trips().exitEnds()));
        if (side.ispc() != null) m.put("ispc", ispc(side.ispc(), info.ispcBuild()));
        return m;
    }

    private static Map<String, Object> exitEnds(TripSummary.ExitEnds e) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("entries", e.entries());
        o.put("first", e.first());
        o.put("middle", e.middle());
        o.put("last", e.last());
        o.put("not_ended", e.notEnded());
        return o;
    }

    private static Map<String, Object> remarkRow(RemarkSummary.Row r) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("pass", r.pass());
        o.put("kind", r.kind().label());
        if (r.name() != null) o.put("remark", r.name());
        o.put("total", r.total());
        o.put("mean", r.mean());
        o.put("programs", r.programs());
        return o;
    }

    private static Map<String, Object> compare(StatsReport report) {
        RunInfo info = report.info();
        StatsReport.Side a = report.sides().get(0);
        StatsReport.Side b = report.sides().get(1);
        Map<String, Object> m = header(info);
        m.put("alpha", Welch.ALPHA);
        m.put("a", side(a));
        m.put("b", side(b));
        if (report.remarks() != null) {
            remarks(m, report.remarks());
            m.put("rate", rate(a.remarks().rate(), b.remarks().rate()));
        }
        m.put("generated_programs_a", a.trips().programs());
        m.put("generated_programs_b", b.trips().programs());
        Map<String, Object> shape = new LinkedHashMap<>();
        shape.put("a", shape(a.shape()));
        shape.put("b", shape(b.shape()));
        m.put("shape", shape);
        List<Object> rows = new ArrayList<>();
        for (TripComparison.Row r : report.trips().rows()) {
            Map<String, Object> o = group(r.group());
            o.put("a", trip(r.a()));
            o.put("b", trip(r.b()));
            o.put("mean_log2_a", r.meanLog2A());
            o.put("mean_log2_b", r.meanLog2B());
            o.put("p_value", r.pValue());
            o.put("significant", r.tested() ? r.significant() : null);
            rows.add(o);
        }
        m.put("trips", rows);
        Map<String, Object> ends = new LinkedHashMap<>();
        ends.put("a", exitEnds(a.trips().exitEnds()));
        ends.put("b", exitEnds(b.trips().exitEnds()));
        m.put("exit_ends", ends);
        if (a.ispc() != null && b.ispc() != null) {
            Map<String, Object> both = new LinkedHashMap<>();
            both.put("a", ispc(a.ispc(), info.ispcBuild()));
            both.put("b", ispc(b.ispc(), info.ispcBuild()));
            m.put("ispc", both);
        }
        return m;
    }

    private static void remarks(Map<String, Object> m, PolicyComparison cmp) {
        m.put("passes_passed", compareRows(cmp.passedByPass()));
        m.put("passes_all_kinds", compareRows(cmp.allKindsByPass()));
        m.put("remarks_passed", compareRows(cmp.passedByName()));
        m.put("remarks_missed_analysis_loop", compareRows(cmp.loopMissedAndAnalysisByName()));
        PolicyComparison.GeoMean g = cmp.geoMean();
        Map<String, Object> gm = new LinkedHashMap<>();
        gm.put("over", g.unit());
        gm.put("count", g.count());
        gm.put("value", g.value());
        gm.put("significant", g.significant());
        gm.put("only_in_a", g.onlyInA());
        gm.put("only_in_b", g.onlyInB());
        m.put("geomean", gm);
    }

    private static Map<String, Object> side(StatsReport.Side side) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("policy", side.policy());
        o.put("programs", side.programs());
        o.put("skipped", skipped(side));
        return o;
    }

    private static List<Object> compareRows(List<PolicyComparison.Row> rows) {
        List<Object> l = new ArrayList<>();
        for (PolicyComparison.Row r : rows) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("pass", r.pass());
            o.put("kind", r.kind() == null ? "all" : r.kind().label());
            if (r.name() != null) o.put("remark", r.name());
            o.put("mean_a", r.meanA());
            o.put("mean_b", r.meanB());
            o.put("ratio", r.ratio());
            o.put("p_value", r.pValue());
            o.put("significant", r.significant());
            o.put("presence", r.presence().name().toLowerCase(Locale.ROOT));
            o.put("loop", r.loop());
            l.add(o);
        }
        return l;
    }

    // ---------------------------------------------------------------- remarks per CPU-second

    private static Map<String, Object> rate(RemarkRate r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu_s", r.cpuSeconds());
        m.put("passed", r.total());
        m.put("per_cpu_s", r.totalPerCpuSecond());
        if (r.largest() != null) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("seed", r.largest().seed());
            l.put("cpu_s", r.largest().cpuSeconds());
            l.put("share", r.largest().share());
            m.put("largest_compile", l);
        }
        List<Object> units = new ArrayList<>();
        for (RemarkRate.Unit u : r.units()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("unit", u.name());
            o.put("passed", u.remarks());
            o.put("per_cpu_s", u.perCpuSecond());
            o.put("loop", u.loop());
            units.add(o);
        }
        m.put("units", units);
        return m;
    }

    private static Map<String, Object> rate(RemarkRate a, RemarkRate b) {
        RemarkRate.Comparison c = RemarkRate.compare(a, b);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", rate(a));
        m.put("b", rate(b));
        List<Object> rows = new ArrayList<>();
        for (RemarkRate.Row r : c.rows()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("unit", r.unit());
            o.put("ratio", Double.isNaN(r.ratio()) ? null : r.ratio());
            o.put("loop", r.loop());
            rows.add(o);
        }
        m.put("ratios", rows);
        m.put("total_ratio", Double.isNaN(c.total().ratio()) ? null : c.total().ratio());
        m.put("geomean_loop_units", c.loopUnits());
        m.put("geomean", Double.isNaN(c.geoMean()) ? null : c.geoMean());
        if (c.interval() != null) {
            Map<String, Object> i = new LinkedHashMap<>();
            i.put("confidence", RemarkRate.CONFIDENCE);
            i.put("geomean", c.interval().geoMean());
            i.put("low", c.interval().low());
            i.put("high", c.interval().high());
            i.put("seeds", c.interval().seeds());
            i.put("resamples", c.interval().resamples());
            m.put("geomean_interval", i);
        }
        return m;
    }

    // ---------------------------------------------------------------- shape and trip counts

    private static Map<String, Object> shape(ShapeSummary s) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("programs", s.programs());
        List<Distribution> d = List.of(s.depth(), s.loops(), s.bodies());
        for (int i = 0; i < SHAPE_KEYS.length; i++) o.put(SHAPE_KEYS[i], new LinkedHashMap<>(d.get(i).figures()));
        return o;
    }

    private static Map<String, Object> group(TripSummary.Group g) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("scope", g.scope());
        o.put("idiom", g.idiomName());
        return o;
    }

    private static Map<String, Object> trip(TripSummary.Row r) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("loops", r.loops());
        o.put("entered", r.entered());
        Map<String, Object> counts = new LinkedHashMap<>();
        Map<String, Object> shares = new LinkedHashMap<>();
        for (TripSummary.Bucket b : TripSummary.Bucket.values()) {
            counts.put(b.key, r.count(b));
            shares.put(b.key, r.share(b));
        }
        o.put("counts", counts);
        o.put("shares", shares);
        o.put("median_per_entry", r.median());
        return o;
    }

    // ---------------------------------------------------------------- ISPC

    private static Map<String, Object> ispc(StatsReport.Ispc ispc, String build) {
        IspcSummary s = ispc.lowering();
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("tests", s.tests());
        Map<String, Object> measures = new LinkedHashMap<>();
        for (IspcSummary.Row r : s.rows()) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("total", r.total());
            v.put("mean_per_test", r.mean());
            v.put("tests_with_any", r.tests());
            if (r.measure().partOf() != null) {
                v.put("part_of", r.measure().partOf());
                v.put("share", r.share());
            }
            measures.put(r.measure().key(), v);
        }
        o.put("lowering", measures);
        List<Object> trips = new ArrayList<>();
        for (TripSummary.Row r : Cells.ispcTripRows(ispc.parallelTrips())) {
            Map<String, Object> t = group(r.group());
            t.putAll(trip(r));
            trips.add(t);
        }
        o.put("trips_data_parallel", trips);
        if (ispc.masks() != null) {
            MaskSummary m = ispc.masks().summary();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("build", build);
            v.put("tests", m.tests());
            v.put("checksums_checked", ispc.masks().checked());
            v.put("checksum_mismatch_seeds", ispc.masks().mismatchSeeds());
            v.put("varying_ifs", m.ifs());
            v.put("ran", m.ran());
            v.put("tests_with_ran", m.testsWithRan());
            v.put("mixed_at_least_once", m.mixedOnce());
            v.put("mixed_at_least_once_share", m.mixedOnceShare());
            v.put("runs", m.runs());
            v.put("mixed_runs", m.mixedRuns());
            v.put("mixed_run_share", m.mixedRunShare());
            Map<String, Object> buckets = new LinkedHashMap<>();
            for (MaskSummary.Bucket k : MaskSummary.Bucket.values()) buckets.put(k.key, m.count(k));
            v.put("ifs_by_mixed_share", buckets);
            MaskSummary e = m.exits();
            Map<String, Object> exits = new LinkedHashMap<>();
            exits.put("varying_ifs", e.ifs());
            exits.put("ran", e.ran());
            exits.put("mixed_at_least_once", e.mixedOnce());
            exits.put("runs", e.runs());
            exits.put("mixed_runs", e.mixedRuns());
            v.put("exit_ifs", exits);
            o.put("masks", v);
        }
        return o;
    }

    // ---------------------------------------------------------------- shared

    private static Map<String, Object> header(RunInfo info) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("compiled", info.compiled() || info.measuredMasks());
        if (info.compiled()) {
            m.put("compiler", info.compiler().defaultBinary);
            m.put("cc", info.cc());
            m.put("cc_version", info.ccVersion());
            m.put("options", info.options());
        } else if (info.measuredMasks()) {
            m.put("compiler", "ispc");
            m.put("cc", info.cc());
            m.put("cc_version", info.ccVersion());
            m.put("ispc_build", info.ispcBuild());
        }
        m.put("lang", info.lang());
        m.put("first_seed", info.firstSeed());
        m.put("last_seed", info.lastSeed());
        m.put("swarm", info.swarm());
        return m;
    }

    private static Map<String, Object> skipped(StatsReport.Side side) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("generator", side.skipped().get(Skip.GENERATOR));
        o.put("compile", side.skipped().get(Skip.COMPILE));
        o.put("timeout", side.skipped().get(Skip.TIMEOUT));
        // Only ISPC mask runs skip for these; listed when they did.
        for (Skip k : List.of(Skip.RUN, Skip.RUN_TIMEOUT, Skip.MISMATCH)) {
            if (side.skipped().get(k) > 0) o.put(k.name().toLowerCase(Locale.ROOT), side.skipped().get(k));
        }
        return o;
    }
}
