package dev.yarpj.ir;

/**
 * {@code for (T iter = start; cond; iter = (T) update)}. {@code cond} compares the iterator
 * with the bound, {@code update} is {@code iter + step} or {@code iter - step} (lowered as
 * {@code +=} / {@code -=}); both are typed expressions built by {@link Exprs}, so C's
 * conversions in the header are explicit in the IR. Bounds and step are usually
 * constants, sometimes expressions over inputs that evaluate to the same values.
 * {@code dataParallel} marks a loop whose iterations are independent (foreach in ISPC,
 * parallel_for in SYCL).
 */
public record LoopHead(Iterator iter, Expr start, Expr.Binary cond, Expr.Binary update, boolean dataParallel) {
    public boolean countsUp() {
        return update.op() == BinOp.ADD;
    }
}
