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

    /**
     * Swarm testing (Groce et al., as in YARPGen v1): this policy with a random subset of
     * features switched off for one test. Each operator, type and statement kind other than
     * plain assignment is dropped with probability 1/2; at least one operator and one type
     * stay. Drawn from {@code seed}, so the same seed gives the same subset.
     */
    public GenPolicy swarm(long seed) {
        Rng rng = new Rng(seed ^ 0x5eed5eed5eedL);
        return new GenPolicy(name + "+swarm", maxTopStmts, minBlockStmts, maxBlockStmts, maxLoopDepth, maxNestDepth,
                maxSeqLength, maxIfDepth, minTrip, maxTrip, maxStep, maxIterations, maxArrayBytes, maxArrayRank,
                maxExprDepth, pOpaqueBound, pSplit, pHiddenSplit, pParityBranch, pParam, pImperfect, pCountDown,
                pSharedSpace, loopNestingDecay, thin(stmtWeights, rng, "assign"), thin(typeWeights, rng, null),
                thin(opWeights, rng, null));
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

    private static Map<String, Integer> weights(List<String> names, int... w) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) m.put(names.get(i), w[i]);
        return m;
    }
}
