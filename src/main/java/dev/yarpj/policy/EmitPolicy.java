package dev.yarpj.policy;

import java.util.List;

/**
 * The odds of how a program is spelt in ISPC and SYCL: the {@code emit:} section of a policy.
 * They change which constructs a test exercises in those compilers, never what it computes;
 * C and C++ have no such choices. Each list is drawn from uniformly (repeat an entry to
 * weight it, drop one to exclude it).
 */
public record EmitPolicy(Ispc ispc, Sycl sycl) {
    /** ISPC: gang loops, select() and lane queries. */
    public record Ispc(
            /* Chance that a nest with a data-parallel level runs it as a gang loop (the rest stay serial). */
            double pGang,
            /* How a gang loop is spelt: foreach, foreach_tiled, program_index. */
            List<String> gangForms,
            /* Chance that a ?: with a varying condition is printed as select(). */
            double pSelect,
            /* Chance that a uniform condition inside a gang loop is asked through any(), all() or none(). */
            double pLaneQuery) {
        public static final List<String> GANG_FORM_NAMES = List.of("foreach", "foreach_tiled", "program_index");
    }

    /** SYCL: kernels, queues, memory and work-group sizes. */
    public record Sycl(
            /* Chance that a nest that can be a parallel_for is one (else it runs in a single_task). */
            double pParallelFor,
            /* Chance that a parallel_for runs over an nd_range (else a range). */
            double pNdRange,
            /* Chance that the queue is in order. */
            double pInOrder,
            /* How data reaches the device: buffers, usm_shared, usm_device (buffers only up to three dimensions). */
            List<String> memory,
            /* Work-group sizes per dimension of an nd_range kernel. */
            List<Integer> groupSizes,
            /* The same for an nd_range kernel with a sycl::reduction. */
            List<Integer> reductionGroupSizes) {
        public static final List<String> MEMORY_NAMES = List.of("buffers", "usm_shared", "usm_device");
    }

    /** The values the lowerers used before they were a policy (and default.yaml's). */
    public static final EmitPolicy DEFAULT = new EmitPolicy(
            new Ispc(0.9, Ispc.GANG_FORM_NAMES, 0.5, 0.3),
            new Sycl(0.9, 0.4, 0.5, Sycl.MEMORY_NAMES, List.of(1, 2, 3, 4, 5, 8, 16), List.of(2, 4, 8, 16)));
}
