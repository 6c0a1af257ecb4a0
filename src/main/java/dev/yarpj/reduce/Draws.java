package dev.yarpj.reduce;

import dev.yarpj.gen.Recipe;
import dev.yarpj.ir.Program;
import dev.yarpj.plan.IspcPlan;
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
        int end = drawn(r, Rewrite.cut(p, a.block(), a.to(), a.seq()), tape).size();
        Rng.Tape prefix = new Rng.Tape(tape.kinds().substring(0, end), tape.values().subList(0, end));
        Rng.Tape replaced = drawn(r, Rewrite.cut(a.program(), a.block(), a.from() + a.replacedBy(), a.seq()), prefix);
        List<Long> values = new ArrayList<>(replaced.values());
        values.addAll(tape.values().subList(end, tape.size()));
        return r.withTape(new Rng.Tape(replaced.kinds() + tape.kinds().substring(end), values));
    }

    /**
     * Whether the language's planner draws in program order, so that a statement's draws are
     * those made between the program cut before it and the program cut after it: ISPC's.
     * SYCL's draws each kernel's range after it has chosen every kernel, so its tape is
     * replayed as it is (as before).
     */
    private static boolean plans(Recipe r) {
        return r.lang() == dev.yarpj.lower.Language.ISPC;
    }

    /**
     * What the planner of {@code r}'s language draws planning the program up to a cut,
     * replaying {@code tape} then the seed: the draws of the program cut short, but for the gang
     * forms drawn for the deeper levels of nests around the cut, which come after it.
     */
    private static Rng.Tape drawn(Recipe r, Rewrite.Cut cut, Rng.Tape tape) {
        Rng rng = Rng.replaying(tape, r.seed());
        Rng.Tape seen = rng.record();
        IspcPlan plan = IspcPlan.of(cut.program(), r.emit().ispc(), rng);
        int after = 0;
        for (int i = 0; i < cut.nests().size(); i++) {
            IspcPlan.Gang g = plan.gang(cut.nests().get(i));
            if (g != null && g.level().first() > cut.levels().get(i)) after++;
        }
        int n = seen.size() - after;
        return new Rng.Tape(seen.kinds().substring(0, n), seen.values().subList(0, n));
    }
}
