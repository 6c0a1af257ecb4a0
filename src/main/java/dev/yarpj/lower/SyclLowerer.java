package dev.yarpj.lower;

import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ReductionOp;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.StructArray;
import dev.yarpj.plan.KernelPlan;
import dev.yarpj.plan.KernelPlan.Kernel;
import dev.yarpj.plan.KernelPlan.Memory;
import dev.yarpj.plan.KernelPlan.ParallelFor;
import dev.yarpj.plan.KernelPlan.SingleTask;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Prints a program as SYCL 2020: {@code func.cpp} defines {@code test}, which makes a queue,
 * moves the program's data into memory the device reaches (buffers and accessors, shared
 * USM, or device USM with explicit copies), runs the program as kernels and brings the
 * outputs back. {@code func_ref.cpp} is the plain C++ lowering of the same program;
 * {@code driver.cpp} and {@code init.h} are the C++ ones, so one driver links with either.
 *
 * <p>A top-level nest whose outer levels are perfectly nested and data-parallel (up to
 * three) becomes a {@code parallel_for} over a {@code range} or an {@code nd_range} (whose
 * work-group size may not divide the range: then work-items past the end do nothing), its
 * folds into scalars {@code sycl::reduction}s; the other statements run in order in
 * {@code single_task}s. Kernels reach no global: input scalars are captured by value,
 * output scalars and top-level locals live in one-element device memory ("cells"). All
 * choices come from the rng, so one seed gives one file.
 */
public final class SyclLowerer implements Lowerer {
    private final EmitPolicy.Sycl emit;
    private final Rng rng;
    private Memory memory;
    private boolean inOrder;
    /** Slots of scalars kept in one-element device memory: outputs and top-level locals. */
    private final Set<Integer> cells = new HashSet<>();
    /** Names of input arrays: their accessors only read. */
    private final Set<String> readOnly = new HashSet<>();
    /** Folds done by a sycl::reduction in the kernel being printed, with the reducer's name. */
    private final Map<Stmt.Reduce, String> reducers = new HashMap<>();
    private int kernels;
    private int partials;
    private boolean submitted;
    private SyclStats stats;

    private final CExprPrinter printer = new CExprPrinter(false) {
        @Override
        String minMax(boolean min, NumType t, String a, String b) {
            // SYCL's integer built-ins take two operands of one type.
            return "sycl::" + (min ? "min" : "max") + "(" + cast(t, a) + ", " + cast(t, b) + ")";
        }

        @Override
        String mathCall(dev.yarpj.ir.Builtin fn, NumType t, List<String> args) {
            // SYCL's math built-ins, overloaded by type as C++'s are; every operand of one type, as for min and max.
            return "sycl::" + fn.cName() + "(" + String.join(", ", args.stream().map(a -> cast(t, a)).toList()) + ")";
        }

        @Override
        String scalar(ScalarVar v) {
            return cells.contains(v.slot()) ? v.name() + "[0]" : v.name();
        }

        @Override
        String element(ArrayVar a, List<String> indices) {
            if (memory == Memory.BUFFERS && a.passing() instanceof ArrayVar.Passing.View v) {
                // A view is its storage's accessor, rows shifted by the view's offset.
                List<String> shifted = new ArrayList<>(indices);
                shifted.set(0, "(" + indices.get(0) + ") + " + v.rowOffset());
                return super.element(v.storage(), shifted);
            }
            return super.element(a, indices);
        }
    };

    private final CStatements statements = new CStatements(printer) {
        @Override
        void reduce(CodeWriter w, Stmt.Reduce r) {
            String reducer = reducers.get(r);
            if (reducer == null) {
                super.reduce(w, r);
            } else {
                w.line(reducer + ".combine(" + printer.cast(r.partialType(), printer.expr(r.value())) + ");");
            }
        }

        @Override
        void localDecl(CodeWriter w, Stmt.LocalDecl d) {
            if (cells.contains(d.var().slot())) w.line(printer.scalar(d.var()) + " = " + printer.expr(d.init()) + ";");
            else super.localDecl(w, d);
        }

        @Override
        void exit(CodeWriter w, Stmt.Exit e, int openLoops) {
            if (e.kind() == Stmt.Exit.Kind.RETURN) {
                // It leaves the single_task that holds it: test()'s last statement (see Stmt.Exit),
                // so no kernel of test() runs after it, and the outputs are brought back as usual.
                w.line("return;");
            } else if (openLoops > 0) {
                super.exit(w, e, openLoops);
            } else if (e.kind() == Stmt.Exit.Kind.CONTINUE) {
                // It leaves the iteration of a parallel_for's innermost level: this work-item.
                w.line("return;");
            } else {
                throw new IllegalStateException("a break out of a parallel_for's level (no loop a break leaves is parallel)");
            }
        }
    };

    public SyclLowerer(EmitPolicy.Sycl emit, Rng rng) {
        this.emit = emit;
        this.rng = rng;
    }

    @Override
    public LoweredTest lower(Program p, Prediction expected, CheckMode check, String banner) {
        cells.clear();
        reducers.clear();
        kernels = 0;
        partials = 0;
        submitted = false;
        stats = new SyclStats();
        LoweredTest cpp = new CFamilyLowerer(Language.CPP, false, false).lower(p, expected, check, banner);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("func.cpp", func(p, banner));
        files.put("func_ref.cpp", cpp.files().get("func.cpp"));
        files.put("driver.cpp", cpp.files().get("driver.cpp"));
        files.put("init.h", cpp.files().get("init.h"));
        return new LoweredTest(files, stats.choices(memory, inOrder));
    }

    // ---- func.cpp ---------------------------------------------------------------------

    private String func(Program p, String banner) {
        KernelPlan kernelPlan = KernelPlan.of(p, emit, rng);
        memory = kernelPlan.memory();
        inOrder = kernelPlan.inOrder();
        readOnly.clear();
        for (Block b : blocks(p)) if (!b.output()) readOnly.add(b.name());
        for (ScalarVar v : p.outputs()) cells.add(v.slot());
        for (Stmt s : p.body().stmts()) if (s instanceof Stmt.LocalDecl d) cells.add(d.var().slot());
        List<Kernel> plan = kernelPlan.kernels();

        CodeWriter body = new CodeWriter();
        body.open("void test(" + params(p) + ")");
        body.line(inOrder ? "sycl::queue q{sycl::property::queue::in_order{}};" : "sycl::queue q;");
        for (ScalarVar v : p.inputs()) {
            if (!v.isParam()) body.line("const " + type(v.base()) + " " + v.name() + " = ::" + v.name() + ";");
        }
        List<ScalarVar> locals = topLevelLocals(p);
        Map<Stmt.Reduce, NumType> folds = new LinkedHashMap<>();
        for (Kernel k : plan) if (k instanceof ParallelFor pf) for (Stmt.Reduce r : pf.levels().partialFolds()) folds.put(r, r.partialType());
        Map<Stmt.Reduce, String> partialNames = new LinkedHashMap<>();
        for (Stmt.Reduce r : folds.keySet()) partialNames.put(r, "red_" + partials++);
        if (memory == Memory.BUFFERS) {
            buffers(body, p, locals, folds, partialNames, plan);
        } else {
            usm(body, p, locals, folds, partialNames, plan);
        }
        body.close();

        CodeWriter w = new CodeWriter();
        w.line("/*");
        for (String s : banner.split("\n")) w.line(" * " + s);
        w.line(" */");
        w.line("#include <sycl/sycl.hpp>").line("#include <cstring>").line("#include \"init.h\"").blank();
        for (int i = 0; i < kernels; i++) w.line("class yarpj_kernel_" + i + ";");
        w.blank();
        // Plain functions, defined in this file: a kernel may call them as device functions.
        String functions = printer.helperDefinitions(p.helpers(), false, CExprPrinter.HelperFile.ONLY);
        if (!functions.isEmpty()) w.raw(functions).blank();
        w.raw(body.toString());
        return w.toString();
    }

    private String params(Program p) {
        List<String> ps = new ArrayList<>();
        for (ScalarVar v : p.params()) ps.add(type(v.base()) + " " + v.name());
        for (ArrayVar a : p.arrayParams()) ps.add(rowPointer(a, a.name() + "_host"));
        return String.join(", ", ps);
    }

    /**
     * A block of memory the kernels reach through one buffer or allocation: an array that owns
     * its memory (a global, a pointer parameter, the storage of views), or an array of structs
     * with all its fields; an output where any of its elements may change.
     */
    private record Block(String name, String elem, List<Integer> dims, boolean output, boolean param) {
        int rank() {
            return dims.size();
        }

        long elements() {
            long n = 1;
            for (int d : dims) n *= d;
            return n;
        }

        String bytes() {
            return elements() + " * sizeof(" + elem + ")";
        }

        /** Where the host's copy is: the global, or the parameter. */
        String host() {
            return param ? name + "_host" : "::" + name;
        }

        /** {@code T *name} or {@code T (*name)[d1]...}: a pointer to the first element or row. */
        String rowPointer(String var) {
            StringBuilder sb = new StringBuilder(elem);
            if (rank() == 1) return sb.append(" *").append(var).toString();
            sb.append(" (*").append(var).append(')');
            for (int d = 1; d < rank(); d++) sb.append('[').append(dims.get(d)).append(']');
            return sb.toString();
        }
    }

    /** The blocks of memory of a program: arrays not in a struct, then arrays of structs. */
    private static List<Block> blocks(Program p) {
        List<Block> all = new ArrayList<>();
        for (ArrayVar a : p.inputArrays()) if (a.field() == null) all.add(block(a, false));
        for (ArrayVar a : p.outputArrays()) if (a.field() == null) all.add(block(a, true));
        for (StructArray s : p.structArrays()) {
            boolean output = s.fields().stream().anyMatch(f -> !f.isInput());
            all.add(new Block(s.name(), "struct " + s.type(), s.dims(), output, false));
        }
        return all;
    }

    private static Block block(ArrayVar a, boolean output) {
        return new Block(a.name(), type(a.base()), a.dims(), output, a.isParam());
    }

    /** The block an array's elements are in: its own, a view's storage, or its array of structs. */
    private static String blockOf(ArrayVar a) {
        return a.field() != null ? a.field().structs() : a.storage().name();
    }

    private static List<ScalarVar> topLevelLocals(Program p) {
        List<ScalarVar> locals = new ArrayList<>();
        for (Stmt s : p.body().stmts()) if (s instanceof Stmt.LocalDecl d) locals.add(d.var());
        return locals;
    }

    /** {@code T *name} or {@code T (*name)[d1]...}: a pointer to an array's first element or row. */
    private static String rowPointer(ArrayVar a, String name) {
        return block(a, false).rowPointer(name);
    }

    // ---- USM --------------------------------------------------------------------------

    private void usm(CodeWriter w, Program p, List<ScalarVar> locals, Map<Stmt.Reduce, NumType> folds,
                     Map<Stmt.Reduce, String> names, List<Kernel> plan) {
        boolean device = memory == Memory.USM_DEVICE;
        String malloc = device ? "sycl::malloc_device" : "sycl::malloc_shared";
        List<String> frees = new ArrayList<>();
        List<String> copyIn = new ArrayList<>();
        List<Block> blocks = blocks(p);
        for (Block b : blocks) {
            String alloc = malloc + "<" + b.elem() + ">(" + b.elements() + ", q)";
            w.line(b.rowPointer(b.name()) + " = " + (b.rank() == 1 ? alloc : "reinterpret_cast<" + b.rowPointer("") + ">(" + alloc + ")") + ";");
            frees.add(b.name());
            copyIn.add(copy(device, b.name(), b.host(), b.bytes()));
        }
        for (ArrayVar a : p.arrayParams()) {
            if (a.passing() instanceof ArrayVar.Passing.View v) {
                // The view's own pointer is unused: it shares its storage's device memory.
                w.line(rowPointer(a, a.name()) + " = " + v.storage().name() + (v.rowOffset() == 0 ? "" : " + " + v.rowOffset()) + ";");
            }
        }
        for (ScalarVar v : p.outputs()) {
            w.line(type(v.base()) + " *" + v.name() + " = " + malloc + "<" + type(v.base()) + ">(1, q);");
            frees.add(v.name());
            copyIn.add(copy(device, v.name(), "&::" + v.name(), "sizeof(" + type(v.base()) + ")"));
        }
        for (ScalarVar v : locals) {
            w.line(type(v.base()) + " *" + v.name() + " = " + malloc + "<" + type(v.base()) + ">(1, q);");
            frees.add(v.name());
        }
        for (Map.Entry<Stmt.Reduce, NumType> f : folds.entrySet()) {
            String n = names.get(f.getKey());
            String t = type(f.getValue());
            w.line(t + " *" + n + " = " + malloc + "<" + t + ">(1, q);");
            w.line("const " + t + " " + n + "_identity = " + printer.literal(f.getValue(), f.getKey().op().identity(f.getValue())) + ";");
            frees.add(n);
            copyIn.add(copy(device, n, "&" + n + "_identity", "sizeof(" + t + ")"));
        }
        for (String c : copyIn) w.line(c);
        if (device) w.line("q.wait();");
        if (!inOrder) w.line("sycl::event e;");
        for (Kernel k : plan) kernel(w, k, names, p);
        w.line("q.wait();");
        for (Block b : blocks) if (b.output()) w.line(copy(device, b.host(), b.name(), b.bytes()));
        for (ScalarVar v : p.outputs()) w.line(copy(device, "&::" + v.name(), v.name(), "sizeof(" + type(v.base()) + ")"));
        if (device) w.line("q.wait();");
        for (String f : frees) w.line("sycl::free(" + f + ", q);");
    }

    private static String copy(boolean device, String to, String from, String bytes) {
        return (device ? "q.memcpy(" : "std::memcpy(") + to + ", " + from + ", " + bytes + ");";
    }

    // ---- buffers ----------------------------------------------------------------------

    private void buffers(CodeWriter w, Program p, List<ScalarVar> locals, Map<Stmt.Reduce, NumType> folds,
                         Map<Stmt.Reduce, String> names, List<Kernel> plan) {
        for (ScalarVar v : locals) w.line(type(v.base()) + " " + v.name() + "_host{};");
        for (Map.Entry<Stmt.Reduce, NumType> f : folds.entrySet()) {
            String n = names.get(f.getKey());
            w.line(type(f.getValue()) + " " + n + "_host = " + printer.literal(f.getValue(), f.getKey().op().identity(f.getValue())) + ";");
        }
        // The buffers write the outputs back when they go out of scope, at the end of this block.
        w.open("");
        for (Block b : blocks(p)) {
            StringBuilder range = new StringBuilder();
            for (int d : b.dims()) range.append(range.isEmpty() ? "" : ", ").append(d);
            w.line("sycl::buffer<" + b.elem() + ", " + b.rank() + "> b_" + b.name() + "{reinterpret_cast<"
                    + b.elem() + " *>(" + b.host() + "), sycl::range<" + b.rank() + ">(" + range + ")};");
        }
        for (ScalarVar v : p.outputs()) w.line(cell(v.base(), v.name(), "&::" + v.name()));
        for (ScalarVar v : locals) w.line(cell(v.base(), v.name(), "&" + v.name() + "_host"));
        for (Map.Entry<Stmt.Reduce, NumType> f : folds.entrySet()) {
            String n = names.get(f.getKey());
            w.line(cell(f.getValue(), n, "&" + n + "_host"));
        }
        for (Kernel k : plan) kernel(w, k, names, p);
        w.close();
    }

    private String cell(NumType t, String name, String host) {
        return "sycl::buffer<" + type(t) + ", 1> b_" + name + "{" + host + ", sycl::range<1>(1)};";
    }

    // ---- kernels ----------------------------------------------------------------------

    private void kernel(CodeWriter w, Kernel k, Map<Stmt.Reduce, String> names, Program p) {
        if (k instanceof SingleTask st) {
            stats.singleTasks++;
            submit(w, uses(st.stmts(), List.of()), () -> {
                w.open("h.single_task<yarpj_kernel_" + kernels++ + ">([=]()");
                statements.stmts(w, st.stmts());
                w.closeWith("});");
            });
            return;
        }
        ParallelFor pf = (ParallelFor) k;
        Stmt.LoopNest n = pf.levels().nest();
        // Folds into scalars: each a sycl::reduction into a partial result.
        List<Stmt.Reduce> folds = pf.levels().partialFolds();
        List<String> partialNames = new ArrayList<>();
        for (Stmt.Reduce r : folds) partialNames.add(names.get(r));
        boolean nd = pf.ndRange();
        int dims = pf.levels().count();
        // Each dimension's size and the trip its guard tests: the planned trip, or the one the
        // host counts from the loop's bound at launch (which input sets move), never below one.
        List<String> sizes = new ArrayList<>();
        List<String> trips = new ArrayList<>();
        List<String> counts = new ArrayList<>();
        boolean guarded = false;
        for (int d = 0; d < dims; d++) {
            LoopHead h = pf.levels().head(d);
            long g = nd ? pf.groupSizes().get(d) : 1;
            if (pf.countedAtLaunch(d)) {
                String count = "n_" + kernels + "_" + d;
                hostCount(w, h, count, counts);
                counts.add(count);
                sizes.add("size_" + kernels + "_" + d);
                w.line("const unsigned long long " + sizes.get(d) + " = "
                        + (g == 1 ? count + " > 0 ? " + count + " : 1" : "((" + count + " > 0 ? " + count + " : 1) + " + (g - 1) + ") / " + g + " * " + g) + ";");
                trips.add(count);
                guarded = true;
                stats.rangesFromBounds++;
            } else {
                long rounded = (h.trip() + g - 1) / g * g;
                guarded |= rounded != h.trip();
                sizes.add(String.valueOf(rounded));
                trips.add(h.trip() + "ULL");
            }
        }
        List<String> local = new ArrayList<>();
        for (long g : pf.groupSizes()) local.add(String.valueOf(g));
        if (nd) {
            stats.ndRanges++;
            if (guarded) stats.guardedNdRanges++;
        } else {
            stats.ranges.merge(dims, 1, Integer::sum);
        }
        stats.reductions += folds.size();
        boolean guard = guarded;
        submit(w, uses(n, dims, partialNames), () -> {
            StringBuilder args = new StringBuilder();
            args.append(nd ? "sycl::nd_range<" + dims + ">(" + range(sizes) + ", " + range(local) + ")" : range(sizes));
            for (int i = 0; i < folds.size(); i++) {
                String f = functor(folds.get(i).op()) + "<" + type(folds.get(i).partialType()) + ">()";
                String target = memory == Memory.BUFFERS ? "b_" + partialNames.get(i) + ", h" : partialNames.get(i);
                args.append(", sycl::reduction(").append(target).append(", ").append(f).append(")");
            }
            StringBuilder lambda = new StringBuilder("[=](").append(nd ? "sycl::nd_item<" + dims + "> it" : "sycl::id<" + dims + "> it");
            for (int i = 0; i < folds.size(); i++) {
                String reducer = partialNames.get(i) + "_r";
                lambda.append(", auto &").append(reducer);
                reducers.put(folds.get(i), reducer);
            }
            lambda.append(")");
            w.open("h.parallel_for<yarpj_kernel_" + kernels++ + ">(" + args + ", " + lambda);
            List<String> ks = new ArrayList<>();
            for (int d = 0; d < dims; d++) {
                String kd = "k" + d;
                ks.add(kd);
                w.line("const unsigned long long " + kd + " = " + (nd ? "it.get_global_id(" + d + ")" : "it[" + d + "]") + ";");
            }
            if (guard) {
                List<String> in = new ArrayList<>();
                for (int d = 0; d < dims; d++) in.add(ks.get(d) + " < " + trips.get(d));
                w.open("if (" + String.join(" && ", in) + ")");
            }
            for (int d = 0; d < dims; d++) {
                LoopHead h = n.levels().get(d).head();
                Expr step = Exprs.stripImplicit(h.update().rhs());
                // start ± k * step, in unsigned long long (which wraps), then converted to the
                // iterator's type: the value the loop's own update would have reached.
                w.line(type(h.iter().type()) + " " + h.iter().name() + " = (" + type(h.iter().type()) + ") ((unsigned long long) "
                        + printer.expr(h.start()) + (h.countsUp() ? " + " : " - ") + ks.get(d) + " * (unsigned long long) "
                        + printer.expr(step) + ");");
            }
            Stmt.LoopLevel inner = n.levels().get(dims - 1);
            statements.stmts(w, inner.prefix().stmts());
            statements.nest(w, n, dims);
            statements.stmts(w, inner.suffix().stmts());
            if (guard) w.close();
            w.closeWith("});");
            for (Stmt.Reduce r : folds) reducers.remove(r);
        });
        if (!folds.isEmpty()) {
            // The accumulators fold in the partial results, as the loop would have left them.
            Set<String> used = new LinkedHashSet<>(partialNames);
            for (Stmt.Reduce r : folds) used.add(((Expr.ScalarRef) r.target()).var().name());
            stats.singleTasks++;
            submit(w, new ArrayList<>(used), () -> {
                w.open("h.single_task<yarpj_kernel_" + kernels++ + ">([=]()");
                for (int i = 0; i < folds.size(); i++) combine(w, folds.get(i), partialNames.get(i));
                w.closeWith("});");
            });
        }
    }

    /** One command group: what it waits for, the accessors it needs (buffers), then its kernel. */
    private void submit(CodeWriter w, List<String> accessed, Runnable kernel) {
        boolean events = memory != Memory.BUFFERS && !inOrder;
        w.open((events ? "e = " : "") + "q.submit([&](sycl::handler &h)");
        if (events && submitted) w.line("h.depends_on(e);");
        submitted = true;
        if (memory == Memory.BUFFERS) {
            for (String name : accessed) {
                String mode = readOnly.contains(name) ? "read" : "read_write";
                w.line("auto " + name + " = b_" + name + ".get_access<sycl::access_mode::" + mode + ">(h);");
            }
        }
        kernel.run();
        w.closeWith("});");
    }

    /** The device memory a kernel touches: arrays (a view's storage), cells, and the partial results given. */
    private List<String> uses(List<Stmt> stmts, List<String> partialNames) {
        Set<String> names = new LinkedHashSet<>();
        Uses u = new Uses(names);
        for (Stmt s : stmts) u.stmt(s);
        names.addAll(partialNames);
        return new ArrayList<>(names);
    }

    /**
     * What a parallel_for over the outer {@code dims} levels of {@code n} uses: its blocks, and
     * the heads of the levels inside it, which the kernel prints as loops (a while's header
     * exit reads its sentinel array there, and nothing else may read that array).
     */
    private List<String> uses(Stmt.LoopNest n, int dims, List<String> partialNames) {
        Set<String> names = new LinkedHashSet<>();
        Uses u = new Uses(names);
        for (Stmt s : n.blocksFrom(0)) u.stmt(s);
        for (int l = dims; l < n.depth(); l++) {
            LoopHead h = n.levels().get(l).head();
            u.expr(h.start());
            u.expr(h.cond());
            u.expr(h.update());
            if (h.guard() != null) u.expr(h.guard());
        }
        names.addAll(partialNames);
        return new ArrayList<>(names);
    }

    /** Collects the device memory statements read or write. */
    private final class Uses extends Stmt.Walker {
        private final Set<String> names;

        Uses(Set<String> names) {
            this.names = names;
        }

        void stmt(Stmt s) {
            s.accept(this);
        }

        @Override
        public Void localDecl(Stmt.LocalDecl d) {
            if (cells.contains(d.var().slot())) names.add(d.var().name());
            return super.localDecl(d);
        }

        @Override
        protected void expr(Expr e) {
            e.accept(new Expr.Walker() {
                @Override
                public Void scalar(Expr.ScalarRef r) {
                    if (cells.contains(r.var().slot())) names.add(r.var().name());
                    return null;
                }

                @Override
                public Void subscript(Expr.Subscript s) {
                    names.add(blockOf(s.array()));
                    return super.subscript(s);
                }
            });
        }
    }

    private static String functor(ReductionOp op) {
        return switch (op) {
            case SUM -> "sycl::plus";
            case MIN -> "sycl::minimum";
            case MAX -> "sycl::maximum";
            case AND -> "sycl::bit_and";
            case OR -> "sycl::bit_or";
            case XOR -> "sycl::bit_xor";
        };
    }

    private void combine(CodeWriter w, Stmt.Reduce r, String partial) {
        NumType pt = r.partialType();
        String target = printer.expr(r.target());
        String t = type(r.target().type());
        String acc = printer.cast(pt, target);
        String p = partial + "[0]";
        String value = switch (r.op()) {
            case SUM -> acc + " + " + p;
            case MIN -> "sycl::min(" + acc + ", " + p + ")";
            case MAX -> "sycl::max(" + acc + ", " + p + ")";
            case AND -> acc + " & " + p;
            case OR -> acc + " | " + p;
            case XOR -> acc + " ^ " + p;
        };
        w.line(target + " = (" + t + ") (" + value + ");");
    }

    /**
     * Counts on the host, before the kernel is launched, the iterations the loop of {@code h}
     * runs into {@code count}, by running its head. A level inside others runs only when they
     * run at least once, as in the loop nest: those the host counted are {@code outer} (the
     * others run their planned trip, never zero).
     */
    private void hostCount(CodeWriter w, LoopHead h, String count, List<String> outer) {
        w.line("unsigned long long " + count + " = 0;");
        String loop = "for (" + statements.declaration(h) + "; " + printer.expr(h.cond()) + "; " + statements.update(h) + ") ++" + count + ";";
        List<String> entered = new ArrayList<>();
        for (String t : outer) entered.add(t + " > 0");
        w.line(entered.isEmpty() ? loop : "if (" + String.join(" && ", entered) + ") " + loop);
    }

    private static String range(List<String> sizes) {
        StringBuilder sb = new StringBuilder("sycl::range<" + sizes.size() + ">(");
        for (int i = 0; i < sizes.size(); i++) sb.append(i == 0 ? "" : ", ").append(sizes.get(i));
        return sb.append(")").toString();
    }

    private static String type(NumType t) {
        return CFamilyLowerer.cType(t, false);
    }

    /** Counts of what the SYCL lowering printed, for variety reports. */
    static final class SyclStats {
        final Map<Integer, Integer> ranges = new java.util.TreeMap<>();
        int ndRanges;
        int guardedNdRanges;
        int rangesFromBounds;
        int singleTasks;
        int reductions;

        Map<String, Integer> choices(Memory memory, boolean inOrder) {
            Map<String, Integer> c = new LinkedHashMap<>();
            for (int d = 1; d <= 3; d++) c.put("range." + d, ranges.getOrDefault(d, 0));
            c.put("nd_range", ndRanges);
            c.put("nd_range.guarded", guardedNdRanges);
            c.put("range.from_bound", rangesFromBounds);
            c.put("single_task", singleTasks);
            c.put("reductions", reductions);
            for (Memory m : Memory.values()) c.put("memory." + m.name().toLowerCase(), m == memory ? 1 : 0);
            c.put("queue.in_order", inOrder ? 1 : 0);
            return c;
        }
    }
}
