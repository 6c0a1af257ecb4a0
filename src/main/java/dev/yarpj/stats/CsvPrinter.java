package dev.yarpj.stats;

import static dev.yarpj.stats.Cells.csv;
import static dev.yarpj.stats.Cells.csvDouble;
import static dev.yarpj.stats.Cells.csvNumber;
import static dev.yarpj.stats.Cells.share;

import dev.yarpj.harness.Json;
import dev.yarpj.stats.ispc.IspcSummary;
import dev.yarpj.stats.ispc.MaskSummary;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a {@link StatsReport} as CSV, one row per figure. One policy: the columns
 * section,pass,kind,remark,total,mean,programs; two: section,pass,kind,remark,mean_a,mean_b,
 * ratio,p_value,verdict,presence,loop. Each section says below what its columns hold.
 */
final class CsvPrinter {
    private static final String[] SHAPE_KEYS = {"deepest_loop_nesting", "loops_per_program", "stmts_per_loop_body"};

    private final PrintWriter out;

    CsvPrinter(PrintWriter out) {
        this.out = out;
    }

    void print(StatsReport report) {
        if (report.compares()) compare(report);
        else single(report);
        out.flush();
    }

    private void single(StatsReport report) {
        RunInfo info = report.info();
        StatsReport.Side side = report.sides().get(0);
        out.println("section,pass,kind,remark,total,mean,programs");
        if (side.remarks() != null) {
            remarks(info.compiler(), side.remarks().summary());
            rate(side.remarks().rate(), side.remarks().summary().programs());
        }
        shape(side.shape());
        trips("trips", side.trips(), side.trips().rows());
        if (side.ispc() != null) ispc(side.ispc());
    }

    private void compare(StatsReport report) {
        StatsReport.Side a = report.sides().get(0);
        StatsReport.Side b = report.sides().get(1);
        out.println("section,pass,kind,remark,mean_a,mean_b,ratio,p_value,verdict,presence,loop");
        if (report.remarks() != null) {
            remarks(report.remarks());
            rate(a.remarks().rate(), b.remarks().rate());
        }
        shape(a.shape(), b.shape());
        trips(report.trips());
        if (a.ispc() != null && b.ispc() != null) ispc(a.ispc(), b.ispc());
    }

    // ---------------------------------------------------------------- remarks

    private void remarks(RemarkCompiler compiler, RemarkSummary s) {
        for (RemarkSummary.Row r : s.passRows()) {
            out.println(csv("pass", r.pass(), r.kind().label(), "", Long.toString(r.total()), Json.number(r.mean()),
                    Integer.toString(r.programs())));
        }
        for (RemarkSummary.Row r : s.nameRows()) out.println(remarkRow("remark", r));
        for (RemarkSummary.Row r : s.loopMissedAndAnalysis(compiler, Integer.MAX_VALUE)) {
            out.println(remarkRow("remark_missed_analysis_loop", r));
        }
    }

    private static String remarkRow(String section, RemarkSummary.Row r) {
        return csv(section, r.pass(), r.kind().label(), r.name(), Long.toString(r.total()), Json.number(r.mean()),
                Integer.toString(r.programs()));
    }

    private void remarks(PolicyComparison cmp) {
        for (PolicyComparison.Row r : cmp.passedByPass()) out.println(compareRow("pass_passed", r));
        for (PolicyComparison.Row r : cmp.allKindsByPass()) out.println(compareRow("pass_all_kinds", r));
        for (PolicyComparison.Row r : cmp.passedByName()) out.println(compareRow("remark_passed", r));
        for (PolicyComparison.Row r : cmp.loopMissedAndAnalysisByName()) {
            out.println(compareRow("remark_missed_analysis_loop", r));
        }
        PolicyComparison.GeoMean g = cmp.geoMean();
        // The summary row: ratio = the geometric mean, verdict = "M of N significant", remark = what it runs over.
        out.println(csv("geomean", "", RemarkKind.PASSED.label(), g.unit(), "", "", Json.number(g.value()), "",
                g.significant() + " of " + g.count() + " significant", "", "true"));
        for (String u : g.onlyInA()) out.println(csv("only_in_a", "", RemarkKind.PASSED.label(), u, "", "", "", "", "", "only_a", "true"));
        for (String u : g.onlyInB()) out.println(csv("only_in_b", "", RemarkKind.PASSED.label(), u, "", "", "", "", "", "only_b", "true"));
    }

    private static String compareRow(String section, PolicyComparison.Row r) {
        return csv(section, r.pass(), r.kind() == null ? "all" : r.kind().label(), r.name() == null ? "" : r.name(),
                Json.number(r.meanA()), Json.number(r.meanB()),
                Double.isNaN(r.ratio()) ? "" : Json.number(r.ratio()), Json.number(r.pValue()), r.verdict(),
                r.presence().name().toLowerCase(Locale.ROOT), Boolean.toString(r.loop()));
    }

    /** One policy: mean = remarks per CPU-second. */
    private void rate(RemarkRate r, int programs) {
        for (RemarkRate.Unit u : r.units()) {
            out.println(csv("rate", u.name(), RemarkKind.PASSED.label(), "", Long.toString(u.remarks()),
                    Json.number(u.perCpuSecond()), Integer.toString(programs)));
        }
        out.println(csv("rate_total", "", RemarkKind.PASSED.label(), "cpu_s=" + Json.number(r.cpuSeconds()) + largestNote(r),
                Long.toString(r.total()), Json.number(r.totalPerCpuSecond()), Integer.toString(programs)));
    }

    /** The largest compile, as the note of the rate_total row: {@code ;largest_seed=S;largest_cpu_s=X}. */
    private static String largestNote(RemarkRate r) {
        return r.largest() == null ? "" : ";largest_seed=" + r.largest().seed() + ";largest_cpu_s=" + Json.number(r.largest().cpuSeconds());
    }

    /** Two policies: means = remarks per CPU-second. */
    private void rate(RemarkRate a, RemarkRate b) {
        RemarkRate.Comparison c = RemarkRate.compare(a, b);
        for (RemarkRate.Row r : c.rows()) out.println(rateRow("rate", r));
        out.println(rateRow("rate_total", c.total()));
        out.println(csv("rate_geomean", "", RemarkKind.PASSED.label(), c.loopUnits() + " loop units" + intervalNote(c.interval()), "", "",
                Json.number(c.geoMean()), "", "", "", "true"));
    }

    /**
     * The bootstrap interval, in the note of the rate_geomean row:
     * {@code ;interval=LOW..HIGH;seeds=N;paired_geomean=G} (G: the geometric mean over those N seeds).
     */
    private static String intervalNote(RemarkRate.Interval i) {
        return i == null ? "" : ";interval=" + Json.number(i.low()) + ".." + Json.number(i.high()) + ";seeds=" + i.seeds()
                + ";paired_geomean=" + Json.number(i.geoMean());
    }

    private static String rateRow(String section, RemarkRate.Row r) {
        return csv(section, r.unit(), RemarkKind.PASSED.label(), "", Json.number(r.perCpuSecondA()),
                Json.number(r.perCpuSecondB()), Double.isNaN(r.ratio()) ? "" : Json.number(r.ratio()), "", "", "",
                Boolean.toString(r.loop()));
    }

    // ---------------------------------------------------------------- shape and trip counts

    private static List<Distribution> measures(ShapeSummary s) {
        return List.of(s.depth(), s.loops(), s.bodies());
    }

    /** section shape: pass = the measure, remark = the figure (min, p10, median, ...), mean = its value. */
    private void shape(ShapeSummary s) {
        List<Distribution> d = measures(s);
        for (int i = 0; i < SHAPE_KEYS.length; i++) {
            for (Map.Entry<String, Number> e : d.get(i).figures().entrySet()) {
                out.println(csv("shape", SHAPE_KEYS[i], "", e.getKey(), "", csvNumber(e.getValue()), Integer.toString(s.programs())));
            }
        }
    }

    /** section shape: pass = the measure, remark = the figure, mean_a and mean_b = its values. */
    private void shape(ShapeSummary a, ShapeSummary b) {
        List<Distribution> da = measures(a);
        List<Distribution> db = measures(b);
        for (int i = 0; i < SHAPE_KEYS.length; i++) {
            Map<String, Number> fa = da.get(i).figures();
            Map<String, Number> fb = db.get(i).figures();
            for (String f : fa.isEmpty() ? fb.keySet() : fa.keySet()) {
                out.println(csv("shape", SHAPE_KEYS[i], "", f, fa.containsKey(f) ? csvNumber(fa.get(f)) : "",
                        fb.containsKey(f) ? csvNumber(fb.get(f)) : "", "", "", "", "", ""));
            }
        }
    }

    /**
     * section trips (or ispc_trips): pass = scope (all, innermost, exits), kind = idiom; remark
     * "loops": total = the number of loops; a bucket (never, at_most_1, ...): total = its
     * loops, mean = their share; "median_per_entry": total = the entered loops, mean = their
     * median iterations per entry.
     */
    private void trips(String section, TripSummary t, List<TripSummary.Row> rows) {
        String programs = Integer.toString(t.programs());
        for (TripSummary.Row r : rows) {
            String scope = r.group().scope();
            String idiom = r.group().idiomName();
            out.println(csv(section, scope, idiom, "loops", Integer.toString(r.loops()), "", programs));
            for (TripSummary.Bucket b : TripSummary.Bucket.values()) {
                out.println(csv(section, scope, idiom, b.key, Integer.toString(r.count(b)), csvDouble(r.share(b)), programs));
            }
            out.println(csv(section, scope, idiom, "median_per_entry", Integer.toString(r.entered()), csvDouble(r.median()), programs));
        }
    }

    /**
     * section trips: pass = scope, kind = idiom; remark "loops": the number of loops under A
     * and B; a bucket: the shares; "median_per_entry": the medians; "mean_log2": the means of
     * the per-program mean log2(1 + iterations per entry), with Welch's p-value and verdict.
     */
    private void trips(TripComparison cmp) {
        for (TripComparison.Row r : cmp.rows()) {
            String scope = r.group().scope();
            String idiom = r.group().idiomName();
            out.println(csv("trips", scope, idiom, "loops", Integer.toString(r.a().loops()), Integer.toString(r.b().loops()),
                    "", "", "", "", ""));
            for (TripSummary.Bucket b : TripSummary.Bucket.values()) {
                out.println(csv("trips", scope, idiom, b.key, csvDouble(r.a().share(b)), csvDouble(r.b().share(b)),
                        "", "", "", "", ""));
            }
            out.println(csv("trips", scope, idiom, "median_per_entry", csvDouble(r.a().median()), csvDouble(r.b().median()),
                    "", "", "", "", ""));
            out.println(csv("trips", scope, idiom, "mean_log2", csvDouble(r.meanLog2A()), csvDouble(r.meanLog2B()), "",
                    r.tested() ? Json.number(r.pValue()) : "", r.tested() ? r.verdict() : "", "", ""));
        }
    }

    // ---------------------------------------------------------------- ISPC

    /**
     * One policy. Section ispc: pass = the measure, remark "per_test": total, mean per test,
     * tests with any; remark "share_of_&lt;whole&gt;": mean = the share. Section ispc_trips: as
     * section trips, for the data-parallel loops. Section ispc_masks: pass = the figure, total
     * = the count, mean = its share (ran: of the varying ifs; tests_with_ran: of the tests;
     * mixed_at_least_once and the ifs_ buckets: of the ifs that ran; mixed_runs: of the runs;
     * varying_ifs: per test, not a share; runs: none), programs = the tests measured.
     */
    private void ispc(StatsReport.Ispc ispc) {
        IspcSummary s = ispc.lowering();
        String tests = Integer.toString(s.tests());
        for (IspcSummary.Row r : s.rows()) {
            IspcSummary.Measure m = r.measure();
            out.println(csv("ispc", m.key(), "", "per_test", Long.toString(r.total()), csvDouble(r.mean()), Integer.toString(r.tests())));
            if (m.partOf() != null) {
                out.println(csv("ispc", m.key(), "", "share_of_" + m.partOf(), Long.toString(r.total()), csvDouble(r.share()), tests));
            }
        }
        trips("ispc_trips", ispc.parallelTrips(), Cells.ispcTripRows(ispc.parallelTrips()));
        if (ispc.masks() == null) return;
        for (Map.Entry<String, Object[]> e : maskFigures(ispc.masks()).entrySet()) {
            Object[] v = e.getValue();
            out.println(csv("ispc_masks", e.getKey(), "", "", v[0].toString(), csvDouble((Double) v[1]),
                    Integer.toString(ispc.masks().summary().tests())));
        }
    }

    /**
     * Two policies: section ispc: remark "mean_per_test" or "share_of_&lt;whole&gt;";
     * ispc_trips: the shares and medians of the data-parallel loops; ispc_masks: the shares.
     */
    private void ispc(StatsReport.Ispc a, StatsReport.Ispc b) {
        IspcSummary sa = a.lowering();
        IspcSummary sb = b.lowering();
        for (int i = 0; i < sa.rows().size(); i++) {
            IspcSummary.Row ra = sa.rows().get(i);
            IspcSummary.Row rb = sb.rows().get(i);
            IspcSummary.Measure m = ra.measure();
            out.println(csv("ispc", m.key(), "", "mean_per_test", csvDouble(ra.mean()), csvDouble(rb.mean()), "", "", "", "", ""));
            if (m.partOf() != null) {
                out.println(csv("ispc", m.key(), "", "share_of_" + m.partOf(), csvDouble(ra.share()), csvDouble(rb.share()),
                        "", "", "", "", ""));
            }
        }
        // The rows either side shows, paired by group.
        List<TripSummary.Row> ta = Cells.ispcTripRows(a.parallelTrips());
        List<TripSummary.Row> tb = new ArrayList<>();
        for (TripSummary.Row r : ta) tb.add(b.parallelTrips().row(r.group()));
        for (TripSummary.Row r : Cells.ispcTripRows(b.parallelTrips())) {
            if (!tb.contains(r)) {
                ta.add(a.parallelTrips().row(r.group()));
                tb.add(r);
            }
        }
        for (int i = 0; i < ta.size(); i++) {
            TripSummary.Row x = ta.get(i);
            TripSummary.Row y = tb.get(i);
            String scope = x.group().scope();
            String idiom = x.group().idiomName();
            out.println(csv("ispc_trips", scope, idiom, "loops", Integer.toString(x.loops()), Integer.toString(y.loops()),
                    "", "", "", "", ""));
            for (TripSummary.Bucket k : TripSummary.Bucket.values()) {
                out.println(csv("ispc_trips", scope, idiom, k.key, csvDouble(x.share(k)), csvDouble(y.share(k)), "", "", "", "", ""));
            }
            out.println(csv("ispc_trips", scope, idiom, "median_per_entry", csvDouble(x.median()), csvDouble(y.median()),
                    "", "", "", "", ""));
        }
        if (a.masks() == null || b.masks() == null) return;
        Map<String, Object[]> fa = maskFigures(a.masks());
        Map<String, Object[]> fb = maskFigures(b.masks());
        for (String k : fa.keySet()) {
            out.println(csv("ispc_masks", k, "", "", csvDouble((Double) fa.get(k)[1]), csvDouble((Double) fb.get(k)[1]),
                    "", "", "", "", ""));
        }
    }

    /** Per mask figure: {count, share}. */
    private static Map<String, Object[]> maskFigures(StatsReport.Masks masks) {
        MaskSummary m = masks.summary();
        int mismatches = masks.mismatchSeeds().size();
        Map<String, Object[]> f = new LinkedHashMap<>();
        f.put("varying_ifs", new Object[] {m.ifs(), share(m.ifs(), m.tests()) /* per test */});
        f.put("ran", new Object[] {m.ran(), share(m.ran(), m.ifs())});
        f.put("tests_with_ran", new Object[] {m.testsWithRan(), share(m.testsWithRan(), m.tests())});
        f.put("mixed_at_least_once", new Object[] {m.mixedOnce(), m.mixedOnceShare()});
        f.put("runs", new Object[] {m.runs(), Double.NaN});
        f.put("mixed_runs", new Object[] {m.mixedRuns(), m.mixedRunShare()});
        for (MaskSummary.Bucket k : MaskSummary.Bucket.values()) f.put("ifs_" + k.key, new Object[] {m.count(k), m.share(k)});
        f.put("checksum_mismatches", new Object[] {mismatches, share(mismatches, masks.checked())});
        return f;
    }
}
