package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.yarpj.interp.Interpreter;
import dev.yarpj.ir.Idiom;
import dev.yarpj.ir.Pragma;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import dev.yarpj.skeleton.Shape;
import dev.yarpj.skeleton.Shape.SlotKind;
import dev.yarpj.skeleton.Skeleton;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The registry of statement forms covers every kind of slot a skeleton can hold, and each
 * form, alone in the innermost body of a nest, makes a statement that runs without UB in a
 * C program and in an eager (ISPC) one.
 */
class StatementFormsTest {
    private static final int SEEDS = 30;

    @Test
    void everySlotKindHasAForm() {
        StatementForms forms = new StatementForms(new Fleshing(GenPolicy.defaults(), new Rng(1), false, true));
        assertEquals(EnumSet.allOf(SlotKind.class), EnumSet.copyOf(forms.kinds()));
    }

    @ParameterizedTest
    @EnumSource(SlotKind.class)
    void eachFormAloneInANestFleshesAStatementThatRunsWithoutUb(SlotKind kind) {
        GenPolicy policy = GenPolicy.defaults();
        for (long seed = 1; seed <= SEEDS; seed++) {
            for (boolean eager : List.of(false, true)) {
                Program p = Flesher.flesh(nestOf(kind, seed), policy, new Rng(seed), eager);
                assertFalse(innermostBody(p.body()).stmts().isEmpty(), kind + " seed " + seed + ": an empty body");
                // Throws UndefinedBehaviorException on any UB the form let through.
                Interpreter.run(p, 10_000_000, !policy.allowImplDefined(), eager);
            }
        }
    }

    /**
     * A nest of two loops whose innermost body is one slot of {@code kind}: an idiom nest
     * walked in order, a stencil's (stored or reduced by the seed's parity) for STENCIL.
     */
    private static Skeleton nestOf(SlotKind kind, long seed) {
        Shape.NestPlan plan = kind == SlotKind.STENCIL
                ? new Shape.NestPlan(Idiom.STENCIL, Shape.Access.IN_ORDER, Pragma.NONE,
                        new Shape.StencilPlan(2, 1, 1, 3, 2, seed % 2 == 0), 1)
                : new Shape.NestPlan(Idiom.VECTORIZABLE, Shape.Access.IN_ORDER, Pragma.NONE, null, 1);
        List<Shape.Level> levels = List.of(new Shape.Level(List.of(), List.of(), 6), new Shape.Level(List.of(), List.of(), 17));
        return new Skeleton(List.of(new Shape.Nest(levels, List.of(new Shape.Slot(kind)), -1, plan)));
    }

    /** The innermost body of the first loop nest in {@code b}. */
    private static Stmt.Block innermostBody(Stmt.Block b) {
        for (Stmt s : b.stmts()) {
            if (s instanceof Stmt.LoopNest n) return n.body();
            if (s instanceof Stmt.Block inner) return innermostBody(inner);
        }
        throw new AssertionError("no loop nest in " + b);
    }
}
