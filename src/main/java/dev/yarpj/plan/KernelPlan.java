package dev.yarpj.plan;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.List;

/**
 * How the SYCL lowering runs one program on the device, decided before anything is printed:
 * how the data reaches the device, whether the queue is in order, and which statements run
 * in which kernel. A top-level nest whose outer levels (up to three) are data-parallel with a
 * known, non-zero trip count, perfectly nested, and whose folds go into scalars or into
 * elements indexed by all of them, may become a {@code parallel_for} over those levels (a
 * range, or an nd_range with work-group sizes); every other statement runs in order in
 * {@code single_task}s. The odds are the policy's {@code emit: sycl:}.
 *
 * @param memory  how the program's data reaches the device
 * @param inOrder whether the queue is in order (else kernels wait on events, with USM)
 * @param kernels the program's top-level statements, in order, grouped into kernels
 */
public record KernelPlan(Memory memory, boolean inOrder, List<Kernel> kernels) {
    /** How the program's data reaches the device. */
    public enum Memory { BUFFERS, USM_SHARED, USM_DEVICE }

    /** A kernel: a parallel_for over the outer levels of a nest, or a single_task. */
    public sealed interface Kernel permits ParallelFor, SingleTask {}

    /**
     * A {@code parallel_for} over the outer {@code levels.count()} levels of a nest.
     *
     * @param groupSizes the work-group size per dimension of an nd_range; empty for a range
     */
    public record ParallelFor(ParallelLevels levels, List<Long> groupSizes) implements Kernel {
        public ParallelFor {
            groupSizes = List.copyOf(groupSizes);
        }

        public boolean ndRange() {
            return !groupSizes.isEmpty();
        }

        /**
         * Whether dimension {@code d}'s size is its level's trip count as the host counts it when
         * the kernel is launched ({@link #rangeFromBound}), else the planned trip.
         */
        public boolean countedAtLaunch(int d) {
            return rangeFromBound(levels.head(d));
        }
    }

    /**
     * Whether a kernel dimension over the loop of {@code h} takes its size from the loop's bound,
     * counted on the host at launch, so that input sets may move it: a for loop whose bound is an
     * input (plus or minus a constant) and whose start and step read only constants and inputs,
     * which are the same on the host as in the kernel. Every other dimension is the planned trip,
     * and its loop's bound must stay where it was planned.
     */
    public static boolean rangeFromBound(LoopHead h) {
        return h.form() == LoopHead.Form.FOR && h.guard() == null && h.boundInput() != null
                && readsOnlyInputs(h.start()) && readsOnlyInputs(h.update().rhs());
    }

    private static boolean readsOnlyInputs(Expr e) {
        boolean[] only = {true};
        e.accept(new Expr.Walker() {
            @Override
            public Void scalar(Expr.ScalarRef r) {
                if (r.var().role() != dev.yarpj.ir.ScalarVar.Role.INPUT) only[0] = false;
                return null;
            }

            @Override
            public Void iter(Expr.IterRef r) {
                only[0] = false;
                return null;
            }

            @Override
            public Void subscript(Expr.Subscript s) {
                only[0] = false;
                return null;
            }

            @Override
            public Void helperCall(Expr.HelperCall c) {
                only[0] = false;
                return null;
            }
        });
        return only[0];
    }

    /** Statements that run one after the other on one work-item. */
    public record SingleTask(List<Stmt> stmts) implements Kernel {
        public SingleTask {
            stmts = List.copyOf(stmts);
        }
    }

    public KernelPlan {
        kernels = List.copyOf(kernels);
    }

    /** The plan of {@code p}, its choices drawn from {@code rng} with the odds of {@code emit}. */
    public static KernelPlan of(Program p, EmitPolicy.Sycl emit, Rng rng) {
        boolean deep = false;
        for (ArrayVar a : p.inputArrays()) deep |= a.rank() > 3;
        for (ArrayVar a : p.outputArrays()) deep |= a.rank() > 3;
        List<Memory> modes = new ArrayList<>();
        for (String m : emit.memory()) {
            Memory mode = Memory.valueOf(m.toUpperCase());
            // Buffers have at most three dimensions.
            if (!(deep && mode == Memory.BUFFERS)) modes.add(mode);
        }
        if (modes.isEmpty()) modes.add(Memory.USM_SHARED);
        Memory memory = rng.pick(modes);
        boolean inOrder = rng.chance(emit.pInOrder());

        List<Stmt> top = new ArrayList<>();
        for (Stmt s : p.body().stmts()) {
            if (s instanceof Stmt.LoopSeq q) top.addAll(q.nests());
            else top.add(s);
        }
        List<Kernel> kernels = new ArrayList<>();
        List<Stmt> pending = new ArrayList<>();
        for (Stmt s : top) {
            int dims = s instanceof Stmt.LoopNest n ? parallelDims(n) : 0;
            if (dims > 0 && rng.chance(emit.pParallelFor())) {
                if (!pending.isEmpty()) kernels.add(new SingleTask(pending));
                pending.clear();
                kernels.add(new ParallelFor(ParallelLevels.outer((Stmt.LoopNest) s, dims), List.of()));
            } else {
                pending.add(s);
            }
        }
        if (!pending.isEmpty()) kernels.add(new SingleTask(pending));

        // Then each parallel_for's range, in kernel order (drawn after every kernel is known).
        for (int k = 0; k < kernels.size(); k++) {
            if (!(kernels.get(k) instanceof ParallelFor pf)) continue;
            List<Long> groups = new ArrayList<>();
            if (rng.chance(emit.pNdRange())) {
                List<Integer> sizes = pf.levels().partialFolds().isEmpty() ? emit.groupSizes() : emit.reductionGroupSizes();
                for (int d = 0; d < pf.levels().count(); d++) groups.add((long) rng.pick(sizes));
            }
            kernels.set(k, new ParallelFor(pf.levels(), groups));
        }
        return new KernelPlan(memory, inOrder, kernels);
    }

    /**
     * How many outer levels of {@code n} can be the dimensions of one parallel_for: each
     * data-parallel with a known, non-zero trip count, the ones outside it with nothing
     * before or after the inner loop, and every fold below either into a scalar (a
     * sycl::reduction) or into an element indexed by all of them (a store per work-item).
     */
    static int parallelDims(Stmt.LoopNest n) {
        int dims = 0;
        while (dims < Math.min(3, n.depth())) {
            LoopHead h = n.levels().get(dims).head();
            if (!h.parallel() || h.trip() <= 0) break;
            if (dims > 0) {
                Stmt.LoopLevel outer = n.levels().get(dims - 1);
                if (!outer.prefix().stmts().isEmpty() || !outer.suffix().stmts().isEmpty()) break;
            }
            dims++;
        }
        for (Stmt.Reduce r : Folds.in(n.blocksFrom(0), r -> true)) {
            if (!(r.target() instanceof Expr.Subscript sub)) continue;
            int indexed = 0;
            while (indexed < dims && Folds.indexedBy(sub, n.levels().get(indexed).head())) indexed++;
            dims = Math.min(dims, indexed);
        }
        return dims;
    }
}
