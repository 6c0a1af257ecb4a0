package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompileTimeRuleTest {
    private static Map<String, Double> times(Object... kv) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], ((Number) kv[i + 1]).doubleValue());
        return m;
    }

    @Test
    void oneCompilePastTheLimitAmongFastOnesIsAnOutlier() {
        CompileTimeRule.Outliers o = CompileTimeRule.outliers(60, times("gcc-O1", 0.5, "clang-O3", 2.0, "clang-O2", 1.0), List.of("gcc-O3"));
        assertEquals(Map.of("gcc-O3", "> 60 s"), o.testbeds());
        assertTrue(o.reason().contains("at least 10 times the median CPU time of the 3 testbeds that finished (1.00 s)"), o.reason());
    }

    @Test
    void slowCompilesWithNothingFinishedAreNoOutliers() {
        assertFalse(CompileTimeRule.outliers(60, times(), List.of("gcc-O3", "clang-O3")).any());
    }

    @Test
    void aLargeTestSlowEverywhereIsNoOutlier() {
        // The others took a tenth of the limit or more: the slow one may be only a few times slower than they are.
        assertFalse(CompileTimeRule.outliers(60, times("clang-O3", 10.0, "gcc-O1", 3.0, "gcc-O2", 20.0), List.of("gcc-O3")).any());
    }

    @Test
    void theMedianNotTheFastestIsTheYardstick() {
        // -O1 builds in 0.5 s, but the median of the finished ones is 7 s: 60 s is less than ten times that.
        assertFalse(CompileTimeRule.outliers(60, times("a", 0.5, "b", 7.0, "c", 8.0), List.of("d")).any());
        // With an even count the median is the mean of the middle two: (5 + 7) / 2 = 6, and 60 >= 10 * 6.
        assertTrue(CompileTimeRule.outliers(60, times("a", 0.5, "b", 5.0, "c", 7.0, "d", 9.0), List.of("e")).any());
    }

    @Test
    void aFinishedCompileManyTimesSlowerThanTheOthersIsAnOutlier() {
        // clang's vectorizer takes 21 s on a test the others build in half a second.
        CompileTimeRule.Outliers o = CompileTimeRule.outliers(60,
                times("gcc-O1", 0.3, "gcc-O2", 0.4, "gcc-O3", 0.5, "clang-O1", 0.2, "clang-O3", 21.0), List.of());
        assertEquals(Map.of("clang-O3", "21.0 s"), o.testbeds());
    }

    @Test
    void aFinishedCompileOfAFewSecondsIsNoOutlierWhateverTheRatio() {
        // 25 times the median, but under a twentieth of the limit: too short to be more than noise.
        assertFalse(CompileTimeRule.outliers(60, times("a", 0.1, "b", 0.1, "c", 0.1, "d", 2.5), List.of()).any());
    }

    @Test
    void whenHalfTheCompilesAreSlowNoneStandsOut() {
        assertFalse(CompileTimeRule.outliers(60, times("a", 0.3, "b", 30.0, "c", 30.0), List.of()).any());
    }

    @Test
    void everySlowTestbedOfAnOutlierTestIsNamed() {
        CompileTimeRule.Outliers o = CompileTimeRule.outliers(60, times("clang-O3", 1.0), List.of("gcc-O3", "gcc16-O3"));
        assertEquals(List.of("gcc-O3", "gcc16-O3"), List.copyOf(o.testbeds().keySet()));
    }

    @Test
    void aCompileGetsTheWholeLimitUntilThreeBuildsOfItsTestHaveFinished() {
        assertEquals(60, CompileTimeRule.limit(60, List.of()));
        assertEquals(60, CompileTimeRule.limit(60, List.of(0.2, 0.3)));
    }

    @Test
    void thenItIsStoppedAtTheBarOfAnOutlierWithAFloorAndTheLimitAsCeiling() {
        // Ten times the median of 0.1, 0.2, 0.3 is 2 s, under the floor of a twentieth of the limit: 3 s.
        assertEquals(3, CompileTimeRule.limit(60, List.of(0.1, 0.2, 0.3)), 1e-9);
        // Ten times the median of 1.0, 2.0, 3.0, 4.0 (2.5) is 25 s.
        assertEquals(25, CompileTimeRule.limit(60, List.of(1.0, 2.0, 3.0, 4.0)), 1e-9);
        // A test slow everywhere: the limit.
        assertEquals(60, CompileTimeRule.limit(60, List.of(9.0, 10.0, 12.0)), 1e-9);
    }

    @Test
    void aCompileStoppedAtTheBarOfItsTestIsAnOutlierSaidSo() {
        CompileTimeRule.Outliers o = CompileTimeRule.outliers(60, times("a", 0.2, "b", 0.3, "c", 0.5, "d", 0.4), List.of(), Map.of("e", 3.5));
        assertEquals(Map.of("e", "past 10x at 3.5 CPU-s"), o.testbeds());
    }

    @Test
    void aCompileStoppedAtABarTheBuildsAfterItRaisedIsNoOutlier() {
        // Stopped at 10 s after three fast builds; the test's median is 1.75 s, and 10 s is not ten times that.
        assertFalse(CompileTimeRule.outliers(60, times("a", 0.2, "b", 0.3, "c", 0.5, "d", 3.0, "f", 4.0, "g", 5.0), List.of(),
                Map.of("e", 10.0)).any());
    }
}
