package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.IntType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ReductionOp;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.UnOp;
import dev.yarpj.policy.CarriedPolicy;
import dev.yarpj.policy.ExitPolicy;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.LoopPolicy;
import dev.yarpj.policy.Rng;
import dev.yarpj.policy.StmtPolicy;
import dev.yarpj.skeleton.Shape;
import dev.yarpj.skeleton.Skeleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Fleshes a skeleton out into a program: globals, iteration spaces, arrays sized to them,
 * and UB-free expressions built with concrete values (YARPGen v2, sections 3.4 and 3.5).
 */
public final class Flesher {
    private final GenPolicy policy;
    private final Rng rng;
    private final Globals globals;
    private final ExprBuilder exprs;
    private final Supplier<ReductionOp> reductions;
    private final Supplier<IntType> iteratorTypes;
    private final Supplier<IntType> idiomIteratorTypes;
    private final DeadCode deadCode;
    private final UbGuard ub;
    /** The policy's loops: and statements: sections, and their weight maps ready to draw from. */
    private final LoopPolicy lp;
    private final StmtPolicy sp;
    private final Rng.Odds<BinOp> upCmps;
    private final Rng.Odds<BinOp> downCmps;
    private final Rng.Odds<BinOp> idiomCmps;
    /** An empty idiom loop's comparisons: idiomCmps' without <=, evenly. */
    private final List<BinOp> emptyIdiomCmps;
    private final Rng.Odds<String> aliasedForms;
    private final Rng.Odds<BinOp> invariantPartOps;
    private final Rng.Odds<BinOp> guardedDivOps;
    private final Rng.Odds<BinOp> redundantOps;
    private final Rng.Odds<BinOp> redundantCombineOps;
    private final Rng.Odds<BinOp> aliasedCompareOps;
    private final Rng.Odds<BinOp> aliasedArithOps;

    private Flesher(GenPolicy policy, Rng rng, boolean eager) {
        this.policy = policy;
        this.lp = policy.loops();
        this.sp = policy.statements();
        this.upCmps = new Rng.Odds<>(lp.upCmpWeights(), Flesher::cmp);
        this.downCmps = new Rng.Odds<>(lp.downCmpWeights(), Flesher::cmp);
        this.idiomCmps = new Rng.Odds<>(lp.idiomCmpWeights(), Flesher::cmp);
        List<BinOp> empty = new ArrayList<>(idiomCmps.keys());
        empty.remove(BinOp.LE);
        this.emptyIdiomCmps = empty.isEmpty() ? List.of(BinOp.LT) : List.copyOf(empty);
        this.aliasedForms = new Rng.Odds<>(sp.aliasedFormWeights(), k -> k);
        this.invariantPartOps = new Rng.Odds<>(sp.invariantPartOpWeights(), Flesher::op);
        this.guardedDivOps = new Rng.Odds<>(sp.guardedDivOpWeights(), Flesher::op);
        this.redundantOps = new Rng.Odds<>(sp.redundantOpWeights(), Flesher::op);
        this.redundantCombineOps = new Rng.Odds<>(sp.redundantCombineOpWeights(), Flesher::op);
        this.aliasedCompareOps = new Rng.Odds<>(sp.aliasedCompareOpWeights(), Flesher::op);
        this.aliasedArithOps = new Rng.Odds<>(sp.aliasedArithOpWeights(), Flesher::op);
        this.rng = rng;
        this.globals = new Globals(policy.maxArrayBytes(), () -> rng.chance(policy.pArrayParam())
                ? new ArrayVar.Passing.Pointer(rng.chance(policy.pRestrict())) : ArrayVar.Passing.GLOBAL);
        this.ub = new UbGuard(!policy.allowImplDefined(), eager);
        this.exprs = new ExprBuilder(policy, rng, globals, ub);
        Map<ReductionOp, Integer> ops = new LinkedHashMap<>();
        policy.reductionWeights().forEach((name, w) -> ops.put(ReductionOp.byPolicyName(name), w));
        this.reductions = rng.sampler(ops);
        this.iteratorTypes = rng.sampler(ExprBuilder.byType(policy.iteratorTypeWeights()));
        this.idiomIteratorTypes = rng.sampler(ExprBuilder.byType(policy.idiomIteratorTypeWeights()));
        this.deadCode = new DeadCode(rng, globals, exprs, ub, policy.pParam(), policy.deadCode());
    }

    /** A loop test's operator by its policy name (lt, le, ne, ge, gt). */
    private static BinOp cmp(String name) {
        return op(name);
    }

    /** A binary operator by its policy name, as in op_weights (add, bxor, lt, ...). */
    static BinOp op(String name) {
        return BinOp.valueOf(name.toUpperCase());
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
        Flesher f = new Flesher(policy, rng, eager);
        List<Shape> top = skeleton.body();
        if (policy.exits().pReturn() > 0 && rng.chance(policy.exits().pReturn())) {
            // The early return goes in the last top-level nest, moved to the end of test() (Stmt.Exit).
            top = new ArrayList<>(top);
            for (int k = top.size() - 1; k >= 0; k--) {
                if (!(top.get(k) instanceof Shape.Nest || top.get(k) instanceof Shape.Seq)) continue;
                Shape loops = top.remove(k);
                top.add(loops);
                f.returnNest = loops instanceof Shape.Seq q ? q.nests().get(q.nests().size() - 1) : (Shape.Nest) loops;
                break;
            }
        }
        Stmt.Block body = f.block(top, Env.top());
        if (!writesOutput(body.stmts())) {
            // Every test stores to some output, else its checksum is a constant and tests nothing.
            // Before a last statement that may return, which must stay last (Stmt.Exit).
            List<Stmt> stmts = new ArrayList<>(body.stmts());
            int at = !stmts.isEmpty() && Stmt.returns(stmts.subList(stmts.size() - 1, stmts.size())) ? stmts.size() - 1 : stmts.size();
            stmts.add(at, f.assign(Env.top()));
            body = new Stmt.Block(stmts);
        }
        if (policy.exits().traceBranches()) body = BranchTrace.count(body, f.globals);
        Globals g = f.globals;
        List<ArrayVar> inputArrays = new ArrayList<>(g.inputArrays);
        inputArrays.addAll(g.sentinelArrays);
        return new Program(List.copyOf(g.inputs), List.copyOf(g.outputs), List.copyOf(inputArrays),
                List.copyOf(g.outputArrays), List.copyOf(g.params), List.copyOf(g.arrayParams), body,
                g.scalarSlots(), g.arraySlots());
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
        if (s instanceof Shape.Slot slot) {
            return switch (slot.kind()) {
                case ASSIGN -> assign(env);
                case COMPOUND -> compound(env);
                case LOCAL -> local(env);
                case ELEMENTWISE -> elementwise(env);
                case REDUCE -> reduce(withInvariantPart(exprs.expr(env), env), env);
                case STENCIL -> stencilStmt(env);
                case MEMSET -> memset(env);
                case MEMCPY -> memcpy(env);
                case GUARDED_DIV -> guardedDivision(env);
                case REDUNDANT_EXPR -> redundantUnderEquality(env);
                case ALIASED_UPDATE -> aliasedUpdate(env);
                case DEAD_CODE -> ub.eager() ? assign(env) : deadCode.branch(env, () -> target(env));
                case CARRIED -> carried(env);
                case RECURRENCE -> recurrence(env);
            };
        }
        if (s instanceof Shape.IfShape i) return ifStmt(i, env);
        // The scalars the loops carry (carried()) may be declared before them and stored after.
        Carriers outer = carriers;
        carriers = new Carriers();
        try {
            if (s instanceof Shape.Nest n) return carriers.around(nest(n, env, null).nest());
            Shape.Seq q = (Shape.Seq) s;
            List<Stmt.LoopNest> nests = new ArrayList<>();
            List<Bounds> shared = null;
            for (Shape.Nest n : q.nests()) {
                BuiltNest built = nest(n, env, shared);
                if (q.sharedSpace() && shared == null) shared = built.bounds();
                nests.add(built.nest());
            }
            return carriers.around(new Stmt.LoopSeq(nests, q.sharedSpace()));
        } finally {
            carriers = outer;
        }
    }

    /**
     * Locals that the nest (or sequence) being fleshed carries across iterations: declared
     * before it, stored to their outputs after it. The statement is the loops alone when
     * there are none, else a block of the three.
     */
    private static final class Carriers {
        final List<Stmt> before = new ArrayList<>();
        final List<Stmt> after = new ArrayList<>();

        Stmt around(Stmt loops) {
            if (before.isEmpty()) return loops;
            List<Stmt> all = new ArrayList<>(before);
            all.add(loops);
            all.addAll(after);
            return new Stmt.Block(all);
        }
    }

    /** The skeleton nest that gets an early return ({@link #withReturn}): the last of test(), or none. */
    private Shape.Nest returnNest;

    /** Of the innermost nest or sequence being fleshed; null outside any. */
    private Carriers carriers;
    /** Carried-scalar slots fleshed so far (a nest compares the count before and after its body). */
    private int carriedStatements;

    // ---- assignments ----------------------------------------------------------------

    /** An output to write: an element of an output array (usual inside loops) or an output scalar. */
    private Expr target(Env env) {
        boolean array = rng.chance(env.loops().isEmpty() ? policy.pArrayTarget() : policy.pArrayTargetInLoop())
                && rng.chance(policy.pArray());
        if (array) {
            ArrayVar a = null;
            if (!globals.sharedOutputArrays.isEmpty() && rng.chance(policy.pReuseOutputArray())) {
                a = rng.pick(globals.sharedOutputArrays);
            }
            if (a == null) a = exprs.newArray(env, false);
            if (a != null) return Exprs.subscript(a, exprs.subscripts(a, env, false));
        }
        ScalarVar v = !globals.sharedOutputs.isEmpty() && rng.chance(policy.pReuseOutput())
                ? rng.pick(globals.sharedOutputs)
                : globals.newOutput(exprs.randomType(), 0);
        return new Expr.ScalarRef(v);
    }

    /**
     * {@code target = value}, converted to the target's type as C does on assignment (in a
     * portable program, first masked into a signed target's range).
     */
    private Stmt.Assign store(Expr target, Valued value) {
        Valued v = ub.fitted(value, target.type(), Valued.BOTH);
        return new Stmt.Assign(target, null, Exprs.convertImplicitly(v.expr(), target.type()));
    }

    private Stmt assign(Env env) {
        Expr target = target(env);
        Valued value = exprs.expr(env);
        return store(target, value);
    }

    /**
     * {@code target op= value}. The target's old value is not tracked, so only operators
     * that cannot overflow whatever it holds are used: bitwise ones, and +, -, * when the
     * arithmetic is done in an unsigned type.
     */
    private Stmt compound(Env env) {
        Expr target = target(env);
        Valued value = exprs.expr(env);
        IntType common = Arith.common(target.type(), value.expr().type());
        // The result goes back to the target's type: in a portable program it must fit there,
        // which is sure only for an unsigned target or a bitwise operator in the target's own type.
        if (ub.portable() && target.type().signed && common != target.type()) return store(target, value);
        List<BinOp> ops = new ArrayList<>(List.of(BinOp.BAND, BinOp.BOR, BinOp.BXOR));
        if (!common.signed) {
            ops.addAll(List.of(BinOp.ADD, BinOp.ADD, BinOp.SUB, BinOp.MUL));
        }
        return new Stmt.Assign(target, rng.pick(ops), value.expr());
    }

    private Stmt local(Env env) {
        Valued value = exprs.expr(env);
        IntType t = rng.chance(policy.pLocalKeepsType()) ? value.expr().type() : exprs.randomType();
        if (ub.portable() && !UbGuard.fits(value, t)) t = value.expr().type();
        ScalarVar v = globals.newLocal(t);
        Valued init = ub.convertImplicitly(value, t);
        env.scope().declare(v, init.values());
        return new Stmt.LocalDecl(v, init.expr());
    }

    // ---- idioms ---------------------------------------------------------------------

    /**
     * An output array element walked by the loops in scope as the nest's access pattern
     * says (row-major in idiom nests: the innermost loop on the last dimension); an
     * existing array when one fits, else a new one; null when none fits the budget.
     */
    private Expr.Subscript walkedOutput(Env env) {
        if (!rng.chance(policy.pArray())) return null;
        ArrayVar a = null;
        if (!globals.sharedOutputArrays.isEmpty() && rng.chance(policy.pReuseOutputArray())) {
            ArrayVar c = rng.pick(globals.sharedOutputArrays);
            List<LoopInfo> layout = exprs.layout(c.rank(), env);
            LoopInfo last = layout.get(c.rank() - 1);
            if (last != null && last == env.innermost() && last.space().max() < c.dims().get(c.rank() - 1)) a = c;
        }
        if (a == null) a = exprs.newArray(env, false);
        return a == null ? null : Exprs.subscript(a, exprs.subscripts(a, env, false));
    }

    /** Sometimes {@code value op g(scalars)}: part of it the same on every iteration, work for LICM before the vectorizer. */
    private Valued withInvariantPart(Valued value, Env env) {
        if (!rng.chance(policy.pInvariantPart())) return value;
        Valued invariant = exprs.expr(env.loopInvariant());
        return ub.binary(invariantPartOps.pick(rng), value, invariant, env.mask());
    }

    /** A walked output element, or any output when none can be walked (no arrays, or over budget). */
    private Expr walkedOrAnyOutput(Env env) {
        Expr walked = walkedOutput(env);
        return walked != null ? walked : target(env);
    }

    /**
     * {@code a[..][i] = f(b[..][i], ...)}: a store the vectorizer can widen. When the
     * innermost loop is the odd/even split, sometimes one store per parity under a parity
     * test: a masked store to if-convert, and an ISPC gang whose mask is neither all on nor
     * all off (the loop stays data-parallel: both stores write the iteration's own element).
     */
    private Stmt elementwise(Env env) {
        Expr target = walkedOrAnyOutput(env);
        if (target instanceof Expr.Subscript && env.split() != null && env.split() == env.innermost()
                && rng.chance(policy.pParityStore())) {
            Valued cond = exprs.parityCondition(env);
            int t = cond.truthMask(env.mask());
            Env then = env.withMask(t == 0 || ub.eager() ? env.mask() : t);
            Env otherwise = env.withMask((env.mask() & ~t) == 0 || ub.eager() ? env.mask() : env.mask() & ~t);
            return new Stmt.If(cond.expr(), new Stmt.Block(List.of(store(target, withInvariantPart(exprs.expr(then), then)))),
                    new Stmt.Block(List.of(store(target, withInvariantPart(exprs.expr(otherwise), otherwise)))));
        }
        Valued value = withInvariantPart(exprs.expr(env), env);
        return store(target, value);
    }

    /**
     * Reduces {@code value} into a new output of lower rank than the loops in scope,
     * indexed by the outermost of them: sum, min, max or a bitwise operator. The
     * accumulator is new, so its start is known, and fleshing has made {@code value} the
     * same on every iteration of a context; a signed sum that could overflow in the worst
     * case of every execution becomes an exclusive or.
     */
    private Stmt reduce(Valued value, Env env) {
        List<LoopInfo> loops = env.loops();
        int rank = rng.between(0, Math.min(loops.size() - 1, policy.maxArrayRank()));
        // Mostly the type the operation is done in, as a reduction variable usually is: no
        // truncation between iterations that would hide the reduction from a vectorizer.
        // A portable program accumulates in the promoted type, so no step is converted back out of range.
        IntType t = rng.chance(policy.pReducePromoted()) || ub.portable() ? Arith.promote(value.expr().type()) : exprs.randomType();
        ReductionOp op = reductions.get();
        long init = switch (op) {
            case MIN, MAX, AND -> op.identity(t);
            case SUM, OR, XOR -> rng.chance(policy.pReduceFromZero()) ? 0 : exprs.interestingValue(t);
        };
        Expr target = null;
        if (rank > 0) {
            List<Integer> dims = new ArrayList<>();
            List<Expr> idx = new ArrayList<>();
            for (int d = 0; d < rank; d++) {
                dims.add((int) loops.get(d).space().max() + 1);
                idx.add(new Expr.IterRef(loops.get(d).iter()));
            }
            ArrayVar a = globals.newPrivateArray(false, t, dims, ArrayVar.Fill.uniform(init));
            if (a != null) target = Exprs.subscript(a, idx);
        }
        if (target == null) target = new Expr.ScalarRef(globals.newAccumulator(t, init));
        // A sum that could overflow in some order of its additions becomes an exclusive or.
        if (op == ReductionOp.SUM && !sumCannotOverflow(t, init, value, env)) op = ReductionOp.XOR;
        return new Stmt.Reduce(target, op, value.expr());
    }

    /**
     * Whether {@code t += v}, executed at most once per iteration of every loop in scope,
     * starting from {@code init}, stays defined: the addition is done in an unsigned type,
     * or its worst-case magnitude fits the signed one.
     */
    private static boolean sumCannotOverflow(IntType t, long init, Valued v, Env env) {
        IntType op = Arith.operandType(BinOp.ADD, t, v.expr().type(), true);
        if (!op.signed) return true;
        long step = 0;
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(env.mask(), c)) continue;
            long x = Arith.convert(v.values()[c], op);
            if (x == Long.MIN_VALUE) return false;
            step = Math.max(step, Math.abs(x));
        }
        long init0 = Arith.convert(init, op);
        if (init0 == Long.MIN_VALUE) return false;
        if (fits(Math.abs(init0), env.tripProduct(), step, op)) return true;
        // A narrower accumulator is converted back to its type after every step.
        return t.bits < op.bits && fits(Math.max(Math.abs(t.min()), t.max()), 1, step, op);
    }

    /** Whether {@code start + times * step} (all non-negative) is at most {@code op}'s maximum. */
    private static boolean fits(long start, long times, long step, IntType op) {
        try {
            return Math.addExact(start, Math.multiplyExact(times, step)) <= op.max();
        } catch (ArithmeticException e) {
            return false;
        }
    }

    /**
     * A stencil over new input arrays, along the innermost loops of an idiom nest whose
     * spaces keep {@code halo} away from both edges; stored element-wise or reduced.
     */
    private Stmt stencilStmt(Env env) {
        Shape.StencilPlan st = env.plan().stencil();
        List<LoopInfo> loops = env.loops();
        int dims = Math.min(st.dims(), loops.size());
        List<LoopInfo> spanned = loops.subList(loops.size() - dims, loops.size());
        IntType elem = exprs.randomType();
        List<ArrayVar> arrays = new ArrayList<>();
        for (int k = 0; k < st.arrays(); k++) {
            List<Integer> size = new ArrayList<>();
            for (LoopInfo l : spanned) size.add((int) l.space().max() + st.halo() + 1 + rng.between(0, sp.maxStencilPadding()));
            ArrayVar a = globals.newArray(true, elem, size, ArrayVar.Fill.uniform(exprs.interestingValue(elem)));
            if (a != null) arrays.add(a);
        }
        if (arrays.isEmpty()) return elementwise(env);
        // The centre first, then distinct offsets along one dimension or diagonally.
        List<int[]> offsets = new ArrayList<>();
        offsets.add(new int[dims]);
        for (int attempt = 0; offsets.size() < st.taps() && attempt < 8 * st.taps(); attempt++) {
            int[] off = new int[dims];
            for (int d = 0; d < dims; d++) {
                if (d == rng.between(0, dims - 1) || rng.chance(policy.pStencilDiagonalTap())) off[d] = rng.between(-st.reach(), st.reach()) * st.stride();
            }
            if (offsets.stream().noneMatch(o -> java.util.Arrays.equals(o, off))) offsets.add(off);
        }
        List<Expr.Subscript> taps = new ArrayList<>();
        for (int i = 0; i < offsets.size(); i++) {
            ArrayVar a = arrays.get(i % arrays.size());
            List<Expr> idx = new ArrayList<>();
            for (int d = 0; d < dims; d++) {
                Expr it = new Expr.IterRef(spanned.get(d).iter());
                int o = offsets.get(i)[d];
                idx.add(o == 0 ? it : Exprs.binary(o > 0 ? BinOp.ADD : BinOp.SUB, it, new Expr.Const(IntType.INT, Math.abs(o))));
            }
            taps.add(Exprs.subscript(a, idx));
        }
        // Every tap holds its array's fill; the sum is checked in every context like any operator.
        IntType t = Arith.promote(elem);
        BinOp combine = BinOp.ADD;
        for (BinOp cand : List.of(BinOp.ADD, BinOp.BXOR)) {
            combine = cand;
            if (stencilValue(cand, t, taps) != null) break;
        }
        Long v = stencilValue(combine, t, taps);
        Valued value = Valued.constant(Exprs.stencil(combine, taps), v);
        if (st.reduced()) return reduce(value, env);
        Expr target = walkedOrAnyOutput(env);
        return store(target, value);
    }

    /** The value of a stencil over uniformly filled arrays, or null when folding it is UB. */
    private static Long stencilValue(BinOp op, IntType t, List<Expr.Subscript> taps) {
        long acc = Arith.convert(taps.get(0).array().fill().even(), t);
        for (int i = 1; i < taps.size(); i++) {
            long y = Arith.convert(taps.get(i).array().fill().even(), t);
            if (Arith.binaryUb(op, t, acc, t, y) != null) return null;
            acc = Arith.binary(op, t, acc, t, y);
        }
        return acc;
    }

    /**
     * A new output array walked in order by the loops in scope, every dimension exactly as
     * long as its loop's space from 0: the whole array, contiguously (memset/memcpy).
     */
    private ArrayVar wholeArray(Env env, boolean input, IntType t, ArrayVar.Fill fill) {
        return globals.newArray(input, t, inOrderDims(env), fill);
    }

    /**
     * The dimensions of a new array that {@link #inOrder} walks: one per innermost loop in
     * scope (at most max_array_rank), each as long as its loop's space from 0.
     */
    private List<Integer> inOrderDims(Env env) {
        List<LoopInfo> loops = env.loops();
        int rank = Math.min(loops.size(), policy.maxArrayRank());
        List<Integer> dims = new ArrayList<>();
        for (int d = 0; d < rank; d++) dims.add((int) loops.get(loops.size() - rank + d).space().max() + 1);
        return dims;
    }

    private List<Expr> inOrder(ArrayVar a, Env env) {
        List<LoopInfo> loops = env.loops();
        List<Expr> idx = new ArrayList<>();
        for (int d = 0; d < a.rank(); d++) idx.add(new Expr.IterRef(loops.get(loops.size() - a.rank() + d).iter()));
        return idx;
    }

    /** {@code out[i][j] = C} over whole rows, C a repeated byte: a memset. */
    private Stmt memset(Env env) {
        IntType t = exprs.randomType();
        ArrayVar a = wholeArray(env, false, t, ArrayVar.Fill.uniform(exprs.interestingValue(t)));
        if (a == null) return assign(env);
        int b = rng.chance(policy.pMemsetZero()) ? 0 : rng.pick(List.of(0xff, 0x01, 0x7f, 0x80, rng.between(0, 255)));
        long splat = 0;
        for (int i = 0; i < 8; i++) splat = splat << 8 | b;
        long v = t == IntType.BOOL ? b & 1 : Arith.convert(splat, t);
        IntType lt = Arith.promote(t);
        return new Stmt.Assign(Exprs.subscript(a, inOrder(a, env)), null,
                Exprs.convertImplicitly(new Expr.Const(lt, Arith.convert(v, lt)), t));
    }

    /** {@code out[i][j] = in[i][j]} over whole rows of arrays of one type: a memcpy. */
    private Stmt memcpy(Env env) {
        IntType t = exprs.randomType();
        ArrayVar in = wholeArray(env, true, t, ArrayVar.Fill.uniform(exprs.interestingValue(t)));
        ArrayVar out = in == null ? null : wholeArray(env, false, t, ArrayVar.Fill.uniform(exprs.interestingValue(t)));
        if (out == null) return assign(env);
        return new Stmt.Assign(Exprs.subscript(out, inOrder(out, env)), null, Exprs.subscript(in, inOrder(in, env)));
    }

    /**
     * {@code if (d != 0) t = e op (x / d)} with {@code x} and {@code d} loop-invariant
     * inputs: the division can be hoisted only with its guard (LICM, GVN-PRE).
     */
    private Stmt guardedDivision(Env env) {
        IntType dt = exprs.randomType();
        long dv = exprs.interestingValue(dt);
        if (dv == 0) dv = 1;
        ScalarVar d = globals.newInput(dt, dv, rng.chance(policy.pParam()));
        Valued divisor = Valued.constant(new Expr.ScalarRef(d), dv);
        Valued x = exprs.expr(rng.between(0, sp.maxDividendDepth()), env.loopInvariant());
        Valued q = ub.binary(rng.chance(policy.pGuardedDiv()) ? BinOp.DIV : BinOp.REM, x, divisor, env.mask());
        Valued e = exprs.expr(env);
        Valued value = ub.binary(guardedDivOps.pick(rng), e, q, env.mask());
        Expr guard = Exprs.binary(BinOp.NE, new Expr.ScalarRef(d), new Expr.Const(IntType.INT, 0));
        Expr target = target(env);
        Stmt store = store(target, value);
        return new Stmt.If(guard, new Stmt.Block(List.of(store)), null);
    }

    /**
     * {@code if (x == y) t = (x op r) op2 (y op r)} with inputs x and y equal: under the
     * test, GVN may see the two halves as one value (equality propagation).
     */
    private Stmt redundantUnderEquality(Env env) {
        IntType xt = exprs.randomType();
        ScalarVar x = exprs.newInput(xt);
        ScalarVar y = globals.newInput(xt, x.initValue(), rng.chance(policy.pParam()));
        Valued r = exprs.expr(rng.between(sp.minRedundantDepth(), sp.maxRedundantDepth()), env);
        Valued xv = Valued.constant(new Expr.ScalarRef(x), x.initValue());
        Valued left = ub.binary(redundantOps.pick(rng), xv, r, env.mask());
        Expr.Binary lb = (Expr.Binary) left.expr();
        // The same operator over y: y holds x's value, so the values (and UB-freedom) are the same.
        Valued right = new Valued(Exprs.binary(lb.op(), new Expr.ScalarRef(y), r.expr()), left.values().clone());
        Valued value = ub.binary(redundantCombineOps.pick(rng), left, right, env.mask());
        Expr target = target(env);
        Stmt store = store(target, value);
        Expr cond = Exprs.binary(BinOp.EQ, new Expr.ScalarRef(x), new Expr.ScalarRef(y));
        return new Stmt.If(cond, new Stmt.Block(List.of(store)), null);
    }

    /**
     * {@code p[..] = f(q[..])} where p and q are views of one array at a known offset, walked
     * in order by the loops in scope: through the overlap, one iteration may read what
     * another wrote. The value read through q is not known while building, so it feeds only
     * an operation defined for every value: unsigned arithmetic or a bitwise operator (after
     * a cast to unsigned int or unsigned long long, which no promotion turns signed), a
     * comparison, or nothing (a memmove).
     */
    private Stmt aliasedUpdate(Env env) {
        List<LoopInfo> loops = env.loops();
        if (loops.isEmpty() || !rng.chance(policy.pArray())) return assign(env);
        List<Integer> dims = inOrderDims(env);
        ArrayVar[] views = null;
        for (ArrayVar[] pair : globals.viewPairs) {
            if (pair[0].dims().equals(dims) && rng.chance(sp.pReuseViews())) views = pair;
        }
        if (views == null) {
            // What is read through a view is unknown: a portable program stores it only to unsigned elements.
            IntType t = ub.portable() ? exprs.randomType().toUnsigned() : exprs.randomType();
            views = globals.newViews(t, dims, viewOffset(), rng.chance(sp.pFirstViewAhead()), ArrayVar.Fill.uniform(exprs.interestingValue(t)));
            if (views == null) return assign(env);
        }
        boolean flip = rng.chance(sp.pFlipViews());
        ArrayVar out = views[flip ? 1 : 0];
        ArrayVar in = views[flip ? 0 : 1];
        List<Expr> idx = inOrder(out, env);
        Expr read = Exprs.subscript(in, rng.chance(policy.pSameSubscript()) ? idx : exprs.subscripts(in, env, false));
        return new Stmt.Assign(Exprs.subscript(out, idx), null, Exprs.convertImplicitly(fromUnknown(read, env), out.base()));
    }

    /**
     * A value made from {@code read}, an element whose value fleshing does not know (stored
     * through another view, or by an earlier iteration): the element itself, a comparison
     * of it, or unsigned arithmetic on it (policy aliased_form_weights), each defined
     * whatever it holds.
     */
    private Expr fromUnknown(Expr read, Env env) {
        String form = aliasedForms.roll(rng);
        if (form.equals("copy")) return read;
        if (form.equals("compare")) return Exprs.binary(aliasedCompareOps.pick(rng), read, exprs.expr(env).expr());
        IntType u = rng.pick(List.of(IntType.UINT, IntType.ULLONG));
        Expr other = Exprs.cast(exprs.expr(env).expr(), u);
        Expr mine = Exprs.cast(read, u);
        BinOp op = aliasedArithOps.pick(rng);
        return rng.chance(sp.pReadFirst()) ? Exprs.binary(op, mine, other) : Exprs.binary(op, other, mine);
    }

    /**
     * {@code r[..][i + s] = f(r[..][i])} along the innermost loop, which steps by {@code s}
     * ({@code r[..][i] = f(r[..][i + s])} counting down), over a new output array of its own
     * walked in order by the loops in scope: every iteration reads the element the one before
     * it stored. A dependence through memory one iteration long, which no vector covers: the
     * part of a loop LoopDistribute isolates so that the rest can be vectorized. Another
     * store when the loop cannot index such an array or none fits.
     */
    private Stmt recurrence(Env env) {
        List<LoopInfo> loops = env.loops();
        if (loops.isEmpty()) return assign(env);
        IterationSpace space = env.innermost().space();
        if (space.trip() <= 0 || space.max() + space.step() >= Integer.MAX_VALUE
                || loops.stream().anyMatch(l -> l.space().min() < 0)) return assign(env);
        List<Integer> dims = inOrderDims(env);
        int rank = dims.size();
        dims.set(rank - 1, dims.get(rank - 1) + (int) space.step());
        // What an earlier iteration stored is unknown: a portable program stores it only to unsigned elements.
        IntType t = ub.portable() ? exprs.randomType().toUnsigned() : exprs.randomType();
        ArrayVar r = globals.newPrivateArray(false, t, dims, ArrayVar.Fill.uniform(exprs.interestingValue(t)));
        if (r == null) return assign(env);
        List<Expr> at = inOrder(r, env);
        List<Expr> ahead = new ArrayList<>(at);
        ahead.set(rank - 1, Exprs.binary(BinOp.ADD, at.get(rank - 1), new Expr.Const(IntType.INT, space.step())));
        List<Expr> written = space.up() ? ahead : at;
        List<Expr> read = space.up() ? at : ahead;
        return new Stmt.Assign(Exprs.subscript(r, written), null,
                Exprs.convertImplicitly(fromUnknown(Exprs.subscript(r, read), env), t));
    }

    /** Rows between two views: often small (a dependence shorter than a vector), sometimes a vector width or more. */
    private int viewOffset() {
        return rng.chance(policy.pNearViews()) ? rng.between(0, sp.maxNearViewOffset()) : rng.pick(sp.farViewOffsets());
    }

    private Stmt ifStmt(Shape.IfShape s, Env env) {
        Valued cond = switch (s.cond()) {
            case PARITY -> env.split() != null ? exprs.parityCondition(env) : exprs.expr(env);
            case INVARIANT -> exprs.expr(env.loopInvariant());
            default -> exprs.expr(env);
        };
        int t = cond.truthMask(env.mask());
        // A loop in a branch that never runs does no work: steer the test so that it runs.
        boolean thenLoops = Shape.hasLoop(s.then());
        boolean elseLoops = s.otherwise() != null && Shape.hasLoop(s.otherwise());
        if (thenLoops != elseLoops && rng.chance(policy.pEnterLoops())) {
            boolean runs = thenLoops ? t != 0 : (env.mask() & ~t) != 0;
            if (!runs) {
                cond = ub.unary(UnOp.LNOT, cond, env.mask());
                t = cond.truthMask(env.mask());
            }
        }
        // A branch no context takes is still built against the full mask: dead code stays UB-free too.
        // In an eager (ISPC) program every branch is: a varying if runs each branch with the lanes
        // that do not take it masked off, which must not divide by zero either.
        int thenMask = t == 0 || ub.eager() ? env.mask() : t;
        int elseMask = (env.mask() & ~t) == 0 || ub.eager() ? env.mask() : env.mask() & ~t;
        Stmt.Block then = block(s.then(), env.withMask(thenMask));
        Stmt.Block otherwise = s.otherwise() == null ? null : block(s.otherwise(), env.withMask(elseMask));
        return new Stmt.If(cond.expr(), then, otherwise);
    }

    // ---- loops ----------------------------------------------------------------------

    /** A loop header's space with the expressions that spell its start, bound and step. */
    private record Bounds(IterationSpace space, Expr start, Expr bound, Expr step) {}

    /** A fleshed nest with the bounds of its levels, which the next nests of a shared-space sequence reuse. */
    private record BuiltNest(Stmt.LoopNest nest, List<Bounds> bounds) {}

    private BuiltNest nest(Shape.Nest n, Env env, List<Bounds> shared) {
        List<Bounds> bounds = new ArrayList<>();
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
                bounds.add(idiom ? idiomBounds(trip, plan.halo()) : bounds(split, trip));
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
        int carriedBefore = carriedStatements;
        Stmt.Block body = block(n.body(), cur);
        boolean carries = carriedStatements != carriedBefore;
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
                    new LoopHead(it, Exprs.convertImplicitly(b.start(), it.type()), cond, update, b.space().trip(),
                            LoopHead.Parallelism.SERIAL),
                    prefixes.get(l), suffixes[l]));
        }
        Stmt.LoopNest plainNest = new Stmt.LoopNest(levels, body);
        ExitPolicy xp = policy.exits();
        // A distributable nest keeps the one exit LoopDistribute needs.
        boolean oneExit = n.distributable();
        if (!oneExit && xp.pExit() > 0 && rng.chance(xp.pExit())) plainNest = withExit(plainNest, bounds, carries);
        if (n == returnNest && !oneExit) plainNest = withReturn(plainNest, bounds);
        // Data parallelism can only be decided once the whole nest is known.
        Stmt.LoopNest built = DataParallelism.markKeepingPromises(plainNest.withPragma(plan.pragma()));
        // Forms only once parallelism is known: gang and parallel_for levels keep theirs.
        if (xp.pWhile() > 0 || xp.pDoWhile() > 0) built = LoopForms.choose(built, xp, rng);
        return new BuiltNest(built.withIdiom(plan.idiom()), bounds);
    }

    /**
     * {@code n} with an early exit in one level: {@code if (s[i] == K)} then {@code break},
     * {@code continue}, or {@code found = i; break} (a search), over a new input array {@code
     * s} indexed by the level's iterator that holds {@code K} at the element of the planned
     * iteration only (or nowhere: the exit never fires). {@code n} as it is when no array fits.
     * With {@code carries} (the body holds a carried-scalar statement) a search, which would
     * replace the body, is a find instead.
     */
    private Stmt.LoopNest withExit(Stmt.LoopNest n, List<Bounds> bounds, boolean carries) {
        ExitPolicy xp = policy.exits();
        int l = rng.chance(xp.pInnermost()) ? n.depth() - 1 : rng.between(0, n.depth() - 1);
        String kind = rng.weighted(xp.kindWeights());
        // A search is the innermost loop's only statement: a loop that only loads and leaves.
        // A body that carries a scalar is kept: a search there becomes a find.
        if (kind.equals("search") && carries) kind = "find";
        boolean search = kind.equals("search");
        if (search) l = n.depth() - 1;
        Iterator it = n.levels().get(l).head().iter();
        Expr iter = new Expr.IterRef(it);
        Expr cond = sentinelTest(bounds.get(l).space(), iter);
        if (cond == null) return n;
        List<Stmt> then = new ArrayList<>();
        if (kind.equals("find") || search) {
            // The index found, in the iterator's type; the output keeps its start value when nothing is found.
            ScalarVar found = globals.newAccumulator(it.type(), exprs.interestingValue(it.type()));
            then.add(new Stmt.Assign(new Expr.ScalarRef(found), null, iter));
        }
        then.add(new Stmt.Exit(kind.equals("continue") ? Stmt.Exit.Kind.CONTINUE : Stmt.Exit.Kind.BREAK));
        Stmt exit = new Stmt.If(cond, new Stmt.Block(then), null);
        boolean before = kind.equals("continue") || rng.chance(xp.pBefore());

        List<Stmt.LoopLevel> levels = new ArrayList<>(n.levels());
        Stmt.Block body = n.body();
        Stmt.LoopLevel lv = levels.get(l);
        if (search) {
            body = new Stmt.Block(List.of(exit));
        } else if (l == n.depth() - 1) {
            body = with(body, exit, before);
        } else if (before) {
            levels.set(l, new Stmt.LoopLevel(lv.head(), with(lv.prefix(), exit, true), lv.suffix()));
        } else {
            levels.set(l, new Stmt.LoopLevel(lv.head(), lv.prefix(), with(lv.suffix(), exit, false)));
        }
        return new Stmt.LoopNest(levels, body, n.pragma(), n.idiom());
    }

    /**
     * {@code s[iter] == K} over a new input array {@code s} of the exit's own, one value
     * everywhere but {@code K} at the element of the iteration of {@code space} that the
     * policy's position draws (first, one in the middle, last, or none); null when the space
     * cannot index such an array or no array fits.
     */
    private Expr sentinelTest(IterationSpace space, Expr iter) {
        if (space.trip() <= 0 || space.min() < 0 || space.max() >= Integer.MAX_VALUE) return null;
        String position = rng.weighted(policy.exits().positionWeights());
        int t = switch (position) {
            case "first" -> 0;
            case "middle" -> space.trip() < 3 ? 0 : rng.between(1, space.trip() - 2);
            case "last" -> space.trip() - 1;
            default -> -1;
        };
        long fill = rng.between(-100, 100);
        long sentinel = fill + rng.between(1, 100);
        ArrayVar s = globals.newSentinelArray(IntType.INT, List.of((int) space.max() + 1),
                t < 0 ? ArrayVar.Fill.uniform(fill) : ArrayVar.Fill.planted(fill, space.at(t), sentinel));
        if (s == null) return null;
        return Exprs.binary(BinOp.EQ, Exprs.subscript(s, List.of(iter)), new Expr.Const(IntType.INT, sentinel));
    }

    /**
     * {@code n} with {@code if (s[j] == K) return;} in level {@code l}'s prefix, suffix or
     * (innermost) body, where {@code j} is the iterator of level {@code l} or of a level around
     * it, and {@code s} an input array of its own that holds {@code K} at the element of the
     * planned iteration of that level only (or nowhere). The return leaves {@code test()} the
     * first time it is reached there: indexed by an outer level, after that level's earlier
     * iterations have run whole. Only the test's last statement gets one ({@link Stmt.Exit}); every
     * level it leaves is then serial ({@link Stmt.LoopNest#breaksOut}). {@code n} as it is
     * when no array fits.
     */
    private Stmt.LoopNest withReturn(Stmt.LoopNest n, List<Bounds> bounds) {
        ExitPolicy xp = policy.exits();
        int l = rng.chance(xp.pInnermost()) ? n.depth() - 1 : rng.between(0, n.depth() - 1);
        int by = rng.between(0, l);
        Expr cond = sentinelTest(bounds.get(by).space(), new Expr.IterRef(n.levels().get(by).head().iter()));
        if (cond == null) return n;
        Stmt exit = new Stmt.If(cond, new Stmt.Block(List.of(new Stmt.Exit(Stmt.Exit.Kind.RETURN))), null);
        boolean before = rng.chance(xp.pBefore());
        List<Stmt.LoopLevel> levels = new ArrayList<>(n.levels());
        Stmt.Block body = n.body();
        Stmt.LoopLevel lv = levels.get(l);
        if (l == n.depth() - 1) {
            body = with(body, exit, before);
        } else if (before) {
            levels.set(l, new Stmt.LoopLevel(lv.head(), with(lv.prefix(), exit, true), lv.suffix()));
        } else {
            levels.set(l, new Stmt.LoopLevel(lv.head(), lv.prefix(), with(lv.suffix(), exit, false)));
        }
        return new Stmt.LoopNest(levels, body, n.pragma(), n.idiom());
    }

    // ---- scalars carried across iterations (policy carried:) --------------------------

    /**
     * A statement that carries a scalar from one iteration of the innermost loop around it to
     * the next, over data of input arrays of its own ({@link ArrayVar.Fill#varied}) indexed by
     * that loop's iterator: find-last, min or max with its index, a conditional assignment, or
     * a first-order recurrence. Every value is small (the data span a few dozen values around
     * zero, constants are at most 100), so no operation can overflow, whatever the data; the
     * carried scalars are read by nothing else. The statement assigns scalars, so no loop
     * around it is data-parallel ({@link DataParallelism}). A plain assignment when no loop
     * fits (an iterator below 0, or an array over the budget).
     */
    private Stmt carried(Env env) {
        carriedStatements++;
        CarriedPolicy cp = policy.carried();
        LoopInfo loop = env.innermost();
        if (loop == null || loop.space().min() < 0 || loop.space().max() >= 1 << 24) return assign(env);
        IntType t = rng.weighted(ExprBuilder.byType(cp.typeWeights()));
        ArrayVar d = dataArray(t, loop);
        if (d == null) return assign(env);
        Expr iter = new Expr.IterRef(loop.iter());
        IntType it = loop.iter().type();
        Expr elem = Exprs.subscript(d, List.of(iter));
        boolean select = rng.weighted(cp.formWeights()).equals("select");
        String kind = rng.weighted(cp.kindWeights());
        switch (kind) {
            case "find_last" -> {
                Expr cond = dataTest(d, elem);
                ScalarVar idx = carrier(it, indexStart(it));
                return update(cond, idx, iter, select);
            }
            case "min_max_index" -> {
                BinOp cmp = op(rng.weighted(cp.minMaxCmpWeights()));
                boolean min = cmp == BinOp.LT || cmp == BinOp.LE;
                long best = rng.chance(0.5) ? (min ? t.max() : t.min()) : rng.between((int) d.fill().even() - 1, (int) (d.fill().even() + d.fill().span()));
                ScalarVar m = carrier(t, best);
                ScalarVar idx = carrier(it, indexStart(it));
                Expr cond = Exprs.binary(cmp, elem, new Expr.ScalarRef(m));
                if (select) {
                    // The index first: both tests read the best value of the iterations before.
                    return new Stmt.Block(List.of(update(cond, idx, iter, true), update(cond, m, elem, true)));
                }
                return new Stmt.If(cond, new Stmt.Block(List.of(set(m, elem), set(idx, iter))), null);
            }
            case "cond_assign" -> {
                Expr cond = dataTest(d, elem);
                ArrayVar e = rng.chance(0.5) ? dataArray(t, loop) : null;
                Expr from = e == null ? elem : Exprs.subscript(e, List.of(iter));
                IntType pt = Arith.promote(t);
                String opName = rng.pick(List.of("add", "sub", "bxor", "none"));
                Expr value = opName.equals("none") ? Exprs.convertImplicitly(from, pt)
                        : Exprs.binary(op(opName), from, new Expr.Const(pt, rng.between(0, 100)));
                ScalarVar s = carrier(value.type(), exprs.interestingValue(value.type()));
                return update(cond, s, value, select);
            }
            default -> {
                // out[i] = d[i] op prev; prev = d[i];
                BinOp op = op(rng.weighted(cp.recurrenceOpWeights()));
                long start = rng.between((int) d.fill().even(), (int) (d.fill().even() + d.fill().span() - 1));
                ScalarVar prev = carrier(t, start);
                Expr value = Exprs.binary(op, elem, new Expr.ScalarRef(prev));
                ArrayVar out = globals.newPrivateArray(false, value.type(), List.of((int) loop.space().max() + 1),
                        ArrayVar.Fill.uniform(exprs.interestingValue(value.type())));
                if (out == null) return set(prev, elem);
                Stmt store = new Stmt.Assign(Exprs.subscript(out, List.of(iter)), null, value);
                return new Stmt.Block(List.of(store, set(prev, elem)));
            }
        }
    }

    /**
     * A new input array of type {@code t} walked by {@code loop}'s iterator, holding values
     * that change from element to element: from a base near zero (at least 1 when unsigned)
     * over at most {@code carried: max_span} values.
     */
    private ArrayVar dataArray(IntType t, LoopInfo loop) {
        long base = t.signed ? rng.between(-100, 100) : rng.between(1, 200);
        int span = rng.between(2, policy.carried().maxSpan());
        ArrayVar.Fill fill = ArrayVar.Fill.varied(base, rng.between(1, 997), rng.between(0, span - 1), span);
        return globals.newSentinelArray(t, List.of((int) loop.space().max() + 1), fill);
    }

    /** {@code d[i] cmp K}, K in or just outside the data's range: true on some elements, all, or none. */
    private Expr dataTest(ArrayVar d, Expr elem) {
        BinOp cmp = op(rng.weighted(policy.carried().condCmpWeights()));
        long k = rng.between((int) d.fill().even() - 1, (int) (d.fill().even() + d.fill().span()));
        IntType kt = Arith.promote(d.base());
        return Exprs.binary(cmp, elem, new Expr.Const(kt, Arith.convert(k, kt)));
    }

    /** Where an index starts before anything is found: -1 in its type, or a value of interest. */
    private long indexStart(IntType t) {
        return rng.chance(0.5) ? Arith.convert(-1, t) : exprs.interestingValue(t);
    }

    /**
     * A carried scalar of type {@code t} starting at {@code start}: a local declared before the
     * nest and stored to a new output after it (policy {@code p_local}), or a new output.
     * Either way nothing else reads or writes it.
     */
    private ScalarVar carrier(IntType t, long start) {
        long init = Arith.convert(start, t);
        if (carriers == null || !rng.chance(policy.carried().pLocal())) return globals.newAccumulator(t, init);
        ScalarVar v = globals.newLocal(t);
        IntType lt = Arith.promote(t);
        carriers.before.add(new Stmt.LocalDecl(v, Exprs.convertImplicitly(new Expr.Const(lt, Arith.convert(init, lt)), t)));
        ScalarVar out = globals.newAccumulator(t, exprs.interestingValue(t));
        carriers.after.add(set(out, new Expr.ScalarRef(v)));
        return v;
    }

    /** {@code v = value}, converted to {@code v}'s type. */
    private static Stmt.Assign set(ScalarVar v, Expr value) {
        return new Stmt.Assign(new Expr.ScalarRef(v), null, Exprs.convertImplicitly(value, v.base()));
    }

    /** {@code if (cond) v = value;} or, as a select, {@code v = cond ? value : v;}. */
    private static Stmt update(Expr cond, ScalarVar v, Expr value, boolean select) {
        if (select) return set(v, Exprs.ternary(cond, value, new Expr.ScalarRef(v)));
        return new Stmt.If(cond, new Stmt.Block(List.of(set(v, value))), null);
    }

    private static Stmt.Block with(Stmt.Block b, Stmt s, boolean first) {
        List<Stmt> ss = new ArrayList<>(b.stmts());
        ss.add(first ? 0 : ss.size(), s);
        return new Stmt.Block(ss);
    }

    /** Decides an iteration space around the planned trip count and spells its bounds. */
    private Bounds bounds(boolean split, int trip) {
        int step = rng.chance(policy.pUnitStep()) ? 1 : rng.between(1, policy.maxStep());
        if (split && step % 2 == 0) step -= 1;
        IntType type = iteratorTypes.get();
        boolean up = !rng.chance(policy.pCountDown());
        IterationSpace space = up ? upward(type, trip, step) : downward(type, trip, step);
        // Narrow iterators must not wrap when stepping past the last value.
        if (space.max() + step > type.max()) {
            space = new IterationSpace(IntType.INT, space.first(), space.step(), space.trip(), space.up(), space.cmp(), space.bound());
        }
        IntType litType = Arith.promote(space.type());
        return new Bounds(space, spell(space.first(), litType), spell(space.bound(), litType), spell(step, litType));
    }

    /**
     * The space of an idiom nest's loop: upward by 1 from {@code halo} (the reach of a
     * stencil, else 0), with an idiom trip count in the innermost loop, so that arrays are
     * walked contiguously over whole rows.
     */
    private Bounds idiomBounds(int trip, int halo) {
        // Iterators as wide as an index usually is, so no wrap-around hides the trip count.
        IntType type = idiomIteratorTypes.get();
        long last = halo + trip - 1L;
        // An empty loop cannot say i <= halo - 1: with halo 0 and an unsigned iterator that never fails.
        BinOp cmp = trip == 0 ? rng.pick(emptyIdiomCmps) : idiomCmps.pick(rng);
        long bound = cmp == BinOp.LE ? last : last + 1;
        IterationSpace space = new IterationSpace(type, halo, 1, trip, true, cmp, bound);
        IntType litType = Arith.promote(type);
        // i <= n with n opaque could be i <= UINT_MAX, an endless loop to the compiler: keep it constant.
        Expr boundExpr = cmp == BinOp.LE ? new Expr.Const(litType, bound) : spell(bound, litType);
        return new Bounds(space, spell(halo, litType), boundExpr, new Expr.Const(litType, 1));
    }

    private IterationSpace upward(IntType type, int trip, int step) {
        // An empty loop starts a step up, so that its bound, a step below, is not negative.
        long first = rng.between(0, lp.maxStart()) + (trip == 0 ? step : 0);
        long last = first + (long) (trip - 1) * step;
        BinOp cmp = upCmps.pick(rng);
        long bound = switch (cmp) {
            case LT -> last + rng.between(1, step);
            case LE -> last + rng.between(0, step - 1);
            default -> last + step;
        };
        return new IterationSpace(type, first, step, trip, true, cmp, bound);
    }

    private IterationSpace downward(IntType type, int trip, int step) {
        // The lowest value stays >= step, so stepping below it never wraps an unsigned iterator.
        long lowest = rng.between(step, step + lp.maxLowMargin());
        long first = lowest + (long) (trip - 1) * step;
        BinOp cmp = downCmps.pick(rng);
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
        if (rng.chance(lp.pOpaqueOffset())) {
            // Bounds are small and non-negative, so input = value - k fits every candidate type.
            long k = rng.between(1, lp.maxOpaqueOffset());
            boolean plus = value - k >= 0 && rng.chance(lp.pOpaquePlus());
            ScalarVar v = globals.newInput(vt, plus ? value - k : value + k, rng.chance(policy.pParam()));
            Valued sum = ub.tryBinary(plus ? BinOp.ADD : BinOp.SUB,
                    Valued.constant(new Expr.ScalarRef(v), v.initValue()),
                    Valued.constant(new Expr.Const(IntType.INT, k), k), Valued.BOTH);
            if (sum == null || sum.values()[0] != value) throw new IllegalStateException("bound " + value + " misspelt");
            return sum.expr();
        }
        for (ScalarVar v : globals.inputs) {
            if (v.base() == vt && v.initValue() == value && rng.chance(lp.pReuseBoundInput())) return new Expr.ScalarRef(v);
        }
        return new Expr.ScalarRef(globals.newInput(vt, value, rng.chance(policy.pParam())));
    }
}
