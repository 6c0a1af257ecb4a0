package dev.yarpj.gen;

import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.Program;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.lower.Lowerer;
import dev.yarpj.lower.LoweredTest;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.Rng;

/**
 * Everything besides its {@link Program} that turned a test's IR into its prediction and its
 * files: the interpreter's rules and the lowering's inputs, including the draws the planner
 * made ({@link Rng.Tape}). A program saved with its recipe can be interpreted and lowered
 * again, byte for byte, by a later yarpj whose generator draws differently, and an edited
 * program (reduction) is lowered the same way, with the planner's recorded choices as long
 * as they still fit.
 *
 * @param seed       the test's seed: the planner's draws past the end of the tape come from it
 * @param maxSteps   the interpreter's step limit
 * @param strict     whether implementation-defined behaviour is refused
 * @param eager      whether every arm of ?:, && and || must be defined (ISPC)
 * @param provenance the comment at the top of every file
 */
public record Recipe(long seed, Language lang, CheckMode check, boolean measure, String provenance, EmitPolicy emit,
                     long maxSteps, boolean strict, boolean eager, Rng.Tape tape) {

    /** What the interpreter predicts of {@code p} under these rules; throws on UB. */
    public Prediction interpret(Program p) {
        return Interpreter.run(p, maxSteps, strict, eager);
    }

    /** {@code p}'s files (this recipe's program and prediction give the original files). */
    public LoweredTest lower(Program p, Prediction pred) {
        Rng rng = Rng.replaying(tape, seed);
        return Lowerer.of(lang, emit, rng, measure).lower(p, pred, check, provenance);
    }

    /** The same recipe with another comment at the top of every file. */
    public Recipe withProvenance(String text) {
        return new Recipe(seed, lang, check, measure, text, emit, maxSteps, strict, eager, tape);
    }

    /** The same recipe replaying another tape of the planners' draws. */
    public Recipe withTape(Rng.Tape other) {
        return new Recipe(seed, lang, check, measure, provenance, emit, maxSteps, strict, eager, other);
    }

    /** The recipe for printing the program in {@code language}, under that language's rules (ISPC's eager arms), not measuring. */
    public Recipe in(Language language) {
        return new Recipe(seed, language, check, false, provenance, emit, maxSteps, strict, language == Language.ISPC, tape);
    }
}
