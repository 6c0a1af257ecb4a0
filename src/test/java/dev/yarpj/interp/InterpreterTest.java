package dev.yarpj.interp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Idiom;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.VarType;
import java.util.List;
import org.junit.jupiter.api.Test;

class InterpreterTest {
    private final ScalarVar big = new ScalarVar(0, "big", VarType.uniform(NumType.INT), ScalarVar.Role.INPUT, Integer.MAX_VALUE, false);
    private final ScalarVar res = new ScalarVar(1, "res", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
    private final Iterator i = new Iterator(2, "i", NumType.INT);
    private final ArrayVar out = new ArrayVar(0, "out", VarType.uniform(NumType.UCHAR), List.of(4), false, ArrayVar.Fill.uniform(7));

    private Program program(Stmt... body) {
        return new Program(List.of(big), List.of(res), List.of(), List.of(out), List.of(), new Stmt.Block(List.of(body)), 3, 1);
    }

    /** for (int i = 0; i < bound; i++) body */
    private Stmt loop(int bound, Stmt body) {
        return loop(i, bound, body);
    }

    /** for (int it = 0; it < bound; it++) body */
    private static Stmt.LoopNest loop(Iterator iter, int bound, Stmt... body) {
        return new Stmt.LoopNest(List.of(level(iter, bound)), block(body));
    }

    /**
     * The level {@code for (int it = 0; it < bound; it++)} with the given prefix; serial, as
     * the bodies here assign scalars (which a loop marked parallel must not).
     */
    private static Stmt.LoopLevel level(Iterator iter, int bound, Stmt... prefix) {
        Expr it = new Expr.IterRef(iter);
        LoopHead h = new LoopHead(iter, new Expr.Const(NumType.INT, 0),
                Exprs.binary(BinOp.LT, it, new Expr.Const(NumType.INT, bound)),
                Exprs.binary(BinOp.ADD, it, new Expr.Const(NumType.INT, 1)), false);
        return new Stmt.LoopLevel(h, block(prefix), block());
    }

    private static Stmt.Block block(Stmt... stmts) {
        return new Stmt.Block(List.of(stmts));
    }

    /**
     * A helper called with its own call as an argument, {@code res = twice(twice(big) - 3) + i}
     * summed over three iterations: every argument is computed before the parameters are
     * bound, and each call sees its own values; UB in a body (here an overflow of big * 2)
     * is caught like UB anywhere else.
     */
    @Test
    void aHelperCallBindsItsParametersAfterEveryArgumentAndChecksItsBodyForUb() {
        ScalarVar x = new ScalarVar(3, "p_x", VarType.uniform(NumType.LLONG), ScalarVar.Role.PARAMETER, 0, false);
        dev.yarpj.ir.Helper twice = new dev.yarpj.ir.Helper("twice", NumType.LLONG, List.of(x),
                Exprs.binary(BinOp.MUL, new Expr.ScalarRef(x), new Expr.Const(NumType.LLONG, 2)), dev.yarpj.ir.Helper.Linkage.NOINLINE,
                true, false);
        Expr inner = Exprs.helperCall(twice, List.of(new Expr.ScalarRef(big)));
        Expr outer = Exprs.helperCall(twice, List.of(Exprs.binary(BinOp.SUB, inner, new Expr.Const(NumType.INT, 3))));
        ScalarVar wide = new ScalarVar(1, "res", VarType.uniform(NumType.LLONG), ScalarVar.Role.OUTPUT, 0, false);
        Stmt add = new Stmt.Assign(new Expr.ScalarRef(wide), BinOp.ADD, Exprs.binary(BinOp.ADD, outer, new Expr.IterRef(i)));
        Program p = new Program(List.of(big), List.of(wide), List.of(), List.of(), List.of(), List.of(), block(loop(3, add)), 4, 0,
                List.of(twice));
        long once = 2L * Integer.MAX_VALUE;
        assertEquals(List.of(3 * (2 * (once - 3)) + 0 + 1 + 2), Interpreter.run(p, 1000).scalars());
        // The same helper on an int parameter: big * 2 overflows inside the body.
        ScalarVar y = new ScalarVar(3, "p_y", VarType.uniform(NumType.INT), ScalarVar.Role.PARAMETER, 0, false);
        dev.yarpj.ir.Helper narrow = new dev.yarpj.ir.Helper("narrow", NumType.INT, List.of(y),
                Exprs.binary(BinOp.MUL, new Expr.ScalarRef(y), new Expr.Const(NumType.INT, 2)), dev.yarpj.ir.Helper.Linkage.STATIC,
                false, false);
        Stmt bad = new Stmt.Assign(new Expr.ScalarRef(res), null, Exprs.helperCall(narrow, List.of(new Expr.ScalarRef(big))));
        Program q = new Program(List.of(big), List.of(res), List.of(), List.of(), List.of(), List.of(), block(bad), 4, 0, List.of(narrow));
        assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(q, 1000));
    }

    /**
     * A helper that returns a struct {@code {x * 2, x + 1}}: a call reads one field, and every
     * field is computed at every call, so an overflow in the field no call reads is UB all the
     * same (the lowerings assign each field before returning the struct).
     */
    @Test
    void aCallOfAHelperReturningAStructReadsOneFieldAndEveryFieldIsCheckedForUb() {
        ScalarVar y = new ScalarVar(3, "p_y", VarType.uniform(NumType.INT), ScalarVar.Role.PARAMETER, 0, false);
        Expr y2 = Exprs.binary(BinOp.MUL, new Expr.ScalarRef(y), new Expr.Const(NumType.INT, 2));
        Expr y1 = Exprs.binary(BinOp.ADD, new Expr.ScalarRef(y), new Expr.Const(NumType.INT, 1));
        dev.yarpj.ir.Helper pair = new dev.yarpj.ir.Helper("pair", List.of(y2, y1), "pair_res", List.of(y), dev.yarpj.ir.Helper.Linkage.STATIC,
                true, false, List.of());
        ScalarVar small = new ScalarVar(2, "small", VarType.uniform(NumType.INT), ScalarVar.Role.INPUT, 20, false);
        ScalarVar sum = new ScalarVar(1, "res", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
        Stmt both = new Stmt.Assign(new Expr.ScalarRef(sum), null, Exprs.binary(BinOp.SUB,
                Exprs.helperCall(pair, List.of(new Expr.ScalarRef(small)), 0), Exprs.helperCall(pair, List.of(new Expr.ScalarRef(small)), 1)));
        Program p = new Program(List.of(small), List.of(sum), List.of(), List.of(), List.of(), List.of(), block(both), 4, 0, List.of(pair));
        assertEquals(List.of(40L - 21L), Interpreter.run(p, 1000).scalars());
        // big + 1 is defined, big * 2 is not: a call that reads field 1 alone still computes field 0.
        Stmt second = new Stmt.Assign(new Expr.ScalarRef(sum), null, Exprs.helperCall(pair, List.of(new Expr.ScalarRef(big)), 1));
        Program q = new Program(List.of(big), List.of(sum), List.of(), List.of(), List.of(), List.of(), block(second), 4, 0, List.of(pair));
        assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(q, 1000));
        assertThrows(IllegalArgumentException.class, () -> Exprs.helperCall(pair, List.of(new Expr.ScalarRef(small)), 2));
    }

    @Test
    void eagerEvaluationRefusesUbInTheArmNotTaken() {
        // big > 0 ? 1 : big + 1 -- C never evaluates the overflowing arm; ISPC may, so an eager run refuses it.
        Expr bigRef = new Expr.ScalarRef(big);
        Stmt s = new Stmt.Assign(new Expr.ScalarRef(res), null, Exprs.convertImplicitly(Exprs.ternary(
                Exprs.binary(BinOp.GT, bigRef, new Expr.Const(NumType.INT, 0)), new Expr.Const(NumType.INT, 1),
                Exprs.binary(BinOp.ADD, bigRef, new Expr.Const(NumType.INT, 1))), res.base()));
        Interpreter.run(program(s), 1000, false, false);
        assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(program(s), 1000, false, true));
        // And the right operand of && even when the left one is false.
        Stmt and = new Stmt.Assign(new Expr.ScalarRef(res), null, Exprs.convertImplicitly(Exprs.binary(BinOp.LAND,
                Exprs.binary(BinOp.LT, bigRef, new Expr.Const(NumType.INT, 0)),
                Exprs.binary(BinOp.ADD, bigRef, new Expr.Const(NumType.INT, 1))), res.base()));
        Interpreter.run(program(and), 1000, false, false);
        assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(program(and), 1000, false, true));
    }

    @Test
    void aLoopThatRunsOtherThanItsPlannedTripCountIsAGeneratorBug() {
        Expr it = new Expr.IterRef(i);
        LoopHead h = new LoopHead(i, new Expr.Const(NumType.INT, 0), Exprs.binary(BinOp.LT, it, new Expr.Const(NumType.INT, 4)),
                Exprs.binary(BinOp.ADD, it, new Expr.Const(NumType.INT, 1)), 5, LoopHead.Parallelism.SERIAL);
        Stmt nest = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(h, block(), block())), block());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Interpreter.run(program(nest), 1000));
        assertTrue(e.getMessage().contains("ran 4 times, not its planned 5"), e.getMessage());
    }

    @Test
    void signedOverflowIsRejected() {
        Stmt s = new Stmt.Assign(new Expr.ScalarRef(res), null,
                Exprs.binary(BinOp.ADD, new Expr.ScalarRef(big), new Expr.Const(NumType.INT, 1)));
        UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(program(s), 1000));
        assertTrue(e.getMessage().contains("SIGNED_OVERFLOW"), e.getMessage());
    }

    @Test
    void outOfBoundsStoreIsRejected() {
        Stmt store = new Stmt.Assign(Exprs.subscript(out, List.of(new Expr.IterRef(i))), null,
                Exprs.convertImplicitly(new Expr.Const(NumType.INT, 1), NumType.UCHAR));
        UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class,
                () -> Interpreter.run(program(loop(5, store)), 1000));
        assertTrue(e.getMessage().contains("out of bounds"), e.getMessage());
    }

    @Test
    void runawayLoopsHitTheStepBudget() {
        Stmt s = new Stmt.Assign(new Expr.ScalarRef(res), null, new Expr.Const(NumType.INT, 1));
        assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(program(loop(100, s)), 50));
    }

    @Test
    void storesWrapToTheElementTypeAndUnwrittenElementsKeepTheirFill() {
        // out[i] = 300 + i for i < 3: stored as unsigned char; out[3] keeps its fill of 7.
        Stmt store = new Stmt.Assign(Exprs.subscript(out, List.of(new Expr.IterRef(i))), null,
                Exprs.convertImplicitly(Exprs.binary(BinOp.ADD, new Expr.Const(NumType.INT, 300), new Expr.IterRef(i)),
                        NumType.UCHAR));
        Prediction p = Interpreter.run(program(loop(3, store)), 1000);
        assertArrayEquals(new long[] {44, 45, 46, 7}, p.arrays().get(0));
        Checksum c = new Checksum();
        c.add(0);
        for (long v : new long[] {44, 45, 46, 7}) c.add(v);
        assertEquals(c.value(), p.checksum());
    }

    @Test
    void alternatingFillsFollowIndexParityAlongTheirAxis() {
        ArrayVar a = new ArrayVar(0, "a", VarType.uniform(NumType.INT), List.of(2, 3), true, new ArrayVar.Fill(5, 9, 1));
        assertArrayEquals(new long[] {5, 9, 5, 5, 9, 5}, Interpreter.fill(a));
        ArrayVar b = new ArrayVar(0, "b", VarType.uniform(NumType.INT), List.of(2, 3), true, new ArrayVar.Fill(5, 9, 0));
        assertArrayEquals(new long[] {5, 5, 5, 9, 9, 9}, Interpreter.fill(b));
    }

    @Test
    void everyStaticLoopCountsItsEntriesAndIterationsInPreOrder() {
        Iterator j = new Iterator(3, "j", NumType.INT);
        Iterator k = new Iterator(4, "k", NumType.INT);
        Stmt add = new Stmt.Assign(new Expr.ScalarRef(res), BinOp.ADD, new Expr.Const(NumType.INT, 1));
        // for (i < 3) { for (k < 2) res += 1; for (j < 5) res += 1; }  (vectorizable nest of depth 2)
        Stmt.LoopNest nest = new Stmt.LoopNest(List.of(level(i, 3, loop(k, 2, add)), level(j, 5)), block(add))
                .withIdiom(Idiom.VECTORIZABLE);
        // if (0) { for (j < 4) res += 1; }  never taken;  then  for (k < 0)  entered, no iteration.
        Stmt untaken = new Stmt.If(new Expr.Const(NumType.INT, 0), block(loop(j, 4, add)), null);
        Stmt.LoopSeq seq = new Stmt.LoopSeq(List.of(loop(k, 0, add).withIdiom(Idiom.MEMSET)), false);
        Program p = new Program(List.of(big), List.of(res), List.of(), List.of(out), List.of(), block(nest, untaken, seq), 5, 1);
        Prediction pr = Interpreter.run(p, 1000);
        assertEquals(List.of(
                new LoopTrips(Idiom.VECTORIZABLE, 0, false, false, 1, 3),
                new LoopTrips(Idiom.PLAIN, 0, true, false, 3, 6),
                new LoopTrips(Idiom.VECTORIZABLE, 1, true, false, 3, 15),
                new LoopTrips(Idiom.PLAIN, 0, true, false, 0, 0),
                new LoopTrips(Idiom.MEMSET, 0, true, false, 1, 0)), pr.loops());
        assertEquals(List.of(21L), pr.scalars());
        assertEquals(5.0, pr.loops().get(2).perEntry());
        assertTrue(Double.isNaN(pr.loops().get(3).perEntry()));
    }

    @Test
    void eachRunCountsAfresh() {
        Program p = program(loop(4, new Stmt.Assign(new Expr.ScalarRef(res), null, new Expr.Const(NumType.INT, 1))));
        assertEquals(List.of(new LoopTrips(Idiom.PLAIN, 0, true, false, 1, 4)), Interpreter.run(p, 1000).loops());
        assertEquals(List.of(new LoopTrips(Idiom.PLAIN, 0, true, false, 1, 4)), Interpreter.run(p, 1000).loops());
    }

    @Test
    void aDeadBranchNeverRunsItsBodyAndMustNotBeTaken() {
        // if (0) res = big + 1;  the body would overflow, but never runs.
        Stmt overflow = new Stmt.Assign(new Expr.ScalarRef(res), null,
                Exprs.binary(BinOp.ADD, new Expr.ScalarRef(big), new Expr.Const(NumType.INT, 1)));
        Prediction p = Interpreter.run(program(new Stmt.DeadBranch(new Expr.Const(NumType.INT, 0), block(overflow))), 1000);
        assertEquals(List.of(0L), p.scalars());
        UndefinedBehaviorException e = assertThrows(UndefinedBehaviorException.class,
                () -> Interpreter.run(program(new Stmt.DeadBranch(new Expr.Const(NumType.INT, 1), block())), 1000));
        assertTrue(e.getMessage().contains("dead branch"), e.getMessage());
    }
}
