package dev.yarpj.flesh;

import dev.yarpj.ir.Helper;
import dev.yarpj.skeleton.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * Where fleshing stands: the active partition contexts, the loops in scope (outermost
 * first), the block's symbol table, the product of the enclosing loops' trip counts, the
 * plan of the innermost nest (how its subscripts follow its loops), and whether
 * expressions must stay loop-invariant (read no array), and whether they are the body of a
 * helper function (read only its parameters, the locals of {@code scope}, and constants):
 * {@code helper} is that helper's linkage, null in test() itself.
 */
record Env(int mask, List<LoopInfo> loops, Scope scope, long tripProduct, Shape.NestPlan plan, boolean invariant,
           Helper.Linkage helper) {
    /**
     * Outside any split loop nothing tells the two contexts apart, so both are active and
     * every value is the same in both; locals declared there are then valid inside splits.
     */
    static Env top() {
        return new Env(Valued.BOTH, List.of(), new Scope(null), 1, Shape.NestPlan.PLAIN, false, null);
    }

    /**
     * The body of a helper called here, whose parameters {@code params} declares: the same
     * contexts and nest plan (a body in a vectorizable nest divides no more than the nest
     * does), no loops, and nothing but the parameters to read.
     */
    Env helperBody(Scope params, Helper.Linkage linkage) {
        return new Env(mask, List.of(), params, 1, plan, false, linkage);
    }

    /** Whether expressions built here are a helper's body. */
    boolean inHelper() {
        return helper != null;
    }

    LoopInfo split() {
        for (LoopInfo l : loops) if (l.split()) return l;
        return null;
    }

    /** The innermost loop in scope, or null. */
    LoopInfo innermost() {
        return loops.isEmpty() ? null : loops.get(loops.size() - 1);
    }

    Env withMask(int m) {
        return new Env(m, loops, scope, tripProduct, plan, invariant, helper);
    }

    Env inBlock() {
        return new Env(mask, loops, new Scope(scope), tripProduct, plan, invariant, helper);
    }

    Env withPlan(Shape.NestPlan p) {
        return new Env(mask, loops, scope, tripProduct, p, invariant, helper);
    }

    /** Expressions built in this environment read only scalars: the same value on every iteration. */
    Env loopInvariant() {
        return new Env(mask, loops, scope, tripProduct, plan, true, helper);
    }

    Env enterLoop(LoopInfo loop) {
        List<LoopInfo> ls = new ArrayList<>(loops);
        ls.add(loop);
        int m = loop.split() ? Valued.BOTH : mask;
        return new Env(m, List.copyOf(ls), new Scope(scope), tripProduct * loop.space().trip(), plan, invariant, helper);
    }
}
