package dev.yarpj.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/** The largest compile beside the remarks per CPU-second: which seed, how long, and its share of the CPU. */
class RemarkRateLargestCompileTest {
    private static final RunInfo CLANG_RUN = new RunInfo(RemarkCompiler.CLANG, "clang", "clang version test", "c", 10, 13, false);

    /** Seeds 10, 11, ... compiled in these CPU seconds, each with 4 LICM hoists. */
    private static List<SeedResult.Measured<RemarkTally>> compiles(double... cpu) {
        List<SeedResult.Measured<RemarkTally>> l = new ArrayList<>();
        for (int i = 0; i < cpu.length; i++) {
            RemarkTally t = new RemarkTally();
            for (int k = 0; k < 4; k++) t.add("licm", RemarkKind.PASSED, "Hoisted");
            t.setCpuSeconds(cpu[i]);
            l.add(new SeedResult.Measured<>(10 + i, null, t));
        }
        return l;
    }

    private static StatsReport report(double... cpu) {
        return StatsReport.ofRemarks(CLANG_RUN, List.of(new PolicyResults<>("default", new ArrayList<>(compiles(cpu)))));
    }

    @Test
    void theLargestCompileIsNamedWithItsShareOfTheCpu() {
        RemarkRate r = new RemarkRate(RemarkCompiler.CLANG, compiles(1.0, 0.5, 8.0, 0.5));
        assertEquals(12, r.largest().seed());
        assertEquals(8.0, r.largest().cpuSeconds(), 1e-9);
        assertEquals(0.8, r.largest().share(), 1e-9);
        assertEquals(16 / 10.0, r.totalPerCpuSecond(), 1e-9);
        assertNull(new RemarkRate(RemarkCompiler.CLANG, List.of()).largest());
    }

    @Test
    void theTableWarnsOnlyWhenOneCompileIsALargeShare() {
        String hog = Printed.as(StatsStage.Format.TABLE, report(1.0, 0.5, 8.0, 0.5));
        assertTrue(hog.contains("the largest compile: seed 12, 8.0 CPU-s, 80% of the CPU (it alone moves these rates"), hog);
        String even = Printed.as(StatsStage.Format.TABLE, report(1.0, 1.0, 1.2, 1.0, 1.0, 1.0));
        assertTrue(even.contains("the largest compile: seed 12, 1.2 CPU-s, 19% of the CPU\n"), even);
        String flat = Printed.as(StatsStage.Format.TABLE, report(1.0, 1.0, 1.0, 1.0, 1.0, 1.0));
        assertTrue(flat.contains("the largest compile: seed 10, 1.0 CPU-s, 17% of the CPU\n"), flat);
        assertFalse(flat.contains("it alone moves"), flat);
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonAndCsvCarryTheLargestCompile() {
        Map<String, Object> m = (Map<String, Object>) new Yaml().load(Printed.as(StatsStage.Format.JSON, report(1.0, 3.0)));
        Map<String, Object> largest = (Map<String, Object>) ((Map<String, Object>) m.get("rate")).get("largest_compile");
        assertEquals(11, largest.get("seed"));
        assertEquals(3.0, ((Number) largest.get("cpu_s")).doubleValue(), 1e-9);
        assertEquals(0.75, ((Number) largest.get("share")).doubleValue(), 1e-9);
        String csv = Printed.as(StatsStage.Format.CSV, report(1.0, 3.0));
        assertTrue(csv.contains("cpu_s=4;largest_seed=11;largest_cpu_s=3") || csv.contains("cpu_s=4.0;largest_seed=11;largest_cpu_s=3.0"), csv);
    }
}
