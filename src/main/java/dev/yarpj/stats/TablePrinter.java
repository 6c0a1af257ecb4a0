package dev.yarpj.stats;

import static dev.yarpj.stats.Cells.fixed;
import static dev.yarpj.stats.Cells.list;
import static dev.yarpj.stats.Cells.log2;
import static dev.yarpj.stats.Cells.pValue;
import static dev.yarpj.stats.Cells.percent;
import static dev.yarpj.stats.Cells.rightAligned;

import dev.yarpj.stats.ispc.IspcSummary;
import dev.yarpj.stats.ispc.MaskSummary;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints a {@link StatsReport} as tables for people: the remark counts (unless nothing was
 * compiled), the shape and the loop trip counts of the generated programs, then the ISPC
 * or SYCL lowering.
 */
final class TablePrinter {
    private static final String TRIP_TITLE = "trip counts per entry (iterations / times entered) of ";

    private final PrintWriter out;

    TablePrinter(PrintWriter out) {
        this.out = out;
    }

    void print(StatsReport report) {
        if (report.compares()) compare(report);
        else single(report);
        out.flush();
    }

    // ---------------------------------------------------------------- one policy

    private void single(StatsReport report) {
        RunInfo info = report.info();
        StatsReport.Side side = report.sides().get(0);
        if (side.remarks() != null) {
            remarks(info, side);
        } else {
            out.println("loops of " + side.trips().programs() + " programs (generated and interpreted, " + buildNote(info) + "): seeds "
                    + info.firstSeed() + ".." + info.lastSeed() + ", policy " + side.policy() + ", lang " + info.lang()
                    + skippedNote(side));
        }
        out.println();
        shape(List.of(""), List.of(side.shape()));
        out.println();
        trips(side.trips());
        out.println(side.inputSets().line());
        out.println(side.inputSets().vectorLine());
        out.println(side.inputSets().gangLine());
        if (side.ispc() != null) {
            out.println();
            ispc(side, info.ispcBuild());
        }
        if (info.lang().equals("sycl")) {
            out.println();
            sycl(side.sycl());
        }
    }

    /** What the SYCL lowering made of the programs: each of its choice counts, in total, per test and the tests with any. */
    private void sycl(StatsReport.SyclChoices sycl) {
        out.println("SYCL lowering of " + sycl.tests() + " tests (kernels: range by dimension, nd_range, single_task;"
                + " memory: one mode per test):");
        TextTable t = new TextTable(List.of("choice", "total", "per test", "tests with any"), false, true, true, true);
        t.add("kernels", Long.toString(sycl.kernels()), fixed(sycl.kernelsPerTest()), "");
        for (StatsReport.SyclChoices.Choice c : sycl.choices()) {
            t.add(c.name(), Long.toString(c.total()), fixed(c.perTest()), percent(c.testsShare()));
        }
        out.print(t.render(""));
    }

    private void remarks(RunInfo info, StatsReport.Side side) {
        RemarkSummary s = side.remarks().summary();
        out.println("remarks of " + compilerLine(info) + " " + info.options() + " on " + s.programs() + " programs: seeds "
                + info.firstSeed() + ".." + info.lastSeed() + ", policy " + side.policy() + ", lang " + info.lang()
                + skippedNote(side));
        out.println();
        TextTable t = new TextTable(List.of("pass", "kind", "total", "mean/program", "programs"),
                false, false, true, true, true);
        for (RemarkSummary.Row r : s.passRows()) {
            t.add(r.pass(), r.kind().label(), Long.toString(r.total()), fixed(r.mean()), r.programs() + "");
        }
        out.print(t.render(""));
        out.println();
        rate(info.compiler(), side.remarks().rate(), s.programs());
        out.println();
        out.println(EARLY_EXITS + earlyExits(side.remarks()));
        out.println();
        out.println("top " + RemarkKind.PASSED.label() + " remarks per pass (at most " + StatsReport.TOP_NAMES + " each):");
        out.print(nameTable(side.remarks().topPassed(), false));
        out.println();
        List<RemarkSummary.Row> why = side.remarks().topLoopMissedAndAnalysis();
        out.println(loopMissedAndAnalysisTitle(info.compiler(), "", why.size(), side.remarks().loopMissedAndAnalysis().size()));
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
                + StatsReport.TOP_LOOP_MISSED_ANALYSIS + " most frequent by total count" + count + "; " + shown + " of " + all + " shown):";
    }

    // ---------------------------------------------------------------- two policies

    private void compare(StatsReport report) {
        RunInfo info = report.info();
        StatsReport.Side a = report.sides().get(0);
        StatsReport.Side b = report.sides().get(1);
        if (report.remarks() != null) {
            remarks(info, a, b, report.remarks(), report.rates());
        } else {
            out.println("loops of seeds " + info.firstSeed() + ".." + info.lastSeed() + ", lang " + info.lang()
                    + " (generated and interpreted, " + buildNote(info) + ")");
            out.println("  A: policy " + a.policy() + ", " + a.trips().programs() + " programs" + skippedNote(a));
            out.println("  B: policy " + b.policy() + ", " + b.trips().programs() + " programs" + skippedNote(b));
        }
        out.println();
        shape(List.of("A ", "B "), List.of(a.shape(), b.shape()));
        out.println();
        trips(a.trips().programs(), b.trips().programs(), report.trips(), a.trips().exitEnds(), b.trips().exitEnds());
        out.println("A " + a.inputSets().line());
        out.println("B " + b.inputSets().line());
        out.println("A " + a.inputSets().vectorLine());
        out.println("B " + b.inputSets().vectorLine());
        out.println("A " + a.inputSets().gangLine());
        out.println("B " + b.inputSets().gangLine());
        if (a.ispc() != null && b.ispc() != null) {
            for (StatsReport.Side side : List.of(a, b)) {
                out.println();
                ispc(side, info.ispcBuild());
            }
        }
    }

    private void remarks(RunInfo info, StatsReport.Side a, StatsReport.Side b, PolicyComparison cmp, RemarkRate.Comparison rates) {
        out.println("remarks of " + compilerLine(info) + " " + info.options() + ", seeds " + info.firstSeed() + ".." + info.lastSeed()
                + ", lang " + info.lang());
        out.println("  A: policy " + a.policy() + ", " + a.remarks().summary().programs() + " programs" + skippedNote(a));
        out.println("  B: policy " + b.policy() + ", " + b.remarks().summary().programs() + " programs" + skippedNote(b));
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
        List<PolicyComparison.Row> why = cmp.loopMissedAndAnalysisByName(StatsReport.TOP_LOOP_MISSED_ANALYSIS);
        out.println(loopMissedAndAnalysisTitle(info.compiler(), " under A and B", why.size(),
                cmp.loopMissedAndAnalysisByName().size()));
        TextTable whyTable = compareTable(why, true, true, false);
        out.print(whyTable.isEmpty() ? "  none\n" : whyTable.render(""));
        out.println();
        for (String line : geoMeanLines(cmp.geoMean())) out.println(line);
        out.println();
        rate(info.compiler(), a.remarks().rate(), b.remarks().rate(), rates);
        out.println();
        out.println(EARLY_EXITS + "A " + earlyExits(a.remarks()) + "; B " + earlyExits(b.remarks()));
    }

    private static final String EARLY_EXITS = "loops that leave early (a break leaves them, or a while tests data), vectorized by the loop vectorizer: ";

    private static String earlyExits(StatsReport.Remarks r) {
        RemarkSummary s = r.summary();
        return s.earlyExitLoopsVectorized() + " of " + s.earlyExitLoops()
                + (s.earlyExitLoops() == 0 ? "" : " (" + percent(r.earlyExitVectorizedShare()) + ")");
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
    static List<String> geoMeanLines(PolicyComparison.GeoMean g) {
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

    private static String ratio(PolicyComparison.Row r) {
        return switch (r.presence()) {
            case ONLY_A -> "only A";
            case ONLY_B -> "only B";
            case BOTH -> String.format(Locale.ROOT, "%.3f", r.ratio());
        };
    }

    // ---------------------------------------------------------------- remarks per CPU-second

    private static String rateTitle(RemarkCompiler compiler) {
        return "Passed remarks per compile CPU-second (user + system time of the -O3 compiles), per "
                + (compiler.geomeanOverNames() ? "remark name" : "pass");
    }

    private void rate(RemarkCompiler compiler, RemarkRate r, int programs) {
        out.println(rateTitle(compiler) + ": " + String.format(Locale.ROOT, "%.1f", r.cpuSeconds()) + " CPU-s in " + programs
                + " compiles, " + r.total() + " Passed remarks, " + rateNumber(r.totalPerCpuSecond()) + " per CPU-s");
        if (r.largest() != null) out.println("  the largest compile: " + largest(r.largest()));
        TextTable t = new TextTable(List.of(compiler.geomeanOverNames() ? "remark" : "pass", "Passed", "per CPU-s", "loop"),
                false, true, true, false);
        for (RemarkRate.Unit u : r.units()) t.add(u.name(), Long.toString(u.remarks()), rateNumber(u.perCpuSecond()), u.loop() ? "yes" : "");
        out.print(t.isEmpty() ? "  none\n" : t.render(""));
    }

    private void rate(RemarkCompiler compiler, RemarkRate a, RemarkRate b, RemarkRate.Comparison c) {
        out.println(rateTitle(compiler) + ": A " + String.format(Locale.ROOT, "%.1f", a.cpuSeconds()) + " CPU-s, B "
                + String.format(Locale.ROOT, "%.1f", b.cpuSeconds()) + " CPU-s");
        if (a.largest() != null && b.largest() != null) {
            out.println("  the largest compile: A " + largest(a.largest()) + "; B " + largest(b.largest()));
        }
        TextTable t = new TextTable(List.of(compiler.geomeanOverNames() ? "remark" : "pass", "A per CPU-s", "B per CPU-s", "A/B", "loop"),
                false, true, true, true, false);
        for (RemarkRate.Row r : c.rows()) t.add(r.unit(), rateNumber(r.perCpuSecondA()), rateNumber(r.perCpuSecondB()), rateRatio(r), r.loop() ? "yes" : "");
        RemarkRate.Row total = c.total();
        t.add(total.unit(), rateNumber(total.perCpuSecondA()), rateNumber(total.perCpuSecondB()), rateRatio(total), "");
        out.print(t.render(""));
        out.println("geometric mean of the per-CPU-second ratios over " + c.loopUnits() + " loop "
                + (compiler.geomeanOverNames() ? "remark names" : "passes") + ": "
                + (c.loopUnits() == 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", c.geoMean()))
                + (c.onlyInA().isEmpty() && c.onlyInB().isEmpty() ? ""
                : " (left out, in one policy only: A " + c.onlyInA() + ", B " + c.onlyInB() + ")"));
        if (c.interval() != null) out.println("  " + interval(c.interval(), c.geoMean()));
    }

    /** The bootstrap interval of the rates' geometric mean, and whether it tells the policies apart. */
    static String interval(RemarkRate.Interval i, double geoMean) {
        String paired = String.format(Locale.ROOT, "%.3f", i.geoMean());
        return String.format(Locale.ROOT, "%.0f%% bootstrap interval over the %d seeds both compiled: %.3f to %.3f (%s)",
                100 * RemarkRate.CONFIDENCE, i.seeds(), i.low(), i.high(),
                i.holdsOne() ? "it holds 1: these seeds do not tell the policies apart" : "it does not hold 1")
                + (paired.equals(String.format(Locale.ROOT, "%.3f", geoMean)) ? ""
                : "; over these seeds alone the geometric mean is " + paired);
    }

    /** A compile that may decide the rates alone: a heavy tail of compile times makes one compile a large share. */
    private static String largest(RemarkRate.Largest l) {
        return "seed " + l.seed() + ", " + String.format(Locale.ROOT, "%.1f", l.cpuSeconds()) + " CPU-s, "
                + String.format(Locale.ROOT, "%.0f", 100 * l.share()) + "% of the CPU"
                + (l.movesRates() ? " (it alone moves these rates: rerun with more seeds, or look at that seed)" : "");
    }

    private static String rateNumber(double d) {
        return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%.2f", d);
    }

    private static String rateRatio(RemarkRate.Row r) {
        if (!Double.isNaN(r.ratio())) return String.format(Locale.ROOT, "%.3f", r.ratio());
        return r.perCpuSecondA() > 0 ? "only A" : r.perCpuSecondB() > 0 ? "only B" : "-";
    }

    // ---------------------------------------------------------------- shape and trip counts

    private void shape(List<String> sides, List<ShapeSummary> shapes) {
        StringBuilder who = new StringBuilder();
        for (int i = 0; i < shapes.size(); i++) {
            who.append(i == 0 ? "" : " and ").append(shapes.get(i).programs()).append(sides.get(i).isEmpty() ? "" : " (" + sides.get(i).strip() + ")");
        }
        out.println("program shape of " + who + " generated programs:");
        for (int i = 0; i < shapes.size(); i++) out.println("  " + sides.get(i) + "deepest loop nesting:     " + shapes.get(i).depth().histogram());
        for (int i = 0; i < shapes.size(); i++) out.println("  " + sides.get(i) + "loops per program:        " + shapes.get(i).loops().summary());
        for (int i = 0; i < shapes.size(); i++) out.println("  " + sides.get(i) + "statements per loop body: " + shapes.get(i).bodies().summary());
    }

    private static List<String> tripHeader(boolean compare) {
        List<String> h = new ArrayList<>(List.of("scope", "idiom"));
        if (compare) h.add("policy");
        h.add("loops");
        for (TripSummary.Bucket b : TripSummary.Bucket.values()) h.add(b.label);
        h.add("median");
        if (compare) h.addAll(List.of("mean log2", "p", "verdict"));
        return h;
    }

    private static List<String> tripCells(TripSummary.Row r) {
        List<String> c = new ArrayList<>();
        c.add(Integer.toString(r.loops()));
        for (TripSummary.Bucket b : TripSummary.Bucket.values()) c.add(percent(r.share(b)));
        c.add(Double.isNaN(r.median()) ? "-" : String.format(Locale.ROOT, "%.1f", r.median()));
        return c;
    }

    /** The trip rows as a table, each row its scope and idiom, then its cells. */
    private static String tripRowsTable(List<TripSummary.Row> rows, String indent) {
        List<String> h = tripHeader(false);
        TextTable tt = new TextTable(h, rightAligned(h.size(), 2));
        for (TripSummary.Row r : rows) {
            List<String> cells = new ArrayList<>(List.of(r.group().scope(), r.group().idiomName()));
            cells.addAll(tripCells(r));
            tt.add(cells.toArray(new String[0]));
        }
        return tt.render(indent);
    }

    private static final String EXITS_SCOPE = "scope exits: the loops that a break, a header exit or a return may leave";

    private void trips(TripSummary t) {
        out.println(TRIP_TITLE + t.row(TripSummary.GROUPS.get(0)).loops() + " static loops in " + t.programs()
                + " generated programs:");
        out.println("share of the loops per bucket (never entered; average iterations per entry); median over entered loops;");
        out.println(EXITS_SCOPE);
        out.print(tripRowsTable(t.rows(), ""));
        exitEnds("", t.exitEnds());
    }

    /** Where the exits ended the entries of the loops that leave early; nothing when there are none. */
    private void exitEnds(String side, TripSummary.ExitEnds e) {
        if (e.entries() == 0) return;
        out.println(side + "entries of the loops that leave early: " + e.entries() + "; ended by an exit in their first iteration "
                + percent(e.share(e.first())) + ", in the middle " + percent(e.share(e.middle())) + ", in their last planned iteration "
                + percent(e.share(e.last())) + "; not ended " + percent(e.share(e.notEnded())));
    }

    private void trips(int programsA, int programsB, TripComparison cmp, TripSummary.ExitEnds endsA, TripSummary.ExitEnds endsB) {
        out.println(TRIP_TITLE + "the static loops in " + programsA + " (A) and " + programsB + " (B) generated programs:");
        out.println("share of the loops per bucket (never entered; average iterations per entry); median over entered loops;");
        out.println("mean log2: the per-program mean of log2(1 + iterations per entry) over entered loops, averaged over");
        out.println("programs; p: Welch's t-test on it, two-sided; verdict at alpha " + Welch.ALPHA
                + " (-: fewer than 2 programs with such loops);");
        out.println(EXITS_SCOPE);
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
        exitEnds("A: ", endsA);
        exitEnds("B: ", endsB);
    }

    // ---------------------------------------------------------------- ISPC

    private void ispc(StatsReport.Side side, String build) {
        IspcSummary s = side.ispc().lowering();
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
                    percent(side.ispc().testsShare(r)),
                    m.partOf() == null ? "" : percent(r.share()));
        }
        out.print(t.render("  "));
        out.println();
        TripSummary trips = side.ispc().parallelTrips();
        out.println("trip counts per entry of the " + trips.row(TripSummary.GROUPS.get(0)).loops()
                + " data-parallel loops (iterations of the loop as written, not gang steps):");
        out.print(tripRowsTable(side.ispc().parallelTripRows(), "  "));
        if (side.ispc().masks() != null) {
            out.println();
            masks(side, build);
        }
    }

    private void masks(StatsReport.Side side, String build) {
        StatsReport.Masks masks = side.ispc().masks();
        MaskSummary m = masks.summary();
        String who = side.label().isEmpty() ? "" : ", policy " + side.label();
        List<Long> bad = masks.mismatchSeeds();
        out.println("execution masks of the varying ifs, measured on " + tests(m.tests()) + who + " built with " + build);
        out.println("and run (checksums: " + m.tests() + " of " + masks.checked() + " matched the prediction"
                + (bad.isEmpty() ? ")" : "; CHECKSUM MISMATCH on " + bad.size() + ": " + seeds(bad) + ", left out)") + ":");
        out.println("  varying ifs:                            " + m.ifs() + " (" + perTest(masks.figure("varying_ifs").share()) + " per test)");
        out.println("  ran with some lane on at least once:    " + m.ran() + " (" + percent(masks.figure("ran").share())
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
        MaskSummary e = m.exits();
        if (e.ifs() > 0) {
            out.println("  of them breaking or continuing:         " + e.ifs() + " varying ifs, " + e.ran() + " ran, " + e.mixedOnce()
                    + " mixed at least once (" + percent(e.mixedOnceShare()) + "), " + e.mixedRuns() + " of " + e.runs()
                    + " runs mixed (" + percent(e.mixedRunShare()) + "): lanes leaving a loop while others go on");
        }
        out.println("  (mixed: some active lanes take the if, others do not; a run: the if reached with some lane taking it)");
    }

    private static String seeds(List<Long> l) {
        List<String> s = new ArrayList<>();
        for (long seed : l) s.add(Long.toString(seed));
        return "seed" + (s.size() == 1 ? " " : "s ") + String.join(", ", s);
    }

    private static String tests(int n) {
        return n + (n == 1 ? " test" : " tests");
    }

    private static String perTest(double perTest) {
        return Double.isNaN(perTest) ? "-" : fixed(perTest);
    }

    // ---------------------------------------------------------------- shared

    /** What the header says was compiled when no remarks were collected. */
    private static String buildNote(RunInfo info) {
        return info.measuredMasks() ? "built with " + info.ispcBuild() + " and run to measure the masks below" : "nothing compiled";
    }

    private static String compilerLine(RunInfo info) {
        return info.ccVersion().isEmpty() ? info.cc() : info.ccVersion();
    }

    private static String skippedNote(StatsReport.Side side) {
        int n = side.skippedTotal();
        return n == 0 ? "" : " (" + n + " seed(s) skipped)";
    }
}
