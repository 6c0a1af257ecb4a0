package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code r[..][i + s] = f(r[..][i])} along the innermost loop, which steps by {@code s}
 * ({@code r[..][i] = f(r[..][i + s])} counting down), over a new output array of its own
 * walked in order by the loops in scope: every iteration reads the element the one before it
 * stored. A dependence through memory one iteration long, which no vector covers: the part
 * of a loop LoopDistribute isolates so that the rest can be vectorized. What was stored is
 * unknown while building, so the value is made as an aliased update's is
 * ({@link AliasedUpdate#fromUnknown}). A plain assignment when the loop cannot index such an
 * array or none fits.
 */
final class Recurrence implements StatementForm {
    private final Fleshing f;
    private final AliasedUpdate aliased;

    Recurrence(Fleshing f, AliasedUpdate aliased) {
        this.f = f;
        this.aliased = aliased;
    }

    @Override
    public Stmt flesh(Env env) {
        List<LoopInfo> loops = env.loops();
        if (loops.isEmpty()) return f.assign(env);
        IterationSpace space = env.innermost().space();
        if (space.trip() <= 0 || space.max() + space.step() >= Integer.MAX_VALUE
                || loops.stream().anyMatch(l -> l.space().min() < 0)) return f.assign(env);
        List<Integer> dims = f.inOrderDims(env);
        int rank = dims.size();
        dims.set(rank - 1, dims.get(rank - 1) + (int) space.step());
        // What an earlier iteration stored is unknown: a portable program stores it only to unsigned elements.
        NumType t = f.ub.portable() ? f.exprs.randomType().toUnsigned() : f.exprs.randomType();
        ArrayVar r = f.globals.newPrivateArray(false, t, dims, ArrayVar.Fill.uniform(f.exprs.interestingValue(t)));
        if (r == null) return f.assign(env);
        List<Expr> at = f.inOrder(r, env);
        List<Expr> ahead = new ArrayList<>(at);
        ahead.set(rank - 1, Exprs.binary(BinOp.ADD, at.get(rank - 1), new Expr.Const(NumType.INT, space.step())));
        List<Expr> written = space.up() ? ahead : at;
        List<Expr> read = space.up() ? at : ahead;
        return new Stmt.Assign(Exprs.subscript(r, written), null,
                Exprs.convertImplicitly(aliased.fromUnknown(Exprs.subscript(r, read), env), t));
    }
}
