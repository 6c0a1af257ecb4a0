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
 * same dimension for every store to that array, and each storage is reached through one
 * array only (two views of one storage at an offset overlap across iterations). Two
 * iterations then write disjoint elements; outputs are never read except through a view,
 * so a loop that reads through a view is never marked, and no other dependence can cross
 * iterations. That outputs are not read otherwise is checked, not assumed: a loop below
 * which an output scalar or output array is read (beyond a fold reading its own
 * accumulator) is never marked either, since kernels and gangs rely on the marking.
 */
final class DataParallelism {
    private DataParallelism() {}

    static Stmt.LoopNest mark(Stmt.LoopNest nest) {
        List<Stmt.LoopLevel> levels = new ArrayList<>();
        for (int l = 0; l < nest.depth(); l++) {
            Stmt.LoopLevel lv = nest.levels().get(l);
            LoopHead h = lv.head();
            List<Stmt> contents = nest.blocksFrom(l);
            Dependences deps = new Dependences();
            LoopHead.Parallelism p = readsView(contents) || readsOutput(contents) || !independent(h.iter(), contents, deps)
                    ? LoopHead.Parallelism.SERIAL
                    : deps.reduces ? LoopHead.Parallelism.REDUCTION : LoopHead.Parallelism.INDEPENDENT;
            levels.add(new Stmt.LoopLevel(h.withParallelism(p), lv.prefix(), lv.suffix()));
        }
        return new Stmt.LoopNest(levels, nest.body(), nest.pragma(), nest.idiom());
    }

    /** What the stores below a loop have shown so far. */
    private static final class Dependences {
        /** For each array stored to, the dimension its stores index by the loop's iterator. */
        final Map<ArrayVar, Integer> dimOf = new HashMap<>();
        /** For each storage stored to, the array the stores went through. */
        final Map<ArrayVar, ArrayVar> viewOf = new HashMap<>();
        /** Whether some accumulator is folded into across iterations. */
        boolean reduces;
    }

    private static boolean independent(Iterator it, List<Stmt> stmts, Dependences deps) {
        for (Stmt s : stmts) if (!independent(it, s, deps)) return false;
        return true;
    }

    private static boolean independent(Iterator it, Stmt s, Dependences deps) {
        if (s instanceof Stmt.Assign a) {
            return a.compound() == null && a.target() instanceof Expr.Subscript sub && indexedBy(it, sub, deps);
        }
        if (s instanceof Stmt.Reduce r) {
            // An accumulator element of its own per iteration is a plain store; one shared
            // across iterations is a reduction (nothing else touches an accumulator).
            if (r.target() instanceof Expr.Subscript sub && mentions(sub, it)) return indexedBy(it, sub, deps);
            deps.reduces = true;
            return r.reorderable();
        }
        if (s instanceof Stmt.Block b) return independent(it, b.stmts(), deps);
        if (s instanceof Stmt.If i) {
            return independent(it, i.then(), deps) && (i.otherwise() == null || independent(it, i.otherwise(), deps));
        }
        // Never runs, but a promise of independence (ivdep, foreach) must hold for the code as written.
        if (s instanceof Stmt.DeadBranch d) return independent(it, d.body(), deps);
        if (s instanceof Stmt.LoopNest n) return independent(it, n.blocksFrom(0), deps);
        if (s instanceof Stmt.LoopSeq q) return independent(it, new ArrayList<>(q.nests()), deps);
        return true; // LocalDecl: a per-iteration temporary
    }

    /** Whether a store to {@code sub} writes an element of its own per iteration of {@code it}. */
    private static boolean indexedBy(Iterator it, Expr.Subscript sub, Dependences deps) {
        ArrayVar through = deps.viewOf.putIfAbsent(sub.array().storage(), sub.array());
        if (through != null && through != sub.array()) return false;
        for (int d = 0; d < sub.indices().size(); d++) {
            if (Exprs.stripImplicit(sub.indices().get(d)) instanceof Expr.IterRef r && r.iter().equals(it)) {
                Integer first = deps.dimOf.putIfAbsent(sub.array(), d);
                return first == null || first == d;
            }
        }
        return false;
    }

    private static boolean mentions(Expr.Subscript sub, Iterator it) {
        for (Expr i : sub.indices()) {
            if (Exprs.stripImplicit(i) instanceof Expr.IterRef r && r.iter().equals(it)) return true;
        }
        return false;
    }

    /** Whether an expression below reads an output, other than a fold's own accumulator. */
    private static boolean readsOutput(List<Stmt> stmts) {
        for (Stmt s : stmts) if (readsOutput(s)) return true;
        return false;
    }

    private static boolean readsOutput(Stmt s) {
        if (s instanceof Stmt.Assign a) {
            return readsOutput(a.value()) || a.compound() != null && readsOutput(a.target())
                    || a.target() instanceof Expr.Subscript sub && sub.indices().stream().anyMatch(DataParallelism::readsOutput);
        }
        if (s instanceof Stmt.Reduce r) {
            return readsOutput(r.value()) || r.target() instanceof Expr.Subscript sub && sub.indices().stream().anyMatch(DataParallelism::readsOutput);
        }
        if (s instanceof Stmt.LocalDecl d) return readsOutput(d.init());
        if (s instanceof Stmt.Block b) return readsOutput(b.stmts());
        if (s instanceof Stmt.If i) return readsOutput(i.cond()) || readsOutput(i.then()) || (i.otherwise() != null && readsOutput(i.otherwise()));
        if (s instanceof Stmt.DeadBranch d) return readsOutput(d.cond()) || readsOutput(d.body());
        if (s instanceof Stmt.LoopNest n) {
            for (Stmt.LoopLevel lv : n.levels()) {
                LoopHead h = lv.head();
                if (readsOutput(h.start()) || readsOutput(h.cond()) || readsOutput(h.update())) return true;
            }
            return readsOutput(n.blocksFrom(0));
        }
        if (s instanceof Stmt.LoopSeq q) return readsOutput(new ArrayList<>(q.nests()));
        return false;
    }

    private static boolean readsOutput(Expr e) {
        if (e instanceof Expr.ScalarRef r) return r.var().role() == dev.yarpj.ir.ScalarVar.Role.OUTPUT;
        if (e instanceof Expr.Subscript sub) {
            // A view's storage is an output; reads through views are handled by readsView.
            return !sub.array().isInput() && !(sub.array().passing() instanceof ArrayVar.Passing.View)
                    || sub.indices().stream().anyMatch(DataParallelism::readsOutput);
        }
        if (e instanceof Expr.Unary u) return readsOutput(u.operand());
        if (e instanceof Expr.Binary b) return readsOutput(b.lhs()) || readsOutput(b.rhs());
        if (e instanceof Expr.Ternary t) return readsOutput(t.cond()) || readsOutput(t.then()) || readsOutput(t.otherwise());
        if (e instanceof Expr.Cast c) return readsOutput(c.operand());
        if (e instanceof Expr.Call c) return readsOutput(c.lhs()) || readsOutput(c.rhs());
        if (e instanceof Expr.Stencil st) return st.taps().stream().anyMatch(DataParallelism::readsOutput);
        return false;
    }

    /** Whether any statement reads an array element through a view (the only way outputs are read). */
    private static boolean readsView(List<Stmt> stmts) {
        for (Stmt s : stmts) if (readsView(s)) return true;
        return false;
    }

    private static boolean readsView(Stmt s) {
        if (s instanceof Stmt.Assign a) {
            return readsView(a.value()) || (a.target() instanceof Expr.Subscript sub && sub.indices().stream().anyMatch(DataParallelism::readsView))
                    || (a.compound() != null && a.target() instanceof Expr.Subscript t && t.array().passing() instanceof ArrayVar.Passing.View);
        }
        if (s instanceof Stmt.Reduce r) return readsView(r.value());
        if (s instanceof Stmt.LocalDecl d) return readsView(d.init());
        if (s instanceof Stmt.Block b) return readsView(b.stmts());
        if (s instanceof Stmt.If i) return readsView(i.cond()) || readsView(i.then()) || (i.otherwise() != null && readsView(i.otherwise()));
        if (s instanceof Stmt.DeadBranch d) return readsView(d.cond()) || readsView(d.body());
        if (s instanceof Stmt.LoopNest n) return readsView(n.blocksFrom(0));
        if (s instanceof Stmt.LoopSeq q) return readsView(new ArrayList<>(q.nests()));
        return false;
    }

    private static boolean readsView(Expr e) {
        if (e instanceof Expr.Subscript sub) {
            return sub.array().passing() instanceof ArrayVar.Passing.View || sub.indices().stream().anyMatch(DataParallelism::readsView);
        }
        if (e instanceof Expr.Unary u) return readsView(u.operand());
        if (e instanceof Expr.Binary b) return readsView(b.lhs()) || readsView(b.rhs());
        if (e instanceof Expr.Ternary t) return readsView(t.cond()) || readsView(t.then()) || readsView(t.otherwise());
        if (e instanceof Expr.Cast c) return readsView(c.operand());
        if (e instanceof Expr.Call c) return readsView(c.lhs()) || readsView(c.rhs());
        if (e instanceof Expr.Stencil st) return st.taps().stream().anyMatch(DataParallelism::readsView);
        return false;
    }
}
