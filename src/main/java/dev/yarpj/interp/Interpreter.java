package dev.yarpj.interp;

import dev.yarpj.ir.AnyOrder;
import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.InputSet;
import dev.yarpj.ir.NumType;
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
 *
 * <p>The IR is first compiled into a tree of small closures, one per node, with operators,
 * types and slots resolved once; execution then only runs the closures. Every value and
 * every UB check still comes from {@link Arith}.
 *
 * <p>Every floating operation is also checked against {@link AnyOrder}: each floating value
 * carries the quantum and bound of every order a compiler may compute it in (a value read from
 * an input alone; a stored one keeps what it was computed with, so a reduction's accumulator
 * and an induction grow theirs with each iteration), and an operation whose some order might
 * round is refused like one that rounds as written. The generator keeps every operation to
 * that rule; this re-checks it on the real execution, and refuses a reduced program that
 * would depend on the order.
 *
 * <p>Each level of each loop nest is one static loop, numbered in compile order (program
 * pre-order); its closure counts entries and iterations into two arrays indexed by that
 * number, which become the prediction's {@link LoopTrips}.
 */
public final class Interpreter {
    /** A compiled expression. */
    private interface Ev {
        long ev();
    }

    /** A compiled statement. */
    private interface Ex {
        void ex();
    }

    private final long[] scalars;
    /** Output arrays' contents by slot; input arrays are never written and need no storage. */
    private final long[][] arrays;
    /** Of a floating scalar (by slot) and a floating output array's elements: the quantum and bound it was computed with; null: its value alone. */
    private final AnyOrder[] scalarOrders;
    private final AnyOrder[][] arrayOrders;
    /** The quantum and bound of the value the floating closure that ran last gave (see {@link #ordered}). */
    private AnyOrder last;
    private final long stepBudget;
    /** Refuse implementation-defined conversions and shifts too (policy allow_impl_defined: false). */
    private final boolean portable;
    /**
     * Evaluate both arms of ?: and both operands of && and || (ISPC with a varying condition
     * may run both), so that UB in an arm not taken is refused too.
     */
    private final boolean eager;
    private long steps;
    /** Every static loop, by number, with zero counts: what it is. */
    private final List<LoopTrips> loopSites = new ArrayList<>();
    /** Each static if, in pre-order: whether it is inside a loop; and how often it ran and held. */
    private final List<Boolean> branchSites = new ArrayList<>();
    private long[] evaluated;
    private long[] taken;
    /** Times each loop's head started, and its iterations in all, by loop number (sized once compiled). */
    private long[] entered;
    private long[] iterations;
    private long[] broken;
    /** Of those, the entries ended in their first iteration, and in their last planned one. */
    private long[] brokenFirst;
    private long[] brokenLast;

    /** Whether each loop must run its planned trips: on the planned input set only (the others change trip counts). */
    private final boolean planned;
    /** The input set the program runs on: its input scalars' values and its sentinel arrays' fills. */
    private final InputSet set;

    private Interpreter(Program p, InputSet set, long stepBudget, boolean portable, boolean eager) {
        this.portable = portable;
        this.eager = eager;
        this.planned = set.equals(InputSet.PLANNED);
        this.set = set;
        this.scalars = new long[p.scalarSlots()];
        this.arrays = new long[p.arraySlots()][];
        this.scalarOrders = new AnyOrder[p.scalarSlots()];
        this.arrayOrders = new AnyOrder[p.arraySlots()][];
        this.stepBudget = stepBudget;
        for (ScalarVar v : p.inputs()) scalars[v.slot()] = set.valueOf(v);
        for (ScalarVar v : p.outputs()) scalars[v.slot()] = v.initValue();
        for (ArrayVar a : p.outputArrays()) arrays[a.slot()] = fill(a);
        for (ArrayVar a : p.outputArrays()) if (a.base().isFloat()) arrayOrders[a.slot()] = new AnyOrder[(int) a.elements()];
        // A view shares its storage's memory; its subscripts are offset into it (see offset).
        for (ArrayVar a : p.arrayParams()) {
            if (a.storage() == a) continue;
            arrays[a.slot()] = arrays[a.storage().slot()];
            arrayOrders[a.slot()] = arrayOrders[a.storage().slot()];
        }
    }

    /**
     * Runs {@code p}; throws {@link UndefinedBehaviorException} on any UB, or when more than
     * {@code stepBudget} statements and loop iterations execute.
     */
    public static Prediction run(Program p, long stepBudget) {
        return run(p, stepBudget, false);
    }

    /**
     * As {@link #run(Program, long)}; with {@code portable}, an out-of-range conversion to a
     * signed type or a right shift of a negative value is refused like UB.
     */
    public static Prediction run(Program p, long stepBudget, boolean portable) {
        return run(p, stepBudget, portable, false);
    }

    /**
     * As {@link #run(Program, long, boolean)}; with {@code eager}, every operand of ?:, &&
     * and || is evaluated and checked, as an ISPC program needs.
     */
    public static Prediction run(Program p, long stepBudget, boolean portable, boolean eager) {
        Prediction first = run(p, InputSet.PLANNED, stepBudget, portable, eager);
        List<Prediction> others = new ArrayList<>();
        for (InputSet set : p.inputSets().subList(1, p.inputSets().size())) others.add(run(p, set, stepBudget, portable, eager));
        return others.isEmpty() ? first : first.withOtherSets(others);
    }

    /**
     * As {@link #run(Program, long, boolean, boolean)} for one input set of {@code p} (whether
     * or not {@code p} lists it): what the driver's call of {@code test()} with those values
     * leaves. Only the planned set's loops must run their planned trips.
     */
    public static Prediction run(Program p, InputSet set, long stepBudget, boolean portable, boolean eager) {
        // A sequence's nests count one by one: each may be a kernel of its own (Stmt.Exit).
        List<Stmt> top = new ArrayList<>();
        for (Stmt s : p.body().stmts()) {
            if (s instanceof Stmt.LoopSeq q) top.addAll(q.nests());
            else top.add(s);
        }
        if (top.size() > 1 && Stmt.returns(top.subList(0, top.size() - 1))) {
            throw new IllegalStateException("a return before the last top-level statement of test()");
        }
        Interpreter in = new Interpreter(p, set, stepBudget, portable, eager);
        Ex body = in.block(p.body());
        in.entered = new long[in.loopSites.size()];
        in.iterations = new long[in.loopSites.size()];
        in.broken = new long[in.loopSites.size()];
        in.brokenFirst = new long[in.loopSites.size()];
        in.brokenLast = new long[in.loopSites.size()];
        in.evaluated = new long[in.branchSites.size()];
        in.taken = new long[in.branchSites.size()];
        boolean returned = false;
        try {
            body.ex();
        } catch (TestReturn r) {
            // test() left early: the outputs are as they were then.
            returned = true;
        }
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
        List<LoopTrips> loops = new ArrayList<>(in.loopSites.size());
        for (int k = 0; k < in.loopSites.size(); k++) {
            LoopTrips site = in.loopSites.get(k);
            loops.add(new LoopTrips(site.idiom(), site.level(), site.innermost(), site.parallel(), site.exits(), in.entered[k],
                    in.iterations[k], in.broken[k], in.brokenFirst[k], in.brokenLast[k]));
        }
        List<BranchCount> branches = new ArrayList<>(in.branchSites.size());
        for (int k = 0; k < in.branchSites.size(); k++) branches.add(new BranchCount(in.branchSites.get(k), in.evaluated[k], in.taken[k]));
        return new Prediction(outs, arrs, sum.value(), in.steps, List.copyOf(loops), returned, branches, List.of());
    }

    /**
     * The initial contents of an array, row-major; alternating fills follow index parity on
     * their axis. The interpreter stores only output arrays; this is also the layout the
     * driver's init loops produce for input arrays.
     */
    public static long[] fill(ArrayVar a) {
        long[] data = new long[(int) a.elements()];
        ArrayVar.Fill f = a.fill();
        if (!f.alternating()) {
            java.util.Arrays.fill(data, f.even());
        } else {
            long inner = 1;
            for (int d = f.axis() + 1; d < a.rank(); d++) inner *= a.dims().get(d);
            int size = a.dims().get(f.axis());
            for (int i = 0; i < data.length; i++) data[i] = f.at((int) ((i / inner) % size) & 1);
        }
        if (f.planted()) data[(int) f.plantAt()] = f.plant();
        if (f.varies()) for (int i = 0; i < data.length; i++) data[i] = f.valueAt(i, a.base());
        return data;
    }

    private void tick() {
        if (++steps > stepBudget) throw new UndefinedBehaviorException("step budget of " + stepBudget + " exceeded");
    }

    // ---- statements -----------------------------------------------------------------

    private Ex block(Stmt.Block b) {
        Ex[] body = new Ex[b.stmts().size()];
        for (int i = 0; i < body.length; i++) body[i] = stmt(b.stmts().get(i));
        if (body.length == 1) return body[0];
        return () -> {
            for (Ex e : body) e.ex();
        };
    }

    private Ex stmt(Stmt s) {
        return s.accept(statements);
    }

    /** What runs each kind of statement. */
    private final Stmt.Visitor<Ex> statements = new Stmt.Visitor<>() {
        @Override
        public Ex assign(Stmt.Assign a) {
            // A scalar assigned in a parallel loop would be carried across iterations that may
            // run at once (a race on one ISPC uniform or SYCL cell); a fold is not an assignment.
            if (openParallel > 0 && a.target() instanceof Expr.ScalarRef r && !parallelLocals.contains(r.var().slot())) {
                throw new IllegalStateException("scalar " + r.var().name() + " is assigned in a loop marked parallel");
            }
            return Interpreter.this.assign(a);
        }

        @Override
        public Ex reduce(Stmt.Reduce r) {
            return Interpreter.this.assign(r.asAssign());
        }

        @Override
        public Ex localDecl(Stmt.LocalDecl d) {
            int slot = d.var().slot();
            if (openParallel > 0) parallelLocals.add(slot);
            NumType t = d.var().base();
            Ev init = expr(d.init());
            if (t.isFloat()) {
                NumType from = d.init().type();
                return () -> {
                    tick();
                    long v = init.ev();
                    scalars[slot] = Arith.convert(v, t);
                    scalarOrders[slot] = stored(v, from, t);
                };
            }
            return () -> {
                tick();
                scalars[slot] = Arith.convert(init.ev(), t);
            };
        }

        @Override
        public Ex ifStmt(Stmt.If i) {
            Ev cond = expr(i.cond());
            int site = branchSites.size();
            branchSites.add(openLoops > 0);
            Ex then = Interpreter.this.block(i.then());
            Ex otherwise = i.otherwise() == null ? () -> { } : Interpreter.this.block(i.otherwise());
            return () -> {
                tick();
                evaluated[site]++;
                if (cond.ev() != 0) {
                    taken[site]++;
                    then.ex();
                } else {
                    otherwise.ex();
                }
            };
        }

        @Override
        public Ex switchStmt(Stmt.Switch w) {
            Ev selector = expr(w.selector());
            int outer = loopsAtSwitch;
            loopsAtSwitch = openLoops;
            Ex[] bodies = new Ex[w.cases().size() + 1];
            boolean[] fallsThrough = new boolean[bodies.length];
            try {
                for (int k = 0; k < w.cases().size(); k++) {
                    bodies[k] = Interpreter.this.block(w.cases().get(k).body());
                    fallsThrough[k] = w.cases().get(k).fallsThrough();
                }
                bodies[bodies.length - 1] = w.otherwise() == null ? () -> { } : Interpreter.this.block(w.otherwise());
            } finally {
                loopsAtSwitch = outer;
            }
            return () -> {
                tick();
                // From the case the value selects on, through every case that falls through.
                for (int k = w.entry(selector.ev()); k < bodies.length; k++) {
                    bodies[k].ex();
                    if (!fallsThrough[k]) break;
                }
            };
        }

        @Override
        public Ex deadBranch(Stmt.DeadBranch d) {
            // The body never runs (it may hold UB on purpose) and is not compiled: its loops are no static loops here.
            Ev cond = expr(d.cond());
            return () -> {
                tick();
                if (cond.ev() != 0) throw new UndefinedBehaviorException("dead branch taken: its condition holds");
            };
        }

        @Override
        public Ex block(Stmt.Block b) {
            return Interpreter.this.block(b);
        }

        @Override
        public Ex loopNest(Stmt.LoopNest n) {
            return nest(n, 0);
        }

        @Override
        public Ex exit(Stmt.Exit e) {
            if (e.kind() == Stmt.Exit.Kind.RETURN) {
                return () -> {
                    tick();
                    throw TestReturn.SIGNAL;
                };
            }
            if (openLoops == 0) throw new IllegalStateException(e.kind() + " outside any loop");
            if (openLoops == loopsAtSwitch) throw new IllegalStateException(e.kind() + " in a case of a switch, which it would leave in C");
            LoopExit signal = e.kind() == Stmt.Exit.Kind.BREAK ? LoopExit.BREAK : LoopExit.CONTINUE;
            return () -> {
                tick();
                throw signal;
            };
        }

        @Override
        public Ex loopSeq(Stmt.LoopSeq q) {
            Ex[] nests = new Ex[q.nests().size()];
            for (int i = 0; i < nests.length; i++) nests[i] = nest(q.nests().get(i), 0);
            return () -> {
                for (Ex e : nests) e.ex();
            };
        }
    };

    /** Loops around the statement being compiled: an exit needs one. */
    private int openLoops;
    /** {@link #openLoops} at the switch whose case is being compiled, or -1: an exit there would leave the switch. */
    private int loopsAtSwitch = -1;
    /** Loops marked parallel around the statement being compiled, and the locals declared inside them (one per iteration). */
    private int openParallel;
    private final java.util.Set<Integer> parallelLocals = new java.util.HashSet<>();

    /** A break or continue on its way to the loop it leaves: two shared signals, without stack traces. */
    private static final class LoopExit extends RuntimeException {
        static final LoopExit BREAK = new LoopExit();
        static final LoopExit CONTINUE = new LoopExit();

        private LoopExit() {
            super(null, null, false, false);
        }
    }

    /** A return on its way out of {@code test()}, through every loop around it. */
    private static final class TestReturn extends RuntimeException {
        static final TestReturn SIGNAL = new TestReturn();

        private TestReturn() {
            super(null, null, false, false);
        }
    }

    private Ex nest(Stmt.LoopNest n, int level) {
        if (level == n.depth()) return block(n.body());
        Stmt.LoopLevel lv = n.levels().get(level);
        LoopHead h = lv.head();
        int slot = h.iter().slot();
        NumType t = h.iter().type();
        Ev start = expr(h.start());
        Ev cond = expr(h.cond());
        Ev update = expr(h.update());
        Ev guard = h.guard() == null ? () -> 1 : expr(h.guard());
        // Numbered before the loops of its prefix, the next level and its suffix: pre-order.
        int id = loopSites.size();
        loopSites.add(new LoopTrips(n.idiom(), level, level == n.depth() - 1, h.parallel(), n.breaksOut(level), 0, 0, 0));
        openLoops++;
        if (h.parallel()) openParallel++;
        Ex prefix = block(lv.prefix());
        Ex inner = nest(n, level + 1);
        Ex suffix = block(lv.suffix());
        openLoops--;
        if (h.parallel() && --openParallel == 0) parallelLocals.clear();
        long planned = h.trip();
        boolean parallel = h.parallel();
        LoopHead.Form form = h.form();
        return () -> {
            tick();
            entered[id]++;
            scalars[slot] = Arith.convert(start.ev(), t);
            long trips = 0;
            boolean broke = false;
            long stopped = -1; // the iteration (from 0) an exit ended
            // A do-while runs its first iteration before it tests anything; a header exit is
            // tested only where the condition holds (&& in C and ISPC), before the body.
            boolean first = form == LoopHead.Form.DO_WHILE;
            while (first || cond.ev() != 0) {
                if (!first && guard.ev() == 0) {
                    broke = true;
                    stopped = trips; // before the body of the iteration it stops
                    break;
                }
                first = false;
                tick();
                trips++;
                try {
                    prefix.ex();
                    inner.ex();
                    suffix.ex();
                } catch (TestReturn r) {
                    // The loop ends here, as by a break, and so does every loop around it.
                    iterations[id] += trips;
                    endedAt(id, trips - 1, planned);
                    if (parallel) throw new IllegalStateException("a return left loop " + h.iter().name() + ", which is marked parallel");
                    throw r;
                } catch (LoopExit x) {
                    // Thrown by a break or continue whose innermost loop is this one: the
                    // levels inside catch their own.
                    if (x == LoopExit.BREAK) {
                        broke = true;
                        stopped = trips - 1;
                        break;
                    }
                    // A while or do-while spells the update at the end of its body, which a
                    // continue skips (the generator gives no such loop a continue).
                    if (form != LoopHead.Form.FOR) continue;
                }
                scalars[slot] = Arith.convert(update.ev(), t);
            }
            iterations[id] += trips;
            if (broke) endedAt(id, stopped, planned);
            if (broke && parallel) throw new IllegalStateException("a break left loop " + h.iter().name() + ", which is marked parallel");
            // A break ends a loop early; without one it runs its planned trips exactly.
            if (this.planned && planned >= 0 && (broke ? trips > planned : trips != planned)) {
                throw new IllegalStateException("loop " + h.iter().name() + " ran " + trips + " times, not its planned " + planned);
            }
        };
    }

    /** An exit ended an entry of loop {@code id} in iteration {@code stopped} (from 0) of its {@code planned} trips (-1: not planned). */
    private void endedAt(int id, long stopped, long planned) {
        broken[id]++;
        if (stopped == 0) brokenFirst[id]++;
        else if (stopped == planned - 1) brokenLast[id]++;
    }

    private Ex assign(Stmt.Assign a) {
        NumType tt = a.target().type();
        Ev value = expr(a.value());
        Ev offset = a.target() instanceof Expr.Subscript sub ? offset(sub) : null;
        int slot = a.target() instanceof Expr.ScalarRef r ? r.var().slot() : ((Expr.Subscript) a.target()).array().slot();
        if (a.compound() == null && tt.isFloat()) {
            NumType from = a.value().type();
            return () -> {
                tick();
                long v = value.ev();
                AnyOrder o = stored(v, from, tt);
                if (offset == null) {
                    scalars[slot] = Arith.convert(v, tt);
                    scalarOrders[slot] = o;
                } else {
                    int at = (int) offset.ev();
                    arrays[slot][at] = Arith.convert(v, tt);
                    arrayOrders[slot][at] = o;
                }
            };
        }
        if (a.compound() == null) {
            if (offset == null) {
                return () -> {
                    tick();
                    scalars[slot] = Arith.convert(value.ev(), tt);
                };
            }
            return () -> {
                tick();
                long v = value.ev();
                arrays[slot][(int) offset.ev()] = Arith.convert(v, tt);
            };
        }
        // t op= v  is  t = (T)(t op v), with t read once and both sides converted as for op.
        BinOp op = a.compound();
        NumType rt = a.value().type();
        NumType lct = Arith.operandType(op, tt, rt, true);
        NumType rct = Arith.operandType(op, tt, rt, false);
        NumType resultType = Arith.resultType(op, lct, rct);
        boolean floating = resultType.isFloat() || tt.isFloat();
        return () -> {
            tick();
            long v = value.ev();
            AnyOrder ov = last;
            long[] store = offset == null ? scalars : arrays[slot];
            int at = offset == null ? slot : (int) offset.ev();
            long x = Arith.convert(store[at], tt, lct);
            long y = Arith.convert(v, rt, rct);
            check(Arith.binaryUb(op, lct, x, rct, y), op.symbol, x, y, lct);
            long r = Arith.binary(op, lct, x, rct, y);
            if (portable) {
                checkShift(op, x, y, lct);
                checkConversion(r, resultType, tt);
            }
            if (floating) {
                checkFloatConversion(r, resultType, tt);
                AnyOrder[] orders = offset == null ? scalarOrders : arrayOrders[slot];
                if (orders != null && resultType.isFloat() && tt.isFloat()) {
                    // t op= v in any order: t's own quantum and bound (an induction's grow by a step each time) with v's.
                    AnyOrder ox = orders[at] != null ? orders[at] : AnyOrder.of(x);
                    AnyOrder oy = rt.isFloat() ? ov : AnyOrder.of(y);
                    orders[at] = checkAnyOrder(ox.combine(op, oy, y), resultType, r);
                }
            }
            store[at] = Arith.convert(r, resultType, tt);
        };
    }

    // ---- expressions ----------------------------------------------------------------

    private Ev expr(Expr e) {
        return e.type().isFloat() ? ordered(e) : e.accept(compiler);
    }

    /** Compiles an expression into a closure that evaluates it (and checks it for UB) each time it runs. */
    private final Expr.Visitor<Ev> compiler = new Expr.Visitor<>() {
        @Override
        public Ev constant(Expr.Const c) {
            long v = c.value();
            return () -> v;
        }

        @Override
        public Ev scalar(Expr.ScalarRef r) {
            int slot = r.var().slot();
            return () -> scalars[slot];
        }

        @Override
        public Ev iter(Expr.IterRef r) {
            int slot = r.iter().slot();
            return () -> scalars[slot];
        }

        @Override
        public Ev cast(Expr.Cast c) {
            Ev o = expr(c.operand());
            NumType t = c.type();
            NumType from = c.operand().type();
            if (from.isFloat() || t.isFloat()) {
                return () -> {
                    long v = o.ev();
                    checkFloatConversion(v, from, t);
                    return Arith.convert(v, from, t);
                };
            }
            if (portable && t.signed) {
                return () -> {
                    long v = o.ev();
                    checkConversion(v, from, t);
                    return Arith.convert(v, t);
                };
            }
            return () -> Arith.convert(o.ev(), t);
        }

        @Override
        public Ev unary(Expr.Unary u) {
            NumType t = u.operand().type();
            UnOp op = u.op();
            Ev o = expr(u.operand());
            return () -> {
                long x = o.ev();
                UbKind ub = Arith.unaryUb(op, t, x);
                if (ub != null) throw new UndefinedBehaviorException(ub + ": " + op.symbol + x + " in " + t);
                return Arith.unary(op, t, x);
            };
        }

        @Override
        public Ev binary(Expr.Binary b) {
            return Interpreter.this.binary(b);
        }

        @Override
        public Ev ternary(Expr.Ternary t) {
            Ev c = expr(t.cond());
            Ev a = expr(t.then());
            Ev b = expr(t.otherwise());
            if (eager) {
                return () -> {
                    long x = a.ev();
                    long y = b.ev();
                    return c.ev() != 0 ? x : y;
                };
            }
            return () -> c.ev() != 0 ? a.ev() : b.ev();
        }

        @Override
        public Ev subscript(Expr.Subscript s) {
            return read(s);
        }

        @Override
        public Ev call(Expr.Call c) {
            Builtin fn = c.fn();
            NumType t = c.type();
            Ev a = expr(c.args().get(0));
            if (fn.arity == 1) return () -> checkedCall(fn, t, a.ev());
            Ev b = expr(c.args().get(1));
            // min and max, the common case, never are undefined: no check, no array of operands.
            if (!fn.mathLibrary()) return () -> Arith.minMax(fn, t, a.ev(), b.ev());
            if (fn.arity == 2) return () -> checkedCall(fn, t, a.ev(), b.ev());
            Ev d = expr(c.args().get(2));
            return () -> checkedCall(fn, t, a.ev(), b.ev(), d.ev());
        }

        @Override
        public Ev helperCall(Expr.HelperCall c) {
            Ev body = helperBody(c.helper(), c.field());
            Ev[] args = new Ev[c.args().size()];
            for (int i = 0; i < args.length; i++) args[i] = expr(c.args().get(i));
            int[] slots = c.helper().params().stream().mapToInt(ScalarVar::slot).toArray();
            // One buffer per call site: a site is never inside its own arguments, and bodies never call their own helper.
            long[] values = new long[args.length];
            return () -> {
                // Every argument first, then the parameters: an argument may call the same helper.
                for (int i = 0; i < args.length; i++) values[i] = args[i].ev();
                for (int i = 0; i < slots.length; i++) scalars[slots[i]] = values[i];
                return body.ev();
            };
        }

        @Override
        public Ev stencil(Expr.Stencil st) {
            BinOp op = st.combine();
            NumType t = st.type();
            Ev[] taps = new Ev[st.taps().size()];
            for (int i = 0; i < taps.length; i++) taps[i] = expr(st.taps().get(i));
            return () -> {
                long acc = Arith.convert(taps[0].ev(), t);
                for (int i = 1; i < taps.length; i++) {
                    long y = Arith.convert(taps[i].ev(), t);
                    check(Arith.binaryUb(op, t, acc, t, y), op.symbol, acc, y, t);
                    acc = Arith.binary(op, t, acc, t, y);
                }
                return acc;
            };
        }
    };

    // ---- floating values in any order ------------------------------------------------

    /**
     * Compiles a floating expression into a closure that gives its value, as {@link #compiler}'s
     * do, and leaves its quantum and bound ({@link AnyOrder}) in {@link #last}; an operation
     * whose result some order might round is refused ({@link UbKind#FP_INEXACT}). A floating
     * operand's closure sets {@link #last} just before it returns, so each is read right after
     * its operand ran.
     */
    private Ev ordered(Expr e) {
        NumType t = e.type();
        if (e instanceof Expr.Const c) {
            long v = c.value();
            AnyOrder o = AnyOrder.of(v);
            return () -> {
                last = o;
                return v;
            };
        }
        if (e instanceof Expr.ScalarRef r) {
            int slot = r.var().slot();
            return () -> {
                long v = scalars[slot];
                AnyOrder o = scalarOrders[slot];
                last = o != null ? o : AnyOrder.of(v);
                return v;
            };
        }
        if (e instanceof Expr.Subscript s && !s.array().isInput()) {
            Ev off = offset(s);
            int slot = s.array().slot();
            return () -> {
                int at = (int) off.ev();
                long v = arrays[slot][at];
                AnyOrder o = arrayOrders[slot] == null ? null : arrayOrders[slot][at];
                last = o != null ? o : AnyOrder.of(v);
                return v;
            };
        }
        if (e instanceof Expr.Unary || e instanceof Expr.Cast c && c.operand().type().isFloat()
                || e instanceof Expr.Ternary && !eager) {
            // A negation, or a conversion between float and double: the operand's quantum and
            // bound, which its closure leaves in last (every order gives the operand the same
            // value, which the conversion must keep exactly). A select: the arm taken, the last
            // closure to run; the other is not the value, whatever a compiler computes of it.
            return e.accept(compiler);
        }
        if (e instanceof Expr.Binary b && !b.op().isLogical()) return orderedBinary(b);
        if (e instanceof Expr.Ternary tern) {
            // ISPC evaluates both arms, then the condition: the taken arm's, kept aside.
            Ev c = expr(tern.cond());
            Ev x = expr(tern.then());
            Ev y = expr(tern.otherwise());
            return () -> {
                long a = x.ev();
                AnyOrder oa = last;
                long b = y.ev();
                AnyOrder ob = last;
                boolean taken = c.ev() != 0;
                last = taken ? oa : ob;
                return taken ? a : b;
            };
        }
        if (e instanceof Expr.Call c && c.args().stream().allMatch(a -> a.type().isFloat())) return orderedCall(c, t);
        if (e instanceof Expr.Subscript || e instanceof Expr.Cast) {
            // An element of an input array, or an integer converted: its value alone.
            Ev plain = e.accept(compiler);
            return () -> {
                long v = plain.ev();
                last = AnyOrder.of(v);
                return v;
            };
        }
        // A helper's floating result or parameter, a floating stencil: nothing makes them, and
        // their orders are not followed; the value alone would pass what it must not.
        throw new IllegalStateException("no any-order rule for a floating " + e.getClass().getSimpleName() + ": " + e);
    }

    private Ev orderedBinary(Expr.Binary b) {
        BinOp op = b.op();
        NumType t = b.type();
        Ev l = expr(b.lhs());
        Ev r = expr(b.rhs());
        NumType lt = b.lhs().type();
        NumType rt = b.rhs().type();
        return () -> {
            long x = l.ev();
            AnyOrder ox = lt.isFloat() ? last : null;
            long y = r.ev();
            AnyOrder oy = rt.isFloat() ? last : null;
            check(Arith.binaryUb(op, lt, x, rt, y), op.symbol, x, y, lt);
            long v = Arith.binary(op, lt, x, rt, y);
            // An integer operand is converted to the floating type first: its value alone.
            long cy = rt == t ? y : Arith.convert(y, rt, t);
            if (ox == null) ox = AnyOrder.of(Arith.convert(x, lt, t));
            if (oy == null) oy = AnyOrder.of(cy);
            checkAnyOrder(ox.combine(op, oy, cy), t, v);
            return v;
        };
    }

    /** The math library's calls and min and max in floating point: as {@code FloatStatements} makes them. */
    private Ev orderedCall(Expr.Call c, NumType t) {
        Builtin fn = c.fn();
        if (fn == Builtin.FABS) return compiler.call(c); // |a|: a's quantum and bound, left in last
        Ev a = expr(c.args().get(0));
        if (fn == Builtin.SQRT) {
            // The root of a square: the square's quantum and bound, and the root's own.
            return () -> {
                long v = checkedCall(fn, t, a.ev());
                last = last.joined(AnyOrder.of(v));
                return v;
            };
        }
        Ev b = expr(c.args().get(1));
        if (fn.arity == 2) {
            // min, max, fmin, fmax: one of the two.
            return () -> {
                long x = a.ev();
                AnyOrder ox = last;
                long y = b.ev();
                AnyOrder oy = last;
                long v = fn.mathLibrary() ? checkedCall(fn, t, x, y) : Arith.minMax(fn, t, x, y);
                last = ox.joined(oy);
                return v;
            };
        }
        Ev d = expr(c.args().get(2));
        // fma(x, y, z): the product, then the sum, each in any order.
        return () -> {
            long x = a.ev();
            AnyOrder ox = last;
            long y = b.ev();
            AnyOrder oy = last;
            long z = d.ev();
            AnyOrder oz = last;
            long v = checkedCall(fn, t, x, y, z);
            AnyOrder product = ox.combine(BinOp.MUL, oy);
            checkAnyOrder(product, t, Arith.binary(BinOp.MUL, t, x, t, y));
            checkAnyOrder(product.combine(BinOp.ADD, oz), t, v);
            return v;
        };
    }

    /**
     * {@code o}, left in {@link #last}, where type {@code t} holds every value of it in any
     * order; else {@code v}'s operation is refused as one that would round.
     */
    private AnyOrder checkAnyOrder(AnyOrder o, NumType t, long v) {
        if (!o.holds(t)) {
            throw new UndefinedBehaviorException(UbKind.FP_INEXACT + " in some order: " + show(v, t) + " in " + t + " of quantum 2^"
                    + o.quantum() + " and bound " + o.bound());
        }
        last = o;
        return o;
    }

    /**
     * The quantum and bound a floating store keeps of {@code v} (of type {@code from}, stored
     * as {@code to}): those it was computed with (checked at each operation), or the value's
     * own where it is not floating.
     */
    private AnyOrder stored(long v, NumType from, NumType to) {
        return from.isFloat() ? last : AnyOrder.of(Arith.convert(v, from, to));
    }

    /** Helper results compiled so far: each helper's once, however many calls it has. */
    private final java.util.Map<dev.yarpj.ir.Helper, Ev[]> helperBodies = new java.util.IdentityHashMap<>();

    /**
     * A helper's body, which reads its parameters' slots and gives result {@code field}; a body
     * calls only helpers defined before it. Where the helper returns a struct, every field is
     * computed first (in field order, as the lowerings assign them): a field the call does not
     * read is computed all the same, and may not be undefined either.
     */
    private Ev helperBody(dev.yarpj.ir.Helper h, int field) {
        Ev[] results = helperBodies.get(h);
        if (results == null) {
            results = new Ev[h.results().size()];
            for (int k = 0; k < results.length; k++) results[k] = expr(h.results().get(k));
            helperBodies.put(h, results);
        }
        if (results.length == 1) return results[0];
        Ev[] all = results;
        return () -> {
            long v = 0;
            for (int k = 0; k < all.length; k++) {
                long x = all[k].ev();
                if (k == field) v = x;
            }
            return v;
        };
    }

    private Ev binary(Expr.Binary b) {
        BinOp op = b.op();
        Ev l = expr(b.lhs());
        Ev r = expr(b.rhs());
        NumType lt = b.lhs().type();
        NumType rt = b.rhs().type();
        if (eager && op.isLogical()) {
            return () -> {
                boolean x = l.ev() != 0;
                boolean y = r.ev() != 0;
                return (op == BinOp.LAND ? x && y : x || y) ? 1 : 0;
            };
        }
        if (op == BinOp.LAND) return () -> l.ev() != 0 && r.ev() != 0 ? 1 : 0;
        if (op == BinOp.LOR) return () -> l.ev() != 0 || r.ev() != 0 ? 1 : 0;
        if (portable && op == BinOp.SHR) {
            return () -> {
                long x = l.ev();
                long y = r.ev();
                check(Arith.binaryUb(op, lt, x, rt, y), op.symbol, x, y, lt);
                checkShift(op, x, y, lt);
                return Arith.binary(op, lt, x, rt, y);
            };
        }
        return () -> {
            long x = l.ev();
            long y = r.ev();
            check(Arith.binaryUb(op, lt, x, rt, y), op.symbol, x, y, lt);
            return Arith.binary(op, lt, x, rt, y);
        };
    }

    /** A read of an array element; an input array's value comes from its fill, after the bounds check. */
    private Ev read(Expr.Subscript s) {
        ArrayVar a = s.array();
        if (!a.isInput()) {
            Ev off = offset(s);
            int slot = a.slot();
            return () -> arrays[slot][(int) off.ev()];
        }
        Ev[] idx = indices(s);
        int[] ds = dims(a);
        ArrayVar.Fill f = set.fillOf(a);
        int axis = f.axis();
        NumType base = a.base();
        return () -> {
            long atAxis = 0;
            long offset = 0;
            for (int d = 0; d < ds.length; d++) {
                long i = checkedIndex(a, d, idx[d].ev(), ds[d]);
                if (d == axis) atAxis = i;
                offset = offset * ds[d] + i;
            }
            if (offset == f.plantAt()) return f.plant();
            if (f.varies()) return f.valueAt(offset, base);
            return f.at((int) (atAxis & 1));
        };
    }

    /**
     * The row-major offset of an element in its storage, each index checked against the
     * array's own dimension; a view starts {@link ArrayVar#storageOffset()} elements in.
     */
    private Ev offset(Expr.Subscript s) {
        Ev[] idx = indices(s);
        int[] ds = dims(s.array());
        ArrayVar a = s.array();
        long base = a.storageOffset();
        return () -> {
            long off = 0;
            for (int d = 0; d < ds.length; d++) off = off * ds[d] + checkedIndex(a, d, idx[d].ev(), ds[d]);
            return base + off;
        };
    }

    private Ev[] indices(Expr.Subscript s) {
        Ev[] idx = new Ev[s.indices().size()];
        for (int i = 0; i < idx.length; i++) idx[i] = expr(s.indices().get(i));
        return idx;
    }

    private static int[] dims(ArrayVar a) {
        int[] r = new int[a.rank()];
        for (int i = 0; i < r.length; i++) r[i] = a.dims().get(i);
        return r;
    }

    private static long checkedIndex(ArrayVar a, int d, long i, int size) {
        // Every index type is read as signed: a huge unsigned index is out of bounds too.
        if (i < 0 || i >= size) {
            throw new UndefinedBehaviorException("index " + i + " out of bounds [0, " + size + ") in " + a.name() + " dimension " + d);
        }
        return i;
    }

    private static void check(UbKind ub, String op, long x, long y, NumType t) {
        if (ub != null) throw new UndefinedBehaviorException(ub + ": " + show(x, t) + " " + op + " " + show(y, t) + " in " + t);
    }

    /** A library call's value; refuses one that would round ({@link Arith#builtinUb}). */
    private static long checkedCall(Builtin fn, NumType t, long... args) {
        UbKind ub = Arith.builtinUb(fn, t, args);
        if (ub != null) {
            List<String> shown = new ArrayList<>();
            for (long a : args) shown.add(show(a, t));
            throw new UndefinedBehaviorException(ub + ": " + fn.cName() + "(" + String.join(", ", shown) + ") in " + t);
        }
        return Arith.builtin(fn, t, args);
    }

    /** Refuses, in a portable program, a right shift of a negative value. */
    private static void checkShift(BinOp op, long x, long y, NumType t) {
        if (Arith.binaryImplDefined(op, t, x)) {
            throw new UndefinedBehaviorException("implementation-defined: " + x + " " + op.symbol + " " + y + " in " + t);
        }
    }

    /** Refuses a conversion with a floating type that is undefined or would round ({@link Arith#conversionUb}). */
    private static void checkFloatConversion(long v, NumType from, NumType to) {
        UbKind ub = Arith.conversionUb(v, from, to);
        if (ub != null) throw new UndefinedBehaviorException(ub + ": converting " + show(v, from) + " from " + from + " to " + to);
    }

    /** A value as the programs print it: a floating one as its number, not its bits. */
    private static String show(long v, NumType t) {
        return t.isFloat() ? Double.toString(dev.yarpj.ir.FloatArith.value(v)) : Long.toString(v);
    }

    /** Refuses, in a portable program, converting {@code v} of type {@code from} to a signed type it does not fit. */
    private static void checkConversion(long v, NumType from, NumType to) {
        if (Arith.conversionImplDefined(v, from, to)) {
            throw new UndefinedBehaviorException("implementation-defined conversion of " + v + " from " + from + " to " + to);
        }
    }
}
