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
        return over(policy, Language.C, 20);
    }

    private static InputSetTrips over(GenPolicy policy, Language lang, int seeds) {
        List<InputSetTrips> all = new ArrayList<>();
        Generator gen = new Generator(policy, lang, CheckMode.HASH);
        for (long s = 1; s <= seeds; s++) all.add(InputSetTrips.of(gen.generate(s, "t").prediction()));
        return InputSetTrips.sum(all);
    }

    @Test
    void inputSetsGiveIspcGangLoopsPartialStepsThatThePlannedSetDoesNotHave() {
        InputSetTrips one = over(PolicyLoader.load(Path.of("src/test/resources/policies/one-input-set.yaml")), Language.ISPC, 30);
        InputSetTrips many = over(GenPolicy.defaults(), Language.ISPC, 30);
        assertEquals(one.parallelLoops(), many.parallelLoops(), "the same loops");
        assertTrue(many.parallelLoops() > 0);
        assertEquals(one.partialPlanned(), one.partialAny(), "one set: the planned set's partial steps only");
        assertEquals(List.of(0L, 0L, 0L), one.partialAndWhole(), "one set meets one kind of step per loop");
        assertEquals(one.partialPlanned(), many.partialPlanned(), "the planned set is the same");
        for (int w = 0; w < InputSetTrips.GANG_WIDTHS.size(); w++) {
            assertTrue(many.partialAny().get(w) > many.partialPlanned().get(w), "width " + InputSetTrips.GANG_WIDTHS.get(w) + ": " + many);
            assertTrue(many.partialAny().get(w) <= many.parallelLoops(), many.toString());
            assertTrue(many.partialAndWhole().get(w) > one.partialAndWhole().get(w), "width " + InputSetTrips.GANG_WIDTHS.get(w) + ": " + many);
        }
        assertTrue(many.gangLine().contains("of " + many.parallelLoops() + " data-parallel loops"), many.gangLine());
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
