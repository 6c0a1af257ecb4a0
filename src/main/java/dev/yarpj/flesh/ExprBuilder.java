package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Idiom;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.UnOp;
import dev.yarpj.policy.ExprPolicy;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import dev.yarpj.skeleton.Shape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Builds random expressions top-down, each node with its concrete value in every active
 * context, so that {@link UbGuard} can keep it UB-free. Reads only inputs, input arrays and
 * locals: outputs are never read.
 */
final class ExprBuilder {
    private final GenPolicy policy;
    private final Rng rng;
    private final Globals globals;
    private final Supplier<NumType> types;
    private final Supplier<String> ops;
    private final UbGuard ub;
    /** The policy's expressions: section, and its weight maps ready to draw from. */
    private final ExprPolicy ep;
    private final Rng.Odds<String> specialConsts;
    private final Rng.Odds<String> masks;
    private final Rng.Odds<BinOp> maskOps;
    private final Rng.Odds<String> parityForms;
    /** Calls of helper functions, and the helpers they define. */
    final HelperCalls calls;
    /** Integer leaves made from floating point (floats: p_to_integer); null until {@link Fleshing} sets it. */
    private FloatStatements floats;

    ExprBuilder(GenPolicy policy, Rng rng, Globals globals, UbGuard ub) {
        this.policy = policy;
        this.rng = rng;
        this.globals = globals;
        this.ub = ub;
        this.types = rng.sampler(byType(policy.typeWeights()));
        this.ops = rng.sampler(policy.opWeights());
        this.ep = policy.expressions();
        this.specialConsts = new Rng.Odds<>(ep.specialConstWeights(), k -> k);
        this.masks = new Rng.Odds<>(ep.maskWeights(), k -> k);
        this.maskOps = new Rng.Odds<>(ep.maskOpWeights(), k -> BinOp.valueOf(k.toUpperCase()));
        this.parityForms = new Rng.Odds<>(ep.parityFormWeights(), k -> k);
        this.calls = new HelperCalls(policy, rng, globals, ub, this);
    }

    /** A policy's weights by type name (as in {@link GenPolicy#TYPE_NAMES}), keyed by the types themselves, in the same order. */
    static Map<NumType, Integer> byType(Map<String, Integer> byName) {
        Map<NumType, Integer> m = new LinkedHashMap<>();
        byName.forEach((name, w) -> m.put(NumType.values()[GenPolicy.TYPE_NAMES.indexOf(name)], w));
        return m;
    }

    void integersFromFloats(FloatStatements floats) {
        this.floats = floats;
    }

    NumType randomType() {
        return types.get();
    }

    /**
     * A value of type {@code t}: with probability p_special_const one that provokes peephole
     * rules (0, ±1, extremes, powers of two, low-bit masks, small numbers) as
     * expressions.special_const_weights say, else uniform.
     */
    long interestingValue(NumType t) {
        if (!rng.chance(policy.pSpecialConst())) return Arith.convert(rng.nextLong(), t);
        long v = switch (specialConsts.roll(rng)) {
            case "zero" -> 0;
            case "one" -> 1;
            case "minus_one" -> -1;
            case "min" -> t.min();
            case "max" -> t.max();
            case "power_of_two" -> 1L << rng.between(0, t.bits - 1);
            case "low_mask" -> (1L << rng.between(0, t.bits - 1)) - 1;
            case "small" -> rng.between(-ep.maxSmallConst(), ep.maxSmallConst());
            default -> rng.nextLong();
        };
        return Arith.convert(v, t);
    }

    /** A mask of type {@code t}: a run of low bits, a single bit or a random pattern. */
    private long maskValue(NumType t) {
        int bits = Math.max(1, t.bits);
        long v = switch (masks.roll(rng)) {
            case "low_bits" -> bits >= 64 ? -1L >>> rng.between(0, 63) : (1L << rng.between(1, bits)) - 1;
            case "single_bit" -> 1L << rng.between(0, bits - 1);
            default -> rng.nextLong();
        };
        return Arith.convert(v, t);
    }

    /**
     * {@code (e & C1) op C2} with {@code C1 & C2 == C2}: the operand shapes of the
     * bit-manipulation peephole rules (Alive, ICSE 2016).
     */
    private Valued maskTest(int depth, Env env) {
        Valued e = expr(depth - 1, env);
        NumType t = Arith.promote(e.expr().type());
        long c1 = maskValue(t);
        long c2 = Arith.convert(c1 & (rng.chance(ep.pMaskWhole()) ? c1 : rng.nextLong()), t);
        Valued masked = ub.binary(BinOp.BAND, e, Valued.constant(new Expr.Const(t, c1), c1), env.mask());
        BinOp op = maskOps.pick(rng);
        return ub.binary(op, masked, Valued.constant(new Expr.Const(t, c2), c2), env.mask());
    }

    Valued expr(Env env) {
        return expr(rng.between(1, policy.maxExprDepth()), env);
    }

    Valued expr(int depth, Env env) {
        if (depth <= 0 || rng.chance(ep.pLeaf())) return leaf(env);
        // Drawn only when calls are on: with p_call 0 every seed gives the program it gave before helpers.
        if (calls.on() && rng.chance(policy.functions().pCall())) {
            Valued call = calls.call(depth, env);
            if (call != null) return call;
        }
        String kind = ops.get();
        if (kind == null) return leaf(env);
        if ((kind.equals("div") || kind.equals("rem")) && env.plan().idiom() != Idiom.PLAIN) {
            // No vector integer division on common targets: an idiom nest would not vectorize.
            kind = kind.equals("div") ? "mul" : "band";
        }
        int mask = env.mask();
        switch (kind) {
            case "mask": return maskTest(depth, env);
            case "neg": return ub.unary(UnOp.NEG, expr(depth - 1, env), mask);
            case "bnot": return ub.unary(UnOp.BNOT, expr(depth - 1, env), mask);
            case "lnot": return ub.unary(UnOp.LNOT, expr(depth - 1, env), mask);
            case "cast": return ub.cast(expr(depth - 1, env), randomType());
            case "min": return ub.call(Builtin.MIN, expr(depth - 1, env), expr(depth - 1, env), mask);
            case "max": return ub.call(Builtin.MAX, expr(depth - 1, env), expr(depth - 1, env), mask);
            case "ternary": {
                Valued cond = env.split() != null && !env.invariant() && rng.chance(policy.pParityBranch())
                        ? parityCondition(env) : expr(depth - 1, env);
                int t = cond.truthMask(mask);
                int thenMask = t == 0 || ub.eager() ? mask : t;
                int elseMask = (mask & ~t) == 0 || ub.eager() ? mask : mask & ~t;
                Valued a = expr(depth - 1, env.withMask(thenMask));
                Valued b = expr(depth - 1, env.withMask(elseMask));
                return ub.ternary(cond, a, b, mask);
            }
            default: {
                BinOp op = BinOp.valueOf(kind.toUpperCase());
                Valued a = expr(depth - 1, env);
                Valued b = expr(depth - 1, env);
                return ub.binary(op, a, b, mask);
            }
        }
    }

    /**
     * A leaf as expressions.leaf_weights say: one roll over their sum, a band each in order
     * (constant, local, array, input). A roll in a band whose leaf cannot be here (no local
     * visible, a loop-invariant context) falls through to the next band's test; outside every
     * loop the array band is array_leaf_weight_outside_loops wide.
     */
    private Valued leaf(Env env) {
        List<Scope.Local> locals = env.scope().visible();
        Map<String, Integer> w = ep.leafWeights();
        int constants = w.get("constant");
        if (env.inHelper()) {
            // A helper's body reads its parameters and constants, nothing else: it is const. The
            // parameters take the bands of every leaf that reads data (locals, arrays, inputs).
            int all = constants + w.get("local") + w.get("array") + w.get("input");
            if (all <= 0 || rng.between(0, all - 1) < constants) return constant();
            Scope.Local l = rng.pick(locals);
            return new Valued(new Expr.ScalarRef(l.var()), l.values().clone());
        }
        int localsUpTo = constants + w.get("local");
        int arraysUpTo = localsUpTo + (env.loops().isEmpty() ? ep.arrayLeafWeightOutsideLoops() : w.get("array"));
        int roll = rng.between(0, localsUpTo + w.get("array") + w.get("input") - 1);
        if (roll < constants) return constant();
        // Locals may hold values computed from this iteration's elements: not loop-invariant.
        if (roll < localsUpTo && !locals.isEmpty() && !env.invariant()) {
            Scope.Local l = rng.pick(locals);
            return new Valued(new Expr.ScalarRef(l.var()), l.values().clone());
        }
        if (roll < arraysUpTo && !env.invariant() && rng.chance(policy.pArray())) {
            // Drawn only where floats are on: with p_float 0 every seed gives the program it gave before.
            if (floats != null && floats.drawInteger()) {
                Valued i = floats.integer(env);
                if (i != null) return i;
            }
            Valued a = arrayRead(env);
            if (a != null) return a;
        }
        ScalarVar v = !globals.inputs.isEmpty() && rng.chance(ep.pReuseInput())
                ? rng.pick(globals.inputs)
                : newInput(randomType());
        return Valued.constant(new Expr.ScalarRef(v), v.initValue());
    }

    ScalarVar newInput(NumType t) {
        return globals.newInput(t, interestingValue(t), rng.chance(policy.pParam()));
    }

    private Valued constant() {
        NumType t = Arith.promote(randomType());
        long v = interestingValue(t);
        return Valued.constant(new Expr.Const(t, v), v);
    }

    /** The hidden or plain parity test of the split iterator (paper Listing 5): true on even elements, or on odd ones. */
    Valued parityCondition(Env env) {
        LoopInfo split = env.split();
        Expr iter = new Expr.IterRef(split.iter());
        Expr two = new Expr.Const(NumType.INT, 2);
        String form = parityForms.roll(rng);
        boolean hidden = rng.chance(policy.pHiddenSplit());
        long want = form.equals("rem_eq_1") ? 1 : 0;
        Expr against = hidden
                ? new Expr.ScalarRef(globals.newInput(NumType.INT, want, rng.chance(policy.pParam())))
                : new Expr.Const(NumType.INT, want);
        Expr cond;
        boolean trueOnEven;
        switch (form) {
            case "rem_eq_0" -> { cond = Exprs.binary(BinOp.EQ, Exprs.binary(BinOp.REM, iter, two), against); trueOnEven = true; }
            case "rem_eq_1" -> { cond = Exprs.binary(BinOp.EQ, Exprs.binary(BinOp.REM, iter, two), against); trueOnEven = false; }
            case "rem_ne_0" -> { cond = Exprs.binary(BinOp.NE, Exprs.binary(BinOp.REM, iter, two), against); trueOnEven = false; }
            default -> { cond = Exprs.binary(BinOp.BAND, iter, new Expr.Const(NumType.INT, 1)); trueOnEven = false; }
        }
        // Context c is the parity of the split iterator; the iterator only ever holds non-negative values.
        return new Valued(cond, new long[] {trueOnEven ? 1 : 0, trueOnEven ? 0 : 1});
    }

    /** A read of an input array element, or null when no array fits the budget. */
    Valued arrayRead(Env env) {
        ArrayVar a = null;
        if (!globals.inputArrays.isEmpty() && rng.chance(ep.pReuseInputArray())) a = rng.pick(globals.inputArrays);
        if (a == null) a = newArray(env, true);
        if (a == null) return null;
        return elementOf(a, env);
    }

    /**
     * A read of an element of an input array of element type {@code t} made before, or null
     * when there is none, and no bit-field (the call passes its address); with {@code rows} of
     * one whose rows are arrays of its elements (no struct's field).
     */
    Valued arrayRead(Env env, NumType t, boolean rows) {
        // A bit-field has no address, a struct's field no row of its own elements.
        List<ArrayVar> of = globals.inputArrays.stream()
                .filter(a -> a.base() == t && (a.field() == null || !rows && !a.field().bitField())).toList();
        return of.isEmpty() ? null : elementOf(rng.pick(of), env);
    }

    /** A read of an element of input array {@code a}, at subscripts the nest's access pattern gives. */
    Valued elementOf(ArrayVar a, Env env) {
        List<Expr> idx = subscripts(a, env, true);
        long[] v = valuesAt(a, idx, env);
        // subscripts() indexes an alternating axis by a constant or the split iterator alone.
        if (v == null) throw new IllegalStateException(a.name() + "'s alternating axis indexed by " + idx.get(a.fill().axis()));
        return new Valued(Exprs.subscript(a, idx), v);
    }

    /**
     * The values of input array {@code a}'s element at {@code idx} in the two contexts; null
     * when they do not follow the context: its alternating axis indexed by something other
     * than a constant or the split iterator (whose parity is the context).
     */
    private static long[] valuesAt(ArrayVar a, List<Expr> idx, Env env) {
        ArrayVar.Fill f = a.fill();
        if (!f.alternating()) return new long[] {f.even(), f.even()};
        Expr at = idx.get(f.axis());
        if (at instanceof Expr.Const k) return new long[] {f.at((int) (k.value() & 1)), f.at((int) (k.value() & 1))};
        if (at instanceof Expr.IterRef r && env.split() != null && r.iter().equals(env.split().iter())) return new long[] {f.at(0), f.at(1)};
        return null;
    }

    /**
     * Reads of fields {@code fields} (input fields of one array of structs, the first the
     * anchor whose subscripts the nest's access pattern gives) of one element; null when a
     * field's value would not follow the context there: its alternating axis indexed by
     * something other than a constant or the split iterator (the anchor's subscripts are
     * chosen for its own axis).
     */
    List<Valued> fieldsOf(List<ArrayVar> fields, Env env) {
        List<Expr> idx = subscripts(fields.get(0), env, true);
        List<Valued> out = new ArrayList<>();
        for (ArrayVar a : fields) {
            long[] v = valuesAt(a, idx, env);
            if (v == null) return null;
            out.add(new Valued(Exprs.subscript(a, idx), v));
        }
        return out;
    }

    /**
     * In-bounds subscripts for {@code a}: each dimension gets the iterator the nest's access
     * pattern assigns it, if that iterator's whole space fits the dimension, else a constant.
     * An alternating axis of an input array is indexed only by the split iterator or by a
     * constant, so its value follows the context.
     */
    List<Expr> subscripts(ArrayVar a, Env env, boolean read) {
        LoopInfo split = env.split();
        List<LoopInfo> layout = layout(a.rank(), env);
        List<Expr> idx = new ArrayList<>();
        for (int d = 0; d < a.rank(); d++) {
            int size = a.dims().get(d);
            LoopInfo l = layout.get(d);
            if (env.plan().access() == Shape.Access.RANDOM) {
                l = null;
                if (read && a.fill().axis() == d) {
                    if (split != null && split.space().max() < size && rng.chance(ep.pSplitSubscript())) l = split;
                } else {
                    List<LoopInfo> fit = new ArrayList<>();
                    for (LoopInfo f : env.loops()) if (f.space().max() < size) fit.add(f);
                    // A constant only when no loop fits: constant subscripts are the slice pattern's.
                    if (!fit.isEmpty()) {
                        // Favour the innermost loops, where most accesses sit in real code.
                        l = rng.chance(ep.pInnermostSubscript()) ? fit.get(fit.size() - 1) : rng.pick(fit);
                    }
                }
            } else if (l != null && (l.space().max() >= size || (read && a.fill().axis() == d && l != split))) {
                l = null;
            }
            int k = groupOf(l, d, a.rank(), env);
            if (k > 1 && (l.space().max() + 1) * k <= size && !(a.fill().alternating() && a.fill().axis() == d)) {
                idx.add(Exprs.grouped(new Expr.IterRef(l.iter()), k, rng.between(0, k - 1)));
                continue;
            }
            idx.add(l != null ? new Expr.IterRef(l.iter()) : new Expr.Const(NumType.INT, rng.between(0, size - 1)));
        }
        return idx;
    }

    /**
     * The elements per iteration of loop {@code l} in dimension {@code d} of a rank-{@code rank}
     * array: the nest's interleaved group size for the last dimension walked by the innermost
     * loop from 0 up ({@code k*i .. k*i + k-1}), else 1.
     */
    private static int groupOf(LoopInfo l, int d, int rank, Env env) {
        return l != null && l == env.innermost() && d == rank - 1 && l.space().min() >= 0 ? env.plan().group() : 1;
    }

    /**
     * The loop each dimension of a rank-{@code rank} array is walked by under the current
     * access pattern (null: a constant subscript). Dimensions line up with the innermost
     * loops, last dimension innermost (in order, slice) or first dimension innermost
     * (column-major); a diagonal walks every dimension with the innermost loop.
     */
    List<LoopInfo> layout(int rank, Env env) {
        List<LoopInfo> loops = env.loops();
        int n = loops.size();
        List<LoopInfo> out = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            LoopInfo l = switch (env.plan().access()) {
                case RANDOM -> null; // chosen per access, see subscripts
                case IN_ORDER -> n - rank + d >= 0 ? loops.get(n - rank + d) : null;
                case SLICE -> d == 0 && (rank > 1 || rng.chance(ep.pSliceConstant())) ? null : n - rank + d >= 0 ? loops.get(n - rank + d) : null;
                case COLUMN_MAJOR -> n - 1 - d >= 0 ? loops.get(n - 1 - d) : null;
                case DIAGONAL -> n > 0 ? loops.get(n - 1) : null;
            };
            out.add(l);
        }
        return out;
    }

    /** A rank for a new array: fewer, as many or more dimensions than loops in scope. */
    int patternedRank(Env env) {
        int n = Math.max(1, env.loops().size());
        return Math.max(1, Math.min(policy.maxArrayRank(), n + rng.between(-ep.rankSpread(), ep.rankSpread())));
    }

    /** A new array sized to the loops in scope (paper 3.4), or null when over budget. */
    ArrayVar newArray(Env env, boolean input) {
        return newArray(env, input, null);
    }

    /**
     * A new array sized to the loops in scope, or null when over budget: of a random integer
     * type, or with {@code floating} of that floating type and values (kept apart from the
     * integer arrays, see {@link Globals#newFloatArray}).
     */
    ArrayVar newArray(Env env, boolean input, FloatStatements.Values floating) {
        boolean patterned = env.plan().access() != Shape.Access.RANDOM && !env.loops().isEmpty();
        int rank = patterned ? patternedRank(env) : rng.between(1, policy.maxArrayRank());
        List<LoopInfo> layout = patterned ? layout(rank, env) : null;
        List<Integer> dims = new ArrayList<>();
        for (int d = 0; d < rank; d++) {
            int size;
            if (patterned) {
                LoopInfo l = layout.get(d);
                // The last dimension, walked by the innermost loop in interleaved groups, holds a group per iteration.
                size = l != null ? ((int) l.space().max() + 1) * groupOf(l, d, rank, env) + rng.between(0, ep.maxArrayPadding()) : rng.between(1, ep.maxUnwalkedDim());
            } else if (!env.loops().isEmpty() && rng.chance(ep.pDimFromLoop())) {
                size = (int) rng.pick(env.loops()).space().max() + 1 + rng.between(0, ep.maxArrayPadding());
            } else {
                size = rng.between(1, ep.maxUnwalkedDim());
            }
            dims.add(size);
        }
        NumType t = floating != null ? floating.type() : randomType();
        java.util.function.LongSupplier value = floating != null ? floating::next : () -> interestingValue(t);
        ArrayVar.Fill fill;
        LoopInfo split = env.split();
        if (input && split != null && rng.chance(ep.pAlternatingFill())) {
            int axis = rng.between(0, rank - 1);
            dims.set(axis, Math.max(dims.get(axis), (int) split.space().max() + 1));
            long even = value.getAsLong();
            long odd = value.getAsLong();
            fill = new ArrayVar.Fill(even, odd, axis);
        } else {
            fill = ArrayVar.Fill.uniform(value.getAsLong());
        }
        return floating != null ? globals.newFloatArray(input, t, dims, fill) : globals.newArray(input, t, dims, fill);
    }
}
