package dev.yarpj.flesh;

import dev.yarpj.ir.AnyOrder;
import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.FloatArith;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ReductionOp;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.FloatPolicy;
import java.util.List;

/**
 * Element-wise stores and reductions in {@code float} or {@code double}, or half precision
 * (policy {@code floats:}) whose every operation is exact in any order a compiler may choose, so that
 * {@code -Ofast} must still print the prediction.
 *
 * <p>Each operation's result must be a value of its type ({@link FloatArith}); an operation
 * that would round is dropped for its left operand, as {@link UbGuard} drops what would be UB.
 * That is not enough under fast-math, which may reassociate, undistribute or contract into
 * FMA: so each expression also carries, per context, the quantum and bound of {@link
 * AnyOrder}, and an operation is kept only where every value any rearrangement of it makes
 * is held exactly. A reduction's bound is its start's plus the trip
 * product times its value's: the value is the same on every iteration of a context, as every
 * value fleshing builds is. A sum over that bound becomes a min or a max, as an integer sum
 * that might overflow becomes an exclusive or. The math library's calls follow the same rules:
 * an {@code fma(a, b, c)} is the product and then the sum (so contracting or splitting it
 * changes nothing), a {@code sqrt(a * a)} carries its square's quantum and bound as well as
 * {@code |a|}'s, and {@code fmin}, {@code fmax} and {@code fabs} are exact always.
 */
final class FloatStatements {
    private final Fleshing f;
    private final FloatPolicy p;

    /** The values of a floating type new arrays and constants take: small dyadic rationals. */
    final class Values {
        private final NumType type;

        Values(NumType type) {
            this.type = type;
        }

        NumType type() {
            return type;
        }

        /** A small dyadic rational ({@link FloatStatements#dyadic}). */
        long next() {
            return dyadic();
        }
    }

    /** A floating expression with its value, quantum exponent and magnitude bound in each context. */
    record FValue(Expr expr, long[] values, int[] quantum, double[] bound) {
        static FValue leaf(Expr e, long[] values) {
            return of(e, values, AnyOrder.of(values[0]), AnyOrder.of(values[1]));
        }

        /** {@code e} with {@code values}, and per context the quantum and bound of {@code even} and {@code odd}. */
        static FValue of(Expr e, long[] values, AnyOrder even, AnyOrder odd) {
            return new FValue(e, values, new int[] {even.quantum(), odd.quantum()}, new double[] {even.bound(), odd.bound()});
        }

        /** The quantum and bound in context {@code c}. */
        AnyOrder at(int c) {
            return new AnyOrder(quantum[c], bound[c]);
        }
    }

    /** Whether an integer leaf from floating point is being made: its own integer leaves are plain. */
    private boolean makingInteger;

    FloatStatements(Fleshing f) {
        this.f = f;
        this.p = f.policy.floats();
    }

    /** Whether the next element-wise store or reduction is in floating point; no draw where p_float is 0. */
    boolean draw() {
        return p.pFloat() > 0 && f.rng.chance(p.pFloat());
    }

    /** Whether the next scalar a loop carries ({@link CarriedScalar}) is in floating point; no draw where p_float is 0. */
    boolean drawCarried() {
        return p.pFloat() > 0 && f.rng.chance(p.pCarried());
    }

    /** {@code k / 2^s}, |k| up to 64, s up to 3: from -64 to 64 in steps down to 1/8, as a floating value's bits. */
    long dyadic() {
        long k = f.rng.between(-64, 64);
        int s = f.rng.between(0, 3);
        return FloatArith.bits(Math.scalb((double) k, -s));
    }

    /** {@code out[..] = e}: a new floating output array walked by the loops in scope, else a new accumulator. */
    Stmt elementwise(Env env) {
        Values values = new Values(type());
        FValue e = expr(p.maxDepth(), env, values);
        ArrayVar a = f.exprs.newArray(env, false, values);
        if (a == null) return sum(env, values, e);
        return new Stmt.Assign(Exprs.subscript(a, f.exprs.subscripts(a, env, false)), null, e.expr());
    }

    /** {@code acc += e}, or a min or max of it, into a new floating accumulator. */
    Stmt reduction(Env env) {
        Values values = new Values(type());
        return sum(env, values, expr(p.maxDepth(), env, values));
    }

    /**
     * Whether the next array leaf of an integer expression is an integer made from floating
     * point instead; no draw where p_float is 0, or inside such a leaf.
     */
    boolean drawInteger() {
        return p.pFloat() > 0 && !makingInteger && f.rng.chance(p.pToInteger());
    }

    /**
     * An integer made from floating point: one floating expression converted to an integer
     * type (truncated toward zero, as C does) where its value is in that type's range in every
     * context, else a comparison of two (0 or 1). The expressions are exact in any order, so
     * fast-math gives them the same values; and since every value is a multiple of a normal
     * quantum ({@link AnyOrder#holds}), two that differ differ by a normal number: a comparison
     * done as a subtraction is right too, with flush-to-zero or without.
     */
    Valued integer(Env env) {
        makingInteger = true;
        try {
            Values values = new Values(type());
            NumType t = values.type();
            int depth = Math.min(2, p.maxDepth());
            FValue a = expr(depth, env, values);
            if (f.rng.chance(0.5)) {
                NumType to = f.exprs.randomType();
                long[] v = converted(a.values(), t, to, env.mask());
                if (v != null) return new Valued(Exprs.cast(a.expr(), to), v);
            }
            FValue b = expr(depth, env, values);
            BinOp op = f.rng.pick(COMPARISONS);
            return f.ub.tryBinary(op, new Valued(a.expr(), a.values()), new Valued(b.expr(), b.values()), env.mask());
        } finally {
            makingInteger = false;
        }
    }

    /**
     * {@code values} of type {@code from} converted to {@code to} in the contexts of {@code
     * mask} (0 in the others), or null where a conversion would be unfit in one: out of range
     * to an integer type, inexact to a floating one ({@link Arith#conversionUb}).
     */
    private static long[] converted(long[] values, NumType from, NumType to, int mask) {
        long[] v = new long[2];
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(mask, c)) continue;
            if (Arith.conversionUb(values[c], from, to) != null) return null;
            v[c] = Arith.convert(values[c], from, to);
        }
        return v;
    }

    private static final List<BinOp> COMPARISONS = List.of(BinOp.LT, BinOp.LE, BinOp.GT, BinOp.GE, BinOp.EQ, BinOp.NE);

    /**
     * double, as p_double says, else float or, as p_half says, half; no draw where p_half is
     * 0. Never in SYCL: a half {@code sycl::reduction} crashes AdaptiveCpp's generic target
     * (bugs.md), and SYCL's floating reductions are {@code sycl::reduction}s.
     */
    NumType type() {
        if (f.rng.chance(p.pDouble())) return NumType.DOUBLE;
        return p.pHalf() > 0 && !f.kernels && f.rng.chance(p.pHalf()) ? NumType.HALF : NumType.FLOAT;
    }

    private Stmt sum(Env env, Values values, FValue e) {
        NumType t = values.type();
        int pick = f.rng.between(0, 3);
        ReductionOp op = pick <= 1 ? ReductionOp.SUM : pick == 2 ? ReductionOp.MIN : ReductionOp.MAX;
        long init = op == ReductionOp.SUM ? values.next() : op.identity(t);
        if (op == ReductionOp.SUM && !sumExactInAnyOrder(t, init, e, env.mask(), env.tripProduct())) op = f.rng.chance(0.5) ? ReductionOp.MIN : ReductionOp.MAX;
        if (op != ReductionOp.SUM) init = op.identity(t);
        // In a nest, the accumulator may be a local declared before it and stored after it: the
        // reduction as compilers usually meet it, with no store to memory to promote first.
        // Not in SYCL, where it would take the nest's sycl::reduction away (Flesher.flesh).
        ScalarVar acc = f.carried(t, init, () -> !f.kernels && f.rng.chance(p.pLocal()), f.globals::newFloatAccumulator, values::next);
        return new Stmt.Reduce(new Expr.ScalarRef(acc), op, e.expr());
    }

    /**
     * Whether {@code init} plus {@code e} once per iteration of every loop in scope is exact,
     * added in any order: the iterations of both contexts add into the one accumulator, so the
     * finest quantum and the largest bound of the active contexts count together.
     */
    static boolean sumExactInAnyOrder(NumType t, long init, FValue e, int mask, long trips) {
        AnyOrder start = AnyOrder.of(init);
        int q = start.quantum();
        double step = 0;
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(mask, c)) continue;
            q = Math.min(q, e.quantum()[c]);
            step = Math.max(step, e.bound()[c]);
        }
        return AnyOrder.holdsAll(t, q, Math.nextUp(start.bound() + Math.nextUp((double) trips * step)));
    }

    /**
     * Whether an induction {@code x += step} from {@code start}, {@code trips} times, is exact
     * however a vectorizer computes it ({@code start + n * step}, or {@code x + VF * step} a
     * vector at a time, a few vectors past the last iteration too), with a value of magnitude up
     * to {@code other} added to or subtracted from {@code x}: every such value is a multiple of
     * the finer quantum of the start and the step, and within twice the trips (and 64 more)
     * steps of the start, a step counted as at least 1 as {@link AnyOrder} counts it.
     */
    static boolean inductionExact(NumType t, long start, long step, long trips, double other) {
        // Bounds as AnyOrder takes them (at least 1 each), so the interpreter's check agrees.
        AnyOrder a = AnyOrder.of(start), b = AnyOrder.of(step);
        double steps = Math.nextUp((2.0 * trips + 64) * b.bound());
        double bound = Math.nextUp(a.bound() + steps + Math.max(1, other));
        return AnyOrder.holdsAll(t, Math.min(a.quantum(), b.quantum()), bound);
    }

    // ---- expressions ----------------------------------------------------------------

    private FValue expr(int depth, Env env, Values values) {
        if (depth <= 0 || f.rng.chance(0.3)) return leaf(env, values);
        NumType t = values.type();
        int pick = f.rng.between(0, 12);
        // Whether a min, max, absolute value, fma or square root below is the library's call:
        // drawn for every operation, so that p_library changes the spelling and nothing else.
        boolean library = f.rng.spelling(p.pLibrary());
        FValue a = expr(depth - 1, env, values);
        if (pick == 10) return library ? fabs(a, t) : abs(a, t);
        if (pick == 11) return squareRoot(a, env.mask(), t, library);
        if (pick == 9) {
            // a / 2^k: exact where a's quantum allows (a multiplication by 2^-k under fast-math).
            int k = f.rng.between(1, 3);
            return combine(BinOp.DIV, a, constant(t, FloatArith.bits(Math.scalb(1.0, k))), env.mask(), t);
        }
        FValue b = expr(depth - 1, env, values);
        if (pick == 12) return fma(a, b, expr(depth - 1, env, values), env.mask(), t, library);
        BinOp op = switch (pick) {
            case 0, 1, 2 -> BinOp.ADD;
            case 3, 4 -> BinOp.SUB;
            case 5, 6 -> BinOp.MUL;
            default -> null;
        };
        if (op == null) return select(pick == 7, a, b, library);
        return combine(op, a, b, env.mask(), t);
    }

    /** The literal {@code v} of type {@code t} (held as its bits), the same in both contexts. */
    private static FValue constant(NumType t, long v) {
        return FValue.leaf(new Expr.Const(t, v), new long[] {v, v});
    }

    /** {@code a op b} in the contexts of {@code mask}, or {@code a} where it would round in one, or some rearrangement of it might. */
    static FValue combine(BinOp op, FValue a, FValue b, int mask, NumType t) {
        long[] v = new long[2];
        AnyOrder[] order = {new AnyOrder(0, 0), new AnyOrder(0, 0)};
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(mask, c)) continue;
            if (FloatArith.binaryUb(op, t, a.values()[c], b.values()[c]) != null) return a;
            v[c] = FloatArith.binary(op, t, a.values()[c], b.values()[c]);
            order[c] = a.at(c).combine(op, b.at(c), b.values()[c]);
            if (!order[c].holds(t)) return a;
        }
        return FValue.of(Exprs.binary(op, a.expr(), b.expr()), v, order[0], order[1]);
    }

    /**
     * {@code a < 0 ? -a : a}: the absolute value as compare-and-select, the idiom compilers
     * turn into {@code fabs} (under fast-math, where the sign of a zero may be ignored: the
     * sign of a zero never reaches an output here). Exact always, with a's quantum and bound.
     */
    static FValue abs(FValue a, NumType t) {
        Expr cond = Exprs.binary(BinOp.LT, a.expr(), new Expr.Const(t, 0));
        Expr e = Exprs.ternary(cond, Exprs.unary(dev.yarpj.ir.UnOp.NEG, a.expr()), a.expr());
        long[] v = new long[2];
        for (int c = 0; c < 2; c++) v[c] = FloatArith.call(Builtin.FABS, t, a.values()[c]);
        return new FValue(e, v, a.quantum().clone(), a.bound().clone());
    }

    /** {@code fabs(a)}: the library's absolute value, as {@link #abs}. */
    static FValue fabs(FValue a, NumType t) {
        FValue open = abs(a, t);
        return new FValue(Exprs.call(Builtin.FABS, a.expr()), open.values(), open.quantum(), open.bound());
    }

    /**
     * {@code a * b + c} where the product and the sum are both exact (and stay so rearranged),
     * as the library's {@code fma(a, b, c)} or open-coded, which a compiler may contract into
     * one; the product alone where the sum is not, and {@code a} where the product is not.
     */
    static FValue fma(FValue a, FValue b, FValue c, int mask, NumType t, boolean library) {
        FValue product = combine(BinOp.MUL, a, b, mask, t);
        if (product == a) return a;
        FValue sum = combine(BinOp.ADD, product, c, mask, t);
        if (sum == product || !library) return sum;
        return new FValue(Exprs.call(Builtin.FMA, a.expr(), b.expr(), c.expr()), sum.values(), sum.quantum(), sum.bound());
    }

    /**
     * {@code sqrt(a * a)}, which is {@code |a|}: as the library's square root of the exact
     * square in double; in float, or where the square is not exact, or open-coded, the
     * absolute value itself. Not {@code sqrtf}: under {@code -ffast-math} GCC computes a
     * vectorized float square root from the reciprocal estimate, which rounds. Its quantum
     * and bound are also the square's, so that a rearrangement that takes the root of a
     * product of squares ({@code sqrt(x) * sqrt(y)} as {@code sqrt(x * y)}) stays exact.
     */
    static FValue squareRoot(FValue a, int mask, NumType t, boolean library) {
        FValue square = combine(BinOp.MUL, a, a, mask, t);
        FValue open = abs(a, t);
        if (t != NumType.DOUBLE || square == a) return library ? fabs(a, t) : open;
        // The open-coded form carries the same quantum and bound, so that only the spelling differs.
        return joined(library ? Exprs.call(Builtin.SQRT, square.expr()) : open.expr(), open.values(), open, square);
    }

    /**
     * {@code fmin(a, b)} or {@code fmax(a, b)} as the library's call, or as compare-and-select:
     * one of its operands, exact always.
     */
    private FValue select(boolean min, FValue a, FValue b, boolean library) {
        long[] v = new long[2];
        for (int c = 0; c < 2; c++) v[c] = FloatArith.minMax(min, a.values()[c], b.values()[c]);
        Builtin fn = library ? (min ? Builtin.FMIN : Builtin.FMAX) : min ? Builtin.MIN : Builtin.MAX;
        return joined(Exprs.call(fn, a.expr(), b.expr()), v, a, b);
    }

    /** {@code e} with {@code values}, and per context the finer quantum and the larger bound of {@code x} and {@code y}. */
    private static FValue joined(Expr e, long[] values, FValue x, FValue y) {
        return FValue.of(e, values, x.at(0).joined(y.at(0)), x.at(1).joined(y.at(1)));
    }

    /**
     * An element of a floating input array of this type (one made before, or a new one), a
     * constant, or an integer expression converted exactly.
     */
    private FValue leaf(Env env, Values values) {
        NumType t = values.type();
        int pick = f.rng.between(0, 9);
        if (pick <= 5) {
            List<ArrayVar> made = f.globals.floatInputArrays.stream().filter(a -> a.base() == t).toList();
            ArrayVar a = !made.isEmpty() && f.rng.chance(0.5) ? f.rng.pick(made) : f.exprs.newArray(env, true, values);
            if (a != null) {
                Valued v = f.exprs.elementOf(a, env);
                return FValue.leaf(v.expr(), v.values());
            }
        } else if (pick <= 7) {
            Valued i = f.exprs.expr(1, env);
            long[] v = converted(i.values(), i.expr().type(), t, env.mask());
            if (v != null) return FValue.leaf(Exprs.cast(i.expr(), t), v);
        }
        return constant(t, values.next());
    }
}
