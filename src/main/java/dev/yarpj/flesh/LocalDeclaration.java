package dev.yarpj.flesh;

import dev.yarpj.ir.IntType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;

/**
 * {@code T v = value;}: a local of the value's type or another (policy p_local_keeps_type),
 * declared in the block's scope with its value known, for later expressions to read.
 */
final class LocalDeclaration implements StatementForm {
    private final Fleshing f;

    LocalDeclaration(Fleshing f) {
        this.f = f;
    }

    @Override
    public Stmt flesh(Env env) {
        Valued value = f.exprs.expr(env);
        IntType t = f.rng.chance(f.policy.pLocalKeepsType()) ? value.expr().type() : f.exprs.randomType();
        // A portable program keeps the value's own type when the other could not hold it.
        if (f.ub.portable() && !UbGuard.fits(value, t)) t = value.expr().type();
        ScalarVar v = f.globals.newLocal(t);
        Valued init = f.ub.convertImplicitly(value, t);
        env.scope().declare(v, init.values());
        return new Stmt.LocalDecl(v, init.expr());
    }
}
