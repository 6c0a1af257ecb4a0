package dev.yarpj.flesh;

import java.util.ArrayList;
import java.util.List;

/**
 * Where fleshing stands: the active partition contexts, the loops in scope (outermost
 * first), the block's symbol table and the product of the enclosing loops' trip counts.
 */
record Env(int mask, List<LoopInfo> loops, Scope scope, long tripProduct) {
    /**
     * Outside any split loop nothing tells the two contexts apart, so both are active and
     * every value is the same in both; locals declared there are then valid inside splits.
     */
    static Env top() {
        return new Env(Valued.BOTH, List.of(), new Scope(null), 1);
    }

    LoopInfo split() {
        for (LoopInfo l : loops) if (l.split()) return l;
        return null;
    }

    Env withMask(int m) {
        return new Env(m, loops, scope, tripProduct);
    }

    Env inBlock() {
        return new Env(mask, loops, new Scope(scope), tripProduct);
    }

    Env enterLoop(LoopInfo loop) {
        List<LoopInfo> ls = new ArrayList<>(loops);
        ls.add(loop);
        int m = loop.split() ? Valued.BOTH : mask;
        return new Env(m, List.copyOf(ls), new Scope(scope), tripProduct * loop.space().trip());
    }
}
