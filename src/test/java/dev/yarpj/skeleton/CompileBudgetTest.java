package dev.yarpj.skeleton;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compile budget of the default policy: sizes tests between its bounds, and keeps their loops' work. */
class CompileBudgetTest {
    private static final GenPolicy DEFAULT = PolicyLoader.parse("{}", "default", "default");
    private static final GenPolicy NO_BUDGET = PolicyLoader.parse("max_compile_s: 0\n", "no-budget.yaml", "no-budget");

    private static List<Skeleton> skeletons(GenPolicy p, int n) {
        List<Skeleton> out = new ArrayList<>();
        for (long seed = 1; seed <= n; seed++) out.add(new SkeletonBuilder(p, new Rng(seed)).build());
        return out;
    }

    @Test
    void everyTestIsEstimatedWithinTheBudgetBounds() {
        assertTrue(DEFAULT.maxCompileS() > 0, "the default policy has a compile budget");
        int underMin = 0;
        for (Skeleton sk : skeletons(DEFAULT, 300)) {
            double s = CompileCost.of(sk).seconds();
            if (s < DEFAULT.minCompileS()) underMin++;
            boolean oneStatement = sk.body().size() == 1;
            // A test is cut to its cap unless a single statement is over it on its own (or the cut must keep a loop).
            assertTrue(s <= DEFAULT.maxCompileS() || oneStatement || sk.body().size() == 2, s + " s: " + sk.body().size() + " statements");
        }
        // Grown to min_compile_s, then cut at a cap drawn at or above it: only a cap just over the minimum, with a
        // large statement next, leaves a test under it (a cap under 1.5 times the minimum: 12% of the draws).
        assertTrue(underMin <= 45, underMin + " of 300 tests under min_compile_s");
    }

    @Test
    void withoutTheBudgetTheHeavyTailIsBack() {
        // The tail the budget cuts: some of the same seeds' tests are estimated far over max_compile_s.
        double most = skeletons(NO_BUDGET, 300).stream().mapToDouble(sk -> CompileCost.of(sk).seconds()).max().orElseThrow();
        assertTrue(most > 2 * DEFAULT.maxCompileS(), "largest unbudgeted test: " + most + " s");
    }

    @Test
    void sizesSpreadOverTheRangeRatherThanPilingUpAtOne() {
        List<Integer> slots = new ArrayList<>();
        for (Skeleton sk : skeletons(DEFAULT, 300)) slots.add(CompileCost.of(sk).slots());
        Collections.sort(slots);
        int p10 = slots.get(30);
        int p90 = slots.get(270);
        // Tests are grown to min_compile_s (about 30 statements) and cut at a cap drawn log-uniform above it.
        assertTrue(p90 >= 2 * p10, "p10 " + p10 + " slots, p90 " + p90);
        assertTrue(slots.get(299) >= 6 * p10, "p10 " + p10 + " slots, largest " + slots.get(299));
        assertTrue(slots.stream().distinct().count() > 40, "distinct sizes: " + slots.stream().distinct().count());
    }

    @Test
    void aGrownTestGetsAProportionalIterationBudget() {
        int grown = 0;
        for (Skeleton sk : skeletons(DEFAULT, 100)) {
            assertTrue(sk.iterations(DEFAULT.maxIterations()) >= DEFAULT.maxIterations());
            if (sk.iterations() > DEFAULT.maxIterations()) grown++;
        }
        assertTrue(grown > 0, "some tests of 100 were grown to min_compile_s");
    }

    @Test
    void theEstimateIsSuperlinearInStatements() {
        CompileCost one = new CompileCost(100, 10, 80, 100);
        CompileCost two = one.plus(one);
        assertEquals(200, two.slots());
        assertTrue(two.seconds() > 2 * one.seconds() - CompileCost.FIXED_S, one.seconds() + " -> " + two.seconds());
    }
}
