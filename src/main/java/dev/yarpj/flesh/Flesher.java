package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.IntType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import dev.yarpj.skeleton.Shape;
import dev.yarpj.skeleton.Skeleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Fleshes a skeleton out into a program: globals, iteration spaces, arrays sized to them,
 * and UB-free expressions built with concrete values (YARPGen v2, sections 3.4 and 3.5).
 */
public final class Flesher {
    private static final Map<IntType, Integer> ITERATOR_TYPES = new LinkedHashMap<>();

    static {
        ITERATOR_TYPES.put(IntType.INT, 8);
        ITERATOR_TYPES.put(IntType.UINT, 3);
        ITERATOR_TYPES.put(IntType.LLONG, 2);
        ITERATOR_TYPES.put(IntType.ULLONG, 2);
        ITERATOR_TYPES.put(IntType.SHORT, 1);
        ITERATOR_TYPES.put(IntType.USHORT, 1);
        ITERATOR_TYPES.put(IntType.SCHAR, 1);
        ITERATOR_TYPES.put(IntType.UCHAR, 1);
    }

    private final GenPolicy policy;
    private final Rng rng;
    private final Globals globals;
    private final ExprBuilder exprs;
    /**
     * Statements and loop iterations the program will execute, as reserved so far: every
     * statement once to start with, then each loop adds its extra iterations of its whole
     * body when it picks its trip count. Kept within max_iterations.
     */
    private long stepsUsed;

    private Flesher(GenPolicy policy, Rng rng) {
        this.policy = policy;
        this.rng = rng;
        this.globals = new Globals(policy.maxArrayBytes());
        this.exprs = new ExprBuilder(policy, rng, globals);
    }

    public static Program flesh(Skeleton skeleton, GenPolicy policy, Rng rng) {
        Flesher f = new Flesher(policy, rng);
        f.stepsUsed = Shape.size(skeleton.body());
        Stmt.Block body = f.block(skeleton.body(), Env.top());
        Globals g = f.globals;
        return new Program(List.copyOf(g.inputs), List.copyOf(g.outputs), List.copyOf(g.inputArrays),
                List.copyOf(g.outputArrays), List.copyOf(g.params), body, g.scalarSlots(), g.arraySlots());
    }

    private Stmt.Block block(List<Shape> shapes, Env outer) {
        Env env = outer.inBlock();
        List<Stmt> out = new ArrayList<>();
        for (Shape s : shapes) out.add(statement(s, env));
        return new Stmt.Block(out);
    }

    private Stmt statement(Shape s, Env env) {
        if (s instanceof Shape.Slot slot) {
            return switch (slot.kind()) {
                case ASSIGN -> assign(env);
                case COMPOUND -> compound(env);
                case LOCAL -> local(env);
            };
        }
        if (s instanceof Shape.IfShape i) return ifStmt(i, env);
        if (s instanceof Shape.Nest n) return nest(n, env, null, null).nest();
        Shape.Seq q = (Shape.Seq) s;
        List<Stmt.LoopNest> nests = new ArrayList<>();
        List<Bounds> shared = null;
        // Loops sharing a space share its trip counts: budget them for every nest of the sequence.
        int[] seqSizes = null;
        if (q.sharedSpace()) {
            seqSizes = new int[q.nests().get(0).depth()];
            for (Shape.Nest n : q.nests()) for (int l = 0; l < seqSizes.length; l++) seqSizes[l] += n.sizeFrom(l);
        }
        for (Shape.Nest n : q.nests()) {
            BuiltNest built = nest(n, env, shared, seqSizes);
            if (q.sharedSpace() && shared == null) shared = built.bounds();
            nests.add(built.nest());
        }
        return new Stmt.LoopSeq(nests, q.sharedSpace());
    }

    // ---- assignments ----------------------------------------------------------------

    /** An output to write: an element of an output array (usual inside loops) or an output scalar. */
    private Expr target(Env env) {
        boolean array = !env.loops().isEmpty() ? rng.chance(0.8) : rng.chance(0.2);
        if (array) {
            ArrayVar a = null;
            if (!globals.outputArrays.isEmpty() && rng.chance(0.5)) a = rng.pick(globals.outputArrays);
            if (a == null) a = exprs.newArray(env, false);
            if (a != null) return Exprs.subscript(a, exprs.subscripts(a, env, false));
        }
        ScalarVar v = !globals.outputs.isEmpty() && rng.chance(0.4)
                ? rng.pick(globals.outputs)
                : globals.newOutput(exprs.randomType(), 0);
        return new Expr.ScalarRef(v);
    }

    private Stmt assign(Env env) {
        Expr target = target(env);
        Valued value = exprs.expr(env);
        return new Stmt.Assign(target, null, Exprs.convertImplicitly(value.expr(), target.type()));
    }

    /**
     * {@code target op= value}. The target's old value is not tracked, so only operators
     * that cannot overflow whatever it holds are used: bitwise ones, and +, -, * when the
     * arithmetic is done in an unsigned type.
     */
    private Stmt compound(Env env) {
        Expr target = target(env);
        Valued value = exprs.expr(env);
        List<BinOp> ops = new ArrayList<>(List.of(BinOp.BAND, BinOp.BOR, BinOp.BXOR));
        if (!Arith.common(target.type(), value.expr().type()).signed) {
            ops.addAll(List.of(BinOp.ADD, BinOp.ADD, BinOp.SUB, BinOp.MUL));
        }
        return new Stmt.Assign(target, rng.pick(ops), value.expr());
    }

    private Stmt local(Env env) {
        Valued value = exprs.expr(env);
        IntType t = rng.chance(0.5) ? value.expr().type() : exprs.randomType();
        ScalarVar v = globals.newLocal(t);
        Valued init = UbGuard.convertImplicitly(value, t);
        env.scope().declare(v, init.values());
        return new Stmt.LocalDecl(v, init.expr());
    }

    private Stmt ifStmt(Shape.IfShape s, Env env) {
        Valued cond = s.onParity() && env.split() != null ? exprs.parityCondition(env) : exprs.expr(env);
        int t = cond.truthMask(env.mask());
        // A branch no context takes is still built against the full mask: dead code stays UB-free too.
        int thenMask = t == 0 ? env.mask() : t;
        int elseMask = (env.mask() & ~t) == 0 ? env.mask() : env.mask() & ~t;
        Stmt.Block then = block(s.then(), env.withMask(thenMask));
        Stmt.Block otherwise = s.otherwise() == null ? null : block(s.otherwise(), env.withMask(elseMask));
        return new Stmt.If(cond.expr(), then, otherwise);
    }

    // ---- loops ----------------------------------------------------------------------

    /** A loop header's space with the expressions that spell its start, bound and step. */
    private record Bounds(IterationSpace space, Expr start, Expr bound, Expr step) {}

    /** A fleshed nest with the bounds of its levels, which the next nests of a shared-space sequence reuse. */
    private record BuiltNest(Stmt.LoopNest nest, List<Bounds> bounds) {}

    private BuiltNest nest(Shape.Nest n, Env env, List<Bounds> shared, int[] seqSizes) {
        List<Bounds> bounds = new ArrayList<>();
        List<Iterator> iters = new ArrayList<>();
        List<Env> inside = new ArrayList<>();
        List<Stmt.Block> prefixes = new ArrayList<>();
        Env cur = env;
        for (int l = 0; l < n.depth(); l++) {
            boolean split = l == n.splitLevel();
            if (shared == null) {
                int size = seqSizes != null ? seqSizes[l] : n.sizeFrom(l);
                Bounds b = bounds(cur, split, size);
                stepsUsed += cur.tripProduct() * (b.space().trip() - 1) * size;
                bounds.add(b);
            } else {
                bounds.add(shared.get(l));
            }
            Bounds b = bounds.get(l);
            Iterator it = globals.newIterator(b.space().type());
            iters.add(it);
            cur = cur.enterLoop(new LoopInfo(it, b.space(), split && b.space().alternates()));
            inside.add(cur);
            prefixes.add(block(n.levels().get(l).prefix(), cur));
        }
        Stmt.Block body = block(n.body(), cur);
        Stmt.Block[] suffixes = new Stmt.Block[n.depth()];
        for (int l = n.depth() - 1; l >= 0; l--) suffixes[l] = block(n.levels().get(l).suffix(), inside.get(l));

        List<Stmt.LoopLevel> levels = new ArrayList<>();
        for (int l = 0; l < n.depth(); l++) {
            Bounds b = bounds.get(l);
            Iterator it = iters.get(l);
            Expr iter = new Expr.IterRef(it);
            Expr.Binary cond = Exprs.binary(b.space().cmp(), iter, b.bound());
            Expr.Binary update = Exprs.binary(b.space().up() ? BinOp.ADD : BinOp.SUB, iter, b.step());
            levels.add(new Stmt.LoopLevel(
                    new LoopHead(it, Exprs.convertImplicitly(b.start(), it.type()), cond, update, false),
                    prefixes.get(l), suffixes[l]));
        }
        // Data parallelism can only be decided once the whole nest is known.
        return new BuiltNest(DataParallelism.mark(new Stmt.LoopNest(levels, body)), bounds);
    }

    /**
     * Decides an iteration space and spells its bounds. The trip count is capped so that
     * the extra runs of the {@code bodySize} statements and loops inside, times the
     * enclosing loops' trips, fit in what is left of the budget.
     */
    private Bounds bounds(Env env, boolean split, int bodySize) {
        long left = Math.max(0, policy.maxIterations() - stepsUsed);
        int trip = rng.between(policy.minTrip(), policy.maxTrip());
        long cap = 1 + left / Math.max(1, env.tripProduct() * bodySize);
        trip = (int) Math.max(1, Math.min(trip, cap));
        if (split && trip < 2 && cap >= 2) trip = 2;
        int step = rng.chance(0.6) ? 1 : rng.between(1, policy.maxStep());
        if (split && step % 2 == 0) step -= 1;
        IntType type = rng.weighted(ITERATOR_TYPES);
        boolean up = !rng.chance(policy.pCountDown());
        IterationSpace space = up ? upward(type, trip, step) : downward(type, trip, step);
        // Narrow iterators must not wrap when stepping past the last value.
        if (space.max() + step > type.max()) {
            space = new IterationSpace(IntType.INT, space.first(), space.step(), space.trip(), space.up(), space.cmp(), space.bound());
        }
        IntType litType = Arith.promote(space.type());
        return new Bounds(space, spell(space.first(), litType), spell(space.bound(), litType), spell(step, litType));
    }

    private IterationSpace upward(IntType type, int trip, int step) {
        long first = rng.between(0, 3);
        long last = first + (long) (trip - 1) * step;
        BinOp cmp = rng.pick(List.of(BinOp.LT, BinOp.LT, BinOp.LE, BinOp.NE));
        long bound = switch (cmp) {
            case LT -> last + rng.between(1, step);
            case LE -> last + rng.between(0, step - 1);
            default -> last + step;
        };
        return new IterationSpace(type, first, step, trip, true, cmp, bound);
    }

    private IterationSpace downward(IntType type, int trip, int step) {
        // The lowest value stays >= step, so stepping below it never wraps an unsigned iterator.
        long lowest = rng.between(step, step + 3);
        long first = lowest + (long) (trip - 1) * step;
        BinOp cmp = rng.pick(List.of(BinOp.GE, BinOp.GT, BinOp.NE));
        long bound = switch (cmp) {
            case GE -> lowest - rng.between(0, step - 1);
            case GT -> lowest - rng.between(1, step);
            default -> lowest - step;
        };
        return new IterationSpace(type, first, step, trip, false, cmp, bound);
    }

    /**
     * A constant, or sometimes an expression over inputs that evaluates to it, opaque to
     * the compiler (paper 3.4): an input holding the value, or an input plus or minus a
     * small constant.
     */
    private Expr spell(long value, IntType t) {
        if (!rng.chance(policy.pOpaqueBound())) return new Expr.Const(t, value);
        IntType vt = rng.pick(List.of(t, IntType.INT, IntType.LLONG, IntType.UINT, IntType.SHORT));
        if (rng.chance(0.3)) {
            // Bounds are small and non-negative, so input = value - k fits every candidate type.
            long k = rng.between(1, 8);
            boolean plus = value - k >= 0 && rng.chance(0.5);
            ScalarVar v = globals.newInput(vt, plus ? value - k : value + k, rng.chance(policy.pParam()));
            Valued sum = UbGuard.tryBinary(plus ? BinOp.ADD : BinOp.SUB,
                    Valued.constant(new Expr.ScalarRef(v), v.initValue()),
                    Valued.constant(new Expr.Const(IntType.INT, k), k), Valued.BOTH);
            if (sum == null || sum.values()[0] != value) throw new IllegalStateException("bound " + value + " misspelt");
            return sum.expr();
        }
        for (ScalarVar v : globals.inputs) {
            if (v.base() == vt && v.initValue() == value && rng.chance(0.5)) return new Expr.ScalarRef(v);
        }
        return new Expr.ScalarRef(globals.newInput(vt, value, rng.chance(policy.pParam())));
    }
}
