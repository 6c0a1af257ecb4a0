package dev.yarpj.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.Generator;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The trip counts input sets give innermost loops: one per loop with one set, more for the loops whose bounds are inputs. */
class StatsInputSetTripsTest {
    private static InputSetTrips over(GenPolicy policy) {
        List<InputSetTrips> all = new ArrayList<>();
        Generator gen = new Generator(policy, Language.C, CheckMode.HASH);
        for (long s = 1; s <= 20; s++) all.add(InputSetTrips.of(gen.generate(s, "t").prediction()));
        return InputSetTrips.sum(all);
    }

    @Test
    void oneInputSetGivesEachLoopOneTripCountAndSeveralGiveSomeLoopsMore() {
        InputSetTrips one = over(PolicyLoader.load(Path.of("src/test/resources/policies/one-input-set.yaml")));
        InputSetTrips many = over(GenPolicy.defaults());
        assertEquals(20, one.tests());
        assertEquals(0, one.severalSets());
        assertEquals(one.loops(), one.tripCounts(), "one trip count per loop");
        assertEquals(one.loops(), many.loops(), "the same loops: the sets change no function");
        assertTrue(many.severalSets() >= 5 && many.loopsWithMore() > 0 && many.tripCounts() > many.loops(), many.toString());
        assertTrue(many.line().startsWith("input sets: " + many.severalSets() + " of 20 tests have several;"), many.line());
    }
}
