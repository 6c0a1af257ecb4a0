package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import java.util.List;

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
        // Drawn only where struct copies may be: with p_copy 0 every seed gives the program it gave before them.
        if (f.cFamily && f.policy.structs().pCopy() > 0 && f.rng.chance(f.policy.structs().pCopy())) {
            Stmt copy = structCopy(env);
            if (copy != null) return copy;
        }
        Valued value = f.exprs.expr(env);
        NumType t = f.rng.chance(f.policy.pLocalKeepsType()) ? value.expr().type() : f.exprs.randomType();
        // A portable program keeps the value's own type when the other could not hold it.
        if (f.ub.portable() && !UbGuard.fits(value, t)) t = value.expr().type();
        ScalarVar v = f.globals.newLocal(t);
        Valued init = f.ub.convertImplicitly(value, t);
        env.scope().declare(v, init.values());
        return new Stmt.LocalDecl(v, init.expr());
    }

    /**
     * {@code struct rec_2 t_3 = recs_2[i][j];}: a copy of an element of an array of structs that
     * has an input field, at subscripts the nest's access pattern gives, whose input field
     * later expressions read ({@code t_3.arr_5}, its value the element's); null when there is
     * no such field, or its element's values do not follow the context here.
     */
    private Stmt structCopy(Env env) {
        if (env.invariant() || env.inHelper()) return null;
        List<ArrayVar> fields = f.globals.inputArrays.stream().filter(a -> a.field() != null).toList();
        if (fields.isEmpty()) return null;
        List<Valued> read = f.exprs.fieldsOf(List.of(f.rng.pick(fields)), env);
        if (read == null) return null;
        Expr.Subscript element = (Expr.Subscript) read.get(0).expr();
        ScalarVar v = f.globals.newCopyField(element.array());
        env.scope().declare(v, read.get(0).values().clone());
        return new Stmt.LocalDecl(v, element);
    }
}
