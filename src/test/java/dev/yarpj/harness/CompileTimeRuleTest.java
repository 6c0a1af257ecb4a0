package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void oneSlowCompileAmongFastOnesIsAnOutlier() {
        List<CompileTimeRule.Outlier> o = CompileTimeRule.outliers(60, times("gcc-O1", 0.5, "clang-O3", 2.0, "clang-O2", 1.0), List.of("gcc-O3"));
        assertEquals(1, o.size());
        assertEquals("gcc-O3", o.get(0).testbed());
        assertTrue(o.get(0).reason().contains("median of the 3 testbeds that finished was 1.00 s CPU: at least 60 times slower"),
                o.get(0).reason());
    }

    @Test
    void slowCompilesWithNothingFinishedAreNoOutliers() {
        assertEquals(List.of(), CompileTimeRule.outliers(60, times(), List.of("gcc-O3", "clang-O3")));
    }

    @Test
    void aLargeTestSlowEverywhereIsNoOutlier() {
        // The others took a tenth of the limit or more: the slow one may be only a few times slower than they are.
        assertEquals(List.of(), CompileTimeRule.outliers(60, times("clang-O3", 10.0, "gcc-O1", 3.0, "gcc-O2", 20.0), List.of("gcc-O3")));
    }

    @Test
    void theMedianNotTheFastestIsTheYardstick() {
        // -O1 builds in 0.5 s, but the median of the finished ones is 7 s: 60 s is less than ten times that.
        assertEquals(List.of(), CompileTimeRule.outliers(60, times("a", 0.5, "b", 7.0, "c", 8.0), List.of("d")));
        // With an even count the median is the mean of the middle two: (5 + 7) / 2 = 6, and 60 >= 10 * 6.
        assertEquals(1, CompileTimeRule.outliers(60, times("a", 0.5, "b", 5.0, "c", 7.0, "d", 9.0), List.of("e")).size());
    }

    @Test
    void everySlowTestbedOfAnOutlierTestIsNamed() {
        List<CompileTimeRule.Outlier> o = CompileTimeRule.outliers(60, times("clang-O3", 1.0), List.of("gcc-O3", "gcc16-O3"));
        assertEquals(List.of("gcc-O3", "gcc16-O3"), o.stream().map(CompileTimeRule.Outlier::testbed).toList());
    }
}
