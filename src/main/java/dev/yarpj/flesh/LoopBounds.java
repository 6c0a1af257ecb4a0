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

    /**
     * Decides an iteration space around the planned trip count and spells its bounds.
     * {@code others} is the product of the trips of the loops around it and inside it, which
     * its room to run longer multiplies ({@link #reach}).
     */
    Bounds plain(boolean split, int trip, long others) {
        Rng rng = f.rng;
        int step = rng.chance(f.policy.pUnitStep()) ? 1 : rng.between(1, f.policy.maxStep());
        if (split && step % 2 == 0) step -= 1;
        NumType type = iteratorTypes.get();
        boolean up = !rng.chance(f.policy.pCountDown());
        boolean opaqueBound = rng.chance(f.policy.pOpaqueBound());
        int reach = opaqueBound ? reach(trip, others) : trip;
        IterationSpace space = up ? upward(type, trip, reach, step) : downward(type, trip, reach, step);
        // Narrow iterators must not wrap when stepping past the last value.
        if (space.max() + step > type.max()) space = space.withType(NumType.INT);
        NumType litType = Arith.promote(space.type());
        Expr bound = opaqueBound ? opaque(space.bound(), litType) : new Expr.Const(litType, space.bound());
        return new Bounds(space, spell(space.first(), litType), bound, spell(step, litType));
    }

    /**
     * The most iterations a loop whose bound is an input is sized for: the policy's {@code
     * inputs.reach} (or its planned trip when longer), so that input sets can give it trip
     * counts above the planned one, around the boundaries of wide vectors. The room is kept to
     * a sixteenth of the work budget over the trips of the loops around it and inside it,
     * which bounds what its arrays grow by and what a longer set costs the interpreter. A
     * loop planned to run once or never keeps its trip: input sets do not move it.
     */
    private int reach(int trip, long others) {
        int r = f.policy.inputs().reach();
        if (trip <= 1 || r <= trip) return trip;
        long room = f.policy.maxIterations() / 16 / Math.max(1, others);
        return (int) Math.max(trip, Math.min(r, room));
    }

    /**
     * The space of an idiom nest's loop: upward by 1 from {@code halo} (the reach of a
     * stencil, else 0), with an idiom trip count in the innermost loop, so that arrays are
     * walked contiguously over whole rows.
     */
    Bounds idiom(int trip, int halo, long others) {
        // Iterators as wide as an index usually is, so no wrap-around hides the trip count.
        NumType type = idiomIteratorTypes.get();
        long last = halo + trip - 1L;
        // An empty loop cannot say i <= halo - 1: with halo 0 and an unsigned iterator that never fails.
        BinOp cmp = trip == 0 ? f.rng.pick(emptyIdiomCmps) : idiomCmps.pick(f.rng);
        long bound = cmp == BinOp.LE ? last : last + 1;
        // i <= n with n opaque could be i <= UINT_MAX, an endless loop to the compiler: keep it constant.
        boolean opaqueBound = cmp != BinOp.LE && f.rng.chance(f.policy.pOpaqueBound());
        int reach = opaqueBound ? reach(trip, others) : trip;
        IterationSpace space = new IterationSpace(type, halo, 1, trip, reach, true, cmp, bound);
        NumType litType = Arith.promote(type);
        Expr boundExpr = opaqueBound ? opaque(bound, litType) : new Expr.Const(litType, bound);
        return new Bounds(space, spell(halo, litType), boundExpr, new Expr.Const(litType, 1));
    }

    private IterationSpace upward(NumType type, int trip, int reach, int step) {
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
        return new IterationSpace(type, first, step, trip, fitting(type, first, step, trip, reach), true, cmp, bound);
    }

    private IterationSpace downward(NumType type, int trip, int reach, int step) {
        Rng rng = f.rng;
        // The lowest value of the reach stays >= step, so stepping below it never wraps an unsigned iterator.
        long lowest = rng.between(step, step + lp.maxLowMargin());
        reach = fitting(type, lowest, step, trip, reach);
        // Iterations beyond the planned ones count on down to that lowest value.
        long first = lowest + (long) (reach - 1) * step;
        long plannedLowest = first - (long) (trip - 1) * step;
        BinOp cmp = downCmps.pick(rng);
        long bound = switch (cmp) {
            case GE -> plannedLowest - rng.between(0, step - 1);
            case GT -> plannedLowest - rng.between(1, step);
            default -> plannedLowest - step;
        };
        return new IterationSpace(type, first, step, trip, reach, false, cmp, bound);
    }

    /**
     * {@code reach} cut so that an iterator of {@code type} from {@code base} stepping {@code
     * step} up through it does not pass the type's largest value (a narrow iterator stays
     * narrow), but not below {@code trip}.
     */
    private static int fitting(NumType type, long base, long step, int trip, int reach) {
        if (reach <= trip) return trip;
        long fits = (type.max() - step - base) / step + 1;
        return (int) Math.max(trip, Math.min(reach, fits));
    }

    /**
     * A constant, or sometimes an expression over inputs that evaluates to it, opaque to
     * the compiler (paper 3.4): an input holding the value, or an input plus or minus a
     * small constant.
     */
    private Expr spell(long value, NumType t) {
        return f.rng.chance(f.policy.pOpaqueBound()) ? opaque(value, t) : new Expr.Const(t, value);
    }

    /** An expression over inputs that evaluates to {@code value}: see {@link #spell}. */
    private Expr opaque(long value, NumType t) {
        Rng rng = f.rng;
        Globals globals = f.globals;
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
