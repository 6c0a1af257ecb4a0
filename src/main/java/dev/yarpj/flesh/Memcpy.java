package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Stmt;

/**
 * {@code out[i][j] = in[i][j]} over whole rows of two new arrays of one type: a memcpy. A
 * plain assignment when the two do not fit.
 */
final class Memcpy implements StatementForm {
    private final Fleshing f;

    Memcpy(Fleshing f) {
        this.f = f;
    }

    @Override
    public Stmt flesh(Env env) {
        NumType t = f.exprs.randomType();
        ArrayVar in = f.wholeArray(env, true, t, ArrayVar.Fill.uniform(f.exprs.interestingValue(t)));
        ArrayVar out = in == null ? null : f.wholeArray(env, false, t, ArrayVar.Fill.uniform(f.exprs.interestingValue(t)));
        if (out == null) return f.assign(env);
        return new Stmt.Assign(Exprs.subscript(out, f.inOrder(out, env)), null, Exprs.subscript(in, f.inOrder(in, env)));
    }
}
