package dev.yarpj.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The "Missed and Analysis remarks by name" section: loop passes only, single policy and compare. */
class StatsLoopRemarkNamesTest {
    private static final RunInfo CLANG_RUN =
            new RunInfo(RemarkCompiler.CLANG, "clang", "clang version test", "c", 1, 2, false);
    private static final String TITLE = "Missed and Analysis remarks by name";

    /** One program's clang remarks: {@code optForSize} loop-vectorize Analysis, {@code unsafe} loop-vectorize Missed. */
    private static RemarkTally clang(int optForSize, int unsafe, int hoisted) {
        RemarkTally t = new RemarkTally();
        for (int i = 0; i < optForSize; i++) t.add("loop-vectorize", RemarkKind.ANALYSIS, "CantVersionLoopWithOptForSize");
        for (int i = 0; i < unsafe; i++) t.add("loop-vectorize", RemarkKind.MISSED, "UnsafeDep");
        for (int i = 0; i < hoisted; i++) t.add("licm", RemarkKind.PASSED, "Hoisted");
        t.add("inline", RemarkKind.MISSED, "NoDefinition");
        t.add("inline", RemarkKind.ANALYSIS, "TooCostly");
        return t;
    }

    /** The results of one policy whose programs compiled to these tallies (nothing else measured: no test figures). */
    private static PolicyResults<RemarkTally> results(String policy, List<RemarkTally> tallies) {
        List<SeedResult<RemarkTally>> seeds = new ArrayList<>();
        for (int i = 0; i < tallies.size(); i++) seeds.add(new SeedResult.Measured<>(i + 1, null, tallies.get(i)));
        return new PolicyResults<>(policy, seeds);
    }

    private static String compare(StatsStage.Format format, List<RemarkTally> a, List<RemarkTally> b) {
        return Printed.as(format, StatsReport.ofRemarks(CLANG_RUN, List.of(results("A", a), results("B", b))));
    }

    private static String single(StatsStage.Format format, List<RemarkTally> tallies) {
        return Printed.as(format, StatsReport.ofRemarks(CLANG_RUN, List.of(results("A", tallies))));
    }

    /** The lines of the table section whose header starts with {@code title}, header included, up to the blank line. */
    private static List<String> section(String table, String title) {
        List<String> lines = Arrays.asList(table.split("\n"));
        int start = -1;
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith(title)) start = i;
        assertTrue(start >= 0, "no section " + title + " in\n" + table);
        int end = start;
        while (end < lines.size() && !lines.get(end).isBlank()) end++;
        return lines.subList(start, end);
    }

    private static List<String> cells(List<String> section, String name) {
        for (String l : section) {
            List<String> c = List.of(l.strip().split("\\s{2,}"));
            if (c.contains(name)) return c;
        }
        throw new AssertionError(name + " not in " + section);
    }

    @Test
    void anAnalysisRemarkUnderAOnlyIsShownAsOnlyA() {
        // A: CantVersionLoopWithOptForSize 2 and 4 (mean 3), UnsafeDep 1 and 1; B: no CantVersion..., UnsafeDep 1 and 3.
        List<RemarkTally> a = List.of(clang(2, 1, 1), clang(4, 1, 1));
        List<RemarkTally> b = List.of(clang(0, 1, 2), clang(0, 3, 2));
        RemarkSummary sa = new RemarkSummary(a);
        RemarkSummary sb = new RemarkSummary(b);
        PolicyComparison c = new PolicyComparison(RemarkCompiler.CLANG, sa, sb);

        List<String> units = new ArrayList<>();
        for (PolicyComparison.Row r : c.loopMissedAndAnalysisByName()) units.add(r.kind().label() + " " + r.unit());
        assertEquals(List.of("Missed loop-vectorize: UnsafeDep", "Analysis loop-vectorize: CantVersionLoopWithOptForSize"),
                units, "Missed before Analysis; inline's remarks and the Passed ones left out");
        PolicyComparison.Row only = c.loopMissedAndAnalysisByName().get(1);
        assertEquals(PolicyComparison.Presence.ONLY_A, only.presence());
        assertEquals(3.0, only.meanA(), 1e-12);
        assertEquals(0.0, only.meanB(), 1e-12);
        assertTrue(Double.isNaN(only.ratio()));
        assertEquals(Welch.test(new double[] {2, 4}, new double[] {0, 0}).pValue(), only.pValue());
        PolicyComparison.Row both = c.loopMissedAndAnalysisByName().get(0);
        assertEquals(0.5, both.ratio(), 1e-12);
        // The Passed rows are as before.
        assertEquals(1, c.passedByName().size());
        assertEquals("licm: Hoisted", c.passedByName().get(0).unit());

        String table = compare(StatsStage.Format.TABLE, a, b);
        assertTrue(table.indexOf("Passed remarks by name") < table.indexOf(TITLE)
                && table.indexOf(TITLE) < table.indexOf("geometric mean of ratios"), table);
        List<String> s = section(table, TITLE);
        assertTrue(s.get(0).contains("loop passes only") && s.get(0).contains("at most the 30 most frequent")
                && s.get(0).contains("2 of 2 shown"), s.get(0));
        assertEquals(List.of("pass", "kind", "remark", "mean A", "mean B", "A/B", "p", "verdict"), cells(s, "remark"));
        List<String> row = cells(s, "CantVersionLoopWithOptForSize");
        assertEquals(List.of("loop-vectorize", "Analysis", "CantVersionLoopWithOptForSize", "3.00", "0.00", "only A"),
                row.subList(0, 6), s.toString());
        assertEquals(List.of("loop-vectorize", "Missed", "UnsafeDep", "1.00", "2.00", "0.500"),
                cells(s, "UnsafeDep").subList(0, 6));
        assertEquals(4, s.size(), "header, column names and two rows: " + s);
        for (String l : s) assertFalse(l.contains("inline") || l.contains("NoDefinition") || l.contains("TooCostly"), l);

        String csv = compare(StatsStage.Format.CSV, a, b);
        assertTrue(csv.contains("\nremark_missed_analysis_loop,loop-vectorize,Analysis,CantVersionLoopWithOptForSize,3.0,0.0,,"),
                csv);
        assertTrue(csv.indexOf("\nremark_passed,") < csv.indexOf("\nremark_missed_analysis_loop,"), csv);
        assertFalse(csv.contains("remark_missed_analysis_loop,inline"), csv);

        String json = compare(StatsStage.Format.JSON, a, b);
        assertTrue(json.contains("remarks_missed_analysis_loop"), json);
        assertTrue(json.indexOf("remarks_passed") < json.indexOf("remarks_missed_analysis_loop"), json);
    }

    @Test
    void theSinglePolicyTableShowsTotalMeanAndProgramsOfAMissedName() {
        // UnsafeDep: 0, 3 and 0 in three programs: total 3, mean 1.00, 1 program.
        List<RemarkTally> t = List.of(clang(1, 0, 1), clang(1, 3, 0), clang(0, 0, 0));
        String table = single(StatsStage.Format.TABLE, t);
        assertTrue(table.indexOf("top Passed remarks per pass") < table.indexOf(TITLE), table);
        List<String> s = section(table, TITLE);
        assertEquals(List.of("pass", "kind", "remark", "total", "mean/program", "programs"), cells(s, "remark"));
        assertEquals(List.of("loop-vectorize", "Missed", "UnsafeDep", "3", "1.00", "1"), cells(s, "UnsafeDep"));
        assertEquals(List.of("loop-vectorize", "Analysis", "CantVersionLoopWithOptForSize", "2", "0.67", "2"),
                cells(s, "CantVersionLoopWithOptForSize"));
        for (String l : s) assertFalse(l.contains("inline") || l.contains("Hoisted"), l);

        String csv = single(StatsStage.Format.CSV, t);
        assertTrue(csv.contains("\nremark_missed_analysis_loop,loop-vectorize,Missed,UnsafeDep,3,1.0,1\n"), csv);
        assertFalse(csv.contains("remark_missed_analysis_loop,inline"), csv);
        assertTrue(csv.contains("\nremark,inline,Missed,NoDefinition,3,1.0,3\n"), "the full name list is unchanged: " + csv);
        assertTrue(single(StatsStage.Format.JSON, t).contains("remarks_missed_analysis_loop"));
    }

    @Test
    void theTableKeepsTheThirtyMostFrequentNames() {
        // Names N01..N35 of loop-unroll, name Nk seen k times in each of two programs.
        List<RemarkTally> tallies = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            RemarkTally t = new RemarkTally();
            for (int k = 1; k <= 35; k++) for (int i = 0; i < k; i++) t.add("loop-unroll", RemarkKind.MISSED, String.format("N%02d", k));
            tallies.add(t);
        }
        RemarkSummary s = new RemarkSummary(tallies);
        List<RemarkSummary.Row> top = s.loopMissedAndAnalysis(RemarkCompiler.CLANG, StatsReport.TOP_LOOP_MISSED_ANALYSIS);
        assertEquals(30, top.size());
        assertEquals("N35", top.get(0).name(), "most frequent first");
        assertEquals("N06", top.get(29).name(), "N01..N05 left out");

        List<String> section = section(single(StatsStage.Format.TABLE, tallies), TITLE);
        assertTrue(section.get(0).contains("30 of 35 shown"), section.get(0));
        assertEquals(2 + 30, section.size());
        String table = compare(StatsStage.Format.TABLE, tallies, tallies);
        List<String> cmp = section(table, TITLE);
        assertTrue(cmp.get(0).contains("under A and B") && cmp.get(0).contains("30 of 35 shown"), cmp.get(0));
        assertEquals(2 + 30, cmp.size());
        assertFalse(String.join("\n", cmp).contains("N05"));
        long csvRows = compare(StatsStage.Format.CSV, tallies, tallies).lines()
                .filter(l -> l.startsWith("remark_missed_analysis_loop,")).count();
        assertEquals(35, csvRows, "CSV has them all");
    }

    @Test
    void gccNamesCountAsLoopRemarksWhenTheyMentionALoop() {
        assertTrue(RemarkCompiler.GCC.isLoopRemark(GccRemarks.PASS, "couldn't vectorize loop"));
        assertTrue(RemarkCompiler.GCC.isLoopRemark(GccRemarks.PASS, "Loop N distributed: split to N loops"));
        assertTrue(RemarkCompiler.GCC.isLoopRemark(GccRemarks.PASS, "not vectorized: multiple nested loops"));
        assertFalse(RemarkCompiler.GCC.isLoopRemark(GccRemarks.PASS, "not inlinable: X -> X, function body"));
        assertFalse(RemarkCompiler.GCC.isLoopRemark(GccRemarks.PASS, "statement clobbers memory: X"));
        assertFalse(RemarkCompiler.GCC.isLoopRemark(GccRemarks.PASS, "X = loopy"), "a word, not a part of one");
        assertTrue(RemarkCompiler.CLANG.isLoopRemark("licm", "LoadWithLoopInvariantAddressInvalidated"));
        assertFalse(RemarkCompiler.CLANG.isLoopRemark("inline", "NoDefinition"));
    }
}
