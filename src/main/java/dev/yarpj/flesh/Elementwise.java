package dev.yarpj.flesh;

import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.Rng;
import java.util.List;

/**
 * {@code a[..][i] = f(b[..][i], ...)}: a store the vectorizer can widen. When the innermost
 * loop is the odd/even split, sometimes one store per parity under a parity test
 * (p_parity_store): a masked store to if-convert, and an ISPC gang whose mask is neither all
 * on nor all off (the loop stays data-parallel: both stores write the iteration's own element).
 */
final class Elementwise implements StatementForm {
    private final Fleshing f;
    /** statements: invariant_part_op_weights. */
    private final Rng.Odds<BinOp> invariantPartOps;
    /** Builds the switch that stores the element in every case (switches: p_elementwise). */
    private final SwitchStatement switches;

    Elementwise(Fleshing f, SwitchStatement switches) {
        this.f = f;
        this.switches = switches;
        this.invariantPartOps = new Rng.Odds<>(f.policy.statements().invariantPartOpWeights(), Fleshing::op);
    }

    @Override
    public Stmt flesh(Env env) {
        Expr target = f.walkedOrAnyOutput(env);
        if (target instanceof Expr.Subscript && env.split() != null && env.split() == env.innermost()
                && f.rng.chance(f.policy.pParityStore())) {
            Valued cond = f.exprs.parityCondition(env);
            int t = cond.truthMask(env.mask());
            Env then = env.withMask(t == 0 || f.ub.eager() ? env.mask() : t);
            Env otherwise = env.withMask((env.mask() & ~t) == 0 || f.ub.eager() ? env.mask() : env.mask() & ~t);
            return new Stmt.If(cond.expr(), new Stmt.Block(List.of(f.store(target, value(then)))),
                    new Stmt.Block(List.of(f.store(target, value(otherwise)))));
        }
        if (target instanceof Expr.Subscript && f.rng.chance(f.policy.switches().pElementwise())) {
            return switches.storing(env, target, this::value);
        }
        return f.store(target, value(env));
    }

    /**
     * An idiom's element-wise value: an expression, sometimes {@code value op g(scalars)}
     * (p_invariant_part), part of it the same on every iteration, work for LICM before the
     * vectorizer.
     */
    Valued value(Env env) {
        Valued value = f.exprs.expr(env);
        if (!f.rng.chance(f.policy.pInvariantPart())) return value;
        Valued invariant = f.exprs.expr(env.loopInvariant());
        return f.ub.binary(invariantPartOps.pick(f.rng), value, invariant, env.mask());
    }
}
