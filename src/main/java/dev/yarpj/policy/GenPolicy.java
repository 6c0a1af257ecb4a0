package dev.yarpj.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every knob of generation. {@link #defaults()} is the built-in policy; a YAML file
 * (see {@link PolicyLoader}) overrides any subset of keys, spelled in snake_case.
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
        long maxIterations,
        long maxArrayBytes,
        int maxArrayRank,
        int maxExprDepth,
        double pOpaqueBound,
        double pSplit,
        double pHiddenSplit,
        double pParityBranch,
        double pParam,
        double pImperfect,
        double pCountDown,
        double pSharedSpace,
        double loopNestingDecay,
        Map<String, Integer> stmtWeights,
        Map<String, Integer> typeWeights,
        Map<String, Integer> opWeights) {

    /** Hard ceiling for max_array_bytes: beyond 2 GiB of globals a test needs -mcmodel=large. */
    public static final long ARRAY_BYTES_CEILING = 1L << 30;

    public static final List<String> STMT_KINDS =
            List.of("assign", "compound", "local", "if", "loop_nest", "loop_seq");
    public static final List<String> TYPE_NAMES = List.of(
            "bool", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned int",
            "long long", "unsigned long long");
    public static final List<String> OP_NAMES = List.of(
            "add", "sub", "mul", "div", "rem", "shl", "shr", "band", "bor", "bxor",
            "lt", "gt", "le", "ge", "eq", "ne", "land", "lor",
            "neg", "bnot", "lnot", "min", "max", "ternary", "cast");

    public static GenPolicy defaults() {
        return new GenPolicy(
                "default",
                5, 1, 4,
                5, 4, 3, 2,
                1, 40, 3,
                50_000, 4L << 20, 3, 4,
                0.3, 0.4, 0.5, 0.3, 0.3, 0.4, 0.2, 0.5, 0.45,
                weights(STMT_KINDS, 10, 2, 4, 3, 5, 2),
                weights(TYPE_NAMES, 1, 2, 2, 2, 2, 6, 4, 4, 3),
                weights(OP_NAMES, 10, 10, 8, 3, 3, 3, 3, 4, 4, 4,
                        2, 2, 2, 2, 2, 2, 1, 1,
                        2, 2, 1, 2, 2, 3, 3));
    }

    private static Map<String, Integer> weights(List<String> names, int... w) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) m.put(names.get(i), w[i]);
        return m;
    }
}
