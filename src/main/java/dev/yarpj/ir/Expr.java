package dev.yarpj.ir;

import java.util.List;

/**
 * Expressions. The tree is fully typed: the conversions C applies silently are present as
 * {@link Cast} nodes marked implicit (lowerers print nothing for them), so every operator
 * node's operands already have the operator's operand type. Build nodes with {@link Exprs}.
 */
public sealed interface Expr {
    NumType type();

    <R> R accept(Visitor<R> v);

    /**
     * One method per kind of expression: a pass over expressions implements it, so a new kind
     * does not compile until every pass says what it does with it (as {@link Stmt.Visitor}).
     */
    interface Visitor<R> {
        R constant(Const e);

        R scalar(ScalarRef e);

        R iter(IterRef e);

        R unary(Unary e);

        R binary(Binary e);

        R ternary(Ternary e);

        R cast(Cast e);

        R subscript(Subscript e);

        R call(Call e);

        R helperCall(HelperCall e);

        R stencil(Stencil e);
    }

    /**
     * A pass that looks at some kinds of expression anywhere in a tree: it visits every node,
     * operands left to right; a pass overrides the kinds it cares about (and calls {@code
     * super} to go on below them).
     */
    abstract class Walker implements Visitor<Void> {
        public final void walk(Expr e) {
            e.accept(this);
        }

        @Override
        public Void constant(Const e) {
            return null;
        }

        @Override
        public Void scalar(ScalarRef e) {
            return null;
        }

        @Override
        public Void iter(IterRef e) {
            return null;
        }

        @Override
        public Void unary(Unary e) {
            return e.operand().accept(this);
        }

        @Override
        public Void binary(Binary e) {
            e.lhs().accept(this);
            return e.rhs().accept(this);
        }

        @Override
        public Void ternary(Ternary e) {
            e.cond().accept(this);
            e.then().accept(this);
            return e.otherwise().accept(this);
        }

        @Override
        public Void cast(Cast e) {
            return e.operand().accept(this);
        }

        @Override
        public Void subscript(Subscript e) {
            for (Expr i : e.indices()) i.accept(this);
            return null;
        }

        @Override
        public Void call(Call e) {
            for (Expr a : e.args()) a.accept(this);
            return null;
        }

        /** The arguments; the helper's body is the helper's, walked with {@link Program#helpers}. */
        @Override
        public Void helperCall(HelperCall e) {
            for (Expr a : e.args()) a.accept(this);
            return null;
        }

        @Override
        public Void stencil(Stencil e) {
            for (Expr t : e.taps()) t.accept(this);
            return null;
        }
    }

    /**
     * A visitor that asks one question of every node, answered by combining its operands'
     * answers in order ({@code or}: does any operand read a varying value, say); a pass
     * overrides the kinds it decides itself.
     */
    abstract class AnyOperand implements Visitor<Boolean> {
        /** The answer for a leaf this pass does not decide. */
        protected boolean leaf(Expr e) {
            return false;
        }

        private boolean any(List<? extends Expr> es) {
            for (Expr e : es) if (e.accept(this)) return true;
            return false;
        }

        @Override
        public Boolean constant(Const e) {
            return leaf(e);
        }

        @Override
        public Boolean scalar(ScalarRef e) {
            return leaf(e);
        }

        @Override
        public Boolean iter(IterRef e) {
            return leaf(e);
        }

        @Override
        public Boolean unary(Unary e) {
            return e.operand().accept(this);
        }

        @Override
        public Boolean binary(Binary e) {
            return any(List.of(e.lhs(), e.rhs()));
        }

        @Override
        public Boolean ternary(Ternary e) {
            return any(List.of(e.cond(), e.then(), e.otherwise()));
        }

        @Override
        public Boolean cast(Cast e) {
            return e.operand().accept(this);
        }

        @Override
        public Boolean subscript(Subscript e) {
            return any(e.indices());
        }

        @Override
        public Boolean call(Call e) {
            return any(e.args());
        }

        /** The arguments: a body reads nothing but its parameters, so what it reads is what they are. */
        @Override
        public Boolean helperCall(HelperCall e) {
            return any(e.args());
        }

        @Override
        public Boolean stencil(Stencil e) {
            return any(e.taps());
        }
    }

    record Const(NumType type, long value) implements Expr {
        public <R> R accept(Visitor<R> v) {
            return v.constant(this);
        }
    }

    record ScalarRef(ScalarVar var) implements Expr {
        public <R> R accept(Visitor<R> v) {
            return v.scalar(this);
        }

        public NumType type() {
            return var.base();
        }
    }

    record IterRef(Iterator iter) implements Expr {
        public <R> R accept(Visitor<R> v) {
            return v.iter(this);
        }

        public NumType type() {
            return iter.type();
        }
    }

    record Unary(UnOp op, NumType type, Expr operand) implements Expr {
        public <R> R accept(Visitor<R> v) {
            return v.unary(this);
        }
    }

    record Binary(BinOp op, NumType type, Expr lhs, Expr rhs) implements Expr {
        public <R> R accept(Visitor<R> v) {
            return v.binary(this);
        }
    }

    record Ternary(NumType type, Expr cond, Expr then, Expr otherwise) implements Expr {
        public <R> R accept(Visitor<R> v) {
            return v.ternary(this);
        }
    }

    record Cast(NumType type, Expr operand, boolean implicit) implements Expr {
        public <R> R accept(Visitor<R> v) {
            return v.cast(this);
        }
    }

    record Subscript(ArrayVar array, List<Expr> indices) implements Expr {
        public <R> R accept(Visitor<R> v) {
            return v.subscript(this);
        }

        public NumType type() {
            return array.base();
        }
    }

    /** A call of a library function ({@link Builtin}), its operands already of its type. */
    record Call(Builtin fn, NumType type, List<Expr> args) implements Expr {
        public Call {
            args = List.copyOf(args);
            if (args.size() != fn.arity) throw new IllegalArgumentException(fn + " takes " + fn.arity + " operands, not " + args.size());
            if (fn.mathLibrary() && !type.isFloat()) throw new IllegalArgumentException(fn + " on " + type);
        }

        public <R> R accept(Visitor<R> v) {
            return v.call(this);
        }
    }

    /**
     * A call of a helper: each argument already of its parameter's type; the argument of a
     * parameter passed by pointer is the element whose address the call passes. Its value is
     * the helper's result {@code field} (0 where the helper returns one value): the field of
     * the struct it returns that the call reads.
     */
    record HelperCall(Helper helper, List<Expr> args, int field) implements Expr {
        public HelperCall(Helper helper, List<Expr> args) {
            this(helper, args, 0);
        }

        public HelperCall {
            args = List.copyOf(args);
            if (field < 0 || field >= helper.results().size()) throw new IllegalArgumentException(helper.name() + " has no result " + field);
            if (args.size() != helper.params().size()) throw new IllegalArgumentException("wrong number of arguments to " + helper.name());
            for (int i = 0; i < args.size(); i++) {
                if (args.get(i).type() != helper.params().get(i).base()) {
                    throw new IllegalArgumentException("argument " + i + " of " + helper.name() + " is not of its parameter's type");
                }
                if (helper.params().get(i).byPointer() && !(args.get(i) instanceof Subscript)) {
                    throw new IllegalArgumentException("argument " + i + " of " + helper.name() + " is passed by pointer, and is not an element");
                }
            }
            for (Helper.StructParam g : helper.structParams()) {
                // The arguments of a struct's fields are those fields of one element of one array of structs.
                int at = helper.params().indexOf(g.fields().get(0));
                Subscript first = args.get(at) instanceof Subscript s ? s : null;
                for (int i = at; i < at + g.fields().size(); i++) {
                    if (!(args.get(i) instanceof Subscript s) || first == null || s.array().field() == null
                            || !s.array().field().structs().equals(first.array().field().structs())
                            || !s.array().field().type().equals(g.type()) || !s.indices().equals(first.indices())
                            || !g.fields().get(i - at).name().equals(g.name() + (g.byPointer() ? "->" : ".") + s.array().name())) {
                        throw new IllegalArgumentException("the arguments of " + g.name() + " of " + helper.name() + " are not fields of one struct");
                    }
                }
            }
        }

        public <R> R accept(Visitor<R> v) {
            return v.helperCall(this);
        }

        public NumType type() {
            return helper.result(field);
        }
    }

    /**
     * A stencil: array elements at constant offsets from the iterators ({@code a[i-1][j] +
     * a[i][j] + b[i+2][j]}), combined left to right by {@code combine}. Every tap has the
     * same element type, whose promotion is {@code type}, so the fold in {@code type} is
     * exactly what C computes for the printed expression.
     */
    record Stencil(BinOp combine, NumType type, List<Subscript> taps) implements Expr {
        public <R> R accept(Visitor<R> v) {
            return v.stencil(this);
        }
    }
}
