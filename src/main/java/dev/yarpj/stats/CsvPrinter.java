package dev.yarpj.stats;

import dev.yarpj.stats.ispc.IspcSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Prints a {@link StatsReport} as CSV (RFC 4180 quoting, by Commons CSV; lines end in LF like
 * every text yarpj prints), one row per figure. One policy: the columns
 * section,pass,kind,remark,total,mean,programs; two: section,pass,kind,remark,mean_a,mean_b,
 * ratio,p_value,verdict,presence,loop. Each section says below what its columns hold; an
 * empty cell is a figure that does not exist (NaN: a share of nothing, a ratio with a 0).
 */
final class CsvPrinter {
    static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setRecordSeparator('\n').get();
    private static final String PASSED = RemarkKind.PASSED.label();

    private final PrintWriter out;
    private CSVPrinter csv;

    CsvPrinter(PrintWriter out) {
        this.out = out;
    }

    void print(StatsReport report) {
        try {
            csv = new CSVPrinter(out, FORMAT);
            if (report.compares()) compare(report);
            else single(report);
            csv.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One row: doubles spelled by {@link Cells#number} (empty for NaN), the rest as they print. */
    private void row(Object... cells) throws IOException {
        for (Object c : cells) csv.print(c instanceof Double d ? Cells.number(d) : c);
        csv.println();
    }

    private void single(StatsReport report) throws IOException {
        StatsReport.Side side = report.sides().get(0);
        row("section", "pass", "kind", "remark", "total", "mean", "programs");
        if (side.remarks() != null) remarks(side.remarks());
        shape(side.shape());
        trips("trips", side.trips().programs(), side.trips().rows());
        if (side.ispc() != null) ispc(side.ispc());
    }

    private void compare(StatsReport report) throws IOException {
        StatsReport.Side a = report.sides().get(0);
        StatsReport.Side b = report.sides().get(1);
        row("section", "pass", "kind", "remark", "mean_a", "mean_b", "ratio", "p_value", "verdict", "presence", "loop");
        if (report.remarks() != null) {
            remarks(report.remarks());
            rates(report.rates());
        }
        shape(a.shape(), b.shape());
        trips(report.trips());
        if (a.ispc() != null && b.ispc() != null) ispc(a.ispc(), b.ispc(), report.ispcTrips());
    }

    // ---------------------------------------------------------------- remarks

    /** Sections pass, remark, remark_missed_analysis_loop; rate (mean = remarks per CPU-second) and rate_total. */
    private void remarks(StatsReport.Remarks remarks) throws IOException {
        RemarkSummary s = remarks.summary();
        for (RemarkSummary.Row r : s.passRows()) row("pass", r.pass(), r.kind().label(), "", r.total(), r.mean(), r.programs());
        for (RemarkSummary.Row r : s.nameRows()) remarkRow("remark", r);
        for (RemarkSummary.Row r : remarks.loopMissedAndAnalysis()) remarkRow("remark_missed_analysis_loop", r);
        RemarkRate rate = remarks.rate();
        for (RemarkRate.Unit u : rate.units()) row("rate", u.name(), PASSED, "", u.remarks(), u.perCpuSecond(), s.programs());
        // The note: cpu_s=X, then ;largest_seed=S;largest_cpu_s=Y for the largest compile.
        RemarkRate.Largest l = rate.largest();
        row("rate_total", "", PASSED, "cpu_s=" + Cells.number(rate.cpuSeconds())
                + (l == null ? "" : ";largest_seed=" + l.seed() + ";largest_cpu_s=" + Cells.number(l.cpuSeconds())),
                rate.total(), rate.totalPerCpuSecond(), s.programs());
    }

    private void remarkRow(String section, RemarkSummary.Row r) throws IOException {
        row(section, r.pass(), r.kind().label(), r.name(), r.total(), r.mean(), r.programs());
    }

    /** The summary row geomean: ratio = the geometric mean, verdict = "M of N significant", remark = what it runs over. */
    private void remarks(PolicyComparison cmp) throws IOException {
        for (PolicyComparison.Row r : cmp.passedByPass()) compareRow("pass_passed", r);
        for (PolicyComparison.Row r : cmp.allKindsByPass()) compareRow("pass_all_kinds", r);
        for (PolicyComparison.Row r : cmp.passedByName()) compareRow("remark_passed", r);
        for (PolicyComparison.Row r : cmp.loopMissedAndAnalysisByName()) compareRow("remark_missed_analysis_loop", r);
        PolicyComparison.GeoMean g = cmp.geoMean();
        row("geomean", "", PASSED, g.unit(), "", "", g.value(), "", g.significant() + " of " + g.count() + " significant", "", true);
        for (String u : g.onlyInA()) row("only_in_a", "", PASSED, u, "", "", "", "", "", "only_a", true);
        for (String u : g.onlyInB()) row("only_in_b", "", PASSED, u, "", "", "", "", "", "only_b", true);
    }

    private void compareRow(String section, PolicyComparison.Row r) throws IOException {
        row(section, r.pass(), r.kind() == null ? "all" : r.kind().label(), r.name(), r.meanA(), r.meanB(), r.ratio(), r.pValue(),
                r.verdict(), r.presence().name().toLowerCase(Locale.ROOT), r.loop());
    }

    /**
     * Sections rate and rate_total: means = remarks per CPU-second; rate_geomean: ratio = the
     * geometric mean over the loop units, remark = how many, then the bootstrap interval as
     * {@code ;interval=LOW..HIGH;seeds=N;paired_geomean=G} (G: the geometric mean over those N seeds).
     */
    private void rates(RemarkRate.Comparison c) throws IOException {
        for (RemarkRate.Row r : c.rows()) rateRow("rate", r);
        rateRow("rate_total", c.total());
        RemarkRate.Interval i = c.interval();
        row("rate_geomean", "", PASSED, c.loopUnits() + " loop units" + (i == null ? "" : ";interval=" + Cells.number(i.low()) + ".."
                + Cells.number(i.high()) + ";seeds=" + i.seeds() + ";paired_geomean=" + Cells.number(i.geoMean())),
                "", "", c.geoMean(), "", "", "", true);
    }

    private void rateRow(String section, RemarkRate.Row r) throws IOException {
        row(section, r.unit(), PASSED, "", r.perCpuSecondA(), r.perCpuSecondB(), r.ratio(), "", "", "", r.loop());
    }

    // ---------------------------------------------------------------- shape and trip counts

    /** Section shape: pass = the measure, remark = the figure (min, p10, median, ...), mean = its value. */
    private void shape(ShapeSummary s) throws IOException {
        for (var m : s.figures().entrySet()) {
            for (var f : m.getValue().entrySet()) row("shape", m.getKey(), "", f.getKey(), "", f.getValue(), s.programs());
        }
    }

    /** Section shape: pass = the measure, remark = the figure, mean_a and mean_b = its values. */
    private void shape(ShapeSummary a, ShapeSummary b) throws IOException {
        for (var m : a.figures().entrySet()) {
            Map<String, Number> fa = m.getValue();
            Map<String, Number> fb = b.figures().get(m.getKey());
            for (String f : fa.isEmpty() ? fb.keySet() : fa.keySet()) row("shape", m.getKey(), "", f, fa.get(f), fb.get(f), "", "", "", "", "");
        }
    }

    /**
     * Section trips (or ispc_trips), one policy: pass = scope (all, innermost, exits), kind =
     * idiom; remark "loops": total = the number of loops; a bucket (never, at_most_1, ...):
     * total = its loops, mean = their share; "median_per_entry": total = the entered loops,
     * mean = their median iterations per entry.
     */
    private void trips(String section, int programs, List<TripSummary.Row> rows) throws IOException {
        for (TripSummary.Row r : rows) {
            String scope = r.group().scope();
            String idiom = r.group().idiomName();
            row(section, scope, idiom, "loops", r.loops(), "", programs);
            for (TripSummary.Bucket b : TripSummary.Bucket.values()) row(section, scope, idiom, b.key, r.count(b), r.share(b), programs);
            row(section, scope, idiom, "median_per_entry", r.entered(), r.median(), programs);
        }
    }

    /**
     * Section trips, two policies: remark "loops": the number of loops under A and B; a
     * bucket: the shares; "median_per_entry": the medians; "mean_log2": the means of the
     * per-program mean log2(1 + iterations per entry), with Welch's p-value and verdict.
     */
    private void trips(TripComparison cmp) throws IOException {
        for (TripComparison.Row r : cmp.rows()) {
            trips("trips", r.a(), r.b());
            row("trips", r.group().scope(), r.group().idiomName(), "mean_log2", r.meanLog2A(), r.meanLog2B(), "",
                    r.tested() ? r.pValue() : "", r.tested() ? r.verdict() : "", "", "");
        }
    }

    /** One group's rows under A and B, but the mean_log2 row. */
    private void trips(String section, TripSummary.Row a, TripSummary.Row b) throws IOException {
        String scope = a.group().scope();
        String idiom = a.group().idiomName();
        row(section, scope, idiom, "loops", a.loops(), b.loops(), "", "", "", "", "");
        for (TripSummary.Bucket k : TripSummary.Bucket.values()) row(section, scope, idiom, k.key, a.share(k), b.share(k), "", "", "", "", "");
        row(section, scope, idiom, "median_per_entry", a.median(), b.median(), "", "", "", "", "");
    }

    // ---------------------------------------------------------------- ISPC

    /**
     * One policy. Section ispc: pass = the measure, remark "per_test": total, mean per test,
     * tests with any; remark "share_of_&lt;whole&gt;": mean = the share. Section ispc_trips: as
     * section trips, for the data-parallel loops. Section ispc_masks: pass = the figure, total
     * = the count, mean = its share ({@link StatsReport.MaskFigure}), programs = the tests measured.
     */
    private void ispc(StatsReport.Ispc ispc) throws IOException {
        IspcSummary s = ispc.lowering();
        for (IspcSummary.Row r : s.rows()) {
            IspcSummary.Measure m = r.measure();
            row("ispc", m.key(), "", "per_test", r.total(), r.mean(), r.tests());
            if (m.partOf() != null) row("ispc", m.key(), "", "share_of_" + m.partOf(), r.total(), r.share(), s.tests());
        }
        trips("ispc_trips", ispc.parallelTrips().programs(), ispc.parallelTripRows());
        if (ispc.masks() == null) return;
        for (StatsReport.MaskFigure f : ispc.masks().figures()) row("ispc_masks", f.key(), "", "", f.count(), f.share(), ispc.masks().summary().tests());
    }

    /**
     * Two policies: section ispc: remark "mean_per_test" or "share_of_&lt;whole&gt;";
     * ispc_trips: the shares and medians of the data-parallel loops; ispc_masks: the shares.
     */
    private void ispc(StatsReport.Ispc a, StatsReport.Ispc b, List<StatsReport.TripPair> trips) throws IOException {
        for (int i = 0; i < a.lowering().rows().size(); i++) {
            IspcSummary.Row ra = a.lowering().rows().get(i);
            IspcSummary.Row rb = b.lowering().rows().get(i);
            IspcSummary.Measure m = ra.measure();
            row("ispc", m.key(), "", "mean_per_test", ra.mean(), rb.mean(), "", "", "", "", "");
            if (m.partOf() != null) row("ispc", m.key(), "", "share_of_" + m.partOf(), ra.share(), rb.share(), "", "", "", "", "");
        }
        for (StatsReport.TripPair p : trips) trips("ispc_trips", p.a(), p.b());
        if (a.masks() == null || b.masks() == null) return;
        for (int i = 0; i < a.masks().figures().size(); i++) {
            row("ispc_masks", a.masks().figures().get(i).key(), "", "", a.masks().figures().get(i).share(), b.masks().figures().get(i).share(),
                    "", "", "", "", "");
        }
    }
}
