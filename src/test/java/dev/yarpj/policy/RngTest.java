package dev.yarpj.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The weighted choices every policy knob goes through: a weight of 0 must switch a choice
 * off completely, the other weights must be honoured in proportion, and a seed must fix the
 * whole sequence of draws.
 */
class RngTest {
    private static final int DRAWS = 10_000;

    /** Keys in a fixed order (weights are matched to draws by iteration order). */
    private static Map<String, Integer> weights(Object... kv) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], (Integer) kv[i + 1]);
        return m;
    }

    private static Map<String, Integer> count(Supplier<String> draw, int n) {
        Map<String, Integer> c = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) c.merge(draw.get(), 1, Integer::sum);
        return c;
    }

    /**
     * Pearson's chi-square statistic of {@code observed} against {@code weights}; keys of
     * weight 0 must not have been drawn at all, which is asserted separately.
     */
    private static double chiSquare(Map<String, Integer> observed, Map<String, Integer> weights, int n) {
        double total = weights.values().stream().mapToInt(Integer::intValue).sum();
        double chi = 0;
        for (Map.Entry<String, Integer> e : weights.entrySet()) {
            if (e.getValue() == 0) continue;
            double expected = n * e.getValue() / total;
            double o = observed.getOrDefault(e.getKey(), 0);
            chi += (o - expected) * (o - expected) / expected;
        }
        return chi;
    }

    private static void assertNoZeroWeightKeyDrawn(Map<String, Integer> observed, Map<String, Integer> weights) {
        for (String k : observed.keySet()) {
            assertNotNull(k, "a draw over positive weights gave null");
            assertTrue(weights.containsKey(k), "drew a key that is not in the map: " + k);
            assertTrue(weights.get(k) > 0, "drew key '" + k + "' of weight 0 (" + observed.get(k) + " times)");
        }
    }

    private static void assertWithinTenPercent(Map<String, Integer> observed, Map<String, Integer> weights, int n) {
        double total = weights.values().stream().mapToInt(Integer::intValue).sum();
        for (Map.Entry<String, Integer> e : weights.entrySet()) {
            if (e.getValue() == 0) continue;
            double expected = n * e.getValue() / total;
            int o = observed.getOrDefault(e.getKey(), 0);
            assertTrue(Math.abs(o - expected) <= 0.1 * expected,
                    "key '" + e.getKey() + "': drawn " + o + " times, expected about " + expected + " of " + n);
        }
    }

    @Test
    void samplerNeverDrawsAZeroWeightKeyAndFollowsTheWeights() {
        Map<String, Integer> w = weights("a", 0, "b", 3, "c", 0, "d", 1);
        for (long seed : new long[] {1, 2, 0xdeadbeefL}) {
            Map<String, Integer> c = count(new Rng(seed).sampler(w), DRAWS);
            assertNoZeroWeightKeyDrawn(c, w);
            assertEquals(DRAWS, c.values().stream().mapToInt(Integer::intValue).sum());
            assertWithinTenPercent(c, w, DRAWS);
            // One degree of freedom: 10.83 is the 0.1% critical value.
            double chi = chiSquare(c, w, DRAWS);
            assertTrue(chi < 10.83, "seed " + seed + ": chi-square " + chi + " for " + c);
        }
    }

    @Test
    void weightedNeverDrawsAZeroWeightKeyAndFollowsTheWeights() {
        Map<String, Integer> w = weights("a", 0, "b", 3, "c", 0, "d", 1);
        Rng rng = new Rng(7);
        Map<String, Integer> c = count(() -> rng.weighted(w), DRAWS);
        assertNoZeroWeightKeyDrawn(c, w);
        assertWithinTenPercent(c, w, DRAWS);
        assertTrue(chiSquare(c, w, DRAWS) < 10.83, c.toString());
    }

    @Test
    void manyKeysWithZerosBetweenAndAtBothEnds() {
        // Zero weights first, last and in the middle: the places an off-by-one in a
        // cumulative table would let a zero-weight key through.
        Map<String, Integer> w = weights("z0", 0, "a", 1, "b", 2, "z1", 0, "c", 3, "d", 4, "z2", 0);
        Map<String, Integer> c = count(new Rng(11).sampler(w), 4 * DRAWS);
        assertNoZeroWeightKeyDrawn(c, w);
        assertWithinTenPercent(c, w, 4 * DRAWS);
        // Three degrees of freedom: 16.27 is the 0.1% critical value.
        double chi = chiSquare(c, w, 4 * DRAWS);
        assertTrue(chi < 16.27, "chi-square " + chi + " for " + c);
    }

    @Test
    void lopsidedWeightsStillDrawTheRareKeyAndNeverTheZeroOne() {
        Map<String, Integer> w = weights("rare", 1, "off", 0, "common", 1_000_000);
        Map<String, Integer> c = count(new Rng(3).sampler(w), 200_000);
        assertNoZeroWeightKeyDrawn(c, w);
        // 0.2 expected draws of "rare": just check it is not hugely over-represented.
        assertTrue(c.getOrDefault("rare", 0) <= 5, c.toString());
    }

    @Test
    void allZeroOrEmptyWeightsGiveNull() {
        Rng rng = new Rng(5);
        Map<String, Integer> zeros = weights("a", 0, "b", 0, "c", 0);
        assertNull(rng.weighted(zeros));
        Supplier<String> s = rng.sampler(zeros);
        for (int i = 0; i < 100; i++) assertNull(s.get());
        assertNull(rng.weighted(new LinkedHashMap<String, Integer>()));
        assertNull(rng.sampler(new LinkedHashMap<String, Integer>()).get());
    }

    @Test
    void aSinglePositiveWeightIsAlwaysDrawn() {
        Map<String, Integer> w = weights("a", 0, "b", 5, "c", 0);
        Rng rng = new Rng(9);
        Supplier<String> s = rng.sampler(w);
        for (int i = 0; i < 1000; i++) {
            assertEquals("b", s.get());
            assertEquals("b", rng.weighted(w));
        }
    }

    /** A mix of every kind of draw, so that any of them going off the seed shows. */
    private static List<Object> sequence(long seed) {
        Rng rng = new Rng(seed);
        Map<String, Integer> w = weights("a", 0, "b", 3, "c", 0, "d", 1, "e", 2);
        Supplier<String> sampler = rng.sampler(w);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            out.add(sampler.get());
            out.add(rng.weighted(w));
            out.add(rng.between(-5, 17));
            out.add(rng.chance(0.3));
            out.add(rng.nextLong());
            out.add(rng.pick(List.of("x", "y", "z")));
        }
        return out;
    }

    @Test
    void theSameSeedGivesTheSameSequence() {
        assertEquals(sequence(42), sequence(42));
        assertEquals(sequence(-1), sequence(-1));
        assertNotEquals(sequence(42), sequence(43));
    }

    @Test
    void betweenIsInclusiveAndChanceHonoursItsExtremes() {
        Rng rng = new Rng(13);
        Map<Integer, Integer> seen = new LinkedHashMap<>();
        for (int i = 0; i < DRAWS; i++) {
            int v = rng.between(-2, 3);
            assertTrue(v >= -2 && v <= 3, "between(-2, 3) gave " + v);
            seen.merge(v, 1, Integer::sum);
            assertTrue(!rng.chance(0.0), "chance(0) came true");
            assertTrue(rng.chance(1.0), "chance(1) came false");
        }
        assertEquals(6, seen.size(), "every value of [-2, 3] is drawn: " + seen);
        assertEquals(4, rng.between(4, 4));
        assertEquals(4, rng.between(4, 1), "an empty range gives its low end");
    }
}
