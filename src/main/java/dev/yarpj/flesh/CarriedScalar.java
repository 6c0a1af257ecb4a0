package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.FloatArith;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ReductionOp;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.CarriedPolicy;
import java.util.List;

/**
 * A statement that carries a scalar from one iteration of the innermost loop around it to
 * the next (policy {@code carried:}), over data of input arrays of its own
 * ({@link ArrayVar.Fill#varied}) indexed by that loop's iterator: find-last, min or max with
 * its index, a conditional assignment, or a first-order recurrence. Every operand of an
 * operation is small (the data span at most a few dozen values near zero, constants are at
 * most 100; a min or max that starts at its type's extreme only compares it), so no operation
 * can overflow, whatever the data; the carried scalars are read by nothing else. In floating
 * point (policy {@code floats: p_carried}) the data are the same integers as floating values,
 * so no operation rounds either; a recurrence there is a difference or a sum (an exclusive or
 * drawn from {@code recurrence_op_weights} becomes a difference), or, half the time, an
 * induction {@code x += step} whose every value {@link FloatStatements#inductionExact} bounds. The statement
 * assigns scalars, so no loop around it is data-parallel ({@link DataParallelism}). A plain
 * assignment when no loop fits (an iterator below 0, or an array over the budget).
 */
final class CarriedScalar implements StatementForm {
    private final Fleshing f;
    private final CarriedPolicy cp;
    /** Slots fleshed so far: a nest compares the count before and after its body ({@link #fleshed}). */
    private int fleshed;

    CarriedScalar(Fleshing f) {
        this.f = f;
        this.cp = f.policy.carried();
    }

    /** How many carried-scalar slots have been fleshed so far, fallbacks included. */
    int fleshed() {
        return fleshed;
    }

    @Override
    public Stmt flesh(Env env) {
        fleshed++;
        LoopInfo loop = env.innermost();
        if (loop == null || loop.space().min() < 0 || loop.space().max() >= 1 << 24) return f.assign(env);
        // In floating point where floats: p_carried says: the same idioms over float or double
        // data, whose values are the small integers the integer data have, so that every
        // operation is exact. No draw where p_float is 0.
        NumType t = f.floats.drawCarried() ? f.floats.type() : f.rng.weighted(ExprBuilder.byType(cp.typeWeights()));
        ArrayVar d = dataArray(t, loop);
        if (d == null) return f.assign(env);
        Expr iter = new Expr.IterRef(loop.iter());
        NumType it = loop.iter().type();
        Expr elem = Exprs.subscript(d, List.of(iter));
        boolean select = f.rng.weighted(cp.formWeights()).equals("select");
        String kind = f.rng.weighted(cp.kindWeights());
        switch (kind) {
            case "find_last" -> {
                Expr cond = dataTest(d, elem);
                ScalarVar idx = carrier(it, indexStart(it));
                return update(cond, idx, iter, select);
            }
            case "min_max_index" -> {
                BinOp cmp = Fleshing.op(f.rng.weighted(cp.minMaxCmpWeights()));
                boolean min = cmp == BinOp.LT || cmp == BinOp.LE;
                long best = f.rng.chance(0.5) ? (min ? ReductionOp.MIN : ReductionOp.MAX).identity(t)
                        : valueOf(t, f.rng.between((int) d.fill().even() - 1, (int) (d.fill().even() + d.fill().span())));
                ScalarVar m = carrier(t, best);
                ScalarVar idx = carrier(it, indexStart(it));
                Expr cond = Exprs.binary(cmp, elem, new Expr.ScalarRef(m));
                if (select) {
                    // The index first: both tests read the best value of the iterations before.
                    return new Stmt.Block(List.of(update(cond, idx, iter, true), update(cond, m, elem, true)));
                }
                return new Stmt.If(cond, new Stmt.Block(List.of(set(m, elem), set(idx, iter))), null);
            }
            case "cond_assign" -> {
                Expr cond = dataTest(d, elem);
                ArrayVar e = f.rng.chance(0.5) ? dataArray(t, loop) : null;
                Expr from = e == null ? elem : Exprs.subscript(e, List.of(iter));
                NumType pt = Arith.promote(t);
                String opName = f.rng.pick(t.isFloat() ? FLOAT_ASSIGN_OPS : ASSIGN_OPS);
                Expr value = opName.equals("none") ? Exprs.convertImplicitly(from, pt)
                        : Exprs.binary(Fleshing.op(opName), from, new Expr.Const(pt, valueOf(pt, f.rng.between(0, 100))));
                ScalarVar s = carrier(value.type(), startValue(value.type()));
                return update(cond, s, value, select);
            }
            default -> {
                if (t.isFloat() && f.rng.chance(0.5)) {
                    Stmt induction = induction(t, loop, elem, d.fill(), env.tripProduct());
                    if (induction != null) return induction;
                }
                // out[i] = d[i] op prev; prev = d[i];
                BinOp op = Fleshing.op(f.rng.weighted(cp.recurrenceOpWeights()));
                if (t.isFloat() && op == BinOp.BXOR) op = BinOp.SUB; // no exclusive or of floating values
                long start = valueOf(t, f.rng.between((int) d.fill().even(), (int) (d.fill().even() + d.fill().span() - 1)));
                ScalarVar prev = carrier(t, start);
                Expr value = Exprs.binary(op, elem, new Expr.ScalarRef(prev));
                ArrayVar out = output(value.type(), loop);
                if (out == null) return set(prev, elem);
                Stmt store = new Stmt.Assign(Exprs.subscript(out, List.of(iter)), null, value);
                return new Stmt.Block(List.of(store, set(prev, elem)));
            }
        }
    }

    private static final int HALF_MAX_SPAN = 400;
    private static final List<String> ASSIGN_OPS = List.of("add", "sub", "bxor", "none");
    private static final List<String> FLOAT_ASSIGN_OPS = List.of("add", "sub", "none");

    /**
     * {@code out[i] = d[i] op x; x += step;}: a floating induction from a small dyadic start by
     * a dyadic step of at most 8, which vectorizers compute as {@code start + i * step} or a
     * vector of steps at a time (LLVM only where it may reassociate: under fast-math, or forced
     * by a pragma). Null where some such computation might round ({@link
     * FloatStatements#inductionExact}).
     */
    private Stmt induction(NumType t, LoopInfo loop, Expr elem, ArrayVar.Fill data, long trips) {
        long start = f.floats.dyadic();
        int k = f.rng.between(1, 8);
        long step = FloatArith.bits(Math.scalb((double) (f.rng.chance(0.5) ? k : -k), -f.rng.between(0, 3)));
        BinOp op = f.rng.chance(0.5) ? BinOp.ADD : BinOp.SUB;
        double dataMagnitude = Math.max(Math.abs(data.even()), Math.abs(data.even() + data.span() - 1));
        if (!FloatStatements.inductionExact(t, start, step, trips, dataMagnitude)) return null;
        ScalarVar x = carrier(t, start);
        Stmt advance = new Stmt.Assign(new Expr.ScalarRef(x), BinOp.ADD, new Expr.Const(t, step));
        ArrayVar out = output(t, loop);
        if (out == null) return advance;
        Expr value = Exprs.binary(op, elem, new Expr.ScalarRef(x));
        Expr iter = new Expr.IterRef(loop.iter());
        return new Stmt.Block(List.of(new Stmt.Assign(Exprs.subscript(out, List.of(iter)), null, value), advance));
    }

    /** A new output array of type {@code t} indexed by {@code loop}'s iterator, or null when over budget. */
    private ArrayVar output(NumType t, LoopInfo loop) {
        List<Integer> dims = List.of((int) loop.space().max() + 1);
        if (t.isFloat()) return f.globals.newFloatArray(false, t, dims, ArrayVar.Fill.uniform(f.floats.dyadic()));
        return f.globals.newPrivateArray(false, t, dims, ArrayVar.Fill.uniform(f.exprs.interestingValue(t)));
    }

    /**
     * A new input array of type {@code t} walked by {@code loop}'s iterator, holding values
     * that change from element to element: from a base near zero (at least 1 when unsigned)
     * over at most {@code carried: max_span} values. A floating array holds the same
     * integers, as floating values.
     */
    private ArrayVar dataArray(NumType t, LoopInfo loop) {
        long base = t.signed ? f.rng.between(-100, 100) : f.rng.between(1, 200);
        // In half precision at most HALF_MAX_SPAN values, so that a sum or a difference of two
        // (and a constant) stays below 2048, where a half still holds every integer.
        int span = f.rng.between(2, t == NumType.HALF ? Math.min(cp.maxSpan(), HALF_MAX_SPAN) : cp.maxSpan());
        ArrayVar.Fill fill = ArrayVar.Fill.varied(base, f.rng.between(1, 997), f.rng.between(0, span - 1), span);
        List<Integer> dims = List.of((int) loop.space().max() + 1);
        return t.isFloat() ? f.globals.newFloatDataArray(t, dims, fill) : f.globals.newSentinelArray(t, dims, fill);
    }

    /** {@code d[i] cmp K}, K in or just outside the data's range: true on some elements, all, or none. */
    private Expr dataTest(ArrayVar d, Expr elem) {
        BinOp cmp = Fleshing.op(f.rng.weighted(cp.condCmpWeights()));
        long k = f.rng.between((int) d.fill().even() - 1, (int) (d.fill().even() + d.fill().span()));
        NumType kt = Arith.promote(d.base());
        return Exprs.binary(cmp, elem, new Expr.Const(kt, valueOf(kt, k)));
    }

    /** The integer {@code k} as a value of type {@code t}: converted, or a floating value's bits. */
    private static long valueOf(NumType t, long k) {
        return t.isFloat() ? FloatArith.bits((double) k) : Arith.convert(k, t);
    }

    /** Where an index starts before anything is found: -1 in its type, or a value of interest. */
    private long indexStart(NumType t) {
        return f.rng.chance(0.5) ? Arith.convert(-1, t) : f.exprs.interestingValue(t);
    }

    /** Where a conditionally assigned scalar starts: a value of interest, or a small dyadic rational in floating point. */
    private long startValue(NumType t) {
        return t.isFloat() ? f.floats.dyadic() : f.exprs.interestingValue(t);
    }

    /**
     * A carried scalar of type {@code t} starting at {@code start}: a local declared before the
     * nest and stored to a new output after it (policy {@code p_local}), or a new output.
     * Either way nothing else reads or writes it.
     */
    private ScalarVar carrier(NumType t, long start) {
        if (t.isFloat()) return f.carried(t, start, () -> f.rng.chance(cp.pLocal()), f.globals::newFloatAccumulator, f.floats::dyadic);
        return f.carried(t, start, () -> f.rng.chance(cp.pLocal()));
    }

    /** {@code v = value}, converted to {@code v}'s type. */
    private static Stmt.Assign set(ScalarVar v, Expr value) {
        return new Stmt.Assign(new Expr.ScalarRef(v), null, Exprs.convertImplicitly(value, v.base()));
    }

    /** {@code if (cond) v = value;} or, as a select, {@code v = cond ? value : v;}. */
    private static Stmt update(Expr cond, ScalarVar v, Expr value, boolean select) {
        if (select) return set(v, Exprs.ternary(cond, value, new Expr.ScalarRef(v)));
        return new Stmt.If(cond, new Stmt.Block(List.of(set(v, value))), null);
    }
}
