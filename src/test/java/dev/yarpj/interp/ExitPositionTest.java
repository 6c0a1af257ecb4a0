package dev.yarpj.interp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.VarType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The interpreter tells where an exit ended each entry of its loop: first, last planned, or another iteration. */
class ExitPositionTest {
    private static Expr c(long v) {
        return new Expr.Const(NumType.INT, v);
    }

    private static LoopHead upTo(Iterator it, long n) {
        Expr r = new Expr.IterRef(it);
        return new LoopHead(it, c(0), Exprs.binary(BinOp.LT, r, c(n)), Exprs.binary(BinOp.ADD, r, c(1)), n, LoopHead.Parallelism.SERIAL);
    }

    private static Stmt.LoopLevel level(LoopHead h) {
        return new Stmt.LoopLevel(h, new Stmt.Block(List.of()), new Stmt.Block(List.of()));
    }

    @Test
    void eachEntryIsEndedFirstInTheMiddleLastOrNotAtAll() {
        // for (k = 0; k < 6; k++) for (m = 0; m < 5; m++) { if (m + k == 4) break; out[k] += 1; }
        // k = 0 leaves at m = 4 (the last planned iteration), k = 1..3 at m = 3, 2, 1, k = 4 at
        // m = 0 (the first), k = 5 never.
        Iterator k = new Iterator(0, "i_0", NumType.INT);
        Iterator m = new Iterator(1, "i_1", NumType.INT);
        ArrayVar out = new ArrayVar(0, "out_2", VarType.uniform(NumType.INT), List.of(6), false, ArrayVar.Fill.uniform(0));
        Expr kRef = new Expr.IterRef(k);
        Expr mRef = new Expr.IterRef(m);
        Stmt leave = new Stmt.If(Exprs.binary(BinOp.EQ, Exprs.binary(BinOp.ADD, mRef, kRef), c(4)),
                new Stmt.Block(List.of(new Stmt.Exit(Stmt.Exit.Kind.BREAK))), null);
        Stmt count = new Stmt.Assign(Exprs.subscript(out, List.of(kRef)), BinOp.ADD, c(1));
        Stmt nest = new Stmt.LoopNest(List.of(level(upTo(k, 6)), level(upTo(m, 5))), new Stmt.Block(List.of(leave, count)));
        Program p = new Program(List.of(), List.of(), List.of(), List.of(out), List.of(), new Stmt.Block(List.of(nest)), 2, 3);

        Prediction pr = Interpreter.run(p, 100_000);
        assertEquals(List.of(4L, 3L, 2L, 1L, 0L, 5L), java.util.Arrays.stream(pr.arrays().get(0)).boxed().toList());
        LoopTrips outer = pr.loops().get(0);
        assertEquals(0, outer.broken(), "no exit leaves the outer loop");
        LoopTrips inner = pr.loops().get(1);
        assertEquals(6, inner.entered());
        assertEquals(5, inner.broken(), "every entry but k = 5's");
        assertEquals(1, inner.brokenFirst(), "k = 4");
        assertEquals(1, inner.brokenLast(), "k = 0");
    }
}
