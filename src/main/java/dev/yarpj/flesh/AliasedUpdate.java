package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.Rng;
import dev.yarpj.policy.StmtPolicy;
import java.util.List;

/**
 * {@code p[..] = f(q[..])} where p and q are views of one array at a known offset, walked in
 * order by the loops in scope: through the overlap, one iteration may read what another
 * wrote. The value read through q is not known while building, so it feeds only an
 * operation defined for every value ({@link #fromUnknown}). A plain assignment when there
 * are no loops or no views fit.
 */
final class AliasedUpdate implements StatementForm {
    private final Fleshing f;
    private final StmtPolicy sp;
    /** statements: aliased_form_weights, aliased_compare_op_weights, aliased_arith_op_weights. */
    private final Rng.Odds<String> forms;
    private final Rng.Odds<BinOp> compareOps;
    private final Rng.Odds<BinOp> arithOps;

    AliasedUpdate(Fleshing f) {
        this.f = f;
        this.sp = f.policy.statements();
        this.forms = new Rng.Odds<>(sp.aliasedFormWeights(), k -> k);
        this.compareOps = new Rng.Odds<>(sp.aliasedCompareOpWeights(), Fleshing::op);
        this.arithOps = new Rng.Odds<>(sp.aliasedArithOpWeights(), Fleshing::op);
    }

    @Override
    public Stmt flesh(Env env) {
        List<LoopInfo> loops = env.loops();
        if (loops.isEmpty() || !f.rng.chance(f.policy.pArray())) return f.assign(env);
        List<Integer> dims = f.inOrderDims(env);
        ArrayVar[] views = null;
        for (ArrayVar[] pair : f.globals.viewPairs) {
            if (pair[0].dims().equals(dims) && f.rng.chance(sp.pReuseViews())) views = pair;
        }
        if (views == null) {
            // What is read through a view is unknown: a portable program stores it only to unsigned elements.
            NumType t = f.ub.portable() ? f.exprs.randomType().toUnsigned() : f.exprs.randomType();
            views = f.globals.newViews(t, dims, viewOffset(), f.rng.chance(sp.pFirstViewAhead()),
                    ArrayVar.Fill.uniform(f.exprs.interestingValue(t)));
            if (views == null) return f.assign(env);
        }
        boolean flip = f.rng.chance(sp.pFlipViews());
        ArrayVar out = views[flip ? 1 : 0];
        ArrayVar in = views[flip ? 0 : 1];
        List<Expr> idx = f.inOrder(out, env);
        Expr read = Exprs.subscript(in, f.rng.chance(f.policy.pSameSubscript()) ? idx : f.exprs.subscripts(in, env, false));
        return new Stmt.Assign(Exprs.subscript(out, idx), null, Exprs.convertImplicitly(fromUnknown(read, env), out.base()));
    }

    /** Rows between two views: often small (a dependence shorter than a vector), sometimes a vector width or more. */
    private int viewOffset() {
        return f.rng.chance(f.policy.pNearViews()) ? f.rng.between(0, sp.maxNearViewOffset()) : f.rng.pick(sp.farViewOffsets());
    }

    /**
     * A value made from {@code read}, an element whose value fleshing does not know (stored
     * through another view, or by an earlier iteration): the element itself, a comparison
     * of it, or unsigned arithmetic on it (after a cast to unsigned int or unsigned long
     * long, which no promotion turns signed), each defined whatever it holds. Also what a
     * {@link Recurrence} stores.
     */
    Expr fromUnknown(Expr read, Env env) {
        String form = forms.roll(f.rng);
        if (form.equals("copy")) return read;
        if (form.equals("compare")) return Exprs.binary(compareOps.pick(f.rng), read, f.exprs.expr(env).expr());
        NumType u = f.rng.pick(List.of(NumType.UINT, NumType.ULLONG));
        Expr other = Exprs.cast(f.exprs.expr(env).expr(), u);
        Expr mine = Exprs.cast(read, u);
        BinOp op = arithOps.pick(f.rng);
        return f.rng.chance(sp.pReadFirst()) ? Exprs.binary(op, mine, other) : Exprs.binary(op, other, mine);
    }
}
