package dev.yarpj.ir;

/**
 * {@code for (T iter = start; cond; iter = (T) update)}. {@code cond} compares the iterator
 * with the bound, {@code update} is {@code iter + step} or {@code iter - step} (lowered as
 * {@code +=} / {@code -=}); both are typed expressions built by {@link Exprs}, so C's
 * conversions in the header are explicit in the IR. Bounds and step are usually
 * constants, sometimes expressions over inputs that evaluate to the same values.
 * {@code trip} is the number of iterations every execution of the loop runs (the
 * interpreter checks it), or -1 where unknown; with the head's start and step it is the
 * loop's iteration space, which a data-parallel lowering maps an index range onto.
 */
public record LoopHead(Iterator iter, Expr start, Expr.Binary cond, Expr.Binary update, long trip,
                       Parallelism parallelism) {
    /**
     * Whether the iterations may run in any order or at once. {@link #INDEPENDENT}: no
     * dependence crosses iterations. {@link #REDUCTION}: none but the folds of
     * {@link Stmt.Reduce} statements into accumulators the loop does not index, which a
     * parallel lowering computes as partial results combined after the loop.
     */
    public enum Parallelism { SERIAL, INDEPENDENT, REDUCTION }

    /** A head of unknown trip count, data-parallel (independent) or not. */
    public LoopHead(Iterator iter, Expr start, Expr.Binary cond, Expr.Binary update, boolean dataParallel) {
        this(iter, start, cond, update, -1, dataParallel ? Parallelism.INDEPENDENT : Parallelism.SERIAL);
    }

    public boolean countsUp() {
        return update.op() == BinOp.ADD;
    }

    /** Whether no dependence at all crosses iterations (what ivdep promises). */
    public boolean dataParallel() {
        return parallelism == Parallelism.INDEPENDENT;
    }

    /** Whether the iterations may run as a gang or a parallel range, reductions included. */
    public boolean parallel() {
        return parallelism != Parallelism.SERIAL;
    }

    public LoopHead withParallelism(Parallelism p) {
        return new LoopHead(iter, start, cond, update, trip, p);
    }
}
