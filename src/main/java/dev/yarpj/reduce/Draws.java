package dev.yarpj.reduce;

import dev.yarpj.gen.Recipe;
import dev.yarpj.ir.Program;
import dev.yarpj.plan.IspcPlan;
import dev.yarpj.plan.KernelPlan;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.List;

/**
 * The planner's draws of an edited program, kept with the statements they were drawn for.
 * A recipe's tape is replayed in order ({@link Rng#replaying}): the ISPC and SYCL planners
 * draw as they walk the program (a chance of a gang loop or a kernel per nest, its form, a
 * select per varying ?:), so a program that lost a loop would hand that loop's draws to the
 * next one, which then plans otherwise (a foreach becomes a serial loop, and the symptom that
 * lived in the foreach goes with it, though the loop that went was empty). The tape of an
 * edited program is the old one without the draws of the statements the edit replaced, and
 * with those its replacement draws, positionally from theirs, in their place.
 */
final class Draws {
    private Draws() {}

    /** The recipe that lowers {@code a}'s program, which an edit made from {@code p} (lowered by {@code r}), with {@code p}'s plans for what the edit left alone. */
    static Recipe align(Recipe r, Program p, Rewrite.Applied a) {
        Rng.Tape tape = r.tape();
        if (a.block() < 0 || tape == null || tape.size() == 0 || !plans(r)) return r;
        // The draws before the statements replaced and of them; then those of their replacement, from those.
        int end = drawn(r, Rewrite.cut(p, a.block(), a.to()), tape).size();
        Rng.Tape prefix = new Rng.Tape(tape.kinds().substring(0, end), tape.values().subList(0, end));
        Rng.Tape replaced = drawn(r, Rewrite.cut(a.program(), a.block(), a.from() + a.replacedBy()), prefix);
        List<Long> values = new ArrayList<>(replaced.values());
        values.addAll(tape.values().subList(end, tape.size()));
        Rng.Tape aligned = new Rng.Tape(replaced.kinds() + tape.kinds().substring(end), values);
        return new Recipe(r.seed(), r.lang(), r.check(), r.measure(), r.provenance(), r.emit(), r.maxSteps(), r.strict(), r.eager(),
                aligned);
    }

    private static boolean plans(Recipe r) {
        return switch (r.lang()) {
            case ISPC, SYCL -> true;
            case C, CPP -> false;
        };
    }

    /** What the planner of {@code r}'s language draws planning {@code p}, replaying {@code tape} then the seed. */
    private static Rng.Tape drawn(Recipe r, Program p, Rng.Tape tape) {
        Rng rng = Rng.replaying(tape, r.seed());
        Rng.Tape seen = rng.record();
        switch (r.lang()) {
            case ISPC -> IspcPlan.of(p, r.emit().ispc(), rng);
            case SYCL -> KernelPlan.of(p, r.emit().sycl(), rng);
            default -> {}
        }
        return seen;
    }
}
