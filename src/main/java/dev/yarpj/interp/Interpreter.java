package dev.yarpj.interp;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.IntType;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.UbKind;
import dev.yarpj.ir.UnOp;
import java.util.ArrayList;
import java.util.List;

/**
 * Executes a program's IR with exact C/C++ integer semantics ({@link Arith}), checking every
 * operation and every subscript for UB, and yields the final value of every output. It is
 * the ground-truth oracle and the last line of defence: fleshing promises UB-freedom, this
 * re-checks it on the real execution.
 */
public final class Interpreter {
    private final long[] scalars;
    private final long[][] arrays;
    /** Each array's dimensions by slot, unboxed: subscripts are the hottest path. */
    private final int[][] dims;
    private final long stepBudget;
    private long steps;

    private Interpreter(Program p, long stepBudget) {
        this.scalars = new long[p.scalarSlots()];
        this.arrays = new long[p.arraySlots()][];
        this.dims = new int[p.arraySlots()][];
        for (ArrayVar a : p.inputArrays()) dims[a.slot()] = unbox(a.dims());
        for (ArrayVar a : p.outputArrays()) dims[a.slot()] = unbox(a.dims());
        this.stepBudget = stepBudget;
        for (ScalarVar v : p.inputs()) scalars[v.slot()] = v.initValue();
        for (ScalarVar v : p.outputs()) scalars[v.slot()] = v.initValue();
        for (ArrayVar a : p.inputArrays()) arrays[a.slot()] = fill(a);
        for (ArrayVar a : p.outputArrays()) arrays[a.slot()] = fill(a);
    }

    /**
     * Runs {@code p}; throws {@link UndefinedBehaviorException} on any UB, or when more than
     * {@code stepBudget} statements and loop iterations execute.
     */
    public static Prediction run(Program p, long stepBudget) {
        Interpreter in = new Interpreter(p, stepBudget);
        in.block(p.body());
        Checksum sum = new Checksum();
        List<Long> outs = new ArrayList<>();
        for (ScalarVar v : p.outputs()) {
            long x = in.scalars[v.slot()];
            outs.add(x);
            sum.add(x);
        }
        List<long[]> arrs = new ArrayList<>();
        for (ArrayVar a : p.outputArrays()) {
            long[] data = in.arrays[a.slot()];
            arrs.add(data);
            for (long x : data) sum.add(x);
        }
        return new Prediction(outs, arrs, sum.value(), in.steps);
    }

    /** The initial contents of an array, row-major; alternating fills follow index parity on their axis. */
    public static long[] fill(ArrayVar a) {
        long[] data = new long[(int) a.elements()];
        ArrayVar.Fill f = a.fill();
        if (!f.alternating()) {
            java.util.Arrays.fill(data, f.even());
            return data;
        }
        long inner = 1;
        for (int d = f.axis() + 1; d < a.rank(); d++) inner *= a.dims().get(d);
        int size = a.dims().get(f.axis());
        for (int i = 0; i < data.length; i++) data[i] = f.at((int) ((i / inner) % size) & 1);
        return data;
    }

    private void tick() {
        if (++steps > stepBudget) throw new UndefinedBehaviorException("step budget of " + stepBudget + " exceeded");
    }

    private void block(Stmt.Block b) {
        for (Stmt s : b.stmts()) stmt(s);
    }

    private void stmt(Stmt s) {
        tick();
        if (s instanceof Stmt.Assign a) {
            assign(a);
        } else if (s instanceof Stmt.LocalDecl d) {
            scalars[d.var().slot()] = Arith.convert(eval(d.init()), d.var().base());
        } else if (s instanceof Stmt.If i) {
            if (eval(i.cond()) != 0) block(i.then());
            else if (i.otherwise() != null) block(i.otherwise());
        } else if (s instanceof Stmt.Block b) {
            block(b);
        } else if (s instanceof Stmt.LoopNest n) {
            nest(n, 0);
        } else if (s instanceof Stmt.LoopSeq q) {
            for (Stmt.LoopNest n : q.nests()) nest(n, 0);
        }
    }

    private void nest(Stmt.LoopNest n, int level) {
        if (level == n.depth()) {
            block(n.body());
            return;
        }
        Stmt.LoopLevel lv = n.levels().get(level);
        LoopHead h = lv.head();
        int slot = h.iter().slot();
        IntType t = h.iter().type();
        scalars[slot] = Arith.convert(eval(h.start()), t);
        while (eval(h.cond()) != 0) {
            tick();
            block(lv.prefix());
            nest(n, level + 1);
            block(lv.suffix());
            scalars[slot] = Arith.convert(eval(h.update()), t);
        }
    }

    private void assign(Stmt.Assign a) {
        IntType tt = a.target().type();
        long v = eval(a.value());
        if (a.compound() != null) {
            // t op= v  is  t = (T)(t op v), with t read once and both sides converted as for op.
            BinOp op = a.compound();
            IntType rt = a.value().type();
            IntType lct = Arith.operandType(op, tt, rt, true);
            IntType rct = Arith.operandType(op, tt, rt, false);
            long x = Arith.convert(load(a.target()), lct);
            long y = Arith.convert(v, rct);
            check(Arith.binaryUb(op, lct, x, rct, y), op.symbol, x, y, lct);
            v = Arith.binary(op, lct, x, rct, y);
        }
        v = Arith.convert(v, tt);
        if (a.target() instanceof Expr.ScalarRef r) {
            scalars[r.var().slot()] = v;
        } else {
            Expr.Subscript sub = (Expr.Subscript) a.target();
            arrays[sub.array().slot()][offset(sub)] = v;
        }
    }

    private long load(Expr target) {
        if (target instanceof Expr.ScalarRef r) return scalars[r.var().slot()];
        Expr.Subscript sub = (Expr.Subscript) target;
        return arrays[sub.array().slot()][offset(sub)];
    }

    private int offset(Expr.Subscript s) {
        int[] ds = dims[s.array().slot()];
        List<Expr> idx = s.indices();
        long off = 0;
        for (int d = 0; d < ds.length; d++) {
            long i = eval(idx.get(d));
            // Every index type is read as signed: a huge unsigned index is out of bounds too.
            if (i < 0 || i >= ds[d]) {
                throw new UndefinedBehaviorException("index " + i + " out of bounds [0, " + ds[d] + ") in "
                        + s.array().name() + " dimension " + d);
            }
            off = off * ds[d] + i;
        }
        return (int) off;
    }

    private static int[] unbox(List<Integer> xs) {
        int[] r = new int[xs.size()];
        for (int i = 0; i < r.length; i++) r[i] = xs.get(i);
        return r;
    }

    long eval(Expr e) {
        if (e instanceof Expr.Const c) return c.value();
        if (e instanceof Expr.ScalarRef r) return scalars[r.var().slot()];
        if (e instanceof Expr.IterRef r) return scalars[r.iter().slot()];
        if (e instanceof Expr.Cast c) return Arith.convert(eval(c.operand()), c.type());
        if (e instanceof Expr.Binary b) return binary(b);
        if (e instanceof Expr.Subscript s) return arrays[s.array().slot()][offset(s)];
        if (e instanceof Expr.Unary u) {
            IntType t = u.operand().type();
            long x = eval(u.operand());
            UbKind ub = Arith.unaryUb(u.op(), t, x);
            if (ub != null) throw new UndefinedBehaviorException(ub + ": " + u.op().symbol + x + " in " + t);
            return Arith.unary(u.op(), t, x);
        }
        if (e instanceof Expr.Ternary t) return eval(eval(t.cond()) != 0 ? t.then() : t.otherwise());
        if (e instanceof Expr.Call c) return Arith.builtin(c.fn(), c.type(), eval(c.lhs()), eval(c.rhs()));
        throw new IllegalStateException("unknown expression " + e);
    }

    private long binary(Expr.Binary b) {
        BinOp op = b.op();
        long x = eval(b.lhs());
        if (op == BinOp.LAND && x == 0) return 0;
        if (op == BinOp.LOR && x != 0) return 1;
        long y = eval(b.rhs());
        IntType lt = b.lhs().type();
        IntType rt = b.rhs().type();
        check(Arith.binaryUb(op, lt, x, rt, y), op.symbol, x, y, lt);
        return Arith.binary(op, lt, x, rt, y);
    }

    private static void check(UbKind ub, String op, long x, long y, IntType t) {
        if (ub != null) throw new UndefinedBehaviorException(ub + ": " + x + " " + op + " " + y + " in " + t);
    }
}
