package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.IntType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.UnOp;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds random expressions top-down, each node with its concrete value in every active
 * context, so that {@link UbGuard} can keep it UB-free. Reads only inputs, input arrays and
 * locals: outputs are never read.
 */
final class ExprBuilder {
    private final GenPolicy policy;
    private final Rng rng;
    private final Globals globals;
    private final Map<IntType, Integer> typeWeights = new LinkedHashMap<>();

    ExprBuilder(GenPolicy policy, Rng rng, Globals globals) {
        this.policy = policy;
        this.rng = rng;
        this.globals = globals;
        IntType[] types = IntType.values();
        for (int i = 0; i < types.length; i++) {
            typeWeights.put(types[i], policy.typeWeights().get(GenPolicy.TYPE_NAMES.get(i)));
        }
    }

    IntType randomType() {
        return rng.weighted(typeWeights);
    }

    /** A value of type {@code t}: often one that provokes peephole rules (0, ±1, extremes, powers of two). */
    long interestingValue(IntType t) {
        long v = switch (rng.between(0, 9)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> -1;
            case 3 -> t.min();
            case 4 -> t.max();
            case 5 -> 1L << rng.between(0, t.bits - 1);
            case 6 -> (1L << rng.between(0, t.bits - 1)) - 1;
            case 7, 8 -> rng.between(-64, 64);
            default -> rng.nextLong();
        };
        return Arith.convert(v, t);
    }

    Valued expr(Env env) {
        return expr(rng.between(1, policy.maxExprDepth()), env);
    }

    Valued expr(int depth, Env env) {
        if (depth <= 0 || rng.chance(0.15)) return leaf(env);
        String kind = rng.weighted(policy.opWeights());
        if (kind == null) return leaf(env);
        int mask = env.mask();
        switch (kind) {
            case "neg": return UbGuard.unary(UnOp.NEG, expr(depth - 1, env), mask);
            case "bnot": return UbGuard.unary(UnOp.BNOT, expr(depth - 1, env), mask);
            case "lnot": return UbGuard.unary(UnOp.LNOT, expr(depth - 1, env), mask);
            case "cast": return UbGuard.cast(expr(depth - 1, env), randomType());
            case "min": return UbGuard.call(Builtin.MIN, expr(depth - 1, env), expr(depth - 1, env), mask);
            case "max": return UbGuard.call(Builtin.MAX, expr(depth - 1, env), expr(depth - 1, env), mask);
            case "ternary": {
                Valued cond = env.split() != null && rng.chance(policy.pParityBranch())
                        ? parityCondition(env) : expr(depth - 1, env);
                int t = cond.truthMask(mask);
                int thenMask = t == 0 ? mask : t;
                int elseMask = (mask & ~t) == 0 ? mask : mask & ~t;
                Valued a = expr(depth - 1, env.withMask(thenMask));
                Valued b = expr(depth - 1, env.withMask(elseMask));
                return UbGuard.ternary(cond, a, b, mask);
            }
            default: {
                BinOp op = BinOp.valueOf(kind.toUpperCase());
                Valued a = expr(depth - 1, env);
                Valued b = expr(depth - 1, env);
                return UbGuard.binary(op, a, b, mask);
            }
        }
    }

    private Valued leaf(Env env) {
        List<Scope.Local> locals = env.scope().visible();
        int roll = rng.between(0, 9);
        if (roll < 2) return constant();
        if (roll < 4 && !locals.isEmpty()) {
            Scope.Local l = rng.pick(locals);
            return new Valued(new Expr.ScalarRef(l.var()), l.values().clone());
        }
        if (roll < 7 && (!env.loops().isEmpty() || roll < 5)) {
            Valued a = arrayRead(env);
            if (a != null) return a;
        }
        ScalarVar v = !globals.inputs.isEmpty() && rng.chance(0.5)
                ? rng.pick(globals.inputs)
                : newInput(randomType());
        return Valued.constant(new Expr.ScalarRef(v), v.initValue());
    }

    ScalarVar newInput(IntType t) {
        return globals.newInput(t, interestingValue(t), rng.chance(policy.pParam()));
    }

    private Valued constant() {
        IntType t = Arith.promote(randomType());
        long v = interestingValue(t);
        return Valued.constant(new Expr.Const(t, v), v);
    }

    /** The hidden or plain parity test of the split iterator (paper Listing 5): true on even elements, or on odd ones. */
    Valued parityCondition(Env env) {
        LoopInfo split = env.split();
        Expr iter = new Expr.IterRef(split.iter());
        Expr two = new Expr.Const(IntType.INT, 2);
        int form = rng.between(0, 3);
        boolean hidden = rng.chance(policy.pHiddenSplit());
        long want = form == 1 ? 1 : 0;
        Expr against = hidden
                ? new Expr.ScalarRef(globals.newInput(IntType.INT, want, rng.chance(policy.pParam())))
                : new Expr.Const(IntType.INT, want);
        Expr cond;
        boolean trueOnEven;
        switch (form) {
            case 0 -> { cond = Exprs.binary(BinOp.EQ, Exprs.binary(BinOp.REM, iter, two), against); trueOnEven = true; }
            case 1 -> { cond = Exprs.binary(BinOp.EQ, Exprs.binary(BinOp.REM, iter, two), against); trueOnEven = false; }
            case 2 -> { cond = Exprs.binary(BinOp.NE, Exprs.binary(BinOp.REM, iter, two), against); trueOnEven = false; }
            default -> { cond = Exprs.binary(BinOp.BAND, iter, new Expr.Const(IntType.INT, 1)); trueOnEven = false; }
        }
        // Context c is the parity of the split iterator; the iterator only ever holds non-negative values.
        return new Valued(cond, new long[] {trueOnEven ? 1 : 0, trueOnEven ? 0 : 1});
    }

    /** A read of an input array element, or null when no array fits the budget. */
    private Valued arrayRead(Env env) {
        ArrayVar a = null;
        if (!globals.inputArrays.isEmpty() && rng.chance(0.6)) a = rng.pick(globals.inputArrays);
        if (a == null) a = newArray(env, true);
        if (a == null) return null;
        List<Expr> idx = subscripts(a, env, true);
        long[] v = new long[2];
        ArrayVar.Fill f = a.fill();
        for (int c = 0; c < 2; c++) {
            if (!f.alternating()) {
                v[c] = f.even();
            } else if (idx.get(f.axis()) instanceof Expr.Const k) {
                v[c] = f.at((int) (k.value() & 1));
            } else {
                v[c] = f.at(c); // indexed by the split iterator, whose parity is the context
            }
        }
        return new Valued(Exprs.subscript(a, idx), v);
    }

    /**
     * In-bounds subscripts for {@code a}: each dimension gets an iterator in scope whose
     * whole space fits it, or a constant. An alternating axis of an input array is indexed
     * only by the split iterator or by a constant, so its value follows the context.
     */
    List<Expr> subscripts(ArrayVar a, Env env, boolean read) {
        LoopInfo split = env.split();
        List<Expr> idx = new ArrayList<>();
        for (int d = 0; d < a.rank(); d++) {
            int size = a.dims().get(d);
            Expr e = null;
            if (read && a.fill().axis() == d) {
                if (split != null && split.space().max() < size && rng.chance(0.9)) e = new Expr.IterRef(split.iter());
            } else {
                List<LoopInfo> fit = new ArrayList<>();
                for (LoopInfo l : env.loops()) if (l.space().max() < size) fit.add(l);
                if (!fit.isEmpty() && rng.chance(0.9)) {
                    // Favour the innermost loops, where most accesses sit in real code.
                    LoopInfo l = rng.chance(0.5) ? fit.get(fit.size() - 1) : rng.pick(fit);
                    e = new Expr.IterRef(l.iter());
                }
            }
            if (e == null) e = new Expr.Const(IntType.INT, rng.between(0, size - 1));
            idx.add(e);
        }
        return idx;
    }

    /** A new array sized to the loops in scope (paper 3.4), or null when over budget. */
    ArrayVar newArray(Env env, boolean input) {
        int rank = rng.between(1, policy.maxArrayRank());
        List<Integer> dims = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            int size;
            if (!env.loops().isEmpty() && rng.chance(0.85)) {
                size = (int) rng.pick(env.loops()).space().max() + 1 + rng.between(0, 2);
            } else {
                size = rng.between(1, 12);
            }
            dims.add(size);
        }
        IntType t = randomType();
        ArrayVar.Fill fill;
        LoopInfo split = env.split();
        if (input && split != null && rng.chance(0.7)) {
            int axis = rng.between(0, rank - 1);
            dims.set(axis, Math.max(dims.get(axis), (int) split.space().max() + 1));
            long even = interestingValue(t);
            long odd = interestingValue(t);
            fill = new ArrayVar.Fill(even, odd, axis);
        } else {
            fill = ArrayVar.Fill.uniform(interestingValue(t));
        }
        return globals.newArray(input, t, dims, fill);
    }
}
