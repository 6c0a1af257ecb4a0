package dev.yarpj.stats;

import static dev.yarpj.stats.StatsReport.csv;
import static dev.yarpj.stats.StatsReport.csvDouble;
import static dev.yarpj.stats.StatsReport.fixed;
import static dev.yarpj.stats.StatsReport.percent;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ISPC sections of {@code yarpj stats --lang=ispc} ({@link StatsReport} calls them): what
 * the lowering made of the tests ({@link IspcSummary}) and, when the tests were built and
 * run, the execution masks of their varying ifs ({@link MaskSummary}); as a table, CSV rows
 * or JSON.
 */
final class IspcReport {
    private IspcReport() {}

    /** The figures of one policy's collection: the lowering, and the masks (null when nothing was run). */
    record Side(String label, RemarkCollector.Collection collection, IspcSummary lowering, MaskSummary masks) {
        static Side of(String label, RemarkCollector.Collection c, boolean measured) {
            return new Side(label, c, new IspcSummary(c.ispc()), measured ? new MaskSummary(c.masks()) : null);
        }

        List<RemarkCollector.SeedResult> mismatches() {
            return collection.allSkipped(RemarkCollector.Skip.MISMATCH);
        }

        /** Tests that ran to a checksum: measured, or mismatched. */
        int checked() {
            return masks.tests() + mismatches().size();
        }
    }

    /** Whether a collection holds ISPC tests. */
    static boolean applies(RemarkCollector.Collection c) {
        return !c.ispc().isEmpty();
    }

    // ---------------------------------------------------------------- table

    static void table(PrintWriter out, Side side, String build) {
        IspcSummary s = side.lowering();
        String who = side.label().isEmpty() ? "" : ", policy " + side.label();
        out.println("ISPC lowering of " + tests(s.tests()) + who + ":");
        out.println("data-parallel loops: the static loops that may run as a gang; tests with any: tests with at least one;");
        out.println("share: of the figure it is indented under (a form of the gang loops, the partials of the reductions)");
        List<String> h = List.of("measure", "total", "mean/test", "tests with any", "share");
        TextTable t = new TextTable(h, false, true, true, true, true);
        for (IspcSummary.Row r : s.rows()) {
            IspcSummary.Measure m = r.measure();
            if (m.key().equals("unplanned_parallel_loops") && r.total() == 0) continue;
            t.add("  ".repeat(m.depth()) + m.label(), Long.toString(r.total()), fixed(r.mean()),
                    percent(s.tests() == 0 ? Double.NaN : (double) r.tests() / s.tests()),
                    m.partOf() == null ? "" : percent(r.share()));
        }
        out.print(t.render("  "));
        out.println();
        TripSummary trips = s.trips();
        out.println("trip counts per entry of the " + trips.row(TripSummary.GROUPS.get(0)).loops()
                + " data-parallel loops (iterations of the loop as written, not gang steps):");
        List<String> th = StatsReport.tripHeader(false);
        TextTable tt = new TextTable(th, StatsReport.rightAligned(th.size(), 2));
        for (TripSummary.Row r : tripRows(trips)) {
            List<String> cells = new ArrayList<>(List.of(r.group().scope(), r.group().idiomName()));
            cells.addAll(StatsReport.tripCells(r));
            tt.add(cells.toArray(new String[0]));
        }
        out.print(tt.render("  "));
        if (side.masks() != null) {
            out.println();
            maskTable(out, side, build);
        }
    }

    private static void maskTable(PrintWriter out, Side side, String build) {
        MaskSummary m = side.masks();
        String who = side.label().isEmpty() ? "" : ", policy " + side.label();
        List<RemarkCollector.SeedResult> bad = side.mismatches();
        out.println("execution masks of the varying ifs, measured on " + tests(m.tests()) + who + " built with " + build);
        out.println("and run (checksums: " + m.tests() + " of " + side.checked() + " matched the prediction"
                + (bad.isEmpty() ? ")" : "; CHECKSUM MISMATCH on " + bad.size() + ": " + seeds(bad) + ", left out)") + ":");
        out.println("  varying ifs:                            " + m.ifs() + " (" + perTest(m.ifs(), m.tests()) + " per test)");
        out.println("  ran with some lane on at least once:    " + m.ran() + " (" + percent(share(m.ran(), m.ifs()))
                + " of them), in " + m.testsWithRan() + " of " + m.tests() + " tests");
        out.println("  had a mixed mask at least once:         " + m.mixedOnce() + " of the " + m.ran() + " that ran ("
                + percent(m.mixedOnceShare()) + ")");
        out.println("  runs with a mixed mask:                 " + m.mixedRuns() + " of " + m.runs() + " runs ("
                + percent(m.mixedRunShare()) + ")");
        StringBuilder b = new StringBuilder();
        for (MaskSummary.Bucket k : MaskSummary.Bucket.values()) {
            if (b.length() > 0) b.append(", ");
            b.append(k.label).append(' ').append(percent(m.share(k)));
        }
        out.println("  per varying if that ran, its runs:      " + b);
        out.println("  (mixed: some active lanes take the if, others do not; a run: the if reached with some lane taking it)");
    }

    /** The data-parallel loops' trip rows shown: all loops, each idiom that has any, innermost loops. */
    static List<TripSummary.Row> tripRows(TripSummary t) {
        List<TripSummary.Row> rows = new ArrayList<>();
        for (TripSummary.Row r : t.rows()) {
            TripSummary.Group g = r.group();
            if (g.idiom() == null || (!g.innermostOnly() && r.loops() > 0)) rows.add(r);
        }
        return rows;
    }

    private static String seeds(List<RemarkCollector.SeedResult> l) {
        List<String> s = new ArrayList<>();
        for (RemarkCollector.SeedResult r : l) s.add(Long.toString(r.seed()));
        return "seed" + (s.size() == 1 ? " " : "s ") + String.join(", ", s);
    }

    private static String tests(int n) {
        return n + (n == 1 ? " test" : " tests");
    }

    private static double share(long part, long whole) {
        return whole == 0 ? Double.NaN : (double) part / whole;
    }

    private static String perTest(long n, int tests) {
        return tests == 0 ? "-" : fixed((double) n / tests);
    }

    // ---------------------------------------------------------------- CSV

    /**
     * One policy, in the columns section,pass,kind,remark,total,mean,programs. Section
     * ispc: pass = the measure, remark "per_test": total, mean per test, tests with any;
     * remark "share_of_&lt;whole&gt;": mean = the share. Section ispc_trips: as section trips,
     * for the data-parallel loops. Section ispc_masks: pass = the figure, total = the count,
     * mean = its share (ran: of the varying ifs; tests_with_ran: of the tests; mixed_at_least_once and the ifs_
     * buckets: of the ifs that ran; mixed_runs: of the runs; varying_ifs: per test, not a share; runs: none),
     * programs = the tests measured.
     */
    static void csvRows(PrintWriter out, Side side) {
        IspcSummary s = side.lowering();
        String tests = Integer.toString(s.tests());
        for (IspcSummary.Row r : s.rows()) {
            IspcSummary.Measure m = r.measure();
            out.println(csv("ispc", m.key(), "", "per_test", Long.toString(r.total()), csvDouble(r.mean()), Integer.toString(r.tests())));
            if (m.partOf() != null) {
                out.println(csv("ispc", m.key(), "", "share_of_" + m.partOf(), Long.toString(r.total()), csvDouble(r.share()), tests));
            }
        }
        StatsReport.tripCsv(out, "ispc_trips", s.trips(), tripRows(s.trips()));
        if (side.masks() == null) return;
        for (Map.Entry<String, Object[]> e : maskFigures(side).entrySet()) {
            Object[] v = e.getValue();
            out.println(csv("ispc_masks", e.getKey(), "", "", v[0].toString(), csvDouble((Double) v[1]),
                    Integer.toString(side.masks().tests())));
        }
    }

    /**
     * Two policies, in the columns section,pass,kind,remark,mean_a,mean_b,ratio,...: section
     * ispc: remark "mean_per_test" or "share_of_&lt;whole&gt;"; ispc_trips: the shares and medians
     * of the data-parallel loops; ispc_masks: the shares.
     */
    static void csvRows(PrintWriter out, Side a, Side b) {
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
        List<TripSummary.Row> ta = tripRows(sa.trips());
        List<TripSummary.Row> tb = new ArrayList<>();
        for (TripSummary.Row r : ta) tb.add(sb.trips().row(r.group()));
        for (TripSummary.Row r : tripRows(sb.trips())) {
            if (!tb.contains(r)) {
                ta.add(sa.trips().row(r.group()));
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
        Map<String, Object[]> fa = maskFigures(a);
        Map<String, Object[]> fb = maskFigures(b);
        for (String k : fa.keySet()) {
            out.println(csv("ispc_masks", k, "", "", csvDouble((Double) fa.get(k)[1]), csvDouble((Double) fb.get(k)[1]),
                    "", "", "", "", ""));
        }
    }

    /** Per mask figure: {count, share}. */
    private static Map<String, Object[]> maskFigures(Side side) {
        MaskSummary m = side.masks();
        Map<String, Object[]> f = new LinkedHashMap<>();
        f.put("varying_ifs", new Object[] {m.ifs(), share(m.ifs(), m.tests()) /* per test */});
        f.put("ran", new Object[] {m.ran(), share(m.ran(), m.ifs())});
        f.put("tests_with_ran", new Object[] {m.testsWithRan(), share(m.testsWithRan(), m.tests())});
        f.put("mixed_at_least_once", new Object[] {m.mixedOnce(), m.mixedOnceShare()});
        f.put("runs", new Object[] {m.runs(), Double.NaN});
        f.put("mixed_runs", new Object[] {m.mixedRuns(), m.mixedRunShare()});
        for (MaskSummary.Bucket k : MaskSummary.Bucket.values()) f.put("ifs_" + k.key, new Object[] {m.count(k), m.share(k)});
        f.put("checksum_mismatches", new Object[] {side.mismatches().size(), share(side.mismatches().size(), side.checked())});
        return f;
    }

    // ---------------------------------------------------------------- JSON

    static Map<String, Object> json(Side side, String build) {
        IspcSummary s = side.lowering();
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
        for (TripSummary.Row r : tripRows(s.trips())) {
            Map<String, Object> t = StatsReport.groupJson(r.group());
            t.putAll(StatsReport.tripJson(r));
            trips.add(t);
        }
        o.put("trips_data_parallel", trips);
        if (side.masks() != null) {
            MaskSummary m = side.masks();
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("build", build);
            v.put("tests", m.tests());
            v.put("checksums_checked", side.checked());
            List<Long> bad = new ArrayList<>();
            for (RemarkCollector.SeedResult r : side.mismatches()) bad.add(r.seed());
            v.put("checksum_mismatch_seeds", bad);
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
            o.put("masks", v);
        }
        return o;
    }
}
