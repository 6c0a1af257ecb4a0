package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A report draft of a test with several input sets shows a row per call of test() and names the calls that are wrong. */
class ReportInputSetsTest {
    @Test
    void theDraftShowsEachCallsExpectedAndActualOutputAndNamesTheWrongOnes() {
        String table = Report.inputSets("11\n22\n33", "11\n22\n34", "gcc", "gcc-trunk -O3");
        assertTrue(table.contains("| 0 (planned) | `11` | `11` |\n"), table);
        assertTrue(table.contains("| 2 | `33` | `34` (wrong) |\n"), table);
        assertTrue(table.endsWith("Wrong in call 2.\n\n"), table);
        String missing = Report.inputSets("11\n22", "11", "gcc", "cc");
        assertTrue(missing.contains("| 1 | `22` | `(none)` (wrong) |"), missing);
        assertEquals(1, missing.lines().filter(l -> l.startsWith("Wrong in")).count());
    }
}
