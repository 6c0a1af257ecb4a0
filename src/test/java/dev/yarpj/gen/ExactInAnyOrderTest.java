package dev.yarpj.gen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The generator's floating programs are exact in any order, as the interpreter checks every
 * operation it runs ({@link dev.yarpj.ir.AnyOrder}): the generator's own bounds, taken per
 * expression before the program runs, agree with the interpreter's, taken on the real
 * execution (a reduction's and an induction's growing with each iteration). A program the
 * interpreter refuses would be a generator bug; generate throws on one.
 */
class ExactInAnyOrderTest {
    private static final GenPolicy FLOATS = PolicyLoader.parse("floats: {p_float: 0.5}\n", "floats.yaml", "floats");
    private static final GenPolicy CARRIED = PolicyLoader.parse("floats: {p_float: 0.5, p_carried: 1}\ncarried: {p_carried: 0.8}\n",
            "carried.yaml", "carried");

    @ParameterizedTest
    @EnumSource(Language.class)
    void everyFloatingProgramIsExactInAnyOrder(Language lang) {
        int floating = 0;
        for (GenPolicy policy : new GenPolicy[] {FLOATS, CARRIED}) {
            Generator gen = new Generator(policy, lang, CheckMode.HASH);
            for (long s = 1; s <= 20; s++) {
                GeneratedTest t = gen.generate(s, "test");
                if (t.program().outputs().stream().anyMatch(v -> v.base().isFloat())
                        || t.program().outputArrays().stream().anyMatch(a -> a.base().isFloat())) floating++;
            }
        }
        assertTrue(floating >= 30, "programs with floating outputs: " + floating);
    }
}
