package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.IntType;
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
        Valued sel = f.exprs.expr(env);
        int bits = 0;
        // ispc takes only labels that a 32-bit integer holds: a 64-bit selector there is masked to a few bits.
        boolean narrowLabels = f.ub.eager();
        if (f.rng.chance(p.pMasked()) || (narrowLabels && Arith.promote(sel.expr().type()).bits == 64)) {
            bits = f.rng.between(1, 4);
            IntType t = Arith.promote(sel.expr().type());
            long m = (1L << bits) - 1;
            sel = f.ub.binary(BinOp.BAND, sel, Valued.constant(new Expr.Const(t, m), m), env.mask());
        }
        IntType type = Arith.promote(sel.expr().type());
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
        int[] runs = new int[cases + 1];
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(env.mask(), c)) continue;
            int entry = cases;
            for (int k = 0; k < cases && entry == cases; k++) if (caseLabels.get(k).contains(sel.values()[c])) entry = k;
            for (int k = entry; k <= cases; k++) {
                runs[k] |= 1 << c;
                if (k == cases || !fallsThrough[k]) break;
            }
        }
        List<Stmt.Switch.Case> built = new ArrayList<>();
        for (int k = 0; k < cases; k++) built.add(new Stmt.Switch.Case(caseLabels.get(k), body(env, runs[k]), fallsThrough[k]));
        return new Stmt.Switch(sel.expr(), built, hasDefault ? body(env, runs[cases]) : null);
    }

    /** A case's body, for the contexts in {@code runs}; for all of them where none runs it, or in an eager (ISPC) program. */
    private Stmt.Block body(Env env, int runs) {
        int mask = runs == 0 || f.ub.eager() ? env.mask() : runs;
        Env in = env.withMask(mask).inBlock();
        List<Stmt> stmts = new ArrayList<>();
        int n = f.rng.between(1, p.maxCaseStmts());
        for (int i = 0; i < n; i++) stmts.add(f.rng.pick(bodyForms).flesh(in));
        return new Stmt.Block(stmts);
    }

    /**
     * {@code count} distinct labels of {@code type}: consecutive, or spread apart, around the
     * value of one active context, or over the range of a selector masked to {@code bits}.
     */
    private Set<Long> labels(Valued sel, IntType type, int mask, int bits, int count) {
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
