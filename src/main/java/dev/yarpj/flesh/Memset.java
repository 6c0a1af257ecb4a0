package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Stmt;
import java.util.List;

/**
 * {@code out[i][j] = C} over whole rows of a new output array, C a repeated byte (zero with
 * p_memset_zero): a memset. A plain assignment when no array fits.
 */
final class Memset implements StatementForm {
    private final Fleshing f;

    Memset(Fleshing f) {
        this.f = f;
    }

    @Override
    public Stmt flesh(Env env) {
        NumType t = f.exprs.randomType();
        ArrayVar a = f.wholeArray(env, false, t, ArrayVar.Fill.uniform(f.exprs.interestingValue(t)));
        if (a == null) return f.assign(env);
        int b = f.rng.chance(f.policy.pMemsetZero()) ? 0 : f.rng.pick(List.of(0xff, 0x01, 0x7f, 0x80, f.rng.between(0, 255)));
        long splat = 0;
        for (int i = 0; i < 8; i++) splat = splat << 8 | b;
        long v = t == NumType.BOOL ? b & 1 : Arith.convert(splat, t);
        NumType lt = Arith.promote(t);
        return new Stmt.Assign(Exprs.subscript(a, f.inOrder(a, env)), null,
                Exprs.convertImplicitly(new Expr.Const(lt, Arith.convert(v, lt)), t));
    }
}
