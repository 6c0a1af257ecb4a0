package dev.yarpj.stats.ispc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The mask counts an ISPC measurement build prints: their parsing and checks, and their summary. */
class IspcMaskBuildTest {
    @Test
    void maskLinesAreParsedAndChecked() {
        IspcMaskBuild.Result ok = IspcMaskBuild.parse("yarpj-mask 1 4 0 1\nyarpj-mask 0 10 3 0\n12345\n", 2, "12345");
        assertEquals(IspcMaskBuild.Status.OK, ok.status(), ok.message());
        assertEquals(List.of(new IfMask(10, 3, false), new IfMask(4, 0, true)), ok.masks());
        IspcMaskBuild.Result none = IspcMaskBuild.parse("99\n", 0, "99");
        assertEquals(IspcMaskBuild.Status.OK, none.status());
        assertTrue(none.masks().isEmpty());

        IspcMaskBuild.Result bad = IspcMaskBuild.parse("yarpj-mask 0 1 1 0\n98\n", 1, "99");
        assertEquals(IspcMaskBuild.Status.MISMATCH, bad.status());
        assertEquals("expected checksum 99, printed 98", bad.message());

        assertEquals(IspcMaskBuild.Status.RUN_FAILED, IspcMaskBuild.parse("99\n", 1, "99").status(), "a mask line missing");
        assertEquals(IspcMaskBuild.Status.RUN_FAILED, IspcMaskBuild.parse("yarpj-mask 0 1 2 0\n99\n", 1, "99").status(),
                "more mixed than runs");
        assertEquals(IspcMaskBuild.Status.MISMATCH, IspcMaskBuild.parse("yarpj-mask 0 1 0 0\n99\n100\n", 1, "99").status(),
                "a checksum more than the sets");
        // One call per input set: each prints every counter so far, then its checksum; the last line of an if is the run's.
        IspcMaskBuild.Result sets = IspcMaskBuild.parse("yarpj-mask 0 1 0 0\n99\nyarpj-mask 0 3 1 0\n100\n", 1, "99\n100");
        assertEquals(IspcMaskBuild.Status.OK, sets.status(), sets.message());
        assertEquals(List.of(new IfMask(3, 1, false)), sets.masks());
        assertEquals(IspcMaskBuild.Status.RUN_FAILED, IspcMaskBuild.parse("yarpj-mask 0 1 0 0\nyarpj-mask 0 1 0 0\n99\n", 1, "99").status(),
                "two mask lines of one if in one call");
        assertEquals(IspcMaskBuild.Status.RUN_FAILED, IspcMaskBuild.parse("yarpj-mask 0 3 0 0\n99\nyarpj-mask 0 2 0 0\n100\n", 1, "99\n100").status(),
                "a count going down");
        assertEquals(IspcMaskBuild.Status.RUN_FAILED, IspcMaskBuild.parse("yarpj-mask 0 1 0 0\n", 1, "99").status(), "no checksum");
        assertEquals(IspcMaskBuild.Status.RUN_FAILED, IspcMaskBuild.parse("yarpj-mask 0 1 0 2\n99\n", 1, "99").status(),
                "an exit flag other than 0 or 1");
    }

    @Test
    void maskSummaryCountsIfsRunsAndBuckets() {
        MaskSummary m = new MaskSummary(List.of(
                List.of(new IfMask(0, 0), new IfMask(10, 0), new IfMask(10, 4)),
                List.of(),
                List.of(new IfMask(3, 3), new IfMask(7, 4))));
        assertEquals(3, m.tests());
        assertEquals(2, m.testsWithRan());
        assertEquals(5, m.ifs());
        assertEquals(4, m.ran(), "one never ran");
        assertEquals(3, m.mixedOnce());
        assertEquals(0.75, m.mixedOnceShare(), 1e-12);
        assertEquals(30, m.runs());
        assertEquals(11, m.mixedRuns());
        assertEquals(11.0 / 30, m.mixedRunShare(), 1e-12);
        assertEquals(1, m.count(MaskSummary.Bucket.NONE));
        assertEquals(1, m.count(MaskSummary.Bucket.UNDER_HALF), "4 of 10");
        assertEquals(1, m.count(MaskSummary.Bucket.HALF_OR_MORE), "4 of 7");
        assertEquals(1, m.count(MaskSummary.Bucket.ALWAYS));
        assertEquals(MaskSummary.Bucket.HALF_OR_MORE, MaskSummary.Bucket.of(new IfMask(8, 4)), "exactly half");
        assertThrows(IllegalArgumentException.class, () -> MaskSummary.Bucket.of(new IfMask(0, 0)));
        MaskSummary empty = new MaskSummary(List.of());
        assertTrue(Double.isNaN(empty.mixedOnceShare()) && Double.isNaN(empty.mixedRunShare()));
    }

    @Test
    void theIfsThatBreakOrContinueAreSummarisedApart() {
        MaskSummary m = new MaskSummary(List.of(
                List.of(new IfMask(10, 4, true), new IfMask(10, 10, false)),
                List.of(new IfMask(0, 0, true), new IfMask(6, 0, true))));
        MaskSummary e = m.exits();
        assertEquals(2, e.tests());
        assertEquals(3, e.ifs());
        assertEquals(2, e.ran());
        assertEquals(1, e.mixedOnce());
        assertEquals(16, e.runs());
        assertEquals(4, e.mixedRuns());
        assertEquals(4, m.ifs(), "the whole summary keeps every if");
    }

    @Test
    void theIspcCommandIsTheTestbedsWithTheDriversHeader() {
        IspcMaskBuild b = new IspcMaskBuild("ispc", "g++", "avx2-i32x8", "-O1", 120, 60);
        assertEquals(List.of("ispc", "--pic", "-O1", "--target=avx2-i32x8", "--woff", "func.ispc", "-o", "func.o", "-h", "func_ispc.h"),
                b.ispcCommand());
        assertEquals("ispc 1.28.2 --target=avx2-i32x8 -O1 (driver: g++ -O0)",
                b.describe("Intel(r) Implicit SPMD Program Compiler (Intel(r) ISPC), 1.28.2 (build date Oct  1 2025)"));
        assertTrue(IspcMaskBuild.isIspcVersion("Intel(r) Implicit SPMD Program Compiler (Intel(r) ISPC), 1.28.2"));
    }
}
