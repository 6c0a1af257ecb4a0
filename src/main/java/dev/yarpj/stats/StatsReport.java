package dev.yarpj.stats;

import dev.yarpj.harness.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints what {@code yarpj stats} found, as a table, CSV or JSON: the remark counts (unless
 * nothing was compiled), then the shape and the loop trip counts of the generated programs.
 */
public final class StatsReport {
    public enum Format { TABLE, CSV, JSON }

    /**
     * How the programs were made and compiled; {@code compiler} and {@code cc} are null when
     * no remarks were collected. {@code ispcBuild}: for ISPC tests built and run to measure
     * their execution masks, how ("ispc 1.28.2 ... --target=avx2-i32x8 -O0"; {@code cc} is then
     * the ispc binary, {@code ccVersion} its version); else null.
     */
    public record RunInfo(RemarkCompiler compiler, String cc, String ccVersion, String lang, long firstSeed, long lastSeed,
                          boolean swarm, String ispcBuild) {
        public RunInfo(RemarkCompiler compiler, String cc, String ccVersion, String lang, long firstSeed, long lastSeed,
                       boolean swarm) {
            this(compiler, cc, ccVersion, lang, firstSeed, lastSeed, swarm, null);
        }

        public boolean compiled() {
            return compiler != null;
        }

        /** Whether ISPC tests were built and run to measure their masks. */
        public boolean measuredMasks() {
            return ispcBuild != null;
        }
    }

    /** Remark names shown per pass in the table (CSV and JSON have them all). */
    public static final int TOP_NAMES = 10;

    /** Missed and Analysis remark names of the loop passes shown in the table, the most frequent (CSV and JSON have them all). */
    public static final int TOP_LOOP_MISSED_ANALYSIS = 30;

    private StatsReport() {}

    // ---------------------------------------------------------------- one policy

    /** @param s the remark counts, or null when nothing was compiled */
    public static void single(PrintWriter out, Format format, RunInfo info, RemarkCollector.Collection c, RemarkSummary s) {
        ShapeSummary shape = new ShapeSummary(c.shapes());
        TripSummary trips = new TripSummary(c.loops());
        IspcReport.Side ispc = IspcReport.applies(c) ? IspcReport.Side.of("", c, info.measuredMasks()) : null;
        switch (format) {
            case TABLE -> {
                if (s != null) {
                    singleTable(out, info, c, s);
                } else {
                    out.println("loops of " + trips.programs() + " programs (generated and interpreted, " + buildNote(info) + "): seeds "
                            + info.firstSeed() + ".." + info.lastSeed() + ", policy " + c.policyName() + ", lang " + info.lang()
                            + skippedNote(c));
                }
                out.println();
                shapeTable(out, List.of(""), List.of(shape));
                out.println();
                tripTable(out, trips);
                if (ispc != null) {
                    out.println();
                    IspcReport.table(out, ispc, info.ispcBuild());
                }
                if (info.lang().equals("sycl")) {
                    out.println();
                    syclTable(out, c.choices());
                }
            }
            case CSV -> {
                out.println("section,pass,kind,remark,total,mean,programs");
                if (s != null) {
                    singleCsv(out, info.compiler(), s);
                    RateReport.csv(out, new RemarkRate(info.compiler(), c.tallies()), s.programs());
                }
                shapeCsv(out, shape);
                tripCsv(out, trips);
                if (ispc != null) IspcReport.csvRows(out, ispc);
            }
            case JSON -> {
                Map<String, Object> m = singleJson(info, c, s, shape, trips);
                if (ispc != null) m.put("ispc", IspcReport.json(ispc, info.ispcBuild()));
                out.print(Json.writePretty(m));
            }
        }
        out.flush();
    }

    /** What the SYCL lowering made of the programs: each of its choice counts, in total, per test and the tests with any. */
    private static void syclTable(PrintWriter out, List<Map<String, Integer>> choices) {
        out.println("SYCL lowering of " + choices.size() + " tests (kernels: range by dimension, nd_range, single_task;"
                + " memory: one mode per test):");
        Map<String, long[]> sums = new java.util.LinkedHashMap<>();
        for (Map<String, Integer> c : choices) {
            for (Map.Entry<String, Integer> e : c.entrySet()) {
                long[] v = sums.computeIfAbsent(e.getKey(), k -> new long[2]);
                v[0] += e.getValue();
                if (e.getValue() > 0) v[1]++;
            }
        }
        long kernels = 0;
        for (String k : List.of("range.1", "range.2", "range.3", "nd_range", "single_task")) kernels += sums.getOrDefault(k, new long[2])[0];
        TextTable t = new TextTable(List.of("choice", "total", "per test", "tests with any"), false, true, true, true);
        t.add("kernels", Long.toString(kernels), fixed((double) kernels / Math.max(1, choices.size())), "");
        for (Map.Entry<String, long[]> e : sums.entrySet()) {
            t.add(e.getKey(), Long.toString(e.getValue()[0]), fixed((double) e.getValue()[0] / Math.max(1, choices.size())),
                    pct(e.getValue()[1], choices.size()));
        }
        out.print(t.render(""));
    }

    private static String pct(long part, long whole) {
        return whole == 0 ? "-" : String.format("%.1f%%", 100.0 * part / whole);
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
        RateReport.table(out, info.compiler(), new RemarkRate(info.compiler(), c.tallies()), s.programs());
        out.println();
        out.println("top " + RemarkKind.PASSED.label() + " remarks per pass (at most " + TOP_NAMES + " each):");
        out.print(nameTable(s.topNames(RemarkKind.PASSED, TOP_NAMES), false));
        out.println();
        List<RemarkSummary.Row> why = s.loopMissedAndAnalysis(info.compiler(), TOP_LOOP_MISSED_ANALYSIS);
        out.println(loopMissedAndAnalysisTitle(info.compiler(), "", why.size(),
                s.loopMissedAndAnalysis(info.compiler(), Integer.MAX_VALUE).size()));
        out.print(nameTable(why, true));
    }

    /** Remark names with total, mean per program and programs with any; "  none" if there are none. */
    private static String nameTable(List<RemarkSummary.Row> rows, boolean kindColumn) {
        List<String> h = new ArrayList<>(List.of("pass"));
        if (kindColumn) h.add("kind");
        h.addAll(List.of("remark", "total", "mean/program", "programs"));
        TextTable n = new TextTable(h, rightAligned(h.size(), h.size() - 3));
        for (RemarkSummary.Row r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.pass()));
            if (kindColumn) cells.add(r.kind().label());
            cells.addAll(List.of(r.name().isEmpty() ? "-" : r.name(), Long.toString(r.total()), fixed(r.mean()), r.programs() + ""));
            n.add(cells.toArray(new String[0]));
        }
        return n.isEmpty() ? "  none\n" : n.render("");
    }

    /**
     * The header line of the Missed and Analysis names of the loop passes, {@code shown} of
     * {@code all}; {@code count}: what the total counts ("", " under A and B").
     */
    private static String loopMissedAndAnalysisTitle(RemarkCompiler compiler, String count, int shown, int all) {
        return RemarkKind.MISSED.label() + " and " + RemarkKind.ANALYSIS.label() + " remarks by name, "
                + (compiler.geomeanOverNames() ? "those mentioning a loop" : "loop passes only") + " (at most the "
                + TOP_LOOP_MISSED_ANALYSIS + " most frequent by total count" + count + "; " + shown + " of " + all + " shown):";
    }

    private static void singleCsv(PrintWriter out, RemarkCompiler compiler, RemarkSummary s) {
        for (RemarkSummary.Row r : s.passRows()) {
            out.println(csv("pass", r.pass(), r.kind().label(), "", Long.toString(r.total()), Json.number(r.mean()),
                    Integer.toString(r.programs())));
        }
        for (RemarkSummary.Row r : s.nameRows()) out.println(singleCsvRow("remark", r));
        for (RemarkSummary.Row r : s.loopMissedAndAnalysis(compiler, Integer.MAX_VALUE)) {
            out.println(singleCsvRow("remark_missed_analysis_loop", r));
        }
    }

    private static String singleCsvRow(String section, RemarkSummary.Row r) {
        return csv(section, r.pass(), r.kind().label(), r.name(), Long.toString(r.total()), Json.number(r.mean()),
                Integer.toString(r.programs()));
    }

    private static Map<String, Object> singleJson(RunInfo info, RemarkCollector.Collection c, RemarkSummary s,
                                                  ShapeSummary shape, TripSummary trips) {
        Map<String, Object> m = header(info);
        m.put("policy", c.policyName());
        m.put("programs", s != null ? s.programs() : trips.programs());
        m.put("skipped", skipped(c));
        if (s != null) {
            List<Object> passes = new ArrayList<>();
            for (RemarkSummary.Row r : s.passRows()) passes.add(rowJson(r));
            m.put("passes", passes);
            List<Object> names = new ArrayList<>();
            for (RemarkSummary.Row r : s.nameRows()) names.add(rowJson(r));
            m.put("remarks", names);
            List<Object> why = new ArrayList<>();
            for (RemarkSummary.Row r : s.loopMissedAndAnalysis(info.compiler(), Integer.MAX_VALUE)) why.add(rowJson(r));
            m.put("remarks_missed_analysis_loop", why);
            m.put("rate", RateReport.json(new RemarkRate(info.compiler(), c.tallies())));
        }
        m.put("generated_programs", trips.programs());
        m.put("shape", shapeJson(shape));
        List<Object> rows = new ArrayList<>();
        for (TripSummary.Row r : trips.rows()) {
            Map<String, Object> o = groupJson(r.group());
            o.putAll(tripJson(r));
            rows.add(o);
        }
        m.put("trips", rows);
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

    /** @param sa the remark counts, or null (with {@code sb} and {@code cmp}) when nothing was compiled */
    public static void compare(PrintWriter out, Format format, RunInfo info, RemarkCollector.Collection a,
                               RemarkCollector.Collection b, RemarkSummary sa, RemarkSummary sb, PolicyComparison cmp) {
        ShapeSummary shapeA = new ShapeSummary(a.shapes());
        ShapeSummary shapeB = new ShapeSummary(b.shapes());
        TripSummary ta = new TripSummary(a.loops());
        TripSummary tb = new TripSummary(b.loops());
        TripComparison trips = new TripComparison(ta, tb);
        boolean ispc = IspcReport.applies(a) && IspcReport.applies(b);
        IspcReport.Side ia = ispc ? IspcReport.Side.of("A (" + a.policyName() + ")", a, info.measuredMasks()) : null;
        IspcReport.Side ib = ispc ? IspcReport.Side.of("B (" + b.policyName() + ")", b, info.measuredMasks()) : null;
        switch (format) {
            case TABLE -> {
                if (cmp != null) {
                    compareTable(out, info, a, b, sa, sb, cmp);
                } else {
                    out.println("loops of seeds " + info.firstSeed() + ".." + info.lastSeed() + ", lang " + info.lang()
                            + " (generated and interpreted, " + buildNote(info) + ")");
                    out.println("  A: policy " + a.policyName() + ", " + ta.programs() + " programs" + skippedNote(a));
                    out.println("  B: policy " + b.policyName() + ", " + tb.programs() + " programs" + skippedNote(b));
                }
                out.println();
                shapeTable(out, List.of("A ", "B "), List.of(shapeA, shapeB));
                out.println();
                tripTable(out, ta.programs(), tb.programs(), trips);
                if (ispc) {
                    for (IspcReport.Side side : List.of(ia, ib)) {
                        out.println();
                        IspcReport.table(out, side, info.ispcBuild());
                    }
                }
            }
            case CSV -> {
                out.println("section,pass,kind,remark,mean_a,mean_b,ratio,p_value,verdict,presence,loop");
                if (cmp != null) {
                    compareCsv(out, cmp);
                    RateReport.csv(out, new RemarkRate(info.compiler(), a.tallies()), new RemarkRate(info.compiler(), b.tallies()));
                }
                shapeCsv(out, shapeA, shapeB);
                tripCsv(out, trips);
                if (ispc) IspcReport.csvRows(out, ia, ib);
            }
            case JSON -> {
                Map<String, Object> m = compareJson(info, a, b, sa, sb, cmp, shapeA, shapeB, ta, tb, trips);
                if (ispc) {
                    Map<String, Object> both = new LinkedHashMap<>();
                    both.put("a", IspcReport.json(ia, info.ispcBuild()));
                    both.put("b", IspcReport.json(ib, info.ispcBuild()));
                    m.put("ispc", both);
                }
                out.print(Json.writePretty(m));
            }
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
        out.print(compareTable(cmp.passedByPass(), false, false, !info.compiler().geomeanOverNames()).render(""));
        out.println();
        out.println("all remarks per pass (Passed, Missed and Analysis together):");
        out.print(compareTable(cmp.allKindsByPass(), false, false, false).render(""));
        out.println();
        out.println("Passed remarks by name" + (info.compiler().geomeanOverNames()
                ? " (loop: a loop remark of the geometric mean):" : ":"));
        out.print(compareTable(cmp.passedByName(), true, false, info.compiler().geomeanOverNames()).render(""));
        out.println();
        List<PolicyComparison.Row> why = cmp.loopMissedAndAnalysisByName(TOP_LOOP_MISSED_ANALYSIS);
        out.println(loopMissedAndAnalysisTitle(info.compiler(), " under A and B", why.size(),
                cmp.loopMissedAndAnalysisByName().size()));
        TextTable whyTable = compareTable(why, true, true, false);
        out.print(whyTable.isEmpty() ? "  none\n" : whyTable.render(""));
        out.println();
        for (String line : geoMeanLines(cmp.geoMean())) out.println(line);
        out.println();
        RateReport.table(out, info.compiler(), new RemarkRate(info.compiler(), a.tallies()), new RemarkRate(info.compiler(), b.tallies()));
    }

    /** {@code kinds}: a kind column (rows of more than one kind); {@code names}: a remark column. */
    private static TextTable compareTable(List<PolicyComparison.Row> rows, boolean names, boolean kinds, boolean loopColumn) {
        List<String> h = new ArrayList<>(List.of("pass"));
        if (kinds) h.add("kind");
        if (names) h.add("remark");
        h.addAll(List.of("mean A", "mean B", "A/B", "p", "verdict"));
        if (loopColumn) h.add("loop");
        boolean[] right = new boolean[h.size()];
        int first = h.indexOf("mean A");
        for (int i = first; i < first + 4; i++) right[i] = true;
        TextTable t = new TextTable(h, right);
        for (PolicyComparison.Row r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.pass()));
            if (kinds) cells.add(r.kind().label());
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
        for (PolicyComparison.Row r : cmp.passedByPass()) out.println(compareCsvRow("pass_passed", r));
        for (PolicyComparison.Row r : cmp.allKindsByPass()) out.println(compareCsvRow("pass_all_kinds", r));
        for (PolicyComparison.Row r : cmp.passedByName()) out.println(compareCsvRow("remark_passed", r));
        for (PolicyComparison.Row r : cmp.loopMissedAndAnalysisByName()) {
            out.println(compareCsvRow("remark_missed_analysis_loop", r));
        }
        PolicyComparison.GeoMean g = cmp.geoMean();
        // The summary row: ratio = the geometric mean, verdict = "M of N significant", remark = what it runs over.
        out.println(csv("geomean", "", RemarkKind.PASSED.label(), g.unit(), "", "", Json.number(g.value()), "",
                g.significant() + " of " + g.count() + " significant", "", "true"));
        for (String u : g.onlyInA()) out.println(csv("only_in_a", "", RemarkKind.PASSED.label(), u, "", "", "", "", "", "only_a", "true"));
        for (String u : g.onlyInB()) out.println(csv("only_in_b", "", RemarkKind.PASSED.label(), u, "", "", "", "", "", "only_b", "true"));
    }

    private static String compareCsvRow(String section, PolicyComparison.Row r) {
        return csv(section, r.pass(), r.kind() == null ? "all" : r.kind().label(), r.name() == null ? "" : r.name(),
                Json.number(r.meanA()), Json.number(r.meanB()),
                Double.isNaN(r.ratio()) ? "" : Json.number(r.ratio()), Json.number(r.pValue()), r.verdict(),
                r.presence().name().toLowerCase(Locale.ROOT), Boolean.toString(r.loop()));
    }

    private static Map<String, Object> compareJson(RunInfo info, RemarkCollector.Collection a, RemarkCollector.Collection b,
                                                   RemarkSummary sa, RemarkSummary sb, PolicyComparison cmp,
                                                   ShapeSummary shapeA, ShapeSummary shapeB, TripSummary ta, TripSummary tb,
                                                   TripComparison trips) {
        Map<String, Object> m = header(info);
        m.put("alpha", Welch.ALPHA);
        m.put("a", side(a, sa == null ? ta.programs() : sa.programs()));
        m.put("b", side(b, sb == null ? tb.programs() : sb.programs()));
        if (cmp != null) {
            remarksJson(m, cmp);
            m.put("rate", RateReport.json(new RemarkRate(info.compiler(), a.tallies()), new RemarkRate(info.compiler(), b.tallies())));
        }
        m.put("generated_programs_a", ta.programs());
        m.put("generated_programs_b", tb.programs());
        Map<String, Object> shape = new LinkedHashMap<>();
        shape.put("a", shapeJson(shapeA));
        shape.put("b", shapeJson(shapeB));
        m.put("shape", shape);
        List<Object> rows = new ArrayList<>();
        for (TripComparison.Row r : trips.rows()) {
            Map<String, Object> o = groupJson(r.group());
            o.put("a", tripJson(r.a()));
            o.put("b", tripJson(r.b()));
            o.put("mean_log2_a", r.meanLog2A());
            o.put("mean_log2_b", r.meanLog2B());
            o.put("p_value", r.pValue());
            o.put("significant", r.tested() ? r.significant() : null);
            rows.add(o);
        }
        m.put("trips", rows);
        return m;
    }

    private static void remarksJson(Map<String, Object> m, PolicyComparison cmp) {
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

    private static Map<String, Object> side(RemarkCollector.Collection c, int programs) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("policy", c.policyName());
        o.put("programs", programs);
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

    // ---------------------------------------------------------------- shape and trip counts

    private static final String TRIP_TITLE = "trip counts per entry (iterations / times entered) of ";

    private static void shapeTable(PrintWriter out, List<String> sides, List<ShapeSummary> shapes) {
        StringBuilder who = new StringBuilder();
        for (int i = 0; i < shapes.size(); i++) {
            who.append(i == 0 ? "" : " and ").append(shapes.get(i).programs()).append(sides.get(i).isEmpty() ? "" : " (" + sides.get(i).strip() + ")");
        }
        out.println("program shape of " + who + " generated programs:");
        for (int i = 0; i < shapes.size(); i++) out.println("  " + sides.get(i) + "deepest loop nesting:     " + shapes.get(i).depth().histogram());
        for (int i = 0; i < shapes.size(); i++) out.println("  " + sides.get(i) + "loops per program:        " + shapes.get(i).loops().summary());
        for (int i = 0; i < shapes.size(); i++) out.println("  " + sides.get(i) + "statements per loop body: " + shapes.get(i).bodies().summary());
    }

    private static final String[] SHAPE_KEYS = {"deepest_loop_nesting", "loops_per_program", "stmts_per_loop_body"};

    private static List<Distribution> measures(ShapeSummary s) {
        return List.of(s.depth(), s.loops(), s.bodies());
    }

    private static Map<String, Object> shapeJson(ShapeSummary s) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("programs", s.programs());
        List<Distribution> d = measures(s);
        for (int i = 0; i < SHAPE_KEYS.length; i++) o.put(SHAPE_KEYS[i], new LinkedHashMap<>(d.get(i).figures()));
        return o;
    }

    /** section shape: pass = the measure, remark = the figure (min, p10, median, ...), mean = its value. */
    private static void shapeCsv(PrintWriter out, ShapeSummary s) {
        List<Distribution> d = measures(s);
        for (int i = 0; i < SHAPE_KEYS.length; i++) {
            for (Map.Entry<String, Number> e : d.get(i).figures().entrySet()) {
                out.println(csv("shape", SHAPE_KEYS[i], "", e.getKey(), "", csvNumber(e.getValue()), Integer.toString(s.programs())));
            }
        }
    }

    /** section shape: pass = the measure, remark = the figure, mean_a and mean_b = its values. */
    private static void shapeCsv(PrintWriter out, ShapeSummary a, ShapeSummary b) {
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

    static String csvNumber(Number n) {
        return n instanceof Double d ? Json.number(d) : n.toString();
    }

    static List<String> tripHeader(boolean compare) {
        List<String> h = new ArrayList<>(List.of("scope", "idiom"));
        if (compare) h.add("policy");
        h.add("loops");
        for (TripSummary.Bucket b : TripSummary.Bucket.values()) h.add(b.label);
        h.add("median");
        if (compare) h.addAll(List.of("mean log2", "p", "verdict"));
        return h;
    }

    static List<String> tripCells(TripSummary.Row r) {
        List<String> c = new ArrayList<>();
        c.add(Integer.toString(r.loops()));
        for (TripSummary.Bucket b : TripSummary.Bucket.values()) c.add(percent(r.share(b)));
        c.add(Double.isNaN(r.median()) ? "-" : String.format(Locale.ROOT, "%.1f", r.median()));
        return c;
    }

    private static void tripTable(PrintWriter out, TripSummary t) {
        out.println(TRIP_TITLE + t.row(TripSummary.GROUPS.get(0)).loops() + " static loops in " + t.programs()
                + " generated programs:");
        out.println("share of the loops per bucket (never entered; average iterations per entry); median over entered loops");
        List<String> h = tripHeader(false);
        TextTable tt = new TextTable(h, rightAligned(h.size(), 2));
        for (TripSummary.Row r : t.rows()) {
            List<String> cells = new ArrayList<>(List.of(r.group().scope(), r.group().idiomName()));
            cells.addAll(tripCells(r));
            tt.add(cells.toArray(new String[0]));
        }
        out.print(tt.render(""));
    }

    private static void tripTable(PrintWriter out, int programsA, int programsB, TripComparison cmp) {
        out.println(TRIP_TITLE + "the static loops in " + programsA + " (A) and " + programsB + " (B) generated programs:");
        out.println("share of the loops per bucket (never entered; average iterations per entry); median over entered loops;");
        out.println("mean log2: the per-program mean of log2(1 + iterations per entry) over entered loops, averaged over");
        out.println("programs; p: Welch's t-test on it, two-sided; verdict at alpha " + Welch.ALPHA
                + " (-: fewer than 2 programs with such loops)");
        List<String> h = tripHeader(true);
        boolean[] right = rightAligned(h.size(), 3);
        right[h.size() - 1] = false;
        TextTable tt = new TextTable(h, right);
        for (TripComparison.Row r : cmp.rows()) {
            List<String> a = new ArrayList<>(List.of(r.group().scope(), r.group().idiomName(), "A"));
            a.addAll(tripCells(r.a()));
            a.addAll(List.of(log2(r.meanLog2A()), r.tested() ? pValue(r.pValue()) : "-", r.verdict()));
            tt.add(a.toArray(new String[0]));
            List<String> b = new ArrayList<>(List.of("", "", "B"));
            b.addAll(tripCells(r.b()));
            b.addAll(List.of(log2(r.meanLog2B()), "", ""));
            tt.add(b.toArray(new String[0]));
        }
        out.print(tt.render(""));
    }

    static boolean[] rightAligned(int columns, int from) {
        boolean[] r = new boolean[columns];
        for (int i = from; i < columns; i++) r[i] = true;
        return r;
    }

    /**
     * section trips: pass = scope (all, innermost), kind = idiom; remark "loops": total = the
     * number of loops; a bucket (never, at_most_1, ...): total = its loops, mean = their share;
     * "median_per_entry": total = the entered loops, mean = their median iterations per entry.
     */
    private static void tripCsv(PrintWriter out, TripSummary t) {
        tripCsv(out, "trips", t, t.rows());
    }

    /** The rows of {@link #tripCsv(PrintWriter, TripSummary)}, of the given section, for some of its groups. */
    static void tripCsv(PrintWriter out, String section, TripSummary t, List<TripSummary.Row> rows) {
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
    private static void tripCsv(PrintWriter out, TripComparison cmp) {
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

    static Map<String, Object> groupJson(TripSummary.Group g) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("scope", g.scope());
        o.put("idiom", g.idiomName());
        return o;
    }

    static Map<String, Object> tripJson(TripSummary.Row r) {
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

    static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    private static String log2(double d) {
        return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%.3f", d);
    }

    /** A number, or empty for NaN. */
    static String csvDouble(double d) {
        return Double.isNaN(d) ? "" : Json.number(d);
    }

    // ---------------------------------------------------------------- shared

    private static Map<String, Object> header(RunInfo info) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("compiled", info.compiled() || info.measuredMasks());
        if (info.compiled()) {
            m.put("compiler", info.compiler().defaultBinary);
            m.put("cc", info.cc());
            m.put("cc_version", info.ccVersion());
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

    private static Map<String, Object> skipped(RemarkCollector.Collection c) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("generator", c.skipped(RemarkCollector.Skip.GENERATOR));
        o.put("compile", c.skipped(RemarkCollector.Skip.COMPILE));
        o.put("timeout", c.skipped(RemarkCollector.Skip.TIMEOUT));
        // Only ISPC mask runs skip for these; listed when they did.
        for (RemarkCollector.Skip k : List.of(RemarkCollector.Skip.RUN, RemarkCollector.Skip.RUN_TIMEOUT, RemarkCollector.Skip.MISMATCH)) {
            if (c.skipped(k) > 0) o.put(k.name().toLowerCase(Locale.ROOT), c.skipped(k));
        }
        return o;
    }

    /** What the header says was compiled when no remarks were collected. */
    private static String buildNote(RunInfo info) {
        return info.measuredMasks() ? "built with " + info.ispcBuild() + " and run to measure the masks below" : "nothing compiled";
    }

    private static String compilerLine(RunInfo info) {
        return info.ccVersion().isEmpty() ? info.cc() : info.ccVersion();
    }

    private static String skippedNote(RemarkCollector.Collection c) {
        int n = 0;
        for (RemarkCollector.Skip k : RemarkCollector.Skip.values()) n += c.skipped(k);
        return n == 0 ? "" : " (" + n + " seed(s) skipped)";
    }

    static String fixed(double d) {
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

    static String csv(String... cells) {
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
