package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.List;

/**
 * What the statement forms of one program's fleshing share: the policy, the program's one
 * random source, its symbol table, the expression builder and the UB guard, and the
 * services more than one form needs (an output to store to, a plain assignment to fall back
 * on, arrays walked in order). A form receives this rather than reaching into {@link Flesher}.
 */
final class Fleshing {
    final GenPolicy policy;
    final Rng rng;
    final Globals globals;
    final UbGuard ub;
    final ExprBuilder exprs;
    /** Statements and integer leaves in floating point (policy floats:). */
    final FloatStatements floats;
    /** A C or C++ program: bit-fields, locals that copy a struct. */
    final boolean cFamily;
    /** A SYCL program: see {@link Flesher#flesh(dev.yarpj.skeleton.Skeleton, GenPolicy, Rng, boolean, boolean, boolean)}. */
    final boolean kernels;
    /** Of the innermost nest or sequence being fleshed; null outside any (set by {@link Flesher}'s walk). */
    Carriers carriers;

    /**
     * @param eager   every operand of ?:, && and || may be evaluated (an ISPC program), see
     *                {@link UbGuard#eager}
     * @param cFamily a C or C++ program, which may have what the others do not yet: bit-fields,
     *                locals that copy a struct (not ispc; not SYCL, whose kernels keep top-level
     *                locals in device cells of scalars)
     */
    Fleshing(GenPolicy policy, Rng rng, boolean eager, boolean cFamily) {
        this(policy, rng, eager, cFamily, false);
    }

    Fleshing(GenPolicy policy, Rng rng, boolean eager, boolean cFamily, boolean kernels) {
        this.policy = policy;
        this.rng = rng;
        this.cFamily = cFamily;
        this.kernels = kernels;
        StructFields fields = new StructFields(policy.structs(), rng, cFamily);
        this.globals = new Globals(policy.maxArrayBytes(), (dims, input, elem, fill) -> rng.chance(policy.pArrayParam())
                ? new ArrayVar.Passing.Pointer(rng.chance(policy.pRestrict()))
                : fields.place(dims, input, elem, fill));
        this.ub = new UbGuard(!policy.allowImplDefined(), eager);
        this.exprs = new ExprBuilder(policy, rng, globals, ub);
        this.floats = new FloatStatements(this);
        exprs.integersFromFloats(floats);
    }

    /** A binary operator by its policy name, as in op_weights (add, bxor, lt, ...). */
    static BinOp op(String name) {
        return BinOp.valueOf(name.toUpperCase());
    }

    /**
     * Locals that the nest (or sequence) being fleshed carries across iterations: declared
     * before it, stored to their outputs after it. The statement is the loops alone when
     * there are none, else a block of the three.
     */
    static final class Carriers {
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

    /**
     * A scalar of type {@code t} starting at {@code start} that the loops carry and nothing else
     * touches: where {@code local} says so (asked only inside a nest), a local declared before
     * the nest and stored to a new output after it; else a new output.
     */
    ScalarVar carried(NumType t, long start, java.util.function.BooleanSupplier local) {
        return carried(t, Arith.convert(start, t), local, globals::newAccumulator, () -> exprs.interestingValue(t));
    }

    /**
     * As {@link #carried(NumType, long, java.util.function.BooleanSupplier)}, with the output
     * made by {@code output} (the integer or the floating accumulators) from a type and an
     * initial value: {@code init} for an output the loops update themselves, {@code
     * outputInit}'s for the one a local is stored to after the nest.
     */
    ScalarVar carried(NumType t, long init, java.util.function.BooleanSupplier local,
                      java.util.function.BiFunction<NumType, Long, ScalarVar> output, java.util.function.LongSupplier outputInit) {
        if (carriers == null || !local.getAsBoolean()) return output.apply(t, init);
        ScalarVar v = globals.newLocal(t);
        NumType lt = Arith.promote(t);
        carriers.before.add(new Stmt.LocalDecl(v, Exprs.convertImplicitly(new Expr.Const(lt, Arith.convert(init, lt)), t)));
        ScalarVar out = output.apply(t, outputInit.getAsLong());
        carriers.after.add(new Stmt.Assign(new Expr.ScalarRef(out), null, Exprs.convertImplicitly(new Expr.ScalarRef(v), t)));
        return v;
    }

    // ---- outputs ----------------------------------------------------------------------

    /** An output to write: an element of an output array (usual inside loops) or an output scalar. */
    Expr target(Env env) {
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
    Stmt.Assign store(Expr target, Valued value) {
        Valued v = ub.fitted(value, target.type(), Valued.BOTH);
        return new Stmt.Assign(target, null, Exprs.convertImplicitly(v.expr(), target.type()));
    }

    /** {@code target = e}: the plain assignment, and what a form falls back on when its idiom does not fit. */
    Stmt assign(Env env) {
        Expr target = target(env);
        Valued value = exprs.expr(env);
        return store(target, value);
    }

    /**
     * An output array element walked by the loops in scope as the nest's access pattern
     * says (row-major in idiom nests: the innermost loop on the last dimension); an
     * existing array when one fits, else a new one; null when none fits the budget.
     */
    Expr.Subscript walkedOutput(Env env) {
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

    /** A walked output element, or any output when none can be walked (no arrays, or over budget). */
    Expr walkedOrAnyOutput(Env env) {
        Expr walked = walkedOutput(env);
        return walked != null ? walked : target(env);
    }

    // ---- arrays walked in order -------------------------------------------------------

    /**
     * A new array walked in order by the loops in scope, every dimension exactly as long as
     * its loop's space from 0: the whole array, contiguously (memset/memcpy).
     */
    ArrayVar wholeArray(Env env, boolean input, NumType t, ArrayVar.Fill fill) {
        return globals.newArray(input, t, inOrderDims(env), fill);
    }

    /**
     * The dimensions of a new array that {@link #inOrder} walks: one per innermost loop in
     * scope (at most max_array_rank), each as long as its loop's space from 0.
     */
    List<Integer> inOrderDims(Env env) {
        List<LoopInfo> loops = env.loops();
        int rank = Math.min(loops.size(), policy.maxArrayRank());
        List<Integer> dims = new ArrayList<>();
        for (int d = 0; d < rank; d++) dims.add((int) loops.get(loops.size() - rank + d).space().max() + 1);
        return dims;
    }

    /** The subscripts of {@code a} by the innermost loops in scope, one per dimension, in order. */
    List<Expr> inOrder(ArrayVar a, Env env) {
        List<LoopInfo> loops = env.loops();
        List<Expr> idx = new ArrayList<>();
        for (int d = 0; d < a.rank(); d++) idx.add(new Expr.IterRef(loops.get(loops.size() - a.rank() + d).iter()));
        return idx;
    }
}
