package dev.yarpj.gen;

import dev.yarpj.flesh.Flesher;
import dev.yarpj.inputs.InputSets;
import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.Prediction;
import dev.yarpj.interp.UndefinedBehaviorException;
import dev.yarpj.ir.InputSet;
import dev.yarpj.ir.Program;
import dev.yarpj.lower.Lowerer;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.lower.LoweredTest;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import dev.yarpj.skeleton.Skeleton;
import dev.yarpj.skeleton.SkeletonBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The pipeline, stage after stage: seed and policy, skeleton, fleshed IR, interpreted
 * prediction, lowered files. A program the interpreter rejects throws
 * {@link dev.yarpj.interp.UndefinedBehaviorException} and is never lowered.
 */
public final class Generator {
    /**
     * The skeleton's trip plan keeps the steps the interpreter counts within the policy's
     * cap, except in a test too big to fit even with every loop run once; the interpreter
     * allows this much more before calling it a generator bug.
     */
    private static final long STEPS_PER_ITERATION = 2;

    private final GenPolicy policy;
    private final Language lang;
    private final CheckMode check;
    private final boolean measure;
    /** Nanoseconds spent so far in each stage, indexed like {@link #STAGES}. */
    private final long[] stageNanos = new long[4];

    public static final java.util.List<String> STAGES = java.util.List.of("skeleton", "flesh", "interpret", "lower");

    public Generator(GenPolicy policy, Language lang, CheckMode check) {
        this(policy, lang, check, false);
    }

    /**
     * @param measure lower for measurement: the test also prints what it saw at run time
     *                (ISPC: how often each varying if had a mixed mask); the program is the same
     */
    public Generator(GenPolicy policy, Language lang, CheckMode check, boolean measure) {
        this.policy = policy;
        this.lang = lang;
        this.check = check;
        this.measure = measure;
    }

    public Skeleton skeleton(long seed) {
        return new SkeletonBuilder(policy, new Rng(seed)).build();
    }

    /** @param provenance how to regenerate the test, put at the top of every file */
    public GeneratedTest generate(long seed, String provenance) {
        long t0 = System.nanoTime();
        Rng rng = new Rng(seed);
        Skeleton sk = new SkeletonBuilder(policy, rng).build();
        long t1 = System.nanoTime();
        // ISPC may evaluate every arm of ?:, && and || (under a varying condition): its
        // programs keep each one defined, and the interpreter checks that they are.
        boolean eager = lang == Language.ISPC;
        // Bit-fields and struct copies: C and C++ only; SYCL's nests are kernels (see Flesher.flesh).
        Program p = Flesher.flesh(sk, policy, rng, eager, lang == Language.C || lang == Language.CPP, lang == Language.SYCL);
        long t2 = System.nanoTime();
        Prediction pred;
        long maxSteps = sk.iterations(policy.maxIterations()) * STEPS_PER_ITERATION;
        try {
            pred = Interpreter.run(p, maxSteps, !policy.allowImplDefined(), eager);
            if (policy.inputs().count() > 1) {
                Sets sets = inputSets(p, seed, maxSteps, eager);
                p = sets.program();
                pred = pred.withOtherSets(sets.predictions());
            }
        } finally {
            stageNanos[0] += t1 - t0;
            stageNanos[1] += t2 - t1;
            stageNanos[2] += System.nanoTime() - t2;
        }
        long t3 = System.nanoTime();
        // The planner's draws are recorded, so that the program can be lowered again without this rng.
        Rng.Tape tape = rng.record();
        LoweredTest files = Lowerer.of(lang, policy.emit(), rng, measure).lower(p, pred, check, provenance);
        stageNanos[3] += System.nanoTime() - t3;
        Recipe recipe = new Recipe(seed, lang, check, measure, provenance, policy.emit(), maxSteps, !policy.allowImplDefined(), eager, tape);
        return new GeneratedTest(seed, sk, p, pred, files, recipe);
    }

    /** A program with its input sets, and the predictions of those beyond the planned one. */
    private record Sets(Program program, List<Prediction> predictions) {}

    /**
     * {@code p} with up to {@code inputs.count} input sets: the planned one, then of each
     * candidate of {@link InputSets} the first try on which the interpreter runs {@code p}
     * without undefined behaviour, in the order proposed, with their predictions. The
     * candidates come from a generator of their own, so func and helpers are the same files
     * whatever the count.
     */
    private Sets inputSets(Program p, long seed, long maxSteps, boolean eager) {
        int more = policy.inputs().count() - 1;
        List<InputSet> sets = new ArrayList<>(List.of(InputSet.PLANNED));
        List<Prediction> preds = new ArrayList<>();
        for (List<InputSet> tries : InputSets.candidates(p, 2 * more, policy.inputs().values(), movableBound(), new Rng(seed ^ INPUT_SETS_SALT))) {
            if (preds.size() == more) break;
            for (InputSet c : tries) {
                if (sets.contains(c)) break;
                try {
                    preds.add(Interpreter.run(p, c, maxSteps, !policy.allowImplDefined(), eager));
                    sets.add(c);
                    break;
                } catch (UndefinedBehaviorException e) {
                    // Not a generator bug: a candidate is proposed to be tried, and this one is refused.
                }
            }
        }
        return new Sets(p.withInputSets(sets), List.copyOf(preds));
    }

    /**
     * The loops whose bound an input set may move: in C and C++ any (the lowering prints
     * every bound); in ISPC those counting up by one (a gang over any other loop counts the
     * planned trips); in SYCL the serial loops (they print their bounds) and the parallel ones
     * whose kernel range the host counts from the bound at launch (a range over any other is
     * the planned trip). ISPC's gang over a moved bound then meets partial gangs, and a SYCL
     * nd_range ranges that are and are not multiples of its work-group size.
     */
    private java.util.function.Predicate<dev.yarpj.ir.LoopHead> movableBound() {
        return switch (lang) {
            case C, CPP -> h -> true;
            case ISPC -> h -> dev.yarpj.plan.IspcPlan.countsByOne(h, dev.yarpj.plan.IspcPlan.GangForm.FOREACH);
            case SYCL -> h -> !h.parallel() || dev.yarpj.plan.KernelPlan.rangeFromBound(h);
        };
    }

    /** Keeps the input sets' draws apart from the seed's other uses. */
    private static final long INPUT_SETS_SALT = 0x1A9B5E7C0FFEEL;

    /** Time spent per stage since this generator was made, in nanoseconds, in the order of {@link #STAGES}. */
    public long[] stageNanos() {
        return stageNanos.clone();
    }
}
