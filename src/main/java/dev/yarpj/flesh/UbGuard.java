package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.UnOp;
import java.util.List;

/**
 * Builds operator nodes over valued operands so that no active context meets UB, by
 * rewriting at build time rather than by a runtime check (YARPGen's approach): an operator
 * that would overflow or divide by zero is replaced by a related one, a bad shift amount
 * is masked into range, a left shift that would overflow becomes a right shift. The
 * bitwise operators end every chain because they are defined for all operands.
 *
 * <p>A {@code portable} guard also avoids what is implementation-defined (policy
 * allow_impl_defined: false): a right shift of a negative value shifts its unsigned
 * counterpart instead, and a cast whose value would not fit a signed type casts to the
 * unsigned type of the same width.
 */
final class UbGuard {
    private final boolean portable;

    /**
     * Every arm of ?: and operand of && and || may run (ISPC, with a varying condition), and
     * both branches of an if run with some lanes masked off: each must be defined wherever
     * the whole expression or statement runs, not only where it is taken.
     */
    private final boolean eager;

    UbGuard(boolean portable) {
        this(portable, false);
    }

    UbGuard(boolean portable, boolean eager) {
        this.portable = portable;
        this.eager = eager;
    }

    boolean eager() {
        return eager;
    }

    boolean portable() {
        return portable;
    }

    private static List<BinOp> fallbacks(BinOp op) {
        return switch (op) {
            case ADD -> List.of(BinOp.ADD, BinOp.SUB, BinOp.BXOR);
            case SUB -> List.of(BinOp.SUB, BinOp.ADD, BinOp.BXOR);
            case MUL -> List.of(BinOp.MUL, BinOp.DIV, BinOp.SUB, BinOp.BXOR);
            case DIV -> List.of(BinOp.DIV, BinOp.MUL, BinOp.SUB, BinOp.BAND);
            case REM -> List.of(BinOp.REM, BinOp.DIV, BinOp.BOR);
            default -> List.of(op, BinOp.BXOR);
        };
    }

    Valued binary(BinOp op, Valued a, Valued b, int mask) {
        if (op.isShift()) return shift(op, a, b, mask);
        for (BinOp cand : fallbacks(op)) {
            Valued r = tryBinary(cand, a, b, mask);
            if (r != null) return r;
        }
        throw new IllegalStateException("no UB-free operator for " + op);
    }

    private Valued shift(BinOp op, Valued a, Valued b, int mask) {
        Valued r = tryBinary(op, a, b, mask);
        if (r != null) return r;
        int width = Arith.promote(a.expr().type()).bits;
        NumType amountType = Arith.promote(b.expr().type());
        Valued inRange = tryBinary(BinOp.BAND, b, Valued.constant(new Expr.Const(amountType, width - 1), width - 1), mask);
        r = tryBinary(op, a, inRange, mask);
        if (r != null) return r;
        r = tryBinary(BinOp.SHR, a, inRange, mask);
        if (r == null && portable) {
            // A negative value shifted right: shift its unsigned counterpart, which is defined.
            Valued unsigned = cast(a, Arith.promote(a.expr().type()).toUnsigned());
            r = tryBinary(BinOp.SHR, unsigned, inRange, mask);
        }
        if (r == null) throw new IllegalStateException("right shift by an in-range amount cannot be UB");
        return r;
    }

    /** {@code a op b} if it is UB-free in every context of {@code mask}, else null. */
    Valued tryBinary(BinOp op, Valued a, Valued b, int mask) {
        Expr.Binary node = Exprs.binary(op, a.expr(), b.expr());
        NumType lt = node.lhs().type();
        NumType rt = node.rhs().type();
        long[] v = new long[2];
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(mask, c)) continue;
            long x = Arith.convert(a.values()[c], lt);
            long y = Arith.convert(b.values()[c], rt);
            if (Arith.binaryUb(op, lt, x, rt, y) != null) return null;
            if (portable && Arith.binaryImplDefined(op, lt, x)) return null;
            v[c] = Arith.binary(op, lt, x, rt, y);
        }
        return new Valued(node, v);
    }

    Valued unary(UnOp op, Valued a, int mask) {
        Expr.Unary node = Exprs.unary(op, a.expr());
        NumType t = node.operand().type();
        long[] v = new long[2];
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(mask, c)) continue;
            long x = Arith.convert(a.values()[c], t);
            if (Arith.unaryUb(op, t, x) != null) return unary(UnOp.BNOT, a, mask);
            v[c] = Arith.unary(op, t, x);
        }
        return new Valued(node, v);
    }

    Valued call(Builtin fn, Valued a, Valued b, int mask) {
        Expr.Call node = Exprs.call(fn, a.expr(), b.expr());
        long[] v = new long[2];
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(mask, c)) continue;
            v[c] = Arith.builtin(fn, node.type(), Arith.convert(a.values()[c], node.type()),
                    Arith.convert(b.values()[c], node.type()));
        }
        return new Valued(node, v);
    }

    Valued cast(Valued a, NumType to) {
        if (portable && !fits(a, to)) to = to.toUnsigned();
        return new Valued(Exprs.cast(a.expr(), to),
                new long[] {Arith.convert(a.values()[0], to), Arith.convert(a.values()[1], to)});
    }

    /** Whether converting {@code a} to {@code to} keeps its value in both contexts (or is defined anyway). */
    static boolean fits(Valued a, NumType to) {
        NumType from = a.expr().type();
        return !Arith.conversionImplDefined(a.values()[0], from, to) && !Arith.conversionImplDefined(a.values()[1], from, to);
    }

    /**
     * {@code a}, made to fit {@code to} when a portable program must not convert an
     * out-of-range value to it: {@code a & TMAX}, with TMAX the largest value of the signed
     * type {@code to}, is never negative and never above TMAX.
     */
    Valued fitted(Valued a, NumType to, int mask) {
        if (!portable || fits(a, to)) return a;
        NumType t = Arith.promote(a.expr().type());
        long max = to.max();
        return binary(BinOp.BAND, a, Valued.constant(new Expr.Const(t, Arith.convert(max, t)), max), mask);
    }

    Valued convertImplicitly(Valued a, NumType to) {
        return new Valued(Exprs.convertImplicitly(a.expr(), to),
                new long[] {Arith.convert(a.values()[0], to), Arith.convert(a.values()[1], to)});
    }

    /** cond ? a : b, where each arm's values are meaningful in the contexts that take it. */
    Valued ternary(Valued cond, Valued a, Valued b, int mask) {
        Expr.Ternary node = Exprs.ternary(cond.expr(), a.expr(), b.expr());
        long[] v = new long[2];
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(mask, c)) continue;
            v[c] = Arith.convert(cond.values()[c] != 0 ? a.values()[c] : b.values()[c], node.type());
        }
        return new Valued(node, v);
    }
}
