package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.policy.LoopPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Decides a loop's iteration space around the trip count the skeleton planned, and spells
 * its start, bound and step (policy {@code loops:}, paper 3.4): a space whose iterator never
 * wraps stepping past its last value, and whose bound is a constant or an input opaque to
 * the compiler.
 */
final class LoopBounds {
    /** A loop header's space with the expressions that spell its start, bound and step. */
    record Bounds(IterationSpace space, Expr start, Expr bound, Expr step) {}

    private final Fleshing f;
    private final LoopPolicy lp;
    private final Supplier<NumType> iteratorTypes;
    private final Supplier<NumType> idiomIteratorTypes;
    private final Rng.Odds<BinOp> upCmps;
    private final Rng.Odds<BinOp> downCmps;
    private final Rng.Odds<BinOp> idiomCmps;
    /** An empty idiom loop's comparisons: idiomCmps' without <=, evenly. */
    private final List<BinOp> emptyIdiomCmps;

    LoopBounds(Fleshing f) {
        this.f = f;
        this.lp = f.policy.loops();
        this.upCmps = new Rng.Odds<>(lp.upCmpWeights(), Fleshing::op);
        this.downCmps = new Rng.Odds<>(lp.downCmpWeights(), Fleshing::op);
        this.idiomCmps = new Rng.Odds<>(lp.idiomCmpWeights(), Fleshing::op);
        List<BinOp> empty = new ArrayList<>(idiomCmps.keys());
        empty.remove(BinOp.LE);
        this.emptyIdiomCmps = empty.isEmpty() ? List.of(BinOp.LT) : List.copyOf(empty);
        this.iteratorTypes = f.rng.sampler(ExprBuilder.byType(f.policy.iteratorTypeWeights()));
        this.idiomIteratorTypes = f.rng.sampler(ExprBuilder.byType(f.policy.idiomIteratorTypeWeights()));
    }

    /** Decides an iteration space around the planned trip count and spells its bounds. */
    Bounds plain(boolean split, int trip) {
        Rng rng = f.rng;
        int step = rng.chance(f.policy.pUnitStep()) ? 1 : rng.between(1, f.policy.maxStep());
        if (split && step % 2 == 0) step -= 1;
        NumType type = iteratorTypes.get();
        boolean up = !rng.chance(f.policy.pCountDown());
        IterationSpace space = up ? upward(type, trip, step) : downward(type, trip, step);
        // Narrow iterators must not wrap when stepping past the last value.
        if (space.max() + step > type.max()) {
            space = new IterationSpace(NumType.INT, space.first(), space.step(), space.trip(), space.up(), space.cmp(), space.bound());
        }
        NumType litType = Arith.promote(space.type());
        return new Bounds(space, spell(space.first(), litType), spell(space.bound(), litType), spell(step, litType));
    }

    /**
     * The space of an idiom nest's loop: upward by 1 from {@code halo} (the reach of a
     * stencil, else 0), with an idiom trip count in the innermost loop, so that arrays are
     * walked contiguously over whole rows.
     */
    Bounds idiom(int trip, int halo) {
        // Iterators as wide as an index usually is, so no wrap-around hides the trip count.
        NumType type = idiomIteratorTypes.get();
        long last = halo + trip - 1L;
        // An empty loop cannot say i <= halo - 1: with halo 0 and an unsigned iterator that never fails.
        BinOp cmp = trip == 0 ? f.rng.pick(emptyIdiomCmps) : idiomCmps.pick(f.rng);
        long bound = cmp == BinOp.LE ? last : last + 1;
        IterationSpace space = new IterationSpace(type, halo, 1, trip, true, cmp, bound);
        NumType litType = Arith.promote(type);
        // i <= n with n opaque could be i <= UINT_MAX, an endless loop to the compiler: keep it constant.
        Expr boundExpr = cmp == BinOp.LE ? new Expr.Const(litType, bound) : spell(bound, litType);
        return new Bounds(space, spell(halo, litType), boundExpr, new Expr.Const(litType, 1));
    }

    private IterationSpace upward(NumType type, int trip, int step) {
        Rng rng = f.rng;
        // An empty loop starts a step up, so that its bound, a step below, is not negative.
        long first = rng.between(0, lp.maxStart()) + (trip == 0 ? step : 0);
        long last = first + (long) (trip - 1) * step;
        BinOp cmp = upCmps.pick(rng);
        long bound = switch (cmp) {
            case LT -> last + rng.between(1, step);
            case LE -> last + rng.between(0, step - 1);
            default -> last + step;
        };
        return new IterationSpace(type, first, step, trip, true, cmp, bound);
    }

    private IterationSpace downward(NumType type, int trip, int step) {
        Rng rng = f.rng;
        // The lowest value stays >= step, so stepping below it never wraps an unsigned iterator.
        long lowest = rng.between(step, step + lp.maxLowMargin());
        long first = lowest + (long) (trip - 1) * step;
        BinOp cmp = downCmps.pick(rng);
        long bound = switch (cmp) {
            case GE -> lowest - rng.between(0, step - 1);
            case GT -> lowest - rng.between(1, step);
            default -> lowest - step;
        };
        return new IterationSpace(type, first, step, trip, false, cmp, bound);
    }

    /**
     * A constant, or sometimes an expression over inputs that evaluates to it, opaque to
     * the compiler (paper 3.4): an input holding the value, or an input plus or minus a
     * small constant.
     */
    private Expr spell(long value, NumType t) {
        Rng rng = f.rng;
        Globals globals = f.globals;
        if (!rng.chance(f.policy.pOpaqueBound())) return new Expr.Const(t, value);
        NumType vt = rng.pick(List.of(t, NumType.INT, NumType.LLONG, NumType.UINT, NumType.SHORT));
        if (rng.chance(lp.pOpaqueOffset())) {
            // Bounds are small and non-negative, so input = value - k fits every candidate type.
            long k = rng.between(1, lp.maxOpaqueOffset());
            boolean plus = value - k >= 0 && rng.chance(lp.pOpaquePlus());
            ScalarVar v = globals.newInput(vt, plus ? value - k : value + k, rng.chance(f.policy.pParam()));
            Valued sum = f.ub.tryBinary(plus ? BinOp.ADD : BinOp.SUB,
                    Valued.constant(new Expr.ScalarRef(v), v.initValue()),
                    Valued.constant(new Expr.Const(NumType.INT, k), k), Valued.BOTH);
            if (sum == null || sum.values()[0] != value) throw new IllegalStateException("bound " + value + " misspelt");
            return sum.expr();
        }
        for (ScalarVar v : globals.inputs) {
            if (v.base() == vt && v.initValue() == value && rng.chance(lp.pReuseBoundInput())) return new Expr.ScalarRef(v);
        }
        return new Expr.ScalarRef(globals.newInput(vt, value, rng.chance(f.policy.pParam())));
    }
}
