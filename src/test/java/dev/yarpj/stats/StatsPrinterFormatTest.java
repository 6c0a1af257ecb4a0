package dev.yarpj.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the JSON and CSV printers spell figures and lay them out, whatever the report holds. */
class StatsPrinterFormatTest {
    @Test
    void jsonPutsTopLevelKeysAndSectionRowsOnePerLineAndSpellsNaNAsNull() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("lang", "c");
        doc.put("rows", List.of(Map.of("x", 1.0 / 3), Map.of("x", Double.NaN)));
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("list", List.of(1, 2));
        nested.put("empty", List.of());
        doc.put("nested", nested);
        doc.put("tiny", 1.5e-7);
        assertEquals("""
                {
                  "lang": "c",
                  "rows": [
                    {"x": 0.333333},
                    {"x": null}
                  ],
                  "nested": {"list": [1, 2], "empty": []},
                  "tiny": 1.50000e-07
                }""", JsonPrinter.json(doc));
    }

    @Test
    void jsonKeepsAListOfObjectsDeeperThanTwoLevelsOnOneLine() {
        Map<String, Object> doc = Map.of("a", Map.of("b", Map.of("rows", List.of(Map.of("x", 1), Map.of("x", 2)))));
        assertEquals("{\n  \"a\": {\"b\": {\"rows\": [{\"x\": 1}, {\"x\": 2}]}}\n}", JsonPrinter.json(doc));
    }

    @Test
    void csvQuotesARemarkNameWithACommaOrAQuoteAsRfc4180AndEndsLinesInLf() {
        RemarkTally t = new RemarkTally();
        t.add("loop-vectorize", RemarkKind.MISSED, "can't vectorize, \"unsafe\" dependence");
        List<SeedResult<RemarkTally>> seeds = new ArrayList<>();
        seeds.add(new SeedResult.Measured<>(1, null, t));
        RunInfo clang = new RunInfo(RemarkCompiler.CLANG, "clang", "clang version test", "c", 1, 1, false);
        String csv = Printed.as(StatsStage.Format.CSV,
                StatsReport.ofRemarks(clang, List.of(new PolicyResults<>("default", seeds))));
        assertTrue(csv.contains("\nremark,loop-vectorize,Missed,\"can't vectorize, \"\"unsafe\"\" dependence\",1,1.0,1\n"), csv);
        assertFalse(csv.contains("\r"), "LF line ends");
    }
}
