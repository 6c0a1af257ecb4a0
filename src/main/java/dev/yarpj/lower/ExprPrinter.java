package dev.yarpj.lower;

import dev.yarpj.ir.Expr;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.UnOp;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints typed IR expressions. The IR already says every conversion (implicit ones are
 * marked); a language prints each where its own rules would not do the same silently, and
 * spells types, literals, conditions and library calls its way through the hooks below.
 * Nothing here decides what an expression computes.
 */
abstract class ExprPrinter {
    /** The language's name of {@code t}. */
    abstract String type(NumType t);

    /** A literal of type {@code t}. */
    abstract String literal(NumType t, long v);

    /** min or max of two operands already of type {@code t}. */
    abstract String minMax(boolean min, NumType t, String a, String b);

    /** A call of the math library's {@code fn} (fmin, fmax, fma, sqrt, fabs) on operands already of floating type {@code t}. */
    abstract String mathCall(dev.yarpj.ir.Builtin fn, NumType t, List<String> args);

    /** Whether a conversion C applies silently must be printed in this language. */
    abstract boolean printsImplicitCasts();

    /** A comparison or logical operator's result, which this language may type as bool, as the IR's int. */
    String boolToInt(String boolExpr) {
        return boolExpr;
    }

    /** An int-valued expression used where a condition is expected. */
    String truth(Expr e) {
        return expr(e);
    }

    /** The right operand of a shift, already of the promoted type of its own. */
    String shiftAmount(Expr.Binary b) {
        return expr(b.rhs());
    }

    /** {@code cond ? a : b} (the arms are of the result type). */
    String ternary(Expr.Ternary t) {
        return "(" + truth(t.cond()) + " ? " + arm(t.then()) + " : " + arm(t.otherwise()) + ")";
    }

    /** An arm of {@code ?:}, converted to the result type as the IR says. */
    String arm(Expr e) {
        return expr(e);
    }

    /** A scalar variable: its name, or (SYCL) the one element of device memory that holds it. */
    String scalar(dev.yarpj.ir.ScalarVar v) {
        return v.name();
    }

    /** An array element, given its printed indices: a field of an array of structs is the field of its element. */
    String element(dev.yarpj.ir.ArrayVar a, List<String> indices) {
        return elementText(a, indices);
    }

    /** {@code a[i][j]}, or for a field of an array of structs {@code structs[i][j].a}. */
    static String elementText(dev.yarpj.ir.ArrayVar a, List<String> indices) {
        StringBuilder sb = new StringBuilder(a.field() != null ? a.field().structs() : a.name());
        for (String i : indices) sb.append('[').append(i).append(']');
        if (a.field() != null) sb.append('.').append(a.name());
        return sb.toString();
    }

    /** The element of an array of structs that field {@code a}'s element is in: {@code structs[i][j]}. */
    static String structElement(dev.yarpj.ir.ArrayVar a, List<String> indices) {
        StringBuilder sb = new StringBuilder(a.field().structs());
        for (String i : indices) sb.append('[').append(i).append(']');
        return sb.toString();
    }

    /** The fields of the struct helper {@code h} returns, {@code { int v0; short v1; }}. */
    final String resultFields(dev.yarpj.ir.Helper h) {
        StringBuilder sb = new StringBuilder("{");
        for (int k = 0; k < h.results().size(); k++) sb.append(' ').append(type(h.result(k))).append(' ').append(dev.yarpj.ir.Helper.resultField(k)).append(';');
        return sb.append(" }").toString();
    }

    /**
     * The body of helper {@code h}, which returns a struct declared {@code decl}: each field
     * assigned in turn (as the interpreter computes them), then the struct returned.
     * Assignments convert as a return does, where C++'s braced initializers would reject a
     * narrowing one.
     */
    final String structReturn(dev.yarpj.ir.Helper h, String decl) {
        StringBuilder sb = new StringBuilder(decl).append(" ret;");
        for (int k = 0; k < h.results().size(); k++) {
            sb.append(" ret.").append(dev.yarpj.ir.Helper.resultField(k)).append(" = ").append(expr(h.results().get(k))).append(';');
        }
        return sb.append(" return ret;").toString();
    }

    String cast(NumType to, String operand) {
        return "((" + type(to) + ") " + operand + ")";
    }

    final String expr(Expr e) {
        return e.accept(printer);
    }

    private final Expr.Visitor<String> printer = new Expr.Visitor<>() {
        @Override
        public String constant(Expr.Const c) {
            return literal(c.type(), c.value());
        }

        @Override
        public String scalar(Expr.ScalarRef r) {
            // A helper's parameter passed by pointer is read through it (parenthesized: "a / *p" would open a comment).
            if (r.var().indexed()) return r.var().name() + "[" + r.var().indexName() + "]";
            return r.var().byPointer() ? "(*" + r.var().name() + ")" : ExprPrinter.this.scalar(r.var());
        }

        @Override
        public String iter(Expr.IterRef r) {
            return r.iter().name();
        }

        @Override
        public String cast(Expr.Cast c) {
            if (c.implicit() && (!printsImplicitCasts() || c.type() == c.operand().type())) return expr(c.operand());
            return ExprPrinter.this.cast(c.type(), expr(c.operand()));
        }

        @Override
        public String unary(Expr.Unary u) {
            if (u.op() == UnOp.LNOT) return boolToInt("(!" + truth(u.operand()) + ")");
            return "(" + u.op().symbol + expr(u.operand()) + ")";
        }

        @Override
        public String binary(Expr.Binary b) {
            if (b.op().isLogical()) {
                return boolToInt("(" + truth(b.lhs()) + " " + b.op().symbol + " " + truth(b.rhs()) + ")");
            }
            String rhs = b.op().isShift() ? shiftAmount(b) : expr(b.rhs());
            String text = "(" + expr(b.lhs()) + " " + b.op().symbol + " " + rhs + ")";
            return b.op().isComparison() ? boolToInt(text) : text;
        }

        @Override
        public String ternary(Expr.Ternary t) {
            return ExprPrinter.this.ternary(t);
        }

        @Override
        public String subscript(Expr.Subscript s) {
            return element(s.array(), s.indices().stream().map(ExprPrinter.this::expr).toList());
        }

        @Override
        public String call(Expr.Call c) {
            List<String> args = c.args().stream().map(ExprPrinter.this::expr).toList();
            if (c.fn().mathLibrary()) return mathCall(c.fn(), c.type(), args);
            return minMax(c.fn() == dev.yarpj.ir.Builtin.MIN, c.type(), args.get(0), args.get(1));
        }

        @Override
        public String helperCall(Expr.HelperCall c) {
            List<String> args = new ArrayList<>();
            for (int i = 0; i < c.args().size(); i++) {
                dev.yarpj.ir.ScalarVar p = c.helper().params().get(i);
                if (p.isField()) {
                    // A struct is passed whole (or its address): the element its fields' arguments are fields of.
                    dev.yarpj.ir.Helper.StructParam g = c.helper().structStartingAt(p);
                    if (g == null) continue;
                    Expr.Subscript s = (Expr.Subscript) c.args().get(i);
                    String element = structElement(s.array(), s.indices().stream().map(ExprPrinter.this::expr).toList());
                    args.add(g.byPointer() ? "&" + element : element);
                    continue;
                }
                if (p.indexed()) {
                    // The row the element is in, and its last subscript: the callee indexes the row.
                    // &a[i][0] rather than a[i]: ispc does not decay a row a varying i picks.
                    Expr.Subscript s = (Expr.Subscript) c.args().get(i);
                    List<String> is = new ArrayList<>(s.indices().stream().map(ExprPrinter.this::expr).toList());
                    String at = is.set(is.size() - 1, "0");
                    args.add("&" + element(s.array(), is));
                    args.add(at);
                    continue;
                }
                String a = expr(c.args().get(i));
                args.add(p.byPointer() ? "&" + a : a);
            }
            String call = c.helper().name() + "(" + String.join(", ", args) + ")";
            return c.helper().returnsStruct() ? call + "." + dev.yarpj.ir.Helper.resultField(c.field()) : call;
        }

        @Override
        public String stencil(Expr.Stencil st) {
            // Taps are folded in the stencil's type: promoted silently in C, cast where that is not so.
            List<String> taps = new ArrayList<>();
            for (Expr.Subscript t : st.taps()) {
                taps.add(printsImplicitCasts() && t.type() != st.type() ? ExprPrinter.this.cast(st.type(), expr(t)) : expr(t));
            }
            return "(" + String.join(" " + st.combine().symbol + " ", taps) + ")";
        }
    };

    /** The C spelling of a literal: int, unsigned int, long long or unsigned long long; _Float16, float or double. */
    static String cLiteral(NumType t, long v) {
        if (t.isFloat()) return floatLiteral(t, v, "f", "", "_Float16");
        switch (t) {
            case UINT:
                return v + "U";
            case ULLONG:
                return Long.toUnsignedString(v) + "ULL";
            case LLONG:
                if (v == Long.MIN_VALUE) return "(-9223372036854775807LL - 1)";
                return v < 0 ? "(" + v + "LL)" : v + "LL";
            default:
                if (v == Integer.MIN_VALUE) return "(-2147483647 - 1)";
                return v < 0 ? "(" + v + ")" : Long.toString(v);
        }
    }

    /**
     * A floating literal that is exactly the value: its decimal digits (a dyadic value has
     * finitely many), or hexadecimal where they would be many; {@code floatSuffix} marks a
     * float ({@code f} in C and ISPC), {@code doubleSuffix} a double (ISPC's {@code d}; none in C).
     * A half is the float literal converted to {@code halfType}: C++ before C++23 has no half
     * suffix, and every half value is a float's.
     */
    static String floatLiteral(NumType t, long v, String floatSuffix, String doubleSuffix, String halfType) {
        if (t == NumType.HALF) return "((" + halfType + ") " + floatLiteral(NumType.FLOAT, v, floatSuffix, doubleSuffix, halfType) + ")";
        double x = dev.yarpj.ir.FloatArith.value(v);
        String digits = new java.math.BigDecimal(x).toPlainString();
        if (digits.length() > 24) digits = Double.toHexString(x);
        else if (!digits.contains(".")) digits += ".0";
        String text = digits + (t == NumType.FLOAT ? floatSuffix : doubleSuffix);
        return x < 0 ? "(" + text + ")" : text;
    }
}
