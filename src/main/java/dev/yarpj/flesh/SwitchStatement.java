package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.SwitchPolicy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code switch (e) { case l1: case l2: { ... } break; ... default: { ... } }}. The selector's
 * value in each context is known, so the labels are chosen around it (policy {@code switches:}):
 * consecutive (a jump or lookup table for switch conversion, selects for a vectorizer) or spread
 * apart (compares, bit tests). Each context enters at the case its value selects and runs on
 * through every case that falls through, so each body is fleshed for the contexts that run it;
 * a body none runs is built for them all, as an if's arm is, and stays UB-free too.
 */
final class SwitchStatement implements StatementForm {
    private final Fleshing f;
    private final SwitchPolicy p;
    /** What a case's body holds: plain and compound assignments. */
    private final List<StatementForm> bodyForms;

    SwitchStatement(Fleshing f, StatementForm assign, StatementForm compound) {
        this.f = f;
        this.p = f.policy.switches();
        this.bodyForms = List.of(assign, assign, compound);
    }

    @Override
    public Stmt flesh(Env env) {
        if (!env.loops().isEmpty() && f.rng.chance(p.pStateMachine())) return stateMachine(env);
        Valued sel = f.exprs.expr(env);
        int bits = 0;
        // ispc takes only labels that a 32-bit integer holds: a 64-bit selector there is masked to a few bits.
        boolean narrowLabels = f.ub.eager();
        if (f.rng.chance(p.pMasked()) || (narrowLabels && Arith.promote(sel.expr().type()).bits == 64)) {
            bits = f.rng.between(1, 4);
            sel = masked(sel, bits, env);
        }
        NumType type = Arith.promote(sel.expr().type());
        if (sel.expr().type() != type) sel = f.ub.convertImplicitly(sel, type);

        int cases = f.rng.between(1, p.maxCases());
        int[] perCase = new int[cases];
        int total = 0;
        for (int k = 0; k < cases; k++) total += perCase[k] = f.rng.between(1, p.maxLabelsPerCase());
        List<Long> labels = new ArrayList<>(labels(sel, type, env.mask(), bits, total));
        // The values that take a case: each context's, where the policy says it hits.
        for (int c = 0; c < 2; c++) {
            long v = sel.values()[c];
            if (!Valued.active(env.mask(), c) || labels.contains(v) || !f.rng.chance(p.pHit())) continue;
            int at = f.rng.between(0, labels.size() - 1);
            // Not over the other context's value, which may have been put in just before.
            if (Valued.active(env.mask(), 1 - c) && labels.get(at) == sel.values()[1 - c]) continue;
            labels.set(at, v);
        }

        // Each context's entry case (cases.size(): the default), then the contexts that run each body.
        List<List<Long>> caseLabels = new ArrayList<>();
        for (int k = 0, at = 0; k < cases; at += perCase[k], k++) caseLabels.add(labels.subList(at, at + perCase[k]));
        boolean[] fallsThrough = new boolean[cases];
        for (int k = 0; k < cases; k++) fallsThrough[k] = f.rng.chance(p.pFallthrough());
        boolean hasDefault = f.rng.chance(p.pDefault());
        int[] runs = runs(sel, caseLabels, fallsThrough, env.mask());
        List<Stmt.Switch.Case> built = new ArrayList<>();
        for (int k = 0; k < cases; k++) built.add(new Stmt.Switch.Case(caseLabels.get(k), body(env, runs[k]), fallsThrough[k]));
        return new Stmt.Switch(sel.expr(), built, hasDefault ? body(env, runs[cases]) : null);
    }

    /**
     * {@code switch (e & 3) { case 0: { t = v0; } break; ... default: { t = vd; } }}: every body
     * stores to {@code target}, the iteration's own element of an element-wise nest, a value
     * {@code value} gives for the contexts that run it. The loop stays data-parallel; a
     * vectorizer must turn the switch into masks or selects to widen it.
     */
    Stmt storing(Env env, Expr target, java.util.function.Function<Env, Valued> value) {
        Valued sel = f.exprs.expr(env);
        int bits = f.rng.between(1, 3);
        sel = masked(sel, bits, env);
        long m = (1L << bits) - 1;
        int cases = f.rng.between(1, (int) m + 1);
        List<Long> labels = new ArrayList<>();
        for (long v = 0; v <= m; v++) labels.add(v);
        java.util.Collections.shuffle(labels, new java.util.Random(f.rng.nextLong()));
        labels = new ArrayList<>(labels.subList(0, cases));
        boolean hasDefault = cases <= m || f.rng.chance(p.pDefault());
        List<List<Long>> caseLabels = labels.stream().map(List::of).toList();
        int[] runs = runs(sel, caseLabels, new boolean[cases], env.mask());
        List<Stmt.Switch.Case> built = new ArrayList<>();
        for (int k = 0; k < cases; k++) built.add(new Stmt.Switch.Case(List.of(labels.get(k)), store(env, runs[k], target, value), false));
        return new Stmt.Switch(sel.expr(), built, hasDefault ? store(env, runs[cases], target, value) : null);
    }

    private Stmt.Block store(Env env, int runs, Expr target, java.util.function.Function<Env, Valued> value) {
        return new Stmt.Block(List.of(f.store(target, value.apply(env.withMask(bodyMask(env, runs))))));
    }

    /** {@code sel & (2^bits - 1)}, in its promoted type. */
    private Valued masked(Valued sel, int bits, Env env) {
        NumType t = Arith.promote(sel.expr().type());
        long m = (1L << bits) - 1;
        return f.ub.binary(BinOp.BAND, sel, Valued.constant(new Expr.Const(t, m), m), env.mask());
    }

    /**
     * The contexts of {@code mask} that run each case's body (the last entry: the default's):
     * from the case whose labels hold the selector's value, or the default, through every case
     * that falls through.
     */
    private static int[] runs(Valued sel, List<List<Long>> caseLabels, boolean[] fallsThrough, int mask) {
        int cases = caseLabels.size();
        int[] runs = new int[cases + 1];
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(mask, c)) continue;
            int entry = cases;
            for (int k = 0; k < cases && entry == cases; k++) if (caseLabels.get(k).contains(sel.values()[c])) entry = k;
            for (int k = entry; k <= cases; k++) {
                runs[k] |= 1 << c;
                if (k == cases || !fallsThrough[k]) break;
            }
        }
        return runs;
    }

    /** The contexts a body is fleshed for: those that run it; all of them where none does, or in an eager (ISPC) program. */
    private int bodyMask(Env env, int runs) {
        return runs == 0 || f.ub.eager() ? env.mask() : runs;
    }

    /** The types a state is kept in: its labels are small, and fit each. */
    private static final List<NumType> STATE_TYPES = List.of(NumType.INT, NumType.INT, NumType.UINT, NumType.UCHAR, NumType.SHORT, NumType.LLONG);

    /**
     * {@code switch (s) { case 0: { ...; s = 3; } break; ... default: { ...; s = 1; } }} on a scalar
     * the loops carry (a local declared before the nest and stored to an output after it, or an
     * output), starting at one of the labels; each body sets it to a constant: a label, or now
     * and then a value no label holds, which goes to the default. Which case runs changes from
     * iteration to iteration in a way the generator does not follow, so every body is built
     * for every context; the interpreter follows it exactly.
     */
    private Stmt stateMachine(Env env) {
        NumType t = f.rng.pick(STATE_TYPES);
        int cases = f.rng.between(2, Math.max(2, p.maxCases()));
        List<Long> labels = new ArrayList<>();
        boolean dense = f.rng.chance(p.pDense());
        for (long v = dense ? 0 : f.rng.between(0, 7); labels.size() < cases; v += dense ? 1 : f.rng.between(1, 9)) labels.add(v);
        ScalarVar state = f.carried(t, f.rng.pick(labels), () -> !f.rng.chance(0.5));
        NumType st = Arith.promote(t);
        Expr selector = Exprs.convertImplicitly(new Expr.ScalarRef(state), st);
        boolean hasDefault = f.rng.chance(p.pDefault());
        List<Stmt.Switch.Case> built = new ArrayList<>();
        for (long label : labels) {
            built.add(new Stmt.Switch.Case(List.of(Arith.convert(label, st)), stateBody(env, state, labels, hasDefault), f.rng.chance(p.pFallthrough())));
        }
        return new Stmt.Switch(selector, built, hasDefault ? stateBody(env, state, labels, true) : null);
    }

    /** Assignments, then the state's next value: a label, or (where a default takes it) sometimes one past the largest. */
    private Stmt.Block stateBody(Env env, ScalarVar state, List<Long> labels, boolean toDefault) {
        List<Stmt> stmts = new ArrayList<>(body(env, 0).stmts());
        long next = toDefault && f.rng.chance(0.2) ? labels.get(labels.size() - 1) + 1 : f.rng.pick(labels);
        NumType t = state.base();
        stmts.add(new Stmt.Assign(new Expr.ScalarRef(state), null, Exprs.convertImplicitly(new Expr.Const(Arith.promote(t), next), t)));
        return new Stmt.Block(stmts);
    }

    /** A case's body, for the contexts in {@code runs}; for all of them where none runs it, or in an eager (ISPC) program. */
    private Stmt.Block body(Env env, int runs) {
        Env in = env.withMask(bodyMask(env, runs)).inBlock();
        List<Stmt> stmts = new ArrayList<>();
        int n = f.rng.between(1, p.maxCaseStmts());
        for (int i = 0; i < n; i++) stmts.add(f.rng.pick(bodyForms).flesh(in));
        return new Stmt.Block(stmts);
    }

    /**
     * {@code count} distinct labels of {@code type}: consecutive, or spread apart, around the
     * value of one active context, or over the range of a selector masked to {@code bits}.
     */
    private Set<Long> labels(Valued sel, NumType type, int mask, int bits, int count) {
        long anchor = sel.values()[Valued.active(mask, 0) ? 0 : 1];
        if (Valued.active(mask, 0) && Valued.active(mask, 1) && f.rng.chance(0.5)) anchor = sel.values()[1];
        Set<Long> out = new LinkedHashSet<>();
        boolean dense = f.rng.chance(p.pDense());
        if (bits > 0) {
            // In the mask's range, and beyond it now and then: labels no value can reach.
            long span = Math.max(1L << bits, count);
            long base = dense ? f.rng.between(0, (int) Math.max(0, (1L << bits) - count)) : 0;
            while (out.size() < count) {
                long v = dense ? base + out.size() : f.rng.between(0, (int) Math.min(4 * span, 1 << 20));
                out.add(Arith.convert(v, type));
            }
            return out;
        }
        long base = anchor - f.rng.between(0, count - 1);
        int gap = f.rng.between(2, 1000);
        for (int k = 0; out.size() < count; k++) {
            long v = dense ? base + k : k % 3 == 2 ? f.exprs.interestingValue(type) : base + (long) k * gap;
            out.add(Arith.convert(v, type));
        }
        return out;
    }
}
