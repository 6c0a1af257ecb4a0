package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Stmt;
import dev.yarpj.skeleton.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A stencil over new input arrays, along the innermost loops of an idiom nest whose spaces
 * keep the plan's halo away from both edges ({@link Shape.StencilPlan}); stored element-wise
 * or reduced. Every array is filled uniformly, so the value of the stencil is known, and its
 * sum is checked like any operator (else it combines by exclusive or). An element-wise store
 * when no array fits.
 */
final class Stencil implements StatementForm {
    private final Fleshing f;
    private final Elementwise elementwise;
    private final Reduction reduction;

    Stencil(Fleshing f, Elementwise elementwise, Reduction reduction) {
        this.f = f;
        this.elementwise = elementwise;
        this.reduction = reduction;
    }

    @Override
    public Stmt flesh(Env env) {
        Shape.StencilPlan st = env.plan().stencil();
        List<LoopInfo> loops = env.loops();
        int dims = Math.min(st.dims(), loops.size());
        List<LoopInfo> spanned = loops.subList(loops.size() - dims, loops.size());
        NumType elem = f.exprs.randomType();
        List<ArrayVar> arrays = new ArrayList<>();
        for (int k = 0; k < st.arrays(); k++) {
            List<Integer> size = new ArrayList<>();
            for (LoopInfo l : spanned) {
                size.add((int) l.space().max() + st.halo() + 1 + f.rng.between(0, f.policy.statements().maxStencilPadding()));
            }
            ArrayVar a = f.globals.newArray(true, elem, size, ArrayVar.Fill.uniform(f.exprs.interestingValue(elem)));
            if (a != null) arrays.add(a);
        }
        if (arrays.isEmpty()) return elementwise.flesh(env);
        // The centre first, then distinct offsets along one dimension or diagonally.
        List<int[]> offsets = new ArrayList<>();
        offsets.add(new int[dims]);
        for (int attempt = 0; offsets.size() < st.taps() && attempt < 8 * st.taps(); attempt++) {
            int[] off = new int[dims];
            for (int d = 0; d < dims; d++) {
                if (d == f.rng.between(0, dims - 1) || f.rng.chance(f.policy.pStencilDiagonalTap())) {
                    off[d] = f.rng.between(-st.reach(), st.reach()) * st.stride();
                }
            }
            if (offsets.stream().noneMatch(o -> Arrays.equals(o, off))) offsets.add(off);
        }
        List<Expr.Subscript> taps = new ArrayList<>();
        for (int i = 0; i < offsets.size(); i++) {
            ArrayVar a = arrays.get(i % arrays.size());
            List<Expr> idx = new ArrayList<>();
            for (int d = 0; d < dims; d++) {
                Expr it = new Expr.IterRef(spanned.get(d).iter());
                int o = offsets.get(i)[d];
                idx.add(o == 0 ? it : Exprs.binary(o > 0 ? BinOp.ADD : BinOp.SUB, it, new Expr.Const(NumType.INT, Math.abs(o))));
            }
            taps.add(Exprs.subscript(a, idx));
        }
        // Every tap holds its array's fill; the sum is checked in every context like any operator.
        NumType t = Arith.promote(elem);
        BinOp combine = BinOp.ADD;
        for (BinOp cand : List.of(BinOp.ADD, BinOp.BXOR)) {
            combine = cand;
            if (value(cand, t, taps) != null) break;
        }
        Long v = value(combine, t, taps);
        Valued value = Valued.constant(Exprs.stencil(combine, taps), v);
        if (st.reduced()) return reduction.into(value, env);
        Expr target = f.walkedOrAnyOutput(env);
        return f.store(target, value);
    }

    /** The value of a stencil over uniformly filled arrays, or null when folding it is UB. */
    private static Long value(BinOp op, NumType t, List<Expr.Subscript> taps) {
        long acc = Arith.convert(taps.get(0).array().fill().even(), t);
        for (int i = 1; i < taps.size(); i++) {
            long y = Arith.convert(taps.get(i).array().fill().even(), t);
            if (Arith.binaryUb(op, t, acc, t, y) != null) return null;
            acc = Arith.binary(op, t, acc, t, y);
        }
        return acc;
    }
}
