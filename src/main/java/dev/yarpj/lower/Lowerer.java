package dev.yarpj.lower;

import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.Program;
import dev.yarpj.policy.Rng;

/**
 * Prints a program as the files of one test in a language. A lowerer only prints: what the
 * program computes is all in the IR. Where a language offers several spellings of one
 * thing (ISPC's foreach, foreach_tiled or a loop over programIndex), the choice comes from
 * the rng it is given, so the same seed gives the same files.
 */
public interface Lowerer {
    /** @param banner comment lines (without comment markers) put at the top of every file */
    LoweredTest lower(Program p, Prediction expected, CheckMode check, String banner);

    static Lowerer of(Language lang, Rng rng) {
        return of(lang, rng, false);
    }

    /**
     * @param measure a build for measurement only, that prints what it saw besides the
     *                checksum (ISPC: how often each varying if ran with a mixed mask); the
     *                same rng gives the same program otherwise
     */
    static Lowerer of(Language lang, Rng rng, boolean measure) {
        return switch (lang) {
            case C, CPP -> new CFamilyLowerer(lang, false);
            case ISPC -> new IspcLowerer(rng, measure);
            case SYCL -> new SyclLowerer(rng);
        };
    }
}
