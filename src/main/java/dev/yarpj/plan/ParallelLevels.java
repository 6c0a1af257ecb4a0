package dev.yarpj.plan;

import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Stmt;
import java.util.List;

/**
 * Levels of a loop nest whose iterations run in parallel (an ISPC gang loop: one level; a
 * SYCL parallel_for: up to three outer levels), and the folds below them that need partial
 * results: those into an accumulator that not every one of these levels indexes, since
 * several iterations fold into it at once. Every such fold is {@code reorderable} (the flesher's
 * {@code DataParallelism} only marks a loop parallel when they are), so the partial results
 * may be combined in any order after the loop.
 *
 * @param nest         the nest
 * @param first        the outermost parallel level
 * @param count        how many levels from {@code first} on run in parallel
 * @param partialFolds the folds at or below {@code first} into accumulators those levels do
 *                     not all index, in program order
 */
public record ParallelLevels(Stmt.LoopNest nest, int first, int count, List<Stmt.Reduce> partialFolds) {
    public ParallelLevels {
        partialFolds = List.copyOf(partialFolds);
    }

    /** One level: an ISPC gang loop. */
    static ParallelLevels one(Stmt.LoopNest nest, int level) {
        return of(nest, level, 1);
    }

    /** The outer {@code count} levels: a SYCL parallel_for. */
    static ParallelLevels outer(Stmt.LoopNest nest, int count) {
        return of(nest, 0, count);
    }

    private static ParallelLevels of(Stmt.LoopNest nest, int first, int count) {
        List<LoopHead> heads = nest.levels().subList(first, first + count).stream().map(Stmt.LoopLevel::head).toList();
        List<Stmt.Reduce> partial = Folds.in(nest.blocksFrom(first),
                r -> !heads.stream().allMatch(h -> Folds.indexedBy(r.target(), h)));
        return new ParallelLevels(nest, first, count, partial);
    }

    /** The head of the {@code i}-th parallel level (from 0). */
    public LoopHead head(int i) {
        return nest.levels().get(first + i).head();
    }
}
