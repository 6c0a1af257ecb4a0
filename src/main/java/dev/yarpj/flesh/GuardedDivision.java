package dev.yarpj.flesh;

import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.Rng;
import java.util.List;

/**
 * {@code if (d != 0) t = e op (x / d)} with {@code x} and {@code d} loop-invariant inputs:
 * the division can be hoisted only with its guard (LICM, GVN-PRE). The divisor holds a
 * value other than 0, so the guard always holds: it is there for the compiler, which cannot
 * see the value. The quotient is kept defined by {@link UbGuard} like any operator.
 */
final class GuardedDivision implements StatementForm {
    private final Fleshing f;
    /** statements: guarded_div_op_weights. */
    private final Rng.Odds<BinOp> ops;

    GuardedDivision(Fleshing f) {
        this.f = f;
        this.ops = new Rng.Odds<>(f.policy.statements().guardedDivOpWeights(), Fleshing::op);
    }

    @Override
    public Stmt flesh(Env env) {
        NumType dt = f.exprs.randomType();
        long dv = f.exprs.interestingValue(dt);
        if (dv == 0) dv = 1;
        ScalarVar d = f.globals.newInput(dt, dv, f.rng.chance(f.policy.pParam()));
        Valued divisor = Valued.constant(new Expr.ScalarRef(d), dv);
        Valued x = f.exprs.expr(f.rng.between(0, f.policy.statements().maxDividendDepth()), env.loopInvariant());
        Valued q = f.ub.binary(f.rng.chance(f.policy.pGuardedDiv()) ? BinOp.DIV : BinOp.REM, x, divisor, env.mask());
        Valued e = f.exprs.expr(env);
        Valued value = f.ub.binary(ops.pick(f.rng), e, q, env.mask());
        Expr guard = Exprs.binary(BinOp.NE, new Expr.ScalarRef(d), new Expr.Const(NumType.INT, 0));
        Expr target = f.target(env);
        Stmt store = f.store(target, value);
        return new Stmt.If(guard, new Stmt.Block(List.of(store)), null);
    }
}
