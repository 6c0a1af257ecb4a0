package dev.yarpj.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every knob of generation. The built-in policy ({@link #defaults()}) is
 * {@code policies/default.yaml}, bundled in the jar; a user's YAML file (see
 * {@link PolicyLoader}) overrides any subset of its keys, spelled in snake_case. Flat keys
 * are the older ones; newer knobs are grouped in sections (nested records read from nested
 * mappings): {@code emit} (how ISPC and SYCL spell a program), {@code skeleton},
 * {@code loops}, {@code expressions}, {@code statements}, {@code dead_code}, {@code exits}
 * and {@code carried} (the odds of generation that act there), and {@code inputs} (how many
 * input sets a test carries).
 */
public record GenPolicy(
        String name,
        int maxTopStmts,
        int minBlockStmts,
        int maxBlockStmts,
        int maxLoopDepth,
        int maxNestDepth,
        int maxSeqLength,
        int maxIfDepth,
        int minTrip,
        int maxTrip,
        int maxStep,
        int minIdiomTrip,
        int maxIdiomTrip,
        long maxIterations,
        double minCompileS,
        double maxCompileS,
        long maxArrayBytes,
        int maxArrayRank,
        int maxExprDepth,
        int maxStencilReach,
        int maxStencilStride,
        int maxStencilTaps,
        int maxStencilArrays,
        int maxStencilDims,
        double pOpaqueBound,
        double pSplit,
        double pHiddenSplit,
        double pParityBranch,
        double pParityStore,
        double pParam,
        double pImperfect,
        double pCountDown,
        double pSharedSpace,
        double pArray,
        double pSpecialConst,
        double pInvariantGuard,
        double pInvariantPart,
        double pIdiomSeq,
        double loopNestingDecay,
        double pTinyTrip,
        double pVectorTrip,
        double pEnterLoops,
        double pArrayParam,
        double pRestrict,
        double pSameSubscript,
        double pNearViews,
        double pArrayTargetInLoop,
        double pArrayTarget,
        double pReuseOutputArray,
        double pReuseOutput,
        double pLocalKeepsType,
        double pReducePromoted,
        double pReduceFromZero,
        double pMemsetZero,
        double pGuardedDiv,
        double pUnitStep,
        double pStencilDiagonalTap,
        boolean allowImplDefined,
        Map<String, Integer> stmtWeights,
        Map<String, Integer> typeWeights,
        Map<String, Integer> opWeights,
        Map<String, Integer> idiomWeights,
        Map<String, Integer> accessWeights,
        Map<String, Integer> reductionWeights,
        Map<String, Integer> pragmaWeights,
        Map<String, Integer> tripMultipleWeights,
        Map<String, Integer> iteratorTypeWeights,
        Map<String, Integer> idiomIteratorTypeWeights,
        EmitPolicy emit,
        SkeletonPolicy skeleton,
        LoopPolicy loops,
        ExprPolicy expressions,
        StmtPolicy statements,
        DeadCodePolicy deadCode,
        ExitPolicy exits,
        CarriedPolicy carried,
        SwitchPolicy switches,
        FunctionPolicy functions,
        StructPolicy structs,
        FloatPolicy floats,
        InputPolicy inputs) {

    /** Hard ceiling for max_array_bytes: beyond 2 GiB of globals a test needs -mcmodel=large. */
    public static final long ARRAY_BYTES_CEILING = 1L << 30;

    public static final List<String> STMT_KINDS = List.of("assign", "compound", "local", "if", "loop_nest", "loop_seq",
            "invariant_if", "guarded_div", "redundant_expr", "aliased_update", "dead_code", "switch");
    public static final List<String> TYPE_NAMES = List.of(
            "bool", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
            "long long", "unsigned long long");
    public static final List<String> OP_NAMES = List.of(
            "add", "sub", "mul", "div", "rem", "shl", "shr", "band", "bor", "bxor",
            "lt", "gt", "le", "ge", "eq", "ne", "land", "lor",
            "neg", "bnot", "lnot", "min", "max", "ternary", "cast", "mask");
    /** What a loop nest is for: a plain random nest, or one of the idioms of paper section 3.2. */
    public static final List<String> IDIOM_NAMES =
            List.of("plain", "vectorizable", "reduction", "stencil", "memset", "memcpy");
    /** How the subscripts of a nest's array accesses relate to its loops. */
    public static final List<String> ACCESS_NAMES = List.of("random", "in_order", "column_major", "diagonal", "slice");
    public static final List<String> REDUCTION_NAMES = List.of("sum", "min", "max", "and", "or", "xor");
    public static final List<String> PRAGMA_NAMES = List.of("none", "clang_vectorize", "clang_interleave",
            "clang_unroll", "clang_unroll_count", "clang_vectorize_predicate", "clang_distribute", "gcc_unroll",
            "gcc_ivdep");

    /** Vector widths (in elements) and unroll factors that planned trip counts are multiples of. */
    public static final List<String> TRIP_MULTIPLE_NAMES = List.of("2", "4", "8", "16", "32", "64");

    /** Types a loop iterator may have: every integer type but bool. */
    public static final List<String> ITERATOR_TYPE_NAMES = TYPE_NAMES.subList(1, TYPE_NAMES.size());
    /** Types an idiom loop's iterator may have: as wide as an index usually is, so no wrap-around hides the trip count. */
    public static final List<String> IDIOM_ITERATOR_TYPE_NAMES = List.of("int", "unsigned int", "long long", "unsigned long long");

    /** The names each weight map accepts, by its policy key. */
    public static final Map<String, List<String>> WEIGHT_NAMES = Map.ofEntries(
            Map.entry("iterator_type_weights", ITERATOR_TYPE_NAMES),
            Map.entry("idiom_iterator_type_weights", IDIOM_ITERATOR_TYPE_NAMES),
            Map.entry("stmt_weights", STMT_KINDS),
            Map.entry("type_weights", TYPE_NAMES),
            Map.entry("op_weights", OP_NAMES),
            Map.entry("idiom_weights", IDIOM_NAMES),
            Map.entry("access_weights", ACCESS_NAMES),
            Map.entry("reduction_weights", REDUCTION_NAMES),
            Map.entry("pragma_weights", PRAGMA_NAMES),
            Map.entry("trip_multiple_weights", TRIP_MULTIPLE_NAMES),
            Map.entry("loops.up_cmp_weights", LoopPolicy.UP_CMP_NAMES),
            Map.entry("loops.down_cmp_weights", LoopPolicy.DOWN_CMP_NAMES),
            Map.entry("loops.idiom_cmp_weights", LoopPolicy.UP_CMP_NAMES),
            Map.entry("expressions.leaf_weights", ExprPolicy.LEAF_NAMES),
            Map.entry("expressions.special_const_weights", ExprPolicy.SPECIAL_CONST_NAMES),
            Map.entry("expressions.mask_weights", ExprPolicy.MASK_NAMES),
            Map.entry("expressions.mask_op_weights", ExprPolicy.MASK_OP_NAMES),
            Map.entry("expressions.parity_form_weights", ExprPolicy.PARITY_FORM_NAMES),
            Map.entry("statements.aliased_form_weights", StmtPolicy.ALIASED_FORM_NAMES),
            Map.entry("dead_code.kind_weights", DeadCodePolicy.KIND_NAMES),
            Map.entry("exits.kind_weights", ExitPolicy.KIND_NAMES),
            Map.entry("exits.position_weights", ExitPolicy.POSITION_NAMES),
            Map.entry("carried.kind_weights", CarriedPolicy.KIND_NAMES),
            Map.entry("functions.linkage_weights", FunctionPolicy.LINKAGE_NAMES),
            Map.entry("carried.min_max_cmp_weights", CarriedPolicy.MIN_MAX_CMP_NAMES),
            Map.entry("carried.cond_cmp_weights", CarriedPolicy.COND_CMP_NAMES),
            Map.entry("carried.form_weights", CarriedPolicy.FORM_NAMES),
            Map.entry("carried.recurrence_op_weights", CarriedPolicy.RECURRENCE_OP_NAMES),
            Map.entry("carried.type_weights", CarriedPolicy.TYPE_NAMES),
            Map.entry("dead_code.overflow_weights", DeadCodePolicy.OVERFLOW_NAMES),
            Map.entry("dead_code.combine_op_weights", DeadCodePolicy.COMBINE_OP_NAMES),
            Map.entry("statements.invariant_part_op_weights", StmtPolicy.INVARIANT_PART_OP_NAMES),
            Map.entry("statements.guarded_div_op_weights", StmtPolicy.GUARDED_DIV_OP_NAMES),
            Map.entry("statements.redundant_op_weights", StmtPolicy.REDUNDANT_OP_NAMES),
            Map.entry("statements.redundant_combine_op_weights", StmtPolicy.REDUNDANT_COMBINE_OP_NAMES),
            Map.entry("statements.aliased_compare_op_weights", StmtPolicy.ALIASED_COMPARE_OP_NAMES),
            Map.entry("statements.aliased_arith_op_weights", StmtPolicy.ALIASED_ARITH_OP_NAMES));

    /** The names each list of names accepts, by its dotted policy key. */
    public static final Map<String, List<String>> LIST_NAMES = Map.ofEntries(
            Map.entry("emit.ispc.gang_forms", EmitPolicy.Ispc.GANG_FORM_NAMES),
            Map.entry("emit.sycl.memory", EmitPolicy.Sycl.MEMORY_NAMES));

    /** The built-in policy: policies/default.yaml as bundled in the jar. */
    public static GenPolicy defaults() {
        return PolicyLoader.builtin();
    }

    /**
     * Swarm testing (Groce et al., as in YARPGen v1): this policy with a random subset of
     * features switched off for one test. Each operator, type, statement kind, idiom, access
     * pattern, reduction and pragma is dropped with probability 1/2, except plain assignment,
     * plain nests, random access and no pragma; at least one operator and one type stay.
     * Drawn from {@code seed}, so the same seed gives the same subset.
     */
    public GenPolicy swarm(long seed) {
        Rng rng = new Rng(seed ^ 0x5eed5eed5eedL);
        Map<String, Object> changes = new LinkedHashMap<>();
        changes.put("name", name + "+swarm");
        changes.put("stmt_weights", thin(stmtWeights, rng, "assign"));
        changes.put("type_weights", thin(typeWeights, rng, null));
        changes.put("op_weights", thin(opWeights, rng, null));
        changes.put("idiom_weights", thin(idiomWeights, rng, "plain"));
        changes.put("access_weights", thin(accessWeights, rng, "random"));
        changes.put("reduction_weights", thin(reductionWeights, rng, null));
        changes.put("pragma_weights", thin(pragmaWeights, rng, "none"));
        return PolicyLoader.with(this, changes);
    }

    private static Map<String, Integer> thin(Map<String, Integer> w, Rng rng, String keep) {
        Map<String, Integer> m = new LinkedHashMap<>();
        String survivor = null;
        for (Map.Entry<String, Integer> e : w.entrySet()) {
            boolean drop = !e.getKey().equals(keep) && rng.chance(0.5);
            m.put(e.getKey(), drop ? 0 : e.getValue());
            if (!drop && e.getValue() > 0) survivor = e.getKey();
        }
        if (survivor == null) {
            // Everything dropped: bring back one feature that the base policy enables.
            for (Map.Entry<String, Integer> e : w.entrySet()) {
                if (e.getValue() > 0) {
                    m.put(e.getKey(), e.getValue());
                    break;
                }
            }
        }
        return m;
    }
}
