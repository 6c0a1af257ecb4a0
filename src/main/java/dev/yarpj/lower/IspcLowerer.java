package dev.yarpj.lower;

import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Arith;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ReductionOp;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.plan.IspcPlan;
import dev.yarpj.plan.IspcPlan.GangForm;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints a program as ISPC (YARPGen v2, sections 3.5 to 3.7): {@code func.ispc} holds the
 * exported {@code test}; the driver, init.h and {@code func.cpp} (the same program in C++, for
 * the cross-language check) come from {@link CFamilyLowerer}.
 *
 * <p>ISPC neither promotes small integers nor converts mixed operands as C does, and its
 * comparisons yield bool, so every conversion of the IR is printed as a cast and truth
 * values are converted to and from int where C would do it silently: the printed program
 * computes exactly what the IR says, as the C++ lowering does.
 *
 * <p>What runs in gangs, what is varying and which spellings are used is the program's
 * {@link IspcPlan}, made first; this class prints it. A gang loop's iteration space is
 * mapped onto an index range. A fold into an accumulator the gang loop does not index gets a
 * varying partial result, combined after the loop with {@code reduce_add}, {@code
 * reduce_min}, {@code reduce_max} or, for bitwise operators, {@code extract} over the lanes.
 */
final class IspcLowerer implements Lowerer {
    private final EmitPolicy.Ispc emit;
    private final Rng rng;
    private IspcPlan plan;
    /**
     * Count, per varying if, the times it ran with some lane on and the times its mask was
     * mixed (neither all on nor all off), and print the counts after the test: a build for
     * measurement only. It uses no randomness, so the program is otherwise the same.
     */
    private final boolean countMasks;
    /** Measured: per varying if, in order, "1" if a branch of it breaks or continues, else "0". */
    private final List<String> maskExits = new ArrayList<>();
    /** The varying partial result of each fold under the current gang loop. */
    private final Map<Stmt.Reduce, String> partials = new IdentityHashMap<>();
    private int gangDepth;
    private int fresh;
    private IspcStats stats = new IspcStats();

    private final ExprPrinter printer = new ExprPrinter() {
        @Override
        String type(NumType t) {
            return IspcLowerer.type(t);
        }

        @Override
        String literal(NumType t, long v) {
            return IspcLowerer.literal(t, v);
        }

        @Override
        boolean printsImplicitCasts() {
            return true;
        }

        @Override
        String minMax(boolean min, NumType t, String a, String b) {
            return (min ? "min(" : "max(") + a + ", " + b + ")";
        }

        @Override
        String mathCall(Builtin fn, NumType t, List<String> args) {
            return switch (fn) {
                case FMIN, FMAX -> minMax(fn == Builtin.FMIN, t, args.get(0), args.get(1));
                case SQRT -> "sqrt(" + args.get(0) + ")";
                case FABS -> "abs(" + args.get(0) + ")";
                // ispc's standard library has no fma: the product and sum it stands for, the
                // same value (FloatArith keeps both exact), which ispc may contract itself.
                case FMA -> "((" + args.get(0) + " * " + args.get(1) + ") + " + args.get(2) + ")";
                case MIN, MAX -> throw new IllegalArgumentException(fn + " is not the math library's");
            };
        }

        @Override
        String boolToInt(String boolExpr) {
            return "((int32) " + boolExpr + ")";
        }

        @Override
        String truth(Expr e) {
            Expr s = Exprs.stripImplicit(e);
            if (s == e && Exprs.isTruthValue(e)) return boolText(e);
            return "((bool) " + expr(e) + ")";
        }

        @Override
        String shiftAmount(Expr.Binary b) {
            // ISPC converts a shift's operands to a common type: give the amount (always
            // below the width) the left operand's type, so the result keeps that type.
            String r = expr(b.rhs());
            return b.rhs().type() == b.lhs().type() ? r : cast(b.lhs().type(), r);
        }

        @Override
        String ternary(Expr.Ternary t) {
            if (plan.select(t)) {
                stats.selects++;
                return "select(" + truth(t.cond()) + ", " + expr(t.then()) + ", " + expr(t.otherwise()) + ")";
            }
            return "(" + truth(t.cond()) + " ? " + expr(t.then()) + " : " + expr(t.otherwise()) + ")";
        }
    };

    IspcLowerer(EmitPolicy.Ispc emit, Rng rng, boolean countMasks) {
        this.emit = emit;
        this.rng = rng;
        this.countMasks = countMasks;
    }

    @Override
    public LoweredTest lower(Program p, Prediction expected, CheckMode check, String banner) {
        // Counts and names are per test, as CFamilyLowerer's helpers are.
        stats = new IspcStats();
        maskExits.clear();
        fresh = 0;
        plan = IspcPlan.of(p, emit, rng);
        LoweredTest cpp = new CFamilyLowerer(Language.CPP, true, false).lower(p, expected, check, banner);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("func.ispc", func(p, banner));
        files.putAll(cpp.files());
        Map<String, Integer> choices = new LinkedHashMap<>();
        for (GangForm f : GangForm.values()) choices.put("gang." + f.name().toLowerCase(), stats.gangs.getOrDefault(f, 0));
        choices.put("serial_parallel_loops", plan.serialParallelLoops());
        choices.put("partials", stats.partials);
        choices.put("varying_ifs", stats.varyingIfs);
        choices.put("lane_queries", stats.laneQueries);
        choices.put("selects", stats.selects);
        return new LoweredTest(files, choices);
    }

    // ---- func.ispc -------------------------------------------------------------------

    private String func(Program p, String banner) {
        CodeWriter w = new CodeWriter();
        w.line("/*");
        for (String s : banner.split("\n")) w.line(" * " + s);
        w.line(" */");
        for (ScalarVar v : p.inputs()) if (!v.isParam()) w.line("extern uniform " + type(v.base()) + " " + v.name() + ";");
        for (ScalarVar v : p.outputs()) w.line("extern uniform " + type(v.base()) + " " + v.name() + ";");
        for (ArrayVar a : p.inputArrays()) if (!a.isParam() && a.field() == null) w.line("extern " + arrayDecl(a) + ";");
        for (ArrayVar a : p.outputArrays()) if (!a.isParam() && a.field() == null) w.line("extern " + arrayDecl(a) + ";");
        // Arrays of structs: laid out as the C++ driver's (ispc lays out uniform structs as C does).
        for (dev.yarpj.ir.StructArray s : p.structArrays()) {
            w.open("struct " + s.type());
            for (ArrayVar f : s.fields()) w.line(type(f.base()) + " " + f.name() + ";");
            w.closeWith("};");
            StringBuilder d = new StringBuilder("extern uniform ").append(s.type()).append(' ').append(s.name());
            for (int n : s.dims()) d.append('[').append(n).append(']');
            w.line(d.append(';').toString());
        }
        List<String> ps = new ArrayList<>();
        List<String> args = new ArrayList<>();
        for (ScalarVar v : p.params()) {
            ps.add("uniform " + type(v.base()) + " " + v.name());
            args.add(v.name());
        }
        // ispc declares every pointer parameter noalias, so two views of one storage must not
        // both be parameters that the body uses: the first view of a storage is, and every other
        // view of it is derived from that one (the driver's argument for it goes unused).
        Map<ArrayVar, ArrayVar> anchors = new LinkedHashMap<>();
        List<String> derived = new ArrayList<>();
        for (ArrayVar a : p.arrayParams()) {
            ArrayVar anchor = anchors.putIfAbsent(a.storage(), a);
            if (anchor == null || !(a.passing() instanceof ArrayVar.Passing.View)) {
                ps.add(pointerDecl(a, a.name()));
                args.add(a.name());
                continue;
            }
            ps.add(pointerDecl(a, a.name() + "_unused"));
            args.add(a.name() + "_unused");
            String elem = "uniform " + type(a.base()) + " * uniform";
            long delta = a.storageOffset() - anchor.storageOffset();
            derived.add(pointerDecl(a, a.name()) + " = (" + pointerDecl(a, "") + ") (((" + elem + ") "
                    + anchor.name() + ") " + (delta < 0 ? "- " + -delta : "+ " + delta) + ");");
        }
        CodeWriter body = new CodeWriter();
        // Measured, the program is a function of its own that test() calls before it prints the
        // counts: a return would leave before them.
        body.open((countMasks ? "static void yarpj_measured_test(" : "export void test(") + String.join(", ", ps) + ")");
        for (String d : derived) body.line(d);
        for (Stmt s : p.body().stmts()) stmt(body, s);
        body.close();
        int ifs = stats.varyingIfs;
        if (countMasks) {
            body.open("export void test(" + String.join(", ", ps) + ")");
            body.line("yarpj_measured_test(" + String.join(", ", args) + ");");
            if (ifs > 0) {
                body.open("for (uniform int32 yarpj_q = 0; yarpj_q < " + ifs + "; yarpj_q++)");
                body.line("print(\"yarpj-mask % % % %\\n\", yarpj_q, yarpj_mask_runs[yarpj_q], yarpj_mask_mixed[yarpj_q], "
                        + "yarpj_mask_exit[yarpj_q]);");
                body.close();
            }
            body.close();
        }
        helperDefinitions(w, p);
        if (countMasks && ifs > 0) {
            w.line("static uniform int64 yarpj_mask_runs[" + ifs + "];");
            w.line("static uniform int64 yarpj_mask_mixed[" + ifs + "];");
            w.line("static const uniform int32 yarpj_mask_exit[" + ifs + "] = { " + String.join(", ", maskExits) + " };");
        }
        w.blank();
        w.raw(body.toString());
        return w.toString();
    }

    private static String arrayDecl(ArrayVar a) {
        StringBuilder sb = new StringBuilder("uniform ").append(type(a.base())).append(' ').append(a.name());
        for (int d : a.dims()) sb.append('[').append(d).append(']');
        return sb.toString();
    }

    /** A uniform pointer to uniform elements (to rows, for more than one dimension); without a name, its type. */
    private static String pointerDecl(ArrayVar a, String name) {
        StringBuilder sb = new StringBuilder("uniform ").append(type(a.base()));
        if (a.rank() == 1) return sb.append(" * uniform").append(name.isEmpty() ? "" : " " + name).toString();
        sb.append(" (* uniform").append(name.isEmpty() ? "" : " " + name).append(')');
        for (int d = 1; d < a.rank(); d++) sb.append('[').append(a.dims().get(d)).append(']');
        return sb.toString();
    }

    // ---- statements ------------------------------------------------------------------

    private void stmt(CodeWriter w, Stmt s) {
        s.accept(new Stmt.Visitor<Void>() {
            @Override
            public Void assign(Stmt.Assign a) {
                Expr value = a.compound() == null ? a.value()
                        // t op= v is t = (T)(t op v) with C's conversions: spelt out, as ISPC would do op in T.
                        : Exprs.convertImplicitly(Exprs.binary(a.compound(), a.target(), a.value()), a.target().type());
                w.line(expr(a.target()) + " = " + expr(value) + ";");
                return null;
            }

            @Override
            public Void reduce(Stmt.Reduce r) {
                String part = partials.get(r);
                if (part == null) {
                    stmt(w, r.asAssign());
                } else {
                    w.line(part + " = " + fold(r.op(), part, printer.cast(r.partialType(), expr(r.value()))) + ";");
                }
                return null;
            }

            @Override
            public Void localDecl(Stmt.LocalDecl d) {
                boolean v = plan.isVarying(d.init());
                w.line((v ? "varying " : "uniform ") + type(d.var().base()) + " " + d.var().name() + " = " + expr(d.init()) + ";");
                return null;
            }

            @Override
            public Void ifStmt(Stmt.If i) {
                IspcLowerer.this.ifStmt(w, i);
                return null;
            }

            @Override
            public Void switchStmt(Stmt.Switch s) {
                CStatements.switchStmt(w, s, printer, t -> stmt(w, t));
                return null;
            }

            @Override
            public Void deadBranch(Stmt.DeadBranch d) {
                IspcLowerer.this.ifStmt(w, new Stmt.If(d.cond(), d.body(), null));
                return null;
            }

            @Override
            public Void block(Stmt.Block b) {
                w.open("");
                for (Stmt t : b.stmts()) stmt(w, t);
                w.close();
                return null;
            }

            @Override
            public Void loopNest(Stmt.LoopNest n) {
                nest(w, n);
                return null;
            }

            @Override
            public Void loopSeq(Stmt.LoopSeq q) {
                for (Stmt.LoopNest n : q.nests()) nest(w, n);
                return null;
            }

            @Override
            public Void exit(Stmt.Exit e) {
                // A break or return never leaves a gang loop (no loop they leave is parallel),
                // so a return runs in uniform control flow and leaves test() for every lane;
                // continue in a gang loop turns the lane off until the next iteration.
                w.line(CStatements.keyword(e) + ";");
                return null;
            }
        });
    }

    private void ifStmt(CodeWriter w, Stmt.If i) {
        String c = condition(i.cond());
        if (countMasks && gangDepth > 0 && plan.isVarying(i.cond())) {
            int id = stats.varyingIfs - 1;
            maskExits.add(holdsExit(i.then()) || (i.otherwise() != null && holdsExit(i.otherwise())) ? "1" : "0");
            w.open("");
            w.line("varying bool yarpj_m = " + c + ";");
            w.open("if (any(yarpj_m))");
            w.line("yarpj_mask_runs[" + id + "]++;");
            w.line("if (!all(yarpj_m)) yarpj_mask_mixed[" + id + "]++;");
            w.close().close();
        }
        w.open("if (" + c + ")");
        for (Stmt t : i.then().stmts()) stmt(w, t);
        if (i.otherwise() != null) {
            w.close().open("else");
            for (Stmt t : i.otherwise().stmts()) stmt(w, t);
        }
        w.close();
    }

    private static boolean holdsExit(Stmt.Block b) {
        return b.stmts().stream().anyMatch(s -> s instanceof Stmt.Exit e && e.kind() != Stmt.Exit.Kind.RETURN);
    }

    /** An if's condition; a uniform one inside a gang loop is sometimes asked of the lanes. */
    private String condition(Expr cond) {
        String c = printer.truth(cond);
        if (gangDepth == 0) return c;
        if (plan.isVarying(cond)) {
            stats.varyingIfs++;
            return c;
        }
        IspcPlan.LaneQuery q = plan.laneQuery(cond);
        if (q == null) return c;
        stats.laneQueries++;
        // The same on every lane: any lane, all active lanes and no lane agree with it.
        return switch (q) {
            case ANY -> "any(" + c + ")";
            case ALL -> "all(" + c + ")";
            case NOT_NONE -> "!none(" + c + ")";
        };
    }

    private void nest(CodeWriter w, Stmt.LoopNest n) {
        IspcPlan.Gang gang = plan.gang(n);
        level(w, n, 0, gang == null ? -1 : gang.level().first());
    }

    private void level(CodeWriter w, Stmt.LoopNest n, int level, int gang) {
        if (level == n.depth()) {
            for (Stmt t : n.body().stmts()) stmt(w, t);
            return;
        }
        Stmt.LoopLevel lv = n.levels().get(level);
        if (level == gang) {
            gangLoop(w, n, level);
            return;
        }
        LoopHead h = lv.head();
        String name = h.iter().name();
        Expr next = Exprs.convertImplicitly(h.update(), h.iter().type());
        String decl = "uniform " + type(h.iter().type()) + " " + name + " = " + expr(h.start());
        String update = name + " = " + expr(next);
        if (h.form() != LoopHead.Form.FOR) {
            // The iterator is uniform, so is the condition: while and do-while need no lane masks.
            w.formLoop(h.form() == LoopHead.Form.DO_WHILE, decl, null, printer.truth(h.headerCond()), update,
                    () -> levelBody(w, n, level, gang));
            return;
        }
        w.open("for (" + decl + "; " + printer.truth(h.cond()) + "; " + update + ")");
        levelBody(w, n, level, gang);
        w.close();
    }

    private void levelBody(CodeWriter w, Stmt.LoopNest n, int level, int gang) {
        Stmt.LoopLevel lv = n.levels().get(level);
        for (Stmt t : lv.prefix().stmts()) stmt(w, t);
        level(w, n, level + 1, gang);
        for (Stmt t : lv.suffix().stmts()) stmt(w, t);
    }

    /**
     * The gang loop: an index {@code k} over {@code 0 .. trip-1} (or the iterator's own range,
     * for a loop counting up by one), and the iterator {@code start ± k * step} per lane.
     */
    private void gangLoop(CodeWriter w, Stmt.LoopNest n, int level) {
        Stmt.LoopLevel lv = n.levels().get(level);
        LoopHead h = lv.head();
        String it = h.iter().name();
        String k = it + "_k";
        IspcPlan.Gang gang = plan.gang(n);
        GangForm form = gang.form();
        stats.gangs.merge(form, 1, Integer::sum);

        // The folds below the gang loop into accumulators it does not index: each needs a partial result.
        List<Stmt.Reduce> folds = gang.level().partialFolds();
        List<String> names = new ArrayList<>();
        for (Stmt.Reduce r : folds) {
            String part = "part_" + fresh++;
            names.add(part);
            partials.put(r, part);
            NumType pt = r.partialType();
            w.line("varying " + type(pt) + " " + part + " = " + literal(pt, r.op().identity(pt)) + ";");
        }
        stats.partials += folds.size();

        Expr step = Exprs.stripImplicit(h.update().rhs());
        boolean byOne = IspcPlan.countsByOne(h, form);
        String iterValue;
        // A loop counting up by one: the iterator's own range, start ... bound (one past it for <=).
        boolean upByOne = IspcPlan.countsByOne(h, GangForm.FOREACH);
        String lo = upByOne ? "((int32) " + expr(h.start()) + ")" : null;
        String hi = upByOne ? "((int32) " + expr(h.cond().rhs()) + ")" + (h.cond().op() == BinOp.LE ? " + 1" : "") : null;
        if (byOne) {
            w.open((form == GangForm.FOREACH ? "foreach (" : "foreach_tiled (") + k + " = " + lo + " ... " + hi + ")");
            iterValue = "((" + type(h.iter().type()) + ") " + k + ")";
        } else {
            // Counting up by one, as foreach counts: hi - lo iterations, read at run time as foreach reads them (an input set may
            // move the bound; no set makes it fewer than 0); any other loop: its planned trips.
            String trip = upByOne ? "(" + hi + " - " + lo + ")" : Long.toString(h.trip());
            if (form == GangForm.PROGRAM_INDEX) {
                String g = it + "_g";
                w.open("for (uniform int32 " + g + " = 0; " + g + " < " + trip + "; " + g + " += programCount)");
                w.line("varying int32 " + k + " = " + g + " + programIndex;");
                w.open("if (" + k + " < " + trip + ")");
            } else {
                w.open((form == GangForm.FOREACH ? "foreach (" : "foreach_tiled (") + k + " = 0 ... " + trip + ")");
            }
            iterValue = "((" + type(h.iter().type()) + ") (((int64) " + expr(h.start()) + ") " + (h.countsUp() ? "+" : "-")
                    + " ((int64) " + k + ") * ((int64) " + expr(step) + ")))";
        }
        w.line("varying " + type(h.iter().type()) + " " + it + " = " + iterValue + ";");
        gangDepth++;
        for (Stmt t : lv.prefix().stmts()) stmt(w, t);
        level(w, n, level + 1, -1);
        for (Stmt t : lv.suffix().stmts()) stmt(w, t);
        gangDepth--;
        if (!byOne && form == GangForm.PROGRAM_INDEX) w.close();
        w.close();

        for (int i = 0; i < folds.size(); i++) {
            Stmt.Reduce r = folds.get(i);
            partials.remove(r);
            combine(w, r, names.get(i));
        }
    }

    private static String fold(ReductionOp op, String a, String b) {
        return switch (op) {
            case MIN -> "min(" + a + ", " + b + ")";
            case MAX -> "max(" + a + ", " + b + ")";
            case SUM -> "(" + a + " + " + b + ")";
            case AND -> "(" + a + " & " + b + ")";
            case OR -> "(" + a + " | " + b + ")";
            case XOR -> "(" + a + " ^ " + b + ")";
        };
    }

    /** After the gang loop: the accumulator folds in the lanes' partial results. */
    private void combine(CodeWriter w, Stmt.Reduce r, String part) {
        NumType pt = r.partialType();
        String target = expr(r.target());
        String t = type(r.target().type());
        String acc = printer.cast(pt, target);
        switch (r.op()) {
            case SUM -> w.line(target + " = ((" + t + ") (" + acc + " + ((" + type(pt) + ") reduce_add(" + part + "))));");
            case MIN -> w.line(target + " = ((" + t + ") min(" + acc + ", reduce_min(" + part + ")));");
            case MAX -> w.line(target + " = ((" + t + ") max(" + acc + ", reduce_max(" + part + ")));");
            default -> {
                String lane = part + "_lane";
                w.open("for (uniform int32 " + lane + " = 0; " + lane + " < programCount; " + lane + "++)");
                w.line(target + " = ((" + t + ") " + fold(r.op(), printer.cast(pt, target), "extract(" + part + ", " + lane + ")") + ");");
                w.close();
            }
        }
    }

    // ---- expressions -----------------------------------------------------------------

    private String expr(Expr e) {
        return printer.expr(e);
    }

    /** A comparison or logical operator as ISPC's bool. */
    private String boolText(Expr e) {
        if (e instanceof Expr.Unary u) return "(!" + printer.truth(u.operand()) + ")";
        Expr.Binary b = (Expr.Binary) e;
        if (b.op().isLogical()) return "(" + printer.truth(b.lhs()) + " " + b.op().symbol + " " + printer.truth(b.rhs()) + ")";
        return "(" + expr(b.lhs()) + " " + b.op().symbol + " " + expr(b.rhs()) + ")";
    }

    /**
     * Each helper twice, overloaded on variability: all parameters and the result uniform, or
     * all varying. A call with uniform arguments resolves to the uniform one (its result stays
     * uniform, as an operator's would), any varying argument to the varying one. ispc has no
     * const or SIMD-clone attributes: a gang's lanes already run the function side by side.
     */
    private void helperDefinitions(CodeWriter w, Program p) {
        for (dev.yarpj.ir.Helper h : p.helpers()) {
            if (h.returnsStruct()) w.line("struct " + h.resultStruct() + " " + printer.resultFields(h) + ";");
            String linkage = switch (h.linkage()) {
                case STATIC -> "static ";
                case INLINE, ALWAYS_INLINE -> "static inline ";
                case NOINLINE, EXTERN -> "static noinline "; // ispc has no LTO: one file
            };
            for (String q : List.of("uniform", "varying")) {
                List<String> ps = new ArrayList<>();
                for (ScalarVar v : h.params()) {
                    // By pointer: to a uniform element (arrays are uniform), the pointer itself of the overload's variability.
                    if (v.isField()) {
                        dev.yarpj.ir.Helper.StructParam g = h.structStartingAt(v);
                        if (g != null) ps.add(g.byPointer() ? "const uniform " + g.type() + " * " + q + " " + g.name() : q + " " + g.type() + " " + g.name());
                    } else {
                        ps.add(v.byPointer() ? "const uniform " + type(v.base()) + " * " + q + " " + v.name() : q + " " + type(v.base()) + " " + v.name());
                        if (v.indexed()) ps.add(q + " int32 " + v.indexName());
                    }
                }
                if (!h.returnsStruct()) {
                    w.line(linkage + q + " " + type(h.result(0)) + " " + h.name() + "(" + String.join(", ", ps) + ") { return "
                            + expr(h.results().get(0)) + "; }");
                    continue;
                }
                // The struct's fields have no variability of their own: they take the overload's.
                w.line(linkage + q + " " + h.resultStruct() + " " + h.name() + "(" + String.join(", ", ps) + ") { "
                        + printer.structReturn(h, q + " " + h.resultStruct()) + " }");
            }
        }
        if (!p.helpers().isEmpty()) w.blank();
    }

    static String type(NumType t) {
        return switch (t) {
            case BOOL -> "bool";
            case SCHAR -> "int8";
            case UCHAR -> "unsigned int8";
            case SHORT -> "int16";
            case USHORT -> "unsigned int16";
            case INT -> "int32";
            case UINT -> "unsigned int32";
            case LLONG -> "int64";
            case ULLONG -> "unsigned int64";
            case HALF -> "float16";
            case FLOAT -> "float";
            case DOUBLE -> "double";
        };
    }

    /**
     * ISPC's literals: int32 plain, u, ll and ull suffixes; narrower types as a cast of an int32
     * literal; float with f and double with d (an unsuffixed one is a float in ISPC), a float16
     * as a float literal converted.
     */
    static String literal(NumType t, long v) {
        if (t.isFloat()) return ExprPrinter.floatLiteral(t, v, "f", "d", "float16");
        switch (t) {
            case INT:
                if (v == Integer.MIN_VALUE) return "(-2147483647 - 1)";
                return v < 0 ? "(" + v + ")" : Long.toString(v);
            case UINT:
                return v + "u";
            case LLONG:
                if (v == Long.MIN_VALUE) return "(-9223372036854775807ll - 1)";
                return v < 0 ? "(" + v + "ll)" : v + "ll";
            case ULLONG:
                return Long.toUnsignedString(v) + "ull";
            default:
                return "((" + type(t) + ") " + (v < 0 ? "(" + v + ")" : Long.toString(v)) + ")";
        }
    }

    /** Counts of what the ISPC lowering printed, for variety reports. */
    static final class IspcStats {
        final Map<GangForm, Integer> gangs = new java.util.EnumMap<>(GangForm.class);
        int partials;
        int varyingIfs;
        int laneQueries;
        int selects;
    }
}
