package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Pragma;
import dev.yarpj.ir.Stmt;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Marks the loops of a nest whose iterations are independent: every store below them is a
 * plain assignment to an array element whose subscript is the loop's own iterator (or an
 * element of its interleaved group, {@code k*i + j} with {@code 0 <= j < k}, one {@code k}
 * per array), in the same dimension for every store to that array, and each storage is reached through one
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
            // A loop that a break may leave early is never parallel: later iterations depend on earlier ones' data.
            LoopHead.Parallelism p = nest.breaksOut(l) || readsView(contents) || readsOutput(contents) || !independent(h.iter(), contents, deps)
                    ? LoopHead.Parallelism.SERIAL
                    : deps.reduces ? LoopHead.Parallelism.REDUCTION : LoopHead.Parallelism.INDEPENDENT;
            levels.add(new Stmt.LoopLevel(h.withParallelism(p), lv.prefix(), lv.suffix()));
        }
        return new Stmt.LoopNest(levels, nest.body(), nest.pragma(), nest.idiom());
    }

    /**
     * {@link #mark}, and the nest's pragma kept only if it still holds: {@code ivdep} promises
     * that no dependence crosses the innermost loop's iterations, true of a data-parallel
     * loop only.
     */
    static Stmt.LoopNest markKeepingPromises(Stmt.LoopNest nest) {
        Stmt.LoopNest marked = mark(nest);
        return marked.pragma() == Pragma.GCC_IVDEP && !marked.levels().get(marked.depth() - 1).head().dataParallel()
                ? marked.withPragma(Pragma.NONE) : marked;
    }

    /** What the stores below a loop have shown so far. */
    private static final class Dependences {
        /** For each array stored to, the dimension its stores index by the loop's iterator. */
        final Map<ArrayVar, Integer> dimOf = new HashMap<>();
        /** For each array stored to, the group size of those subscripts (1: the iterator itself, see {@link Exprs#groupOf}). */
        final Map<ArrayVar, Integer> groupOf = new HashMap<>();
        /** For each storage stored to, the array the stores went through. */
        final Map<ArrayVar, ArrayVar> viewOf = new HashMap<>();
        /** Whether some accumulator is folded into across iterations. */
        boolean reduces;
    }

    private static boolean independent(Iterator it, List<Stmt> stmts, Dependences deps) {
        return new Independent(it, deps).all(stmts);
    }

    /**
     * Whether the statements below a loop keep its iterations independent, recording in
     * {@code deps} what their stores show (so statements are visited in order).
     */
    private static final class Independent implements Stmt.Visitor<Boolean> {
        private final Iterator it;
        private final Dependences deps;

        Independent(Iterator it, Dependences deps) {
            this.it = it;
            this.deps = deps;
        }

        boolean all(List<? extends Stmt> stmts) {
            for (Stmt s : stmts) if (!s.accept(this)) return false;
            return true;
        }

        @Override
        public Boolean assign(Stmt.Assign a) {
            return a.compound() == null && a.target() instanceof Expr.Subscript sub && indexedBy(it, sub, deps);
        }

        @Override
        public Boolean reduce(Stmt.Reduce r) {
            // An accumulator element of its own per iteration is a plain store; one shared
            // across iterations is a reduction (nothing else touches an accumulator).
            if (r.target() instanceof Expr.Subscript sub && mentions(sub, it)) return indexedBy(it, sub, deps);
            deps.reduces = true;
            return r.reorderable();
        }

        @Override
        public Boolean localDecl(Stmt.LocalDecl d) {
            return true; // a per-iteration temporary
        }

        @Override
        public Boolean ifStmt(Stmt.If i) {
            return i.then().accept(this) && (i.otherwise() == null || i.otherwise().accept(this));
        }

        @Override
        public Boolean switchStmt(Stmt.Switch s) {
            for (Stmt.Switch.Case c : s.cases()) if (!c.body().accept(this)) return false;
            return s.otherwise() == null || s.otherwise().accept(this);
        }

        @Override
        public Boolean deadBranch(Stmt.DeadBranch d) {
            // Never runs, but a promise of independence (ivdep, foreach) must hold for the code as written.
            return d.body().accept(this);
        }

        @Override
        public Boolean block(Stmt.Block b) {
            return all(b.stmts());
        }

        @Override
        public Boolean loopNest(Stmt.LoopNest n) {
            return all(n.blocksFrom(0));
        }

        @Override
        public Boolean loopSeq(Stmt.LoopSeq q) {
            return all(q.nests());
        }

        @Override
        public Boolean exit(Stmt.Exit e) {
            return true; // a continue skips an iteration's own work; a break here leaves an inner loop
        }
    }

    /** Whether a store to {@code sub} writes an element of its own per iteration of {@code it}. */
    private static boolean indexedBy(Iterator it, Expr.Subscript sub, Dependences deps) {
        ArrayVar through = deps.viewOf.putIfAbsent(sub.array().storage(), sub.array());
        if (through != null && through != sub.array()) return false;
        for (int d = 0; d < sub.indices().size(); d++) {
            // The iterator itself, or an element of its interleaved group: disjoint across iterations
            // while every store to the array indexes that dimension with groups of one size.
            int k = Exprs.groupOf(sub.indices().get(d), it);
            if (k > 0) {
                Integer first = deps.dimOf.putIfAbsent(sub.array(), d);
                Integer group = deps.groupOf.putIfAbsent(sub.array(), k);
                return (first == null || first == d) && (group == null || group == k);
            }
        }
        return false;
    }

    /** Whether any subscript of {@code sub} reads {@code it}, in any form. */
    private static boolean mentions(Expr.Subscript sub, Iterator it) {
        Expr.AnyOperand reads = new Expr.AnyOperand() {
            @Override
            public Boolean iter(Expr.IterRef r) {
                return r.iter().equals(it);
            }
        };
        return sub.indices().stream().anyMatch(i -> i.accept(reads));
    }

    /**
     * Whether any statement, or expression of one, reads what {@code reads} (an expression
     * pass) looks for: the walk both questions below share. A subclass adds what it asks of
     * stores and loop heads.
     */
    private abstract static class AnyRead extends Stmt.AnyStatement {
        final Expr.AnyOperand reads;

        AnyRead(Expr.AnyOperand reads) {
            this.reads = reads;
        }

        boolean reads(Expr e) {
            return e.accept(reads);
        }

        /** Whether a store's target subscripts read it (a scalar target has none). */
        boolean targetIndices(Expr target) {
            return target instanceof Expr.Subscript sub && sub.indices().stream().anyMatch(this::reads);
        }

        @Override
        public Boolean localDecl(Stmt.LocalDecl d) {
            return reads(d.init());
        }

        @Override
        public Boolean ifStmt(Stmt.If i) {
            return reads(i.cond()) || super.ifStmt(i);
        }

        @Override
        public Boolean switchStmt(Stmt.Switch s) {
            return reads(s.selector()) || super.switchStmt(s);
        }

        @Override
        public Boolean deadBranch(Stmt.DeadBranch d) {
            return reads(d.cond()) || super.deadBranch(d);
        }
    }

    /** Whether an expression below reads an output, other than a fold's own accumulator. */
    private static boolean readsOutput(List<Stmt> stmts) {
        return READS_OUTPUT.any(stmts);
    }

    private static final ReadsOutput READS_OUTPUT = new ReadsOutput();

    private static final class ReadsOutput extends AnyRead {
        ReadsOutput() {
            super(new Expr.AnyOperand() {
                @Override
                public Boolean scalar(Expr.ScalarRef r) {
                    return r.var().role() == dev.yarpj.ir.ScalarVar.Role.OUTPUT;
                }

                @Override
                public Boolean subscript(Expr.Subscript sub) {
                    // A view's storage is an output; reads through views are handled by ReadsView.
                    return !sub.array().isInput() && !(sub.array().passing() instanceof ArrayVar.Passing.View)
                            || super.subscript(sub);
                }
            });
        }

        @Override
        public Boolean assign(Stmt.Assign a) {
            return reads(a.value()) || a.compound() != null && reads(a.target()) || targetIndices(a.target());
        }

        @Override
        public Boolean reduce(Stmt.Reduce r) {
            return reads(r.value()) || targetIndices(r.target());
        }

        @Override
        public Boolean loopNest(Stmt.LoopNest n) {
            for (Stmt.LoopLevel lv : n.levels()) {
                LoopHead h = lv.head();
                if (reads(h.start()) || reads(h.cond()) || reads(h.update()) || (h.guard() != null && reads(h.guard()))) return true;
            }
            return super.loopNest(n);
        }
    }

    /** Whether any statement reads an array element through a view (the only way outputs are read). */
    private static boolean readsView(List<Stmt> stmts) {
        return READS_VIEW.any(stmts);
    }

    private static final ReadsView READS_VIEW = new ReadsView();

    private static final class ReadsView extends AnyRead {
        ReadsView() {
            super(new Expr.AnyOperand() {
                @Override
                public Boolean subscript(Expr.Subscript sub) {
                    return sub.array().passing() instanceof ArrayVar.Passing.View || super.subscript(sub);
                }
            });
        }

        @Override
        public Boolean assign(Stmt.Assign a) {
            return reads(a.value()) || targetIndices(a.target())
                    || (a.compound() != null && a.target() instanceof Expr.Subscript t && t.array().passing() instanceof ArrayVar.Passing.View);
        }

        @Override
        public Boolean reduce(Stmt.Reduce r) {
            return reads(r.value());
        }
    }
}
