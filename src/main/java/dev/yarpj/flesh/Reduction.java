package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ReductionOp;
import dev.yarpj.ir.Stmt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * An element-wise value reduced into a new output of lower rank than the loops in scope,
 * indexed by the outermost of them: sum, min, max or a bitwise operator (reduction_weights).
 * The accumulator is new, so its start is known, and fleshing has made the value the same on
 * every iteration of a context; a signed sum that could overflow in the worst case of every
 * execution becomes an exclusive or.
 */
final class Reduction implements StatementForm {
    private final Fleshing f;
    private final Elementwise elementwise;
    private final Supplier<ReductionOp> reductions;

    Reduction(Fleshing f, Elementwise elementwise) {
        this.f = f;
        this.elementwise = elementwise;
        Map<ReductionOp, Integer> ops = new LinkedHashMap<>();
        f.policy.reductionWeights().forEach((name, w) -> ops.put(ReductionOp.byPolicyName(name), w));
        this.reductions = f.rng.sampler(ops);
    }

    @Override
    public Stmt flesh(Env env) {
        return into(elementwise.value(env), env);
    }

    /** Reduces {@code value}, the same on every iteration of a context, as the class says. */
    Stmt into(Valued value, Env env) {
        List<LoopInfo> loops = env.loops();
        int rank = f.rng.between(0, Math.min(loops.size() - 1, f.policy.maxArrayRank()));
        // Mostly the type the operation is done in, as a reduction variable usually is: no
        // truncation between iterations that would hide the reduction from a vectorizer.
        // A portable program accumulates in the promoted type, so no step is converted back out of range.
        NumType t = f.rng.chance(f.policy.pReducePromoted()) || f.ub.portable()
                ? Arith.promote(value.expr().type()) : f.exprs.randomType();
        ReductionOp op = reductions.get();
        long init = switch (op) {
            case MIN, MAX, AND -> op.identity(t);
            case SUM, OR, XOR -> f.rng.chance(f.policy.pReduceFromZero()) ? 0 : f.exprs.interestingValue(t);
        };
        Expr target = null;
        if (rank > 0) {
            List<Integer> dims = new ArrayList<>();
            List<Expr> idx = new ArrayList<>();
            for (int d = 0; d < rank; d++) {
                dims.add((int) loops.get(d).space().max() + 1);
                idx.add(new Expr.IterRef(loops.get(d).iter()));
            }
            ArrayVar a = f.globals.newPrivateArray(false, t, dims, ArrayVar.Fill.uniform(init));
            if (a != null) target = Exprs.subscript(a, idx);
        }
        if (target == null) target = new Expr.ScalarRef(f.globals.newAccumulator(t, init));
        // A sum that could overflow in some order of its additions becomes an exclusive or.
        if (op == ReductionOp.SUM && !sumCannotOverflow(t, init, value, env)) op = ReductionOp.XOR;
        return new Stmt.Reduce(target, op, value.expr());
    }

    /**
     * Whether {@code t += v}, executed at most once per iteration of every loop in scope,
     * starting from {@code init}, stays defined: the addition is done in an unsigned type,
     * or its worst-case magnitude fits the signed one.
     */
    static boolean sumCannotOverflow(NumType t, long init, Valued v, Env env) {
        NumType op = Arith.operandType(BinOp.ADD, t, v.expr().type(), true);
        if (!op.signed) return true;
        long step = 0;
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(env.mask(), c)) continue;
            long x = Arith.convert(v.values()[c], op);
            if (x == Long.MIN_VALUE) return false;
            step = Math.max(step, Math.abs(x));
        }
        long init0 = Arith.convert(init, op);
        if (init0 == Long.MIN_VALUE) return false;
        if (fits(Math.abs(init0), env.tripProduct(), step, op)) return true;
        // A narrower accumulator is converted back to its type after every step.
        return t.bits < op.bits && fits(Math.max(Math.abs(t.min()), t.max()), 1, step, op);
    }

    /** Whether {@code start + times * step} (all non-negative) is at most {@code op}'s maximum. */
    private static boolean fits(long start, long times, long step, NumType op) {
        try {
            return Math.addExact(start, Math.multiplyExact(times, step)) <= op.max();
        } catch (ArithmeticException e) {
            return false;
        }
    }
}
