package dev.yarpj.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.interp.LoopTrips;
import dev.yarpj.ir.Idiom;
import dev.yarpj.stats.TripSummary.Bucket;
import dev.yarpj.stats.TripSummary.Group;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTripTest {
    private static LoopTrips loop(long entered, long iterations) {
        return new LoopTrips(Idiom.PLAIN, 0, true, entered, iterations);
    }

    private static LoopTrips loop(Idiom idiom, int level, boolean innermost, long entered, long iterations) {
        return new LoopTrips(idiom, level, innermost, entered, iterations);
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    @Test
    void bucketsAreExactAtTheirEdges() {
        assertEquals(Bucket.NEVER, Bucket.of(loop(0, 0)));
        assertEquals(Bucket.AT_MOST_ONE, Bucket.of(loop(1, 0)), "entered, no iteration");
        assertEquals(Bucket.AT_MOST_ONE, Bucket.of(loop(4, 2)));
        assertEquals(Bucket.AT_MOST_ONE, Bucket.of(loop(1, 1)), "exactly 1 per entry");
        assertEquals(Bucket.AT_MOST_ONE, Bucket.of(loop(7, 7)), "exactly 1 per entry");
        assertEquals(Bucket.FEW, Bucket.of(loop(7, 8)), "just over 1 per entry");
        assertEquals(Bucket.FEW, Bucket.of(loop(1, 2)));
        assertEquals(Bucket.FEW, Bucket.of(loop(3, 21)), "exactly 7");
        assertEquals(Bucket.FEW, Bucket.of(loop(2, 15)), "7.5");
        assertEquals(Bucket.SOME, Bucket.of(loop(1, 8)), "exactly 8");
        assertEquals(Bucket.SOME, Bucket.of(loop(3, 24)), "exactly 8");
        assertEquals(Bucket.SOME, Bucket.of(loop(1, 63)));
        assertEquals(Bucket.SOME, Bucket.of(loop(2, 127)), "63.5");
        assertEquals(Bucket.MANY, Bucket.of(loop(1, 64)), "exactly 64");
        assertEquals(Bucket.MANY, Bucket.of(loop(5, 320)), "exactly 64");
        assertEquals(Bucket.MANY, Bucket.of(loop(1, 1_000_000)));
    }

    @Test
    void summaryCountsSharesAndMediansPerGroup() {
        List<LoopTrips> p1 = List.of(
                loop(Idiom.VECTORIZABLE, 0, false, 1, 3),     // 3 per entry: 2-7
                loop(Idiom.VECTORIZABLE, 1, true, 3, 192),    // 64: >= 64
                loop(Idiom.PLAIN, 0, true, 0, 0));            // never
        List<LoopTrips> p2 = List.of(
                loop(Idiom.PLAIN, 0, false, 2, 2),            // 1: <= 1
                loop(Idiom.PLAIN, 1, true, 2, 16),            // 8: 8-63
                loop(Idiom.MEMSET, 0, true, 1, 0));           // 0: <= 1
        TripSummary s = new TripSummary(List.of(p1, p2));
        assertEquals(2, s.programs());
        assertEquals(TripSummary.GROUPS.size(), s.rows().size());
        assertEquals(15, TripSummary.GROUPS.size(), "all and innermost, each: every idiom and the six idioms; then the loops that leave early");

        TripSummary.Row all = s.row(new Group(false, null));
        assertEquals(6, all.loops());
        assertEquals(List.of(1, 2, 1, 1, 1), all.counts());
        assertEquals(5, all.entered());
        assertEquals(1.0 / 6, all.share(Bucket.NEVER), 1e-12);
        assertEquals(2.0 / 6, all.share(Bucket.AT_MOST_ONE), 1e-12);
        assertEquals(3.0, all.median(), 1e-12, "of 0, 1, 3, 8, 64");

        TripSummary.Row inner = s.row(new Group(true, null));
        assertEquals(4, inner.loops());
        assertEquals(List.of(1, 1, 0, 1, 1), inner.counts());
        assertEquals(8.0, inner.median(), 1e-12, "of 0, 8, 64");

        TripSummary.Row plain = s.row(new Group(false, Idiom.PLAIN));
        assertEquals(3, plain.loops());
        assertEquals(2, plain.entered());
        assertEquals(4.5, plain.median(), 1e-12, "of 1 and 8");
        assertEquals(1.0 / 3, plain.share(Bucket.NEVER), 1e-12);

        TripSummary.Row stencil = s.row(new Group(true, Idiom.STENCIL));
        assertEquals(0, stencil.loops());
        assertEquals(0, stencil.entered());
        assertTrue(Double.isNaN(stencil.share(Bucket.NEVER)));
        assertTrue(Double.isNaN(stencil.median()));

        // Per program, over its entered loops: p1 log2(4), log2(65); p2 log2(2), log2(9), log2(1).
        assertArrayEquals(new double[] {(log2(4) + log2(65)) / 2, (log2(2) + log2(9) + log2(1)) / 3},
                s.perProgramMeanLog2(new Group(false, null)), 1e-12);
        // Innermost vectorizable: only p1 has one.
        assertArrayEquals(new double[] {log2(65)}, s.perProgramMeanLog2(new Group(true, Idiom.VECTORIZABLE)), 1e-12);
        // p1's plain loop was never entered: p1 has no sample.
        assertArrayEquals(new double[] {(log2(2) + log2(9)) / 2}, s.perProgramMeanLog2(new Group(false, Idiom.PLAIN)), 1e-12);
        assertEquals(0, s.row(new Group(false, null, true)).loops(), "no loop here leaves early");
    }

    @Test
    void theLoopsThatLeaveEarlyHaveARowOfTheirOwn() {
        // Planned 40 trips per entry, left at the 10th on each of 3 entries; one never left; one not entered.
        List<LoopTrips> p = List.of(new LoopTrips(Idiom.PLAIN, 1, true, false, true, 3, 30, 3),
                new LoopTrips(Idiom.PLAIN, 0, false, false, true, 1, 40, 0),
                new LoopTrips(Idiom.PLAIN, 0, true, false, true, 0, 0, 0),
                loop(Idiom.PLAIN, 0, true, 1, 500));
        TripSummary.Row early = new TripSummary(List.of(p)).row(new Group(false, null, true));
        assertEquals("exits", early.group().scope());
        assertEquals(3, early.loops());
        assertEquals(List.of(1, 0, 0, 2, 0), early.counts());
        assertEquals(25.0, early.median(), 1e-12, "of 10 and 40");
    }

    @Test
    void exitEndsCountEveryEntryOfTheLoopsThatLeaveEarly() {
        // 3 entries ended (1 in the first iteration, 1 in the last), 1 entry of a loop never left,
        // and a loop without exits, whose entries do not count.
        List<LoopTrips> p = List.of(new LoopTrips(Idiom.PLAIN, 1, true, false, true, 3, 30, 3, 1, 1),
                new LoopTrips(Idiom.PLAIN, 0, false, false, true, 1, 40, 0, 0, 0),
                loop(Idiom.PLAIN, 0, true, 7, 500));
        TripSummary.ExitEnds e = new TripSummary(List.of(p, List.of())).exitEnds();
        assertEquals(new TripSummary.ExitEnds(4, 1, 1, 1, 1), e);
        assertEquals(0.25, e.share(e.notEnded()), 1e-12);
        assertTrue(Double.isNaN(new TripSummary(List.of(List.of(loop(Idiom.PLAIN, 0, true, 1, 5)))).exitEnds().share(0)));
    }

    @Test
    void comparisonTestsOnlyGroupsWithTwoProgramsASide() {
        List<LoopTrips> p1 = List.of(loop(Idiom.PLAIN, 0, true, 1, 10), loop(Idiom.MEMCPY, 0, true, 1, 100));
        List<LoopTrips> p2 = List.of(loop(Idiom.PLAIN, 0, true, 2, 10));
        List<LoopTrips> p3 = List.of(loop(Idiom.PLAIN, 0, true, 1, 1000));
        TripSummary a = new TripSummary(List.of(p1, p2, p3));
        TripComparison self = new TripComparison(a, a);
        TripComparison.Row all = self.rows().get(0);
        assertEquals(new Group(false, null), all.group());
        assertTrue(all.tested());
        assertEquals(1.0, all.pValue(), 1e-12);
        assertFalse(all.significant());
        assertEquals("n.s.", all.verdict());
        assertEquals(all.meanLog2A(), all.meanLog2B());
        TripComparison.Row memcpy = self.rows().get(TripSummary.GROUPS.indexOf(new Group(false, Idiom.MEMCPY)));
        assertFalse(memcpy.tested(), "one program with a memcpy loop");
        assertEquals("-", memcpy.verdict());
        assertTrue(Double.isNaN(memcpy.pValue()));

        // Short loops against long ones: significant.
        List<LoopTrips> s1 = List.of(loop(Idiom.PLAIN, 0, true, 1, 2));
        List<LoopTrips> s2 = List.of(loop(Idiom.PLAIN, 0, true, 1, 3));
        List<LoopTrips> l1 = List.of(loop(Idiom.PLAIN, 0, true, 1, 500));
        List<LoopTrips> l2 = List.of(loop(Idiom.PLAIN, 0, true, 1, 600));
        TripComparison c = new TripComparison(new TripSummary(List.of(s1, s2, s1)), new TripSummary(List.of(l1, l2, l1)));
        assertEquals("significant", c.rows().get(0).verdict());
        assertTrue(c.rows().get(0).meanLog2A() < c.rows().get(0).meanLog2B());
    }
}
