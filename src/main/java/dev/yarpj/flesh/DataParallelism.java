package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Marks the loops of a nest whose iterations are independent: every store below them is a
 * plain assignment to an array element whose subscript is the loop's own iterator, in the
 * same dimension for every store to that array. Two iterations then write disjoint
 * elements, and since outputs are never read, no other dependence can cross iterations.
 */
final class DataParallelism {
    private DataParallelism() {}

    static Stmt.LoopNest mark(Stmt.LoopNest nest) {
        List<Stmt.LoopLevel> levels = new ArrayList<>();
        for (int l = 0; l < nest.depth(); l++) {
            Stmt.LoopLevel lv = nest.levels().get(l);
            LoopHead h = lv.head();
            boolean parallel = independent(h.iter(), levelContents(nest, l), new HashMap<>());
            levels.add(new Stmt.LoopLevel(new LoopHead(h.iter(), h.start(), h.cond(), h.update(), parallel),
                    lv.prefix(), lv.suffix()));
        }
        return new Stmt.LoopNest(levels, nest.body(), nest.pragma());
    }

    private static List<Stmt> levelContents(Stmt.LoopNest nest, int from) {
        List<Stmt> all = new ArrayList<>();
        for (int l = from; l < nest.depth(); l++) {
            all.add(nest.levels().get(l).prefix());
            all.add(nest.levels().get(l).suffix());
        }
        all.add(nest.body());
        return all;
    }

    /** @param dimOf for each array stored to so far, the dimension its stores index by {@code it} */
    private static boolean independent(Iterator it, List<Stmt> stmts, Map<ArrayVar, Integer> dimOf) {
        for (Stmt s : stmts) if (!independent(it, s, dimOf)) return false;
        return true;
    }

    private static boolean independent(Iterator it, Stmt s, Map<ArrayVar, Integer> dimOf) {
        if (s instanceof Stmt.Assign a) {
            if (a.compound() != null || !(a.target() instanceof Expr.Subscript sub)) return false;
            for (int d = 0; d < sub.indices().size(); d++) {
                if (Exprs.stripImplicit(sub.indices().get(d)) instanceof Expr.IterRef r && r.iter().equals(it)) {
                    Integer first = dimOf.putIfAbsent(sub.array(), d);
                    return first == null || first == d;
                }
            }
            return false;
        }
        if (s instanceof Stmt.Block b) return independent(it, b.stmts(), dimOf);
        if (s instanceof Stmt.If i) {
            return independent(it, i.then(), dimOf) && (i.otherwise() == null || independent(it, i.otherwise(), dimOf));
        }
        if (s instanceof Stmt.LoopNest n) {
            List<Stmt> inner = new ArrayList<>();
            for (Stmt.LoopLevel lv : n.levels()) {
                inner.add(lv.prefix());
                inner.add(lv.suffix());
            }
            inner.add(n.body());
            return independent(it, inner, dimOf);
        }
        if (s instanceof Stmt.LoopSeq q) return independent(it, new ArrayList<>(q.nests()), dimOf);
        return true; // LocalDecl: a per-iteration temporary
    }
}
