package dev.yarpj.flesh;

import dev.yarpj.skeleton.Shape.SlotKind;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * Which {@link StatementForm} fleshes each kind of skeleton slot: the one place a new form
 * is registered. Every form is made when the program's fleshing starts (none draws anything
 * then), so a policy whose weights a form cannot use fails at once.
 */
final class StatementForms {
    private final Map<SlotKind, StatementForm> byKind = new EnumMap<>(SlotKind.class);
    /** Also asked by the walk whether a nest's body carries a scalar ({@link CarriedScalar#fleshed}). */
    final CarriedScalar carried;

    StatementForms(Fleshing f) {
        StatementForm compound = new CompoundAssignment(f);
        SwitchStatement switches = new SwitchStatement(f, f::assign, compound);
        Elementwise elementwise = new Elementwise(f, switches);
        Reduction reduction = new Reduction(f, elementwise);
        AliasedUpdate aliased = new AliasedUpdate(f);
        carried = new CarriedScalar(f);
        register(SlotKind.ASSIGN, f::assign);
        register(SlotKind.COMPOUND, compound);
        register(SlotKind.SWITCH, switches);
        register(SlotKind.LOCAL, new LocalDeclaration(f));
        // An element-wise store or a reduction may be in floating point instead (floats: p_float).
        FloatStatements floats = f.floats;
        register(SlotKind.ELEMENTWISE, env -> floats.draw() ? floats.elementwise(env) : elementwise.flesh(env));
        register(SlotKind.REDUCE, env -> floats.draw() ? floats.reduction(env) : reduction.flesh(env));
        register(SlotKind.STENCIL, new Stencil(f, elementwise, reduction));
        register(SlotKind.MEMSET, new Memset(f));
        register(SlotKind.MEMCPY, new Memcpy(f));
        register(SlotKind.GUARDED_DIV, new GuardedDivision(f));
        register(SlotKind.REDUNDANT_EXPR, new RedundancyUnderEquality(f));
        register(SlotKind.ALIASED_UPDATE, aliased);
        register(SlotKind.DEAD_CODE, new DeadCode(f));
        register(SlotKind.CARRIED, carried);
        register(SlotKind.RECURRENCE, new Recurrence(f, aliased));
    }

    private void register(SlotKind kind, StatementForm form) {
        if (byKind.putIfAbsent(kind, form) != null) throw new IllegalStateException("two forms for " + kind);
    }

    /** The form that fleshes {@code kind}. */
    StatementForm of(SlotKind kind) {
        StatementForm form = byKind.get(kind);
        if (form == null) throw new IllegalStateException("no statement form for " + kind);
        return form;
    }

    /** The kinds a form is registered for. */
    Set<SlotKind> kinds() {
        return byKind.keySet();
    }
}
