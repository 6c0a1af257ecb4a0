package dev.yarpj.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatsWelchTest {
    /** Welch's t and Welch-Satterthwaite degrees of freedom, by the textbook formulas. */
    private static double[] tAndDf(double[] a, double[] b) {
        double ma = mean(a);
        double mb = mean(b);
        double qa = var(a, ma) / a.length;
        double qb = var(b, mb) / b.length;
        double t = (ma - mb) / Math.sqrt(qa + qb);
        double df = (qa + qb) * (qa + qb) / (qa * qa / (a.length - 1) + qb * qb / (b.length - 1));
        return new double[] {t, df};
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) s += v;
        return s / x.length;
    }

    private static double var(double[] x, double m) {
        double s = 0;
        for (double v : x) s += (v - m) * (v - m);
        return s / (x.length - 1);
    }

    @Test
    void pValuesAgreeWithScipy() {
        // scipy.stats.ttest_ind(a, b, equal_var=False) (R's t.test gives the same: t = -1.8974, df = 5.8824, p = 0.1075)
        double[] a = {1, 2, 3, 4, 5};
        double[] b = {2, 4, 6, 8, 10};
        double[] td = tAndDf(a, b);
        assertEquals(-1.8973665961010275, td[0], 1e-12);
        assertEquals(5.882352941176471, td[1], 1e-12);
        Welch.Result r = Welch.test(a, b);
        assertEquals(0.10753119493062728, r.pValue(), 1e-9);
        assertFalse(r.significant());
        assertEquals("n.s.", r.verdict());

        // t = -2.6977742469065884, df = 6.879521332923528
        double[] c = {3, 0, 2, 5, 1, 4, 2};
        double[] d = {7, 3, 6, 9, 4};
        td = tAndDf(c, d);
        assertEquals(-2.6977742469065884, td[0], 1e-12);
        assertEquals(6.879521332923528, td[1], 1e-12);
        Welch.Result s = Welch.test(c, d);
        assertEquals(0.031247944808354, s.pValue(), 1e-9);
        assertTrue(s.significant());
        assertEquals("significant", s.verdict());
    }

    @Test
    void oneConstantSampleIsFine() {
        // scipy: t = -3.0, df = 3.0, p = 0.0576688856224373
        Welch.Result r = Welch.test(new double[] {0, 0, 0, 1}, new double[] {1, 1, 1, 1});
        assertEquals(0.0576688856224373, r.pValue(), 1e-9);
        assertFalse(r.significant());
    }

    @Test
    void twoConstantSamples() {
        Welch.Result same = Welch.test(new double[] {2, 2, 2}, new double[] {2, 2});
        assertEquals(1.0, same.pValue());
        assertFalse(same.significant());
        Welch.Result zeros = Welch.test(new double[] {0, 0}, new double[] {0, 0, 0});
        assertEquals(1.0, zeros.pValue());
        assertFalse(zeros.significant());
        Welch.Result differ = Welch.test(new double[] {2, 2, 2}, new double[] {3, 3});
        assertEquals(0.0, differ.pValue());
        assertTrue(differ.significant());
    }

    @Test
    void fewerThanTwoSamplesIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> Welch.test(new double[] {1}, new double[] {1, 2}));
        assertThrows(IllegalArgumentException.class, () -> Welch.test(new double[] {1, 2}, new double[] {}));
    }

    @Test
    void geometricMean() {
        assertEquals(2.0, Welch.geometricMean(new double[] {1, 4}), 1e-12);
        assertEquals(Math.cbrt(0.5 * 2 * 3), Welch.geometricMean(new double[] {0.5, 2, 3}), 1e-12);
        assertTrue(Double.isNaN(Welch.geometricMean(new double[0])));
        assertThrows(IllegalArgumentException.class, () -> Welch.geometricMean(new double[] {0, 1}));
    }

    private static RemarkTally clang(int licm, int vec, int inline, int unroll) {
        RemarkTally t = new RemarkTally();
        for (int i = 0; i < licm; i++) t.add("licm", RemarkKind.PASSED, "Hoisted");
        for (int i = 0; i < vec; i++) t.add("loop-vectorize", RemarkKind.PASSED, "Vectorized");
        for (int i = 0; i < inline; i++) t.add("inline", RemarkKind.PASSED, "Inlined");
        for (int i = 0; i < unroll; i++) t.add("loop-unroll", RemarkKind.PASSED, "FullyUnrolled");
        t.add("regalloc", RemarkKind.MISSED, "SpillReloadCopies");
        return t;
    }

    @Test
    void comparisonLeavesOutPassesFoundUnderOnePolicyOnly() {
        // A: licm 4,6 (mean 5); vectorize 1,1 (1); inline 9,9; no unroll.
        // B: licm 1,1 (1);      vectorize 2,2 (2); inline 9,9; unroll 1,3.
        RemarkSummary a = new RemarkSummary(List.of(clang(4, 1, 9, 0), clang(6, 1, 9, 0)));
        RemarkSummary b = new RemarkSummary(List.of(clang(1, 2, 9, 1), clang(1, 2, 9, 3)));
        PolicyComparison c = new PolicyComparison(RemarkCompiler.CLANG, a, b);
        List<String> passes = new ArrayList<>();
        for (PolicyComparison.Row r : c.passedByPass()) passes.add(r.pass());
        assertEquals(List.of("inline", "licm", "loop-unroll", "loop-vectorize"), passes);
        PolicyComparison.Row licm = c.passedByPass().get(1);
        assertEquals(5.0, licm.ratio(), 1e-12);
        assertEquals(Welch.test(new double[] {4, 6}, new double[] {1, 1}).pValue(), licm.pValue());
        PolicyComparison.Row vec = c.passedByPass().get(3);
        assertEquals(0.5, vec.ratio(), 1e-12);
        assertTrue(vec.significant(), "constant 1 vs constant 2");
        assertEquals(PolicyComparison.Presence.ONLY_B, c.passedByPass().get(2).presence());
        assertTrue(Double.isNaN(c.passedByPass().get(2).ratio()));

        PolicyComparison.GeoMean g = c.geoMean();
        // inline is no loop pass; loop-unroll has no finite ratio: licm (5) and loop-vectorize (0.5) remain.
        assertEquals(2, g.count());
        assertEquals(Math.sqrt(2.5), g.value(), 1e-12);
        assertEquals(1, g.significant());
        assertEquals(List.of(), g.onlyInA());
        assertEquals(List.of("loop-unroll"), g.onlyInB());
        assertEquals("geometric mean of ratios over 2 loop passes: 1.581 (1 of 2 significant at 95%)",
                TablePrinter.geoMeanLines(g).get(0));
        assertTrue(TablePrinter.geoMeanLines(g).get(1).contains("only in B: loop-unroll"), TablePrinter.geoMeanLines(g).toString());
    }

    @Test
    void comparisonOfAPolicyWithItselfGivesRatiosOfOne() {
        RemarkSummary a = new RemarkSummary(List.of(clang(4, 1, 9, 2), clang(6, 0, 3, 1), clang(1, 2, 0, 0)));
        PolicyComparison c = new PolicyComparison(RemarkCompiler.CLANG, a, a);
        for (List<PolicyComparison.Row> rows : List.of(c.passedByPass(), c.allKindsByPass(), c.passedByName())) {
            for (PolicyComparison.Row r : rows) {
                assertEquals(1.0, r.ratio(), r.unit());
                assertEquals(1.0, r.pValue(), 1e-12, r.unit());
                assertFalse(r.significant(), r.unit());
            }
        }
        assertEquals(3, c.geoMean().count());
        assertEquals(1.0, c.geoMean().value(), 1e-12);
        assertEquals(0, c.geoMean().significant());
    }

    @Test
    void gccComparisonRunsOverLoopRemarkNames() {
        RemarkTally x = new RemarkTally();
        x.add(GccRemarks.PASS, RemarkKind.PASSED, "loop vectorized using N byte vectors");
        x.add(GccRemarks.PASS, RemarkKind.PASSED, "Inlining X into X");
        RemarkTally y = new RemarkTally();
        y.add(GccRemarks.PASS, RemarkKind.PASSED, "loop vectorized using N byte vectors");
        y.add(GccRemarks.PASS, RemarkKind.PASSED, "loop vectorized using N byte vectors");
        RemarkSummary s = new RemarkSummary(List.of(x, y));
        PolicyComparison c = new PolicyComparison(RemarkCompiler.GCC, s, s);
        assertEquals("loop remarks", c.geoMean().unit());
        assertEquals(1, c.geoMean().count(), "the inliner's remark is left out");
    }

    @Test
    void comparisonNeedsTwoProgramsASide() {
        RemarkSummary one = new RemarkSummary(List.of(clang(1, 1, 1, 1)));
        RemarkSummary two = new RemarkSummary(List.of(clang(1, 1, 1, 1), clang(2, 2, 2, 2)));
        assertThrows(IllegalArgumentException.class, () -> new PolicyComparison(RemarkCompiler.CLANG, one, two));
    }
}
