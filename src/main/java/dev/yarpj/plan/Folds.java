package dev.yarpj.plan;

import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The folds ({@link Stmt.Reduce}) inside some statements, in program order: what a parallel
 * lowering (an ISPC gang loop, a SYCL kernel) keeps partial results of.
 */
final class Folds {
    private Folds() {}

    /**
     * Whether {@code target} is an array element with {@code loop}'s iterator, or an element of
     * its interleaved group ({@link Exprs#groupOf}), as one of its indices: an element of its own
     * per iteration, as DataParallelism judges it.
     */
    static boolean indexedBy(Expr target, LoopHead loop) {
        if (!(target instanceof Expr.Subscript sub)) return false;
        for (Expr i : sub.indices()) {
            if (Exprs.groupOf(i, loop.iter()) > 0) return true;
        }
        return false;
    }

    /** Every fold in {@code stmts} and the statements nested in them that {@code wanted} accepts. */
    static List<Stmt.Reduce> in(List<Stmt> stmts, Predicate<Stmt.Reduce> wanted) {
        List<Stmt.Reduce> out = new ArrayList<>();
        Stmt.Walker collect = new Stmt.Walker() {
            @Override
            public Void reduce(Stmt.Reduce r) {
                if (wanted.test(r)) out.add(r);
                return null;
            }
        };
        for (Stmt s : stmts) s.accept(collect);
        return out;
    }
}
