package dev.yarpj.stats;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Prints what {@code yarpj stats} found, as a table, CSV or JSON. */
public final class StatsReport {
    public enum Format { TABLE, CSV, JSON }

    /** How the programs were made and compiled. */
    public record RunInfo(RemarkCompiler compiler, String cc, String ccVersion, String lang, long firstSeed, long lastSeed,
                          boolean swarm) {}

    /** Remark names shown per pass in the table (CSV and JSON have them all). */
    public static final int TOP_NAMES = 10;

    private StatsReport() {}

    // ---------------------------------------------------------------- one policy

    public static void single(PrintWriter out, Format format, RunInfo info, RemarkCollector.Collection c, RemarkSummary s) {
        switch (format) {
            case TABLE -> singleTable(out, info, c, s);
            case CSV -> singleCsv(out, s);
            case JSON -> out.print(JsonText.write(singleJson(info, c, s)));
        }
        out.flush();
    }

    private static void singleTable(PrintWriter out, RunInfo info, RemarkCollector.Collection c, RemarkSummary s) {
        out.println("remarks of " + compilerLine(info) + " -O3 on " + s.programs() + " programs: seeds "
                + info.firstSeed() + ".." + info.lastSeed() + ", policy " + c.policyName() + ", lang " + info.lang()
                + skippedNote(c));
        out.println();
        TextTable t = new TextTable(List.of("pass", "kind", "total", "mean/program", "programs"),
                false, false, true, true, true);
        for (RemarkSummary.Row r : s.passRows()) {
            t.add(r.pass(), r.kind().label(), Long.toString(r.total()), fixed(r.mean()), r.programs() + "");
        }
        out.print(t.render(""));
        out.println();
        out.println("top " + RemarkKind.PASSED.label() + " remarks per pass (at most " + TOP_NAMES + " each):");
        TextTable n = new TextTable(List.of("pass", "remark", "total", "mean/program", "programs"),
                false, false, true, true, true);
        for (RemarkSummary.Row r : s.topNames(RemarkKind.PASSED, TOP_NAMES)) {
            n.add(r.pass(), r.name().isEmpty() ? "-" : r.name(), Long.toString(r.total()), fixed(r.mean()), r.programs() + "");
        }
        out.print(n.isEmpty() ? "  none\n" : n.render(""));
    }

    private static void singleCsv(PrintWriter out, RemarkSummary s) {
        out.println("section,pass,kind,remark,total,mean,programs");
        for (RemarkSummary.Row r : s.passRows()) {
            out.println(csv("pass", r.pass(), r.kind().label(), "", Long.toString(r.total()), JsonText.number(r.mean()),
                    Integer.toString(r.programs())));
        }
        for (RemarkSummary.Row r : s.nameRows()) {
            out.println(csv("remark", r.pass(), r.kind().label(), r.name(), Long.toString(r.total()),
                    JsonText.number(r.mean()), Integer.toString(r.programs())));
        }
    }

    private static Map<String, Object> singleJson(RunInfo info, RemarkCollector.Collection c, RemarkSummary s) {
        Map<String, Object> m = header(info);
        m.put("policy", c.policyName());
        m.put("programs", s.programs());
        m.put("skipped", skipped(c));
        List<Object> passes = new ArrayList<>();
        for (RemarkSummary.Row r : s.passRows()) passes.add(rowJson(r));
        m.put("passes", passes);
        List<Object> names = new ArrayList<>();
        for (RemarkSummary.Row r : s.nameRows()) names.add(rowJson(r));
        m.put("remarks", names);
        return m;
    }

    private static Map<String, Object> rowJson(RemarkSummary.Row r) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("pass", r.pass());
        o.put("kind", r.kind().label());
        if (r.name() != null) o.put("remark", r.name());
        o.put("total", r.total());
        o.put("mean", r.mean());
        o.put("programs", r.programs());
        return o;
    }

    // ---------------------------------------------------------------- two policies

    public static void compare(PrintWriter out, Format format, RunInfo info, RemarkCollector.Collection a,
                               RemarkCollector.Collection b, RemarkSummary sa, RemarkSummary sb, PolicyComparison cmp) {
        switch (format) {
            case TABLE -> compareTable(out, info, a, b, sa, sb, cmp);
            case CSV -> compareCsv(out, cmp);
            case JSON -> out.print(JsonText.write(compareJson(info, a, b, sa, sb, cmp)));
        }
        out.flush();
    }

    private static void compareTable(PrintWriter out, RunInfo info, RemarkCollector.Collection a, RemarkCollector.Collection b,
                                     RemarkSummary sa, RemarkSummary sb, PolicyComparison cmp) {
        out.println("remarks of " + compilerLine(info) + " -O3, seeds " + info.firstSeed() + ".." + info.lastSeed()
                + ", lang " + info.lang());
        out.println("  A: policy " + a.policyName() + ", " + sa.programs() + " programs" + skippedNote(a));
        out.println("  B: policy " + b.policyName() + ", " + sb.programs() + " programs" + skippedNote(b));
        out.println("mean remarks per program; p: Welch's t-test, two-sided; verdict at alpha "
                + Welch.ALPHA + (info.compiler().geomeanOverNames() ? "" : "; loop: a loop pass of the geometric mean"));
        out.println();
        out.println("Passed remarks per pass:");
        out.print(compareTable(cmp.passedByPass(), false, !info.compiler().geomeanOverNames()).render(""));
        out.println();
        out.println("all remarks per pass (Passed, Missed and Analysis together):");
        out.print(compareTable(cmp.allKindsByPass(), false, false).render(""));
        out.println();
        out.println("Passed remarks by name" + (info.compiler().geomeanOverNames()
                ? " (loop: a loop remark of the geometric mean):" : ":"));
        out.print(compareTable(cmp.passedByName(), true, info.compiler().geomeanOverNames()).render(""));
        out.println();
        for (String line : geoMeanLines(cmp.geoMean())) out.println(line);
    }

    private static TextTable compareTable(List<PolicyComparison.Row> rows, boolean names, boolean loopColumn) {
        List<String> h = new ArrayList<>(List.of("pass"));
        if (names) h.add("remark");
        h.addAll(List.of("mean A", "mean B", "A/B", "p", "verdict"));
        if (loopColumn) h.add("loop");
        boolean[] right = new boolean[h.size()];
        int first = names ? 2 : 1;
        for (int i = first; i < first + 4; i++) right[i] = true;
        TextTable t = new TextTable(h, right);
        for (PolicyComparison.Row r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.pass()));
            if (names) cells.add(r.name().isEmpty() ? "-" : r.name());
            cells.addAll(List.of(fixed(r.meanA()), fixed(r.meanB()), ratio(r), pValue(r.pValue()), r.verdict()));
            if (loopColumn) cells.add(r.loop() ? "yes" : "");
            t.add(cells.toArray(new String[0]));
        }
        return t;
    }

    /** The geometric-mean summary, as printed under the table. */
    public static List<String> geoMeanLines(PolicyComparison.GeoMean g) {
        List<String> lines = new ArrayList<>();
        lines.add("geometric mean of ratios over " + g.count() + " " + g.unit() + ": "
                + (g.count() == 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", g.value()))
                + " (" + g.significant() + " of " + g.count() + " significant at 95%)");
        if (!g.onlyInA().isEmpty() || !g.onlyInB().isEmpty()) {
            lines.add("left out of the geometric mean (mean 0 in one policy, no finite ratio): only in A: "
                    + list(g.onlyInA()) + "; only in B: " + list(g.onlyInB()));
        }
        return lines;
    }

    private static void compareCsv(PrintWriter out, PolicyComparison cmp) {
        out.println("section,pass,kind,remark,mean_a,mean_b,ratio,p_value,verdict,presence,loop");
        for (PolicyComparison.Row r : cmp.passedByPass()) out.println(compareCsvRow("pass_passed", r));
        for (PolicyComparison.Row r : cmp.allKindsByPass()) out.println(compareCsvRow("pass_all_kinds", r));
        for (PolicyComparison.Row r : cmp.passedByName()) out.println(compareCsvRow("remark_passed", r));
        PolicyComparison.GeoMean g = cmp.geoMean();
        // The summary row: ratio = the geometric mean, verdict = "M of N significant", remark = what it runs over.
        out.println(csv("geomean", "", RemarkKind.PASSED.label(), g.unit(), "", "", JsonText.number(g.value()), "",
                g.significant() + " of " + g.count() + " significant", "", "true"));
        for (String u : g.onlyInA()) out.println(csv("only_in_a", "", RemarkKind.PASSED.label(), u, "", "", "", "", "", "only_a", "true"));
        for (String u : g.onlyInB()) out.println(csv("only_in_b", "", RemarkKind.PASSED.label(), u, "", "", "", "", "", "only_b", "true"));
    }

    private static String compareCsvRow(String section, PolicyComparison.Row r) {
        return csv(section, r.pass(), r.kind() == null ? "all" : r.kind().label(), r.name() == null ? "" : r.name(),
                JsonText.number(r.meanA()), JsonText.number(r.meanB()),
                Double.isNaN(r.ratio()) ? "" : JsonText.number(r.ratio()), JsonText.number(r.pValue()), r.verdict(),
                r.presence().name().toLowerCase(Locale.ROOT), Boolean.toString(r.loop()));
    }

    private static Map<String, Object> compareJson(RunInfo info, RemarkCollector.Collection a, RemarkCollector.Collection b,
                                                   RemarkSummary sa, RemarkSummary sb, PolicyComparison cmp) {
        Map<String, Object> m = header(info);
        m.put("alpha", Welch.ALPHA);
        m.put("a", side(a, sa));
        m.put("b", side(b, sb));
        m.put("passes_passed", compareRows(cmp.passedByPass()));
        m.put("passes_all_kinds", compareRows(cmp.allKindsByPass()));
        m.put("remarks_passed", compareRows(cmp.passedByName()));
        PolicyComparison.GeoMean g = cmp.geoMean();
        Map<String, Object> gm = new LinkedHashMap<>();
        gm.put("over", g.unit());
        gm.put("count", g.count());
        gm.put("value", g.value());
        gm.put("significant", g.significant());
        gm.put("only_in_a", g.onlyInA());
        gm.put("only_in_b", g.onlyInB());
        m.put("geomean", gm);
        return m;
    }

    private static Map<String, Object> side(RemarkCollector.Collection c, RemarkSummary s) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("policy", c.policyName());
        o.put("programs", s.programs());
        o.put("skipped", skipped(c));
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

    // ---------------------------------------------------------------- shared

    private static Map<String, Object> header(RunInfo info) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("compiler", info.compiler().defaultBinary);
        m.put("cc", info.cc());
        m.put("cc_version", info.ccVersion());
        m.put("lang", info.lang());
        m.put("first_seed", info.firstSeed());
        m.put("last_seed", info.lastSeed());
        m.put("swarm", info.swarm());
        return m;
    }

    private static Map<String, Object> skipped(RemarkCollector.Collection c) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("generator", c.skipped(RemarkCollector.Skip.GENERATOR));
        o.put("compile", c.skipped(RemarkCollector.Skip.COMPILE));
        o.put("timeout", c.skipped(RemarkCollector.Skip.TIMEOUT));
        return o;
    }

    private static String compilerLine(RunInfo info) {
        return info.ccVersion().isEmpty() ? info.cc() : info.ccVersion();
    }

    private static String skippedNote(RemarkCollector.Collection c) {
        int n = 0;
        for (RemarkCollector.Skip k : RemarkCollector.Skip.values()) n += c.skipped(k);
        return n == 0 ? "" : " (" + n + " seed(s) skipped)";
    }

    private static String fixed(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }

    private static String ratio(PolicyComparison.Row r) {
        return switch (r.presence()) {
            case ONLY_A -> "only A";
            case ONLY_B -> "only B";
            case BOTH -> String.format(Locale.ROOT, "%.3f", r.ratio());
        };
    }

    private static String pValue(double p) {
        return p >= 0.001 ? String.format(Locale.ROOT, "%.3f", p) : String.format(Locale.ROOT, "%.1e", p);
    }

    private static String list(List<String> l) {
        return l.isEmpty() ? "none" : String.join(", ", l);
    }

    private static String csv(String... cells) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) sb.append(',');
            String c = cells[i];
            if (c.indexOf(',') >= 0 || c.indexOf('"') >= 0 || c.indexOf('\n') >= 0) {
                sb.append('"').append(c.replace("\"", "\"\"")).append('"');
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
