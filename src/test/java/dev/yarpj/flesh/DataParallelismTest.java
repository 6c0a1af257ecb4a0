package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.VarType;
import java.util.List;
import org.junit.jupiter.api.Test;

class DataParallelismTest {
    private final Iterator i = new Iterator(0, "i", NumType.INT);
    private final Iterator j = new Iterator(1, "j", NumType.INT);
    private final ArrayVar out = new ArrayVar(0, "out", VarType.uniform(NumType.INT), List.of(8, 8), false, ArrayVar.Fill.uniform(0));

    private LoopHead head(Iterator it) {
        Expr r = new Expr.IterRef(it);
        return new LoopHead(it, new Expr.Const(NumType.INT, 0), Exprs.binary(BinOp.LT, r, new Expr.Const(NumType.INT, 8)),
                Exprs.binary(BinOp.ADD, r, new Expr.Const(NumType.INT, 1)), false);
    }

    private Stmt store(Expr a, Expr b) {
        return new Stmt.Assign(Exprs.subscript(out, List.of(a, b)), null, new Expr.Const(NumType.INT, 1));
    }

    /** for i { for j { body } }: returns {i parallel, j parallel}. */
    private List<Boolean> marks(Stmt... body) {
        Stmt.Block empty = new Stmt.Block(List.of());
        Stmt.LoopNest n = DataParallelism.mark(new Stmt.LoopNest(List.of(
                new Stmt.LoopLevel(head(i), empty, empty), new Stmt.LoopLevel(head(j), empty, empty)),
                new Stmt.Block(List.of(body))));
        return List.of(n.levels().get(0).head().dataParallel(), n.levels().get(1).head().dataParallel());
    }

    @Test
    void storesIndexedByTheIteratorInOneDimensionAreParallel() {
        Expr ri = new Expr.IterRef(i);
        Expr rj = new Expr.IterRef(j);
        assertEquals(List.of(true, true), marks(store(ri, rj)));
    }

    @Test
    void storesUsingTheIteratorInDifferentDimensionsCanCollide() {
        Expr ri = new Expr.IterRef(i);
        Expr rj = new Expr.IterRef(j);
        // out[i][2] and out[j][i]: iteration i=5 and iteration i=2 (with j=5) both write out[5][2].
        assertEquals(List.of(false, false), marks(store(ri, new Expr.Const(NumType.INT, 2)), store(rj, ri)));
    }

    @Test
    void interleavedGroupsOfOneSizeAreDisjointAcrossIterations() {
        Expr ri = new Expr.IterRef(i);
        Expr rj = new Expr.IterRef(j);
        // out[i][2j] and out[i][2j+1]: iteration j writes its own pair.
        assertEquals(List.of(true, true), marks(store(ri, Exprs.grouped(rj, 2, 0)), store(ri, Exprs.grouped(rj, 2, 1))));
        // out[i][2j] and out[i][3j]: j=3 writes out[i][6] as 2j, and j=2 writes it as 3j.
        assertEquals(List.of(true, false), marks(store(ri, Exprs.grouped(rj, 2, 0)), store(ri, Exprs.grouped(rj, 3, 0))));
        // out[i][2j+1] and out[i][j]: j=3 writes out[i][7]... and so does j=7 as j.
        assertEquals(List.of(true, false), marks(store(ri, Exprs.grouped(rj, 2, 1)), store(ri, rj)));
        // j + 1 is no group: out[i][j+1] and out[i][j] collide across iterations.
        assertEquals(List.of(true, false), marks(store(ri, Exprs.binary(BinOp.ADD, rj, new Expr.Const(NumType.INT, 1))), store(ri, rj)));
    }

    @Test
    void scalarStoresAndCompoundAssignmentsAreNotParallel() {
        Expr ri = new Expr.IterRef(i);
        Expr rj = new Expr.IterRef(j);
        Stmt compound = new Stmt.Assign(Exprs.subscript(out, List.of(ri, rj)), BinOp.BOR, new Expr.Const(NumType.INT, 1));
        assertEquals(List.of(false, false), marks(compound));
    }

    /** for i { for j { body } }: the parallelism of {i, j}. */
    private List<LoopHead.Parallelism> kinds(Stmt... body) {
        Stmt.Block empty = new Stmt.Block(List.of());
        Stmt.LoopNest n = DataParallelism.mark(new Stmt.LoopNest(List.of(
                new Stmt.LoopLevel(head(i), empty, empty), new Stmt.LoopLevel(head(j), empty, empty)),
                new Stmt.Block(List.of(body))));
        return List.of(n.levels().get(0).head().parallelism(), n.levels().get(1).head().parallelism());
    }

    @Test
    void aFoldIntoAnAccumulatorTheLoopDoesNotIndexIsAReduction() {
        Expr ri = new Expr.IterRef(i);
        Expr rj = new Expr.IterRef(j);
        ArrayVar rows = new ArrayVar(4, "acc", VarType.uniform(NumType.INT), List.of(8), false, ArrayVar.Fill.uniform(0));
        // acc[i] += out-of-loop value: an element of its own per i, a fold across j.
        Stmt fold = new Stmt.Reduce(Exprs.subscript(rows, List.of(ri)), dev.yarpj.ir.ReductionOp.SUM, rj);
        assertEquals(List.of(LoopHead.Parallelism.INDEPENDENT, LoopHead.Parallelism.REDUCTION), kinds(fold));
        // A store of its own per (i, j) beside it keeps both levels parallel; a scalar fold makes both reductions.
        ScalarVar total = new ScalarVar(9, "total", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
        Stmt scalarFold = new Stmt.Reduce(new Expr.ScalarRef(total), dev.yarpj.ir.ReductionOp.XOR, ri);
        assertEquals(List.of(LoopHead.Parallelism.REDUCTION, LoopHead.Parallelism.REDUCTION), kinds(store(ri, rj), scalarFold));
        // ivdep's promise stays strict: no reduction is data-parallel in that sense.
        assertEquals(List.of(false, false), marks(scalarFold));
    }

    @Test
    void aLoopReadingAnOutputIsNotParallelButAFoldMayReadItsOwnAccumulator() {
        Expr ri = new Expr.IterRef(i);
        Expr rj = new Expr.IterRef(j);
        ScalarVar total = new ScalarVar(9, "total", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
        // A min folds into total and reads it: the fold itself, still a reduction.
        Stmt fold = new Stmt.Reduce(new Expr.ScalarRef(total), dev.yarpj.ir.ReductionOp.MIN, ri);
        assertEquals(List.of(LoopHead.Parallelism.REDUCTION, LoopHead.Parallelism.REDUCTION), kinds(fold));
        // out[i][j] = total: reads what other iterations fold into (a kernel would read a half-done value).
        Stmt readTotal = new Stmt.Assign(Exprs.subscript(out, List.of(ri, rj)), null, new Expr.ScalarRef(total));
        assertEquals(List.of(LoopHead.Parallelism.SERIAL, LoopHead.Parallelism.SERIAL), kinds(fold, readTotal));
        // out[i][j] = out[0][j]: reads an output array another iteration writes.
        Stmt readOut = new Stmt.Assign(Exprs.subscript(out, List.of(ri, rj)), null,
                Exprs.subscript(out, List.of(new Expr.Const(NumType.INT, 0), rj)));
        assertEquals(List.of(false, false), marks(readOut));
    }

    @Test
    void aMinIntoANarrowerAccumulatorIsNotReordered() {
        // acc = (short) min(acc, v) wraps values below SHRT_MIN into the next comparison: not associative.
        ScalarVar narrow = new ScalarVar(9, "m", VarType.uniform(NumType.SHORT), ScalarVar.Role.OUTPUT, 0, false);
        Stmt fold = new Stmt.Reduce(new Expr.ScalarRef(narrow), dev.yarpj.ir.ReductionOp.MIN, new Expr.IterRef(j));
        assertEquals(List.of(LoopHead.Parallelism.SERIAL, LoopHead.Parallelism.SERIAL), kinds(fold));
        ScalarVar wide = new ScalarVar(10, "w", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
        Stmt ok = new Stmt.Reduce(new Expr.ScalarRef(wide), dev.yarpj.ir.ReductionOp.MIN, new Expr.IterRef(j));
        assertEquals(List.of(LoopHead.Parallelism.REDUCTION, LoopHead.Parallelism.REDUCTION), kinds(ok));
    }

    // Two views of one 10x8 storage, two rows apart.
    private final ArrayVar buf = new ArrayVar(1, "buf", VarType.uniform(NumType.INT), List.of(10, 8), false, ArrayVar.Fill.uniform(0));
    private final ArrayVar p = new ArrayVar(2, "p", VarType.uniform(NumType.INT), List.of(8, 8), false, ArrayVar.Fill.uniform(0),
            new ArrayVar.Passing.View(buf, 0));
    private final ArrayVar q = new ArrayVar(3, "q", VarType.uniform(NumType.INT), List.of(8, 8), false, ArrayVar.Fill.uniform(0),
            new ArrayVar.Passing.View(buf, 2));

    @Test
    void aLoopReadingThroughAViewIsNotParallel() {
        Expr ri = new Expr.IterRef(i);
        Expr rj = new Expr.IterRef(j);
        // p[i][j] = q[i][j]: iteration i writes row i, iteration i + 2 reads it back.
        Stmt s = new Stmt.Assign(Exprs.subscript(p, List.of(ri, rj)), null, Exprs.subscript(q, List.of(ri, rj)));
        assertEquals(List.of(false, false), marks(s));
    }

    @Test
    void storesThroughTwoViewsOfOneStorageAreNotParallel() {
        Expr ri = new Expr.IterRef(i);
        Expr rj = new Expr.IterRef(j);
        Stmt one = new Stmt.Assign(Exprs.subscript(p, List.of(ri, rj)), null, new Expr.Const(NumType.INT, 1));
        Stmt two = new Stmt.Assign(Exprs.subscript(q, List.of(ri, rj)), null, new Expr.Const(NumType.INT, 2));
        assertEquals(List.of(false, false), marks(one, two));
        // Through one view alone, each iteration still writes its own elements.
        assertEquals(List.of(true, true), marks(one));
    }
}
