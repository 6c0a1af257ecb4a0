package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Helper;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.policy.FunctionPolicy;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Calls of helper functions in expressions (policy section {@code functions:}). A call either
 * defines a new helper, whose body is built for this call's argument values as any expression
 * is (so it is UB-free for them), or reuses one defined before, which it may only when the
 * body is defined for its own argument values too: that check is per call, on the call's
 * values in each context, with the same {@link Arith} rules the body was built with.
 *
 * <p>A body reads its parameters and constants and may call helpers defined before it, so
 * the call graph is acyclic and every helper is {@code const} in the C sense, or {@code pure}
 * when it takes a parameter by pointer: the call passes the address of an element of an input
 * array, which no code writes, and the body reads it. Such a parameter's value is the
 * element's, so the checks below treat it as any other; only a call that may read arrays
 * (not in a loop bound, not in a body) passes one.
 */
final class HelperCalls {
    private final FunctionPolicy p;
    private final Rng rng;
    private final Globals globals;
    private final UbGuard ub;
    private final ExprBuilder exprs;
    private final Rng.Odds<Helper.Linkage> linkages;
    /** The helpers defined so far, callees first. */
    private final List<Helper> helpers = new ArrayList<>();
    /** The input field each struct parameter's field reads, for later calls of its helper. */
    private final Map<ScalarVar, ArrayVar> fieldArrays = new HashMap<>();

    HelperCalls(GenPolicy policy, Rng rng, Globals globals, UbGuard ub, ExprBuilder exprs) {
        this.p = policy.functions();
        this.rng = rng;
        this.globals = globals;
        this.ub = ub;
        this.exprs = exprs;
        this.linkages = new Rng.Odds<>(p.linkageWeights(), k -> Helper.Linkage.valueOf(k.toUpperCase()));
    }

    /** Whether expressions may call helpers at all. */
    boolean on() {
        return p.pCall() > 0;
    }

    /** Every helper defined, callees before their callers. */
    List<Helper> helpers() {
        return List.copyOf(helpers);
    }

    /** A call at depth {@code depth}: of a helper defined before, or of a new one; null when neither can be here. */
    Valued call(int depth, Env env) {
        boolean full = helpers.size() >= p.maxHelpers();
        if (!helpers.isEmpty() && (full || rng.chance(p.pReuse()))) return reuse(depth, env);
        return full ? null : define(depth, env);
    }

    /** A call of a helper defined before, if its body is defined for this call's values. */
    private Valued reuse(int depth, Env env) {
        List<Helper> callable = callable(env);
        if (callable.isEmpty()) return null;
        Helper h = rng.pick(callable);
        List<Valued> args = new ArrayList<>();
        for (ScalarVar param : h.params()) {
            if (param.isField()) {
                Helper.StructParam g = h.structStartingAt(param);
                if (g == null) continue; // read with the struct's first field
                List<Valued> fields = exprs.fieldsOf(g.fields().stream().map(fieldArrays::get).toList(), env);
                if (fields == null) return null; // no element of the array of structs whose fields follow the context here
                args.addAll(fields);
                continue;
            }
            Valued a = param.byPointer() ? exprs.arrayRead(env, param.base(), param.indexed()) : argument(depth, env, param.base());
            if (a == null) return null; // no input array of the pointee's type: no call here
            args.add(a);
        }
        // Drawn only for a helper that returns a struct: with p_struct_result 0 there is none.
        int field = h.returnsStruct() ? rng.between(0, h.results().size() - 1) : 0;
        long[] values = new long[2];
        for (int c = 0; c < 2; c++) {
            if (!Valued.active(env.mask(), c)) continue;
            Map<Integer, Long> bound = new HashMap<>();
            for (int i = 0; i < args.size(); i++) bound.put(h.params().get(i).slot(), args.get(i).values()[c]);
            // Every result is computed, the fields the call does not read too: each must be defined.
            long[] results = results(h, bound);
            if (results == null) return null; // UB for this call's values: no call here
            values[c] = results[field];
        }
        return new Valued(Exprs.helperCall(h, args.stream().map(Valued::expr).toList(), field), values);
    }

    /** A call of a new helper, its body built for this call's argument values. */
    private Valued define(int depth, Env env) {
        // Drawn first: an extern helper's body calls only extern helpers, the second file defines them all.
        Helper.Linkage linkage = env.helper() == Helper.Linkage.EXTERN ? Helper.Linkage.EXTERN : linkages.roll(rng);
        int n = rng.between(1, p.maxParams());
        List<Valued> args = new ArrayList<>();
        List<ScalarVar> params = new ArrayList<>();
        List<Helper.StructParam> structs = new ArrayList<>();
        Scope scope = new Scope(null);
        for (int i = 0; i < n; i++) {
            // Drawn only when struct parameters are on: with p_struct 0 every seed gives the program it gave before them.
            List<Valued> fields = readsArrays(env) && p.pStruct() > 0 && rng.chance(p.pStruct()) ? structElement(env) : null;
            if (fields != null) {
                boolean byPointer = rng.chance(p.pPointer());
                String name = globals.newStructName();
                List<ScalarVar> fs = new ArrayList<>();
                for (Valued f : fields) {
                    ArrayVar field = ((Expr.Subscript) f.expr()).array();
                    ScalarVar v = globals.newFieldParameter(name, byPointer, field);
                    scope.declare(v, f.values().clone());
                    fieldArrays.put(v, field);
                    fs.add(v);
                }
                args.addAll(fields);
                params.addAll(fs);
                structs.add(new Helper.StructParam(name, ((Expr.Subscript) fields.get(0).expr()).array().field().type(), byPointer, fs));
                continue;
            }
            // Drawn only when pointers are on: with p_pointer 0 every seed gives the program it gave before them.
            Valued element = readsArrays(env) && p.pPointer() > 0 && rng.chance(p.pPointer()) ? exprs.arrayRead(env) : null;
            ArrayVar.Passing.Field of = element == null ? null : ((Expr.Subscript) element.expr()).array().field();
            if (of != null && of.bitField()) element = null; // a bit-field has no address: a value parameter instead
            if (element != null) {
                // Drawn only when array parameters are on; a field's row is no array of its elements.
                boolean indexed = p.pArrayParam() > 0 && rng.chance(p.pArrayParam()) && of == null;
                ScalarVar param = globals.newPointerParameter(element.expr().type(), indexed);
                scope.declare(param, element.values().clone());
                args.add(element);
                params.add(param);
                continue;
            }
            Valued a = exprs.expr(depth - 1, env);
            NumType t = rng.chance(p.pKeepType()) ? Arith.promote(a.expr().type()) : exprs.randomType();
            a = ub.convertImplicitly(ub.fitted(a, t, env.mask()), t);
            ScalarVar param = globals.newParameter(t);
            scope.declare(param, a.values().clone());
            args.add(a);
            params.add(param);
        }
        // Drawn only when struct results are on: with p_struct_result 0 every seed gives the program it gave before them.
        int fields = p.pStructResult() > 0 && rng.chance(p.pStructResult()) ? rng.between(2, p.maxResultFields()) : 1;
        Env inBody = env.helperBody(scope, linkage);
        List<Valued> results = new ArrayList<>();
        for (int k = 0; k < fields; k++) {
            Valued body = exprs.expr(rng.between(1, p.maxBodyDepth()), inBody);
            NumType result = rng.chance(p.pKeepType()) ? Arith.promote(body.expr().type()) : exprs.randomType();
            results.add(ub.convertImplicitly(ub.fitted(body, result, env.mask()), result));
        }
        String name = "fn_" + helpers.size();
        Helper h = new Helper(name, results.stream().map(Valued::expr).toList(), fields > 1 ? name + "_res" : null, params, linkage,
                rng.chance(p.pConst()), rng.chance(p.pSimd()), structs);
        helpers.add(h);
        int field = fields > 1 ? rng.between(0, fields - 1) : 0;
        return new Valued(Exprs.helperCall(h, args.stream().map(Valued::expr).toList(), field), results.get(field).values());
    }

    /**
     * The helpers a call here may call: in an extern helper's body, the extern ones (see {@link
     * Helper.Linkage#EXTERN}); where arrays may not be read, those that take no element.
     */
    private List<Helper> callable(Env env) {
        boolean reads = readsArrays(env);
        return helpers.stream()
                .filter(h -> env.helper() != Helper.Linkage.EXTERN || h.linkage() == Helper.Linkage.EXTERN)
                .filter(h -> reads || !h.takesElements())
                .toList();
    }

    /**
     * Reads of the input fields of one element of an array of structs: a field drawn from all
     * input fields, with each other input field of its struct by a coin (in field order); null
     * when there is none, or its element's fields do not follow the context here.
     */
    private List<Valued> structElement(Env env) {
        List<ArrayVar> all = globals.inputArrays.stream().filter(a -> a.field() != null).toList();
        if (all.isEmpty()) return null;
        ArrayVar anchor = rng.pick(all);
        List<ArrayVar> fields = new ArrayList<>(List.of(anchor));
        for (ArrayVar a : all) {
            if (a != anchor && a.field().structs().equals(anchor.field().structs()) && rng.chance(0.5)) fields.add(a);
        }
        List<ArrayVar> ordered = new ArrayList<>(fields.subList(1, fields.size()));
        ordered.sort(java.util.Comparator.comparingInt(a -> a.field().index()));
        ordered.add(0, anchor); // the anchor's subscripts are the access pattern's
        return exprs.fieldsOf(ordered, env);
    }

    /**
     * Whether a call here may pass an element by pointer: where an expression may read an
     * array (not in a loop-invariant context, which bounds and hoisted values are) and not in a
     * helper's body, which reads its parameters alone.
     */
    private boolean readsArrays(Env env) {
        return !env.inHelper() && !env.invariant();
    }

    /** An argument of type {@code t}: an expression converted to it (made to fit, in a portable program). */
    private Valued argument(int depth, Env env, NumType t) {
        Valued a = exprs.expr(depth - 1, env);
        return ub.convertImplicitly(ub.fitted(a, t, env.mask()), t);
    }

    /**
     * The values of a helper's results for the parameter values {@code bound} (by slot), or null
     * when any operation in them is undefined (or implementation-defined, in a portable program).
     * Every operand is evaluated, those of ?:, && and || too: a body is then defined whichever
     * way a compiler evaluates it, which is stricter than C needs and what ispc needs.
     */
    private long[] results(Helper h, Map<Integer, Long> bound) {
        try {
            return new Evaluator(bound).results(h);
        } catch (Undefined u) {
            return null;
        }
    }

    /** Thrown out of an evaluation at the first operation that is undefined. */
    private static final class Undefined extends RuntimeException {
        Undefined() {
            super(null, null, false, false);
        }
    }

    private final class Evaluator implements Expr.Visitor<Long> {
        private final Map<Integer, Long> bound;

        Evaluator(Map<Integer, Long> bound) {
            this.bound = bound;
        }

        @Override
        public Long constant(Expr.Const e) {
            return e.value();
        }

        @Override
        public Long scalar(Expr.ScalarRef e) {
            Long v = bound.get(e.var().slot());
            if (v == null) throw new IllegalStateException("a helper body reads " + e.var().name() + ", not a parameter");
            return v;
        }

        @Override
        public Long iter(Expr.IterRef e) {
            throw new IllegalStateException("a helper body reads an iterator");
        }

        @Override
        public Long unary(Expr.Unary e) {
            NumType t = e.operand().type();
            long x = e.operand().accept(this);
            if (Arith.unaryUb(e.op(), t, x) != null) throw new Undefined();
            return Arith.unary(e.op(), t, x);
        }

        @Override
        public Long binary(Expr.Binary e) {
            NumType lt = e.lhs().type();
            NumType rt = e.rhs().type();
            long x = e.lhs().accept(this);
            long y = e.rhs().accept(this);
            if (!e.op().isLogical()) {
                if (Arith.binaryUb(e.op(), lt, x, rt, y) != null) throw new Undefined();
                if (ub.portable() && Arith.binaryImplDefined(e.op(), lt, x)) throw new Undefined();
            }
            return Arith.binary(e.op(), lt, x, rt, y);
        }

        @Override
        public Long ternary(Expr.Ternary e) {
            long c = e.cond().accept(this);
            long a = e.then().accept(this);
            long b = e.otherwise().accept(this);
            return Arith.convert(c != 0 ? a : b, e.type());
        }

        @Override
        public Long cast(Expr.Cast e) {
            long v = e.operand().accept(this);
            if (ub.portable() && Arith.conversionImplDefined(v, e.operand().type(), e.type())) throw new Undefined();
            return Arith.convert(v, e.type());
        }

        @Override
        public Long subscript(Expr.Subscript e) {
            throw new IllegalStateException("a helper body reads an array");
        }

        @Override
        public Long call(Expr.Call e) {
            long[] args = new long[e.args().size()];
            for (int i = 0; i < args.length; i++) args[i] = e.args().get(i).accept(this);
            if (Arith.builtinUb(e.fn(), e.type(), args) != null) throw new Undefined();
            return Arith.builtin(e.fn(), e.type(), args);
        }

        /** Every result of {@code h}, each evaluated (the fields a call does not read too). */
        long[] results(Helper h) {
            long[] out = new long[h.results().size()];
            for (int k = 0; k < out.length; k++) out[k] = h.results().get(k).accept(this);
            return out;
        }

        @Override
        public Long helperCall(Expr.HelperCall e) {
            Map<Integer, Long> inner = new HashMap<>();
            for (int i = 0; i < e.args().size(); i++) inner.put(e.helper().params().get(i).slot(), e.args().get(i).accept(this));
            return new Evaluator(inner).results(e.helper())[e.field()];
        }

        @Override
        public Long stencil(Expr.Stencil e) {
            throw new IllegalStateException("a helper body reads an array");
        }
    }
}
