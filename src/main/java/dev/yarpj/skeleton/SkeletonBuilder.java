package dev.yarpj.skeleton;

import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds a {@link Skeleton} top-down from a policy and a random source. */
public final class SkeletonBuilder {
    private final GenPolicy policy;
    private final Rng rng;

    public SkeletonBuilder(GenPolicy policy, Rng rng) {
        this.policy = policy;
        this.rng = rng;
    }

    public Skeleton build() {
        List<Shape> top = block(topCount(), 0, 0, false);
        // A test for loop optimizers has at least one loop.
        if (policy.maxLoopDepth() > 0 && top.stream().noneMatch(s -> s instanceof Shape.Nest || s instanceof Shape.Seq)) {
            top.set(rng.between(0, top.size() - 1), nest(0, 0, false, randomDepth(0)));
        }
        return new Skeleton(top);
    }

    /**
     * Statements at the top level. Most tests are small; a heavy-tailed factor (log-uniform
     * up to 64, for a tenth of the tests) gives the long tail of big tests YARPGen shows.
     */
    private int topCount() {
        int n = rng.between(1, policy.maxTopStmts());
        if (rng.chance(0.1)) n = (int) Math.ceil(n * Math.exp(rng.between(0, 1000) / 1000.0 * Math.log(64)));
        return n;
    }

    private List<Shape> block(int count, int loopDepth, int ifDepth, boolean inSplit) {
        List<Shape> out = new ArrayList<>();
        for (int i = 0; i < count; i++) out.add(statement(loopDepth, ifDepth, inSplit));
        return out;
    }

    private List<Shape> innerBlock(int loopDepth, int ifDepth, boolean inSplit) {
        return block(rng.between(policy.minBlockStmts(), policy.maxBlockStmts()), loopDepth, ifDepth, inSplit);
    }

    private Shape statement(int loopDepth, int ifDepth, boolean inSplit) {
        Map<String, Integer> w = new LinkedHashMap<>(policy.stmtWeights());
        boolean loopsAllowed = loopDepth < policy.maxLoopDepth();
        if (!loopsAllowed) {
            w.put("loop_nest", 0);
            w.put("loop_seq", 0);
        } else if (loopDepth > 0) {
            // Loops inside loops get rarer with depth, so deep nests form the tail, not the bulk.
            double f = Math.pow(policy.loopNestingDecay(), loopDepth);
            w.put("loop_nest", (int) Math.round(w.get("loop_nest") * f * 100));
            w.put("loop_seq", (int) Math.round(w.get("loop_seq") * f * 100));
            for (String k : List.of("assign", "compound", "local", "if")) w.put(k, w.get(k) * 100);
        }
        if (ifDepth >= policy.maxIfDepth()) w.put("if", 0);
        String kind = rng.weighted(w);
        if (kind == null) kind = "assign";
        return switch (kind) {
            case "compound" -> new Shape.Slot(Shape.SlotKind.COMPOUND);
            case "local" -> new Shape.Slot(Shape.SlotKind.LOCAL);
            case "if" -> {
                boolean parity = inSplit && rng.chance(policy.pParityBranch());
                List<Shape> then = innerBlock(loopDepth, ifDepth + 1, inSplit);
                List<Shape> otherwise = rng.chance(0.5) ? innerBlock(loopDepth, ifDepth + 1, inSplit) : null;
                yield new Shape.IfShape(then, otherwise, parity);
            }
            case "loop_nest" -> nest(loopDepth, ifDepth, inSplit, randomDepth(loopDepth));
            case "loop_seq" -> seq(loopDepth, ifDepth, inSplit);
            default -> new Shape.Slot(Shape.SlotKind.ASSIGN);
        };
    }

    private int randomDepth(int loopDepth) {
        int room = Math.min(policy.maxNestDepth(), policy.maxLoopDepth() - loopDepth);
        // Shallow nests are the common case, deep ones the tail: halve the odds per level.
        int d = 1;
        while (d < room && rng.chance(0.5)) d++;
        return d;
    }

    private Shape.Nest nest(int loopDepth, int ifDepth, boolean inSplit, int depth) {
        int split = !inSplit && rng.chance(policy.pSplit()) ? rng.between(0, depth - 1) : -1;
        List<Shape.Level> levels = new ArrayList<>();
        for (int l = 0; l < depth; l++) {
            boolean levelInSplit = inSplit || (split >= 0 && l >= split);
            boolean imperfect = l < depth - 1 && rng.chance(policy.pImperfect());
            List<Shape> prefix = imperfect && rng.chance(0.6) ? block(rng.between(1, 2), loopDepth + l + 1, ifDepth, levelInSplit) : List.of();
            List<Shape> suffix = imperfect && (prefix.isEmpty() || rng.chance(0.4)) ? block(rng.between(1, 2), loopDepth + l + 1, ifDepth, levelInSplit) : List.of();
            levels.add(new Shape.Level(prefix, suffix));
        }
        List<Shape> body = innerBlock(loopDepth + depth, ifDepth, inSplit || split >= 0);
        return new Shape.Nest(levels, body, split);
    }

    private Shape.Seq seq(int loopDepth, int ifDepth, boolean inSplit) {
        int n = rng.between(2, Math.max(2, policy.maxSeqLength()));
        boolean shared = rng.chance(policy.pSharedSpace());
        int depth = randomDepth(loopDepth);
        List<Shape.Nest> nests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nests.add(nest(loopDepth, ifDepth, inSplit, shared ? depth : randomDepth(loopDepth)));
        }
        return new Shape.Seq(nests, shared);
    }
}
