package dev.yarpj.ir;

import java.util.List;

/**
 * Expressions. The tree is fully typed: the conversions C applies silently are present as
 * {@link Cast} nodes marked implicit (lowerers print nothing for them), so every operator
 * node's operands already have the operator's operand type. Build nodes with {@link Exprs}.
 */
public sealed interface Expr {
    IntType type();

    record Const(IntType type, long value) implements Expr {}

    record ScalarRef(ScalarVar var) implements Expr {
        public IntType type() {
            return var.base();
        }
    }

    record IterRef(Iterator iter) implements Expr {
        public IntType type() {
            return iter.type();
        }
    }

    record Unary(UnOp op, IntType type, Expr operand) implements Expr {}

    record Binary(BinOp op, IntType type, Expr lhs, Expr rhs) implements Expr {}

    record Ternary(IntType type, Expr cond, Expr then, Expr otherwise) implements Expr {}

    record Cast(IntType type, Expr operand, boolean implicit) implements Expr {}

    record Subscript(ArrayVar array, List<Expr> indices) implements Expr {
        public IntType type() {
            return array.base();
        }
    }

    record Call(Builtin fn, IntType type, Expr lhs, Expr rhs) implements Expr {}

    /**
     * A stencil: array elements at constant offsets from the iterators ({@code a[i-1][j] +
     * a[i][j] + b[i+2][j]}), combined left to right by {@code combine}. Every tap has the
     * same element type, whose promotion is {@code type}, so the fold in {@code type} is
     * exactly what C computes for the printed expression.
     */
    record Stencil(BinOp combine, IntType type, List<Subscript> taps) implements Expr {}
}
