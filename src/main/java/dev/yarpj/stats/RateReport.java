package dev.yarpj.stats;

import dev.yarpj.harness.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The {@link RemarkRate} section of {@code yarpj stats}: table, CSV rows and JSON, for one policy or two. */
final class RateReport {
    private RateReport() {}

    private static String title(RemarkCompiler compiler) {
        return "Passed remarks per compile CPU-second (user + system time of the -O3 compiles), per "
                + (compiler.geomeanOverNames() ? "remark name" : "pass");
    }

    static void table(PrintWriter out, RemarkCompiler compiler, RemarkRate r, int programs) {
        out.println(title(compiler) + ": " + String.format(Locale.ROOT, "%.1f", r.cpuSeconds()) + " CPU-s in " + programs
                + " compiles, " + r.total() + " Passed remarks, " + num(r.totalPerCpuSecond()) + " per CPU-s");
        TextTable t = new TextTable(List.of(compiler.geomeanOverNames() ? "remark" : "pass", "Passed", "per CPU-s", "loop"),
                false, true, true, false);
        for (RemarkRate.Unit u : r.units()) t.add(u.name(), Long.toString(u.remarks()), num(u.perCpuSecond()), u.loop() ? "yes" : "");
        out.print(t.isEmpty() ? "  none\n" : t.render(""));
    }

    static void table(PrintWriter out, RemarkCompiler compiler, RemarkRate a, RemarkRate b) {
        RemarkRate.Comparison c = RemarkRate.compare(a, b);
        out.println(title(compiler) + ": A " + String.format(Locale.ROOT, "%.1f", a.cpuSeconds()) + " CPU-s, B "
                + String.format(Locale.ROOT, "%.1f", b.cpuSeconds()) + " CPU-s");
        TextTable t = new TextTable(List.of(compiler.geomeanOverNames() ? "remark" : "pass", "A per CPU-s", "B per CPU-s", "A/B", "loop"),
                false, true, true, true, false);
        for (RemarkRate.Row r : c.rows()) t.add(r.unit(), num(r.perCpuSecondA()), num(r.perCpuSecondB()), ratio(r), r.loop() ? "yes" : "");
        RemarkRate.Row total = c.total();
        t.add(total.unit(), num(total.perCpuSecondA()), num(total.perCpuSecondB()), ratio(total), "");
        out.print(t.render(""));
        out.println("geometric mean of the per-CPU-second ratios over " + c.loopUnits() + " loop "
                + (compiler.geomeanOverNames() ? "remark names" : "passes") + ": "
                + (c.loopUnits() == 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", c.geoMean()))
                + (c.onlyInA().isEmpty() && c.onlyInB().isEmpty() ? ""
                : " (left out, in one policy only: A " + c.onlyInA() + ", B " + c.onlyInB() + ")"));
    }

    /** Rows of the single-policy CSV (section,pass,kind,remark,total,mean,programs): mean = remarks per CPU-second. */
    static void csv(PrintWriter out, RemarkRate r, int programs) {
        for (RemarkRate.Unit u : r.units()) {
            out.println(StatsReport.csv("rate", u.name(), RemarkKind.PASSED.label(), "", Long.toString(u.remarks()),
                    Json.number(u.perCpuSecond()), Integer.toString(programs)));
        }
        out.println(StatsReport.csv("rate_total", "", RemarkKind.PASSED.label(), "cpu_s=" + Json.number(r.cpuSeconds()),
                Long.toString(r.total()), Json.number(r.totalPerCpuSecond()), Integer.toString(programs)));
    }

    /** Rows of the compare CSV (section,pass,kind,remark,mean_a,mean_b,ratio,...): means = remarks per CPU-second. */
    static void csv(PrintWriter out, RemarkRate a, RemarkRate b) {
        RemarkRate.Comparison c = RemarkRate.compare(a, b);
        for (RemarkRate.Row r : c.rows()) out.println(row("rate", r));
        out.println(row("rate_total", c.total()));
        out.println(StatsReport.csv("rate_geomean", "", RemarkKind.PASSED.label(), c.loopUnits() + " loop units", "", "",
                Json.number(c.geoMean()), "", "", "", "true"));
    }

    private static String row(String section, RemarkRate.Row r) {
        return StatsReport.csv(section, r.unit(), RemarkKind.PASSED.label(), "", Json.number(r.perCpuSecondA()),
                Json.number(r.perCpuSecondB()), Double.isNaN(r.ratio()) ? "" : Json.number(r.ratio()), "", "", "",
                Boolean.toString(r.loop()));
    }

    static Map<String, Object> json(RemarkRate r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu_s", r.cpuSeconds());
        m.put("passed", r.total());
        m.put("per_cpu_s", r.totalPerCpuSecond());
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

    static Map<String, Object> json(RemarkRate a, RemarkRate b) {
        RemarkRate.Comparison c = RemarkRate.compare(a, b);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", json(a));
        m.put("b", json(b));
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
        return m;
    }

    private static String num(double d) {
        return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%.2f", d);
    }

    private static String ratio(RemarkRate.Row r) {
        if (!Double.isNaN(r.ratio())) return String.format(Locale.ROOT, "%.3f", r.ratio());
        return r.perCpuSecondA() > 0 ? "only A" : r.perCpuSecondB() > 0 ? "only B" : "-";
    }
}
