package dev.yarpj.ir;

import java.util.List;

/**
 * The one way to build typed expression nodes: it inserts the implicit conversions of C
 * (promotions, usual arithmetic conversions, conversion on assignment) as {@link Expr.Cast}
 * nodes, using the rules in {@link Arith}.
 */
public final class Exprs {
    private Exprs() {}

    public static Expr convertImplicitly(Expr e, NumType to) {
        return e.type() == to ? e : new Expr.Cast(to, e, true);
    }

    public static Expr cast(Expr e, NumType to) {
        return new Expr.Cast(to, e, false);
    }

    public static Expr.Binary binary(BinOp op, Expr lhs, Expr rhs) {
        NumType lt = Arith.operandType(op, lhs.type(), rhs.type(), true);
        NumType rt = Arith.operandType(op, lhs.type(), rhs.type(), false);
        return new Expr.Binary(op, Arith.resultType(op, lhs.type(), rhs.type()),
                convertImplicitly(lhs, lt), convertImplicitly(rhs, rt));
    }

    public static Expr.Unary unary(UnOp op, Expr operand) {
        NumType t = Arith.promote(operand.type());
        return new Expr.Unary(op, Arith.resultType(op, operand.type()), convertImplicitly(operand, t));
    }

    /** cond ? a : b, with both arms converted to their common type. */
    public static Expr.Ternary ternary(Expr cond, Expr a, Expr b) {
        NumType t = Arith.common(a.type(), b.type());
        return new Expr.Ternary(t, cond, convertImplicitly(a, t), convertImplicitly(b, t));
    }

    /** A library call with every operand converted to their common type (the usual arithmetic conversions). */
    public static Expr.Call call(Builtin fn, Expr... args) {
        NumType t = args[0].type();
        for (Expr a : args) t = Arith.common(t, a.type());
        List<Expr> converted = new java.util.ArrayList<>();
        for (Expr a : args) converted.add(convertImplicitly(a, t));
        return new Expr.Call(fn, t, converted);
    }

    /** A call of {@code h}, each argument converted to its parameter's type as on assignment. */
    public static Expr.HelperCall helperCall(Helper h, List<Expr> args) {
        return helperCall(h, args, 0);
    }

    /** A call of {@code h} that reads field {@code field} of the struct it returns (0: its one value). */
    public static Expr.HelperCall helperCall(Helper h, List<Expr> args, int field) {
        List<Expr> converted = new java.util.ArrayList<>();
        for (int i = 0; i < args.size(); i++) converted.add(convertImplicitly(args.get(i), h.params().get(i).base()));
        return new Expr.HelperCall(h, converted, field);
    }

    public static Expr.Subscript subscript(ArrayVar array, List<Expr> indices) {
        return new Expr.Subscript(array, List.copyOf(indices));
    }

    /** A stencil over taps of one element type, folded in its promoted type. */
    public static Expr.Stencil stencil(BinOp combine, List<Expr.Subscript> taps) {
        NumType elem = taps.get(0).type();
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

    /**
     * {@code iter * k + j} (just {@code iter * k} when {@code j} is 0): element {@code j} of the
     * iterator's group of {@code k}, an interleaved access. The caller keeps it in bounds.
     */
    public static Expr grouped(Expr iter, int k, int j) {
        Expr scaled = binary(BinOp.MUL, iter, new Expr.Const(NumType.INT, k));
        return j == 0 ? scaled : binary(BinOp.ADD, scaled, new Expr.Const(NumType.INT, j));
    }

    /**
     * The group size {@code k} when {@code index} is {@code it}'s element {@code j} of a group
     * ({@code it} itself: 1; {@code it * k + j} with {@code 0 <= j < k}, as {@link #grouped}
     * builds it: k), else 0. Two iterations then index disjoint elements.
     */
    public static int groupOf(Expr index, Iterator it) {
        Expr e = stripImplicit(index);
        long j = 0;
        if (e instanceof Expr.Binary add && add.op() == BinOp.ADD && stripImplicit(add.rhs()) instanceof Expr.Const c) {
            j = c.value();
            e = stripImplicit(add.lhs());
        }
        if (e instanceof Expr.IterRef r) return r.iter().equals(it) && j == 0 ? 1 : 0;
        if (e instanceof Expr.Binary mul && mul.op() == BinOp.MUL && stripImplicit(mul.lhs()) instanceof Expr.IterRef r
                && r.iter().equals(it) && stripImplicit(mul.rhs()) instanceof Expr.Const k && k.value() > 1 && k.value() <= 64
                && j >= 0 && j < k.value()) {
            return (int) k.value();
        }
        return 0;
    }

    /** Strips implicit conversions: the node a lowerer or a rewrite should look at. */
    public static Expr stripImplicit(Expr e) {
        while (e instanceof Expr.Cast c && c.implicit()) e = c.operand();
        return e;
    }
}
