package dev.yarpj.lower;

import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.Program;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.Rng;

/**
 * Prints a program as the files of one test in a language. A lowerer only prints: what the
 * program computes is all in the IR, and how a data-parallel language runs it (ISPC's gang
 * loops and what is varying, SYCL's kernels and memory, the spellings where a language offers
 * several) is a plan made first from the policy's {@code emit:} odds and the rng
 * ({@code plan/IspcPlan}, {@code plan/KernelPlan}), so the same seed gives the same files.
 */
public interface Lowerer {
    /** @param banner comment lines (without comment markers) put at the top of every file */
    LoweredTest lower(Program p, Prediction expected, CheckMode check, String banner);

    static Lowerer of(Language lang, EmitPolicy emit, Rng rng) {
        return of(lang, emit, rng, false);
    }

    /**
     * @param measure a build for measurement only, that prints what it saw besides the
     *                checksum (ISPC: how often each varying if ran with a mixed mask); the
     *                same rng gives the same program otherwise
     */
    static Lowerer of(Language lang, EmitPolicy emit, Rng rng, boolean measure) {
        return switch (lang) {
            case C, CPP -> new CFamilyLowerer(lang, false, true);
            case ISPC -> new IspcLowerer(emit.ispc(), rng, measure);
            case SYCL -> new SyclLowerer(emit.sycl(), rng);
        };
    }
}
