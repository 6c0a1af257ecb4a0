package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code target op= value}. The target's old value is not tracked, so only operators that
 * cannot overflow whatever it holds are used: bitwise ones, and +, -, * when the arithmetic
 * is done in an unsigned type.
 */
final class CompoundAssignment implements StatementForm {
    private final Fleshing f;

    CompoundAssignment(Fleshing f) {
        this.f = f;
    }

    @Override
    public Stmt flesh(Env env) {
        Expr target = f.target(env);
        Valued value = f.exprs.expr(env);
        NumType common = Arith.common(target.type(), value.expr().type());
        // The result goes back to the target's type: in a portable program it must fit there,
        // which is sure only for an unsigned target or a bitwise operator in the target's own type.
        if (f.ub.portable() && target.type().signed && common != target.type()) return f.store(target, value);
        List<BinOp> ops = new ArrayList<>(List.of(BinOp.BAND, BinOp.BOR, BinOp.BXOR));
        if (!common.signed) {
            ops.addAll(List.of(BinOp.ADD, BinOp.ADD, BinOp.SUB, BinOp.MUL));
        }
        return new Stmt.Assign(target, f.rng.pick(ops), value.expr());
    }
}
