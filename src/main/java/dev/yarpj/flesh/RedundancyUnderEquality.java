package dev.yarpj.flesh;

import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.Rng;
import dev.yarpj.policy.StmtPolicy;
import java.util.List;

/**
 * {@code if (x == y) t = (x op r) op2 (y op r)} with inputs x and y equal: under the test,
 * GVN may see the two halves as one value (equality propagation).
 */
final class RedundancyUnderEquality implements StatementForm {
    private final Fleshing f;
    private final StmtPolicy sp;
    /** statements: redundant_op_weights, the operator of x op r (and of y op r). */
    private final Rng.Odds<BinOp> ops;
    /** statements: redundant_combine_op_weights, the one joining the two halves. */
    private final Rng.Odds<BinOp> combineOps;

    RedundancyUnderEquality(Fleshing f) {
        this.f = f;
        this.sp = f.policy.statements();
        this.ops = new Rng.Odds<>(sp.redundantOpWeights(), Fleshing::op);
        this.combineOps = new Rng.Odds<>(sp.redundantCombineOpWeights(), Fleshing::op);
    }

    @Override
    public Stmt flesh(Env env) {
        NumType xt = f.exprs.randomType();
        ScalarVar x = f.exprs.newInput(xt);
        ScalarVar y = f.globals.newInput(xt, x.initValue(), f.rng.chance(f.policy.pParam()));
        Valued r = f.exprs.expr(f.rng.between(sp.minRedundantDepth(), sp.maxRedundantDepth()), env);
        Valued xv = Valued.constant(new Expr.ScalarRef(x), x.initValue());
        Valued left = f.ub.binary(ops.pick(f.rng), xv, r, env.mask());
        Expr.Binary lb = (Expr.Binary) left.expr();
        // The same operator over y: y holds x's value, so the values (and UB-freedom) are the same.
        Valued right = new Valued(Exprs.binary(lb.op(), new Expr.ScalarRef(y), r.expr()), left.values().clone());
        Valued value = f.ub.binary(combineOps.pick(f.rng), left, right, env.mask());
        Expr target = f.target(env);
        Stmt store = f.store(target, value);
        Expr cond = Exprs.binary(BinOp.EQ, new Expr.ScalarRef(x), new Expr.ScalarRef(y));
        return new Stmt.If(cond, new Stmt.Block(List.of(store)), null);
    }
}
