package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.UnOp;
import dev.yarpj.policy.ExitPolicy;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import dev.yarpj.skeleton.Shape;
import dev.yarpj.skeleton.Skeleton;
import java.util.ArrayList;
import java.util.List;

/**
 * Fleshes a skeleton out into a program: globals, iteration spaces, arrays sized to them,
 * and UB-free expressions built with concrete values (YARPGen v2, sections 3.4 and 3.5).
 * This class is the walk over the skeleton (blocks, ifs, nests and sequences); each slot is
 * fleshed by the {@link StatementForm} registered for its kind ({@link StatementForms}), loop
 * bounds are drawn by {@link LoopBounds} and early exits added by {@link EarlyExits}.
 */
public final class Flesher {
    private final GenPolicy policy;
    private final Rng rng;
    /** What the forms share: symbol table, expression builder, UB guard, outputs. */
    private final Fleshing f;
    private final StatementForms forms;
    private final LoopBounds loopBounds;
    private final EarlyExits exits;
    /** The skeleton nest that gets an early return ({@link EarlyExits#withReturn}): the last of test(), or none. */
    private Shape.Nest returnNest;

    private Flesher(GenPolicy policy, Rng rng, boolean eager, boolean cFamily, boolean kernels) {
        this.policy = policy;
        this.rng = rng;
        this.f = new Fleshing(policy, rng, eager, cFamily, kernels);
        this.forms = new StatementForms(f);
        this.loopBounds = new LoopBounds(f);
        this.exits = new EarlyExits(f);
    }

    public static Program flesh(Skeleton skeleton, GenPolicy policy, Rng rng) {
        return flesh(skeleton, policy, rng, false);
    }

    /**
     * @param eager every operand of ?:, && and || may be evaluated (an ISPC program): each is
     *              kept defined wherever the expression runs, and no dead code with UB in it
     *              is made (a varying branch that no lane takes may still be evaluated)
     */
    public static Program flesh(Skeleton skeleton, GenPolicy policy, Rng rng, boolean eager) {
        return flesh(skeleton, policy, rng, eager, !eager);
    }

    /**
     * @param cFamily a C or C++ program: a field of an array of structs may be a bit-field, a
     *                local may copy a struct (ispc and SYCL have neither yet)
     */
    public static Program flesh(Skeleton skeleton, GenPolicy policy, Rng rng, boolean eager, boolean cFamily) {
        return flesh(skeleton, policy, rng, eager, cFamily, false);
    }

    /**
     * @param kernels a SYCL program, whose nests run as kernels: a floating reduction keeps its
     *                output as accumulator, never a local carried around the nest, since a nest
     *                that carries a local runs as one task and loses its sycl::reduction
     */
    public static Program flesh(Skeleton skeleton, GenPolicy policy, Rng rng, boolean eager, boolean cFamily, boolean kernels) {
        Flesher fl = new Flesher(policy, rng, eager, cFamily, kernels);
        List<Shape> top = skeleton.body();
        if (policy.exits().pReturn() > 0 && rng.chance(policy.exits().pReturn())) {
            // The early return goes in the last top-level nest, moved to the end of test() (Stmt.Exit).
            top = new ArrayList<>(top);
            for (int k = top.size() - 1; k >= 0; k--) {
                if (!(top.get(k) instanceof Shape.Nest || top.get(k) instanceof Shape.Seq)) continue;
                Shape loops = top.remove(k);
                top.add(loops);
                fl.returnNest = loops instanceof Shape.Seq q ? q.nests().get(q.nests().size() - 1) : (Shape.Nest) loops;
                break;
            }
        }
        Stmt.Block body = fl.block(top, Env.top());
        if (!writesOutput(body.stmts())) {
            // Every test stores to some output, else its checksum is a constant and tests nothing.
            // Before a last statement that may return, which must stay last (Stmt.Exit).
            List<Stmt> stmts = new ArrayList<>(body.stmts());
            int at = !stmts.isEmpty() && Stmt.returns(stmts.subList(stmts.size() - 1, stmts.size())) ? stmts.size() - 1 : stmts.size();
            stmts.add(at, fl.f.assign(Env.top()));
            body = new Stmt.Block(stmts);
        }
        Globals g = fl.f.globals;
        if (policy.exits().traceBranches()) body = BranchTrace.count(body, g);
        List<ArrayVar> inputArrays = new ArrayList<>(g.inputArrays);
        inputArrays.addAll(g.sentinelArrays);
        inputArrays.addAll(g.floatInputArrays);
        List<ScalarVar> outputs = new ArrayList<>(g.outputs);
        outputs.addAll(g.floatOutputs);
        List<ArrayVar> outputArrays = new ArrayList<>(g.outputArrays);
        outputArrays.addAll(g.floatOutputArrays);
        return new Program(List.copyOf(g.inputs), List.copyOf(outputs), List.copyOf(inputArrays),
                List.copyOf(outputArrays), List.copyOf(g.params), List.copyOf(g.arrayParams), body,
                g.scalarSlots(), g.arraySlots(), fl.f.exprs.calls.helpers());
    }

    /** Whether any statement that may run stores to an output (a local or a dead branch does not). */
    static boolean writesOutput(List<Stmt> stmts) {
        return WRITES_OUTPUT.any(stmts);
    }

    private static final WritesOutput WRITES_OUTPUT = new WritesOutput();

    /** Stores and folds write; a dead branch never runs. */
    private static final class WritesOutput extends Stmt.AnyStatement {
        @Override
        protected boolean leaf(Stmt s) {
            return s instanceof Stmt.Assign || s instanceof Stmt.Reduce;
        }

        @Override
        public Boolean deadBranch(Stmt.DeadBranch s) {
            return false;
        }
    }

    private Stmt.Block block(List<Shape> shapes, Env outer) {
        Env env = outer.inBlock();
        List<Stmt> out = new ArrayList<>();
        for (Shape s : shapes) {
            Stmt st = statement(s, env);
            // A carried-scalar idiom of two statements is two statements of the body, not a nested block.
            if (s instanceof Shape.Slot slot && slot.kind() == Shape.SlotKind.CARRIED && st instanceof Stmt.Block b) out.addAll(b.stmts());
            else out.add(st);
        }
        return new Stmt.Block(out);
    }

    private Stmt statement(Shape s, Env env) {
        if (s instanceof Shape.Slot slot) return forms.of(slot.kind()).flesh(env);
        if (s instanceof Shape.IfShape i) return ifStmt(i, env);
        // The scalars the loops carry (CarriedScalar) may be declared before them and stored after.
        Fleshing.Carriers outer = f.carriers;
        f.carriers = new Fleshing.Carriers();
        try {
            if (s instanceof Shape.Nest n) return f.carriers.around(nest(n, env, null).nest());
            Shape.Seq q = (Shape.Seq) s;
            List<Stmt.LoopNest> nests = new ArrayList<>();
            List<LoopBounds.Bounds> shared = null;
            for (Shape.Nest n : q.nests()) {
                BuiltNest built = nest(n, env, shared);
                if (q.sharedSpace() && shared == null) shared = built.bounds();
                nests.add(built.nest());
            }
            return f.carriers.around(new Stmt.LoopSeq(nests, q.sharedSpace()));
        } finally {
            f.carriers = outer;
        }
    }

    private Stmt ifStmt(Shape.IfShape s, Env env) {
        Valued cond = switch (s.cond()) {
            case PARITY -> env.split() != null ? f.exprs.parityCondition(env) : f.exprs.expr(env);
            case INVARIANT -> f.exprs.expr(env.loopInvariant());
            default -> f.exprs.expr(env);
        };
        int t = cond.truthMask(env.mask());
        // A loop in a branch that never runs does no work: steer the test so that it runs.
        boolean thenLoops = Shape.hasLoop(s.then());
        boolean elseLoops = s.otherwise() != null && Shape.hasLoop(s.otherwise());
        if (thenLoops != elseLoops && rng.chance(policy.pEnterLoops())) {
            boolean runs = thenLoops ? t != 0 : (env.mask() & ~t) != 0;
            if (!runs) {
                cond = f.ub.unary(UnOp.LNOT, cond, env.mask());
                t = cond.truthMask(env.mask());
            }
        }
        // A branch no context takes is still built against the full mask: dead code stays UB-free too.
        // In an eager (ISPC) program every branch is: a varying if runs each branch with the lanes
        // that do not take it masked off, which must not divide by zero either.
        int thenMask = t == 0 || f.ub.eager() ? env.mask() : t;
        int elseMask = (env.mask() & ~t) == 0 || f.ub.eager() ? env.mask() : env.mask() & ~t;
        Stmt.Block then = block(s.then(), env.withMask(thenMask));
        Stmt.Block otherwise = s.otherwise() == null ? null : block(s.otherwise(), env.withMask(elseMask));
        return new Stmt.If(cond.expr(), then, otherwise);
    }

    // ---- loops ----------------------------------------------------------------------

    /** A fleshed nest with the bounds of its levels, which the next nests of a shared-space sequence reuse. */
    private record BuiltNest(Stmt.LoopNest nest, List<LoopBounds.Bounds> bounds) {}

    private BuiltNest nest(Shape.Nest n, Env env, List<LoopBounds.Bounds> shared) {
        List<LoopBounds.Bounds> bounds = new ArrayList<>();
        List<Iterator> iters = new ArrayList<>();
        List<Env> inside = new ArrayList<>();
        List<Stmt.Block> prefixes = new ArrayList<>();
        Shape.NestPlan plan = n.plan();
        boolean idiom = plan.walksLikeAnIdiom();
        Env cur = env.withPlan(plan);
        for (int l = 0; l < n.depth(); l++) {
            boolean split = l == n.splitLevel();
            if (shared == null) {
                int trip = n.levels().get(l).trip();
                // The trips of the loops around this one and inside it, which its room to run longer multiplies.
                long others = cur.tripProduct();
                for (int d = l + 1; d < n.depth(); d++) others *= Math.max(1, n.levels().get(d).trip());
                bounds.add(idiom ? loopBounds.idiom(trip, plan.halo(), others) : loopBounds.plain(split, trip, others));
            } else {
                bounds.add(shared.get(l));
            }
            LoopBounds.Bounds b = bounds.get(l);
            Iterator it = f.globals.newIterator(b.space().type());
            iters.add(it);
            cur = cur.enterLoop(new LoopInfo(it, b.space(), split && b.space().alternates()));
            inside.add(cur);
            prefixes.add(block(n.levels().get(l).prefix(), cur));
        }
        int carriedBefore = forms.carried.fleshed();
        Stmt.Block body = block(n.body(), cur);
        boolean carries = forms.carried.fleshed() != carriedBefore;
        Stmt.Block[] suffixes = new Stmt.Block[n.depth()];
        for (int l = n.depth() - 1; l >= 0; l--) suffixes[l] = block(n.levels().get(l).suffix(), inside.get(l));

        List<Stmt.LoopLevel> levels = new ArrayList<>();
        for (int l = 0; l < n.depth(); l++) {
            LoopBounds.Bounds b = bounds.get(l);
            Iterator it = iters.get(l);
            Expr iter = new Expr.IterRef(it);
            Expr.Binary cond = Exprs.binary(b.space().cmp(), iter, b.bound());
            Expr.Binary update = Exprs.binary(b.space().up() ? BinOp.ADD : BinOp.SUB, iter, b.step());
            levels.add(new Stmt.LoopLevel(
                    new LoopHead(it, Exprs.convertImplicitly(b.start(), it.type()), cond, update, b.space().trip(),
                            LoopHead.Parallelism.SERIAL, LoopHead.Form.FOR, null, b.space().reach()),
                    prefixes.get(l), suffixes[l]));
        }
        Stmt.LoopNest plainNest = new Stmt.LoopNest(levels, body);
        ExitPolicy xp = policy.exits();
        // A distributable nest keeps the one exit LoopDistribute needs.
        boolean oneExit = n.distributable();
        if (!oneExit && xp.pExit() > 0 && rng.chance(xp.pExit())) plainNest = exits.withExit(plainNest, bounds, carries);
        if (n == returnNest && !oneExit) plainNest = exits.withReturn(plainNest, bounds);
        // Data parallelism can only be decided once the whole nest is known.
        Stmt.LoopNest built = DataParallelism.markKeepingPromises(plainNest.withPragma(plan.pragma()));
        // Forms only once parallelism is known: gang and parallel_for levels keep theirs.
        if (xp.pWhile() > 0 || xp.pDoWhile() > 0) built = LoopForms.choose(built, xp, rng);
        return new BuiltNest(built.withIdiom(plan.idiom()), bounds);
    }
}
