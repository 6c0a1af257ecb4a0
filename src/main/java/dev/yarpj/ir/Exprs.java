package dev.yarpj.ir;

import java.util.List;

/**
 * The one way to build typed expression nodes: it inserts the implicit conversions of C
 * (promotions, usual arithmetic conversions, conversion on assignment) as {@link Expr.Cast}
 * nodes, using the rules in {@link Arith}.
 */
public final class Exprs {
    private Exprs() {}

    public static Expr convertImplicitly(Expr e, IntType to) {
        return e.type() == to ? e : new Expr.Cast(to, e, true);
    }

    public static Expr cast(Expr e, IntType to) {
        return new Expr.Cast(to, e, false);
    }

    public static Expr.Binary binary(BinOp op, Expr lhs, Expr rhs) {
        IntType lt = Arith.operandType(op, lhs.type(), rhs.type(), true);
        IntType rt = Arith.operandType(op, lhs.type(), rhs.type(), false);
        return new Expr.Binary(op, Arith.resultType(op, lhs.type(), rhs.type()),
                convertImplicitly(lhs, lt), convertImplicitly(rhs, rt));
    }

    public static Expr.Unary unary(UnOp op, Expr operand) {
        IntType t = Arith.promote(operand.type());
        return new Expr.Unary(op, Arith.resultType(op, operand.type()), convertImplicitly(operand, t));
    }

    /** cond ? a : b, with both arms converted to their common type. */
    public static Expr.Ternary ternary(Expr cond, Expr a, Expr b) {
        IntType t = Arith.common(a.type(), b.type());
        return new Expr.Ternary(t, cond, convertImplicitly(a, t), convertImplicitly(b, t));
    }

    /** min/max with both operands converted to their common type, as std::min&lt;T&gt; does. */
    public static Expr.Call call(Builtin fn, Expr a, Expr b) {
        IntType t = Arith.common(a.type(), b.type());
        return new Expr.Call(fn, t, convertImplicitly(a, t), convertImplicitly(b, t));
    }

    public static Expr.Subscript subscript(ArrayVar array, List<Expr> indices) {
        return new Expr.Subscript(array, List.copyOf(indices));
    }

    /** A stencil over taps of one element type, folded in its promoted type. */
    public static Expr.Stencil stencil(BinOp combine, List<Expr.Subscript> taps) {
        IntType elem = taps.get(0).type();
        for (Expr.Subscript t : taps) {
            if (t.type() != elem) throw new IllegalArgumentException("stencil taps of different types");
        }
        return new Expr.Stencil(combine, Arith.promote(elem), List.copyOf(taps));
    }

    /** Whether {@code e} is a comparison, a logical operator or a logical not: a truth value in every language. */
    public static boolean isTruthValue(Expr e) {
        return e instanceof Expr.Binary b && (b.op().isComparison() || b.op().isLogical())
                || e instanceof Expr.Unary u && u.op() == UnOp.LNOT;
    }

    /** Strips implicit conversions: the node a lowerer or a rewrite should look at. */
    public static Expr stripImplicit(Expr e) {
        while (e instanceof Expr.Cast c && c.implicit()) e = c.operand();
        return e;
    }
}
