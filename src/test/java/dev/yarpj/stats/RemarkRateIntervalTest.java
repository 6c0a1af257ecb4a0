package dev.yarpj.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The bootstrap interval of the geometric mean of two policies' remarks per CPU-second. */
class RemarkRateIntervalTest {
    private static final RunInfo CLANG_RUN = new RunInfo(RemarkCompiler.CLANG, "clang", "clang version test", "c", 1, 40, false);

    /** One compile: its seed, CPU seconds, and Passed remarks of licm and gvn (both loop passes). */
    private record Compile(long seed, double cpu, int licm, int gvn) {}

    private static List<SeedResult.Measured<RemarkTally>> tallies(List<Compile> compiles) {
        List<SeedResult.Measured<RemarkTally>> l = new ArrayList<>();
        for (Compile c : compiles) {
            RemarkTally t = new RemarkTally();
            for (int k = 0; k < c.licm(); k++) t.add("licm", RemarkKind.PASSED, "Hoisted");
            for (int k = 0; k < c.gvn(); k++) t.add("gvn", RemarkKind.PASSED, "LoadElim");
            t.setCpuSeconds(c.cpu());
            l.add(new SeedResult.Measured<>(c.seed(), null, t));
        }
        return l;
    }

    private static RemarkRate rate(List<Compile> compiles) {
        return new RemarkRate(RemarkCompiler.CLANG, tallies(compiles));
    }

    /** Seeds 1..n, each compiling in 1 CPU-s with {@code licm} and {@code gvn} remarks. */
    private static List<Compile> uniform(int n, int licm, int gvn) {
        List<Compile> l = new ArrayList<>();
        for (int s = 1; s <= n; s++) l.add(new Compile(s, 1.0, licm, gvn));
        return l;
    }

    /**
     * Seeds 1..n where each seed's remarks swing widely (0 to 9 of each pass, by seed), so that
     * which seeds a sample holds moves the rates; {@code factor} multiplies every count.
     */
    private static List<Compile> scattered(int n, int factor) {
        List<Compile> l = new ArrayList<>();
        for (int s = 1; s <= n; s++) l.add(new Compile(s, 0.5 + (s * 7 % 5) * 0.25, factor * (s * 3 % 10), factor * (s * 7 % 10)));
        return l;
    }

    @Test
    void aDifferenceOnEverySeedGivesANarrowIntervalThatExcludesOne() {
        RemarkRate.Comparison c = RemarkRate.compare(rate(uniform(30, 4, 2)), rate(uniform(30, 8, 4)));
        assertEquals(0.5, c.geoMean(), 1e-12);
        RemarkRate.Interval i = c.interval();
        assertNotNull(i);
        assertEquals(0.5, i.low(), 1e-12);
        assertEquals(0.5, i.high(), 1e-12);
        assertEquals(30, i.seeds());
        assertFalse(i.holdsOne());
    }

    @Test
    void theSameRatesSpreadOverSeedsGiveAnIntervalAroundOne() {
        // B's counts are A's on other seeds: equal rates overall, but no seed pairs up.
        List<Compile> a = scattered(40, 1);
        List<Compile> b = new ArrayList<>();
        for (Compile x : a) b.add(new Compile(x.seed(), x.cpu(), a.get((int) (x.seed() % 40)).licm(), a.get((int) ((x.seed() + 13) % 40)).gvn()));
        RemarkRate.Comparison c = RemarkRate.compare(rate(a), rate(b));
        RemarkRate.Interval i = c.interval();
        assertTrue(i.low() < c.geoMean() && c.geoMean() < i.high(), i + " around " + c.geoMean());
        assertTrue(i.holdsOne(), i.toString());
        assertTrue(i.high() - i.low() > 0.1, "scattered counts give a wide interval: " + i);
    }

    @Test
    void moreSeedsNarrowTheInterval() {
        RemarkRate.Interval few = RemarkRate.compare(rate(scattered(20, 1)), rate(scattered(20, 2))).interval();
        RemarkRate.Interval many = RemarkRate.compare(rate(scattered(400, 1)), rate(scattered(400, 2))).interval();
        // Same seeds, doubled counts: every sample's ratio is exactly 0.5 whatever it holds.
        for (RemarkRate.Interval i : List.of(few, many)) {
            assertEquals(0.5, i.low(), 1e-12);
            assertEquals(0.5, i.high(), 1e-12);
        }
        List<Compile> bFew = new ArrayList<>();
        List<Compile> bMany = new ArrayList<>();
        for (Compile x : scattered(400, 1)) {
            Compile shifted = new Compile(x.seed(), x.cpu(), (int) ((x.licm() + x.seed()) % 10), (int) ((x.gvn() + 2 * x.seed()) % 10));
            if (x.seed() <= 20) bFew.add(shifted);
            bMany.add(shifted);
        }
        RemarkRate.Interval wide = RemarkRate.compare(rate(scattered(20, 1)), rate(bFew)).interval();
        RemarkRate.Interval narrow = RemarkRate.compare(rate(scattered(400, 1)), rate(bMany)).interval();
        assertTrue(narrow.high() - narrow.low() < (wide.high() - wide.low()) / 2, "20 seeds " + wide + ", 400 seeds " + narrow);
        assertEquals(400, many.seeds());
    }

    @Test
    void onlySeedsCompiledByBothAreResampledAndTooFewGiveNoInterval() {
        // A: seeds 1..10 at 4 licm and 2 gvn remarks per CPU-s, and seed 11, a hog with many
        // remarks that B did not compile (a timeout, say). B: seeds 1..10 at twice A's rates.
        List<Compile> a = new ArrayList<>(uniform(10, 4, 2));
        a.add(new Compile(11, 10.0, 400, 200));
        List<Compile> b = uniform(10, 8, 4);
        RemarkRate.Comparison c = RemarkRate.compare(rate(a), rate(b));
        assertTrue(c.geoMean() > 1, "seed 11 lifts A's pooled rates: " + c.geoMean());
        RemarkRate.Interval i = c.interval();
        assertEquals(10, i.seeds());
        assertEquals(0.5, i.geoMean(), 1e-12);
        assertEquals(0.5, i.low(), 1e-12);
        assertEquals(0.5, i.high(), 1e-12);
        String table = Printed.as(StatsStage.Format.TABLE, compared(a, b));
        assertTrue(table.contains("over the 10 seeds both compiled: 0.500 to 0.500 (it does not hold 1); over these seeds alone the"
                + " geometric mean is 0.500"), table);
        assertNull(RemarkRate.compare(rate(uniform(1, 4, 2)), rate(uniform(1, 8, 4))).interval());
        assertNull(RemarkRate.compare(rate(a), rate(List.of(new Compile(99, 1.0, 8, 4)))).interval());
    }

    @Test
    void theSameCompilesGiveTheSameInterval() {
        List<Compile> a = scattered(50, 1);
        List<Compile> b = new ArrayList<>();
        for (Compile x : a) b.add(new Compile(x.seed(), x.cpu(), (int) ((x.licm() + x.seed()) % 10), x.gvn()));
        assertEquals(RemarkRate.compare(rate(a), rate(b)).interval(), RemarkRate.compare(rate(a), rate(b)).interval());
    }

    private static StatsReport compared(List<Compile> a, List<Compile> b) {
        return StatsReport.ofRemarks(CLANG_RUN, List.of(new PolicyResults<>("a", new ArrayList<>(tallies(a))),
                new PolicyResults<>("b", new ArrayList<>(tallies(b)))));
    }

    @Test
    @SuppressWarnings("unchecked")
    void tableJsonAndCsvCarryTheInterval() {
        StatsReport r = compared(uniform(30, 4, 2), uniform(30, 8, 4));
        String table = Printed.as(StatsStage.Format.TABLE, r);
        assertTrue(table.contains("95% bootstrap interval over the 30 seeds both compiled: 0.500 to 0.500 (it does not hold 1)"), table);
        Map<String, Object> json = (Map<String, Object>) new Yaml().load(Printed.as(StatsStage.Format.JSON, r));
        Map<String, Object> i = (Map<String, Object>) ((Map<String, Object>) json.get("rate")).get("geomean_interval");
        assertEquals(0.5, ((Number) i.get("low")).doubleValue(), 1e-12);
        assertEquals(0.5, ((Number) i.get("high")).doubleValue(), 1e-12);
        assertEquals(30, i.get("seeds"));
        assertEquals(0.95, ((Number) i.get("confidence")).doubleValue(), 1e-12);
        String csv = Printed.as(StatsStage.Format.CSV, r);
        assertTrue(csv.contains("2 loop units;interval=0.5..0.5;seeds=30;paired_geomean=0.5"), csv);
        assertFalse(table.contains("over these seeds alone"), "printed only when it differs: " + table);
        String same = Printed.as(StatsStage.Format.TABLE, compared(uniform(30, 4, 2), uniform(30, 4, 2)));
        assertTrue(same.contains("1.000 to 1.000 (it holds 1: these seeds do not tell the policies apart)"), same);
    }
}
