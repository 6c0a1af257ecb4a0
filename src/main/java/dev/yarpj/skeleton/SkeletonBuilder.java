package dev.yarpj.skeleton;

import dev.yarpj.ir.Pragma;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Builds a {@link Skeleton} top-down from a policy and a random source. */
public final class SkeletonBuilder {
    /** Statement kinds that only make sense inside a loop. */
    private static final List<String> LOOP_ONLY = List.of("invariant_if", "guarded_div", "redundant_expr");

    private final GenPolicy policy;
    private final Rng rng;
    private final Supplier<String> idioms;
    private final Supplier<String> accesses;
    private final Supplier<String> pragmas;

    public SkeletonBuilder(GenPolicy policy, Rng rng) {
        this.policy = policy;
        this.rng = rng;
        this.idioms = rng.sampler(policy.idiomWeights());
        this.accesses = rng.sampler(policy.accessWeights());
        this.pragmas = rng.sampler(policy.pragmaWeights());
    }

    public Skeleton build() {
        List<Shape> top = block(topCount(), 0, 0, false);
        // A test for loop optimizers has at least one loop.
        if (policy.maxLoopDepth() > 0 && top.stream().noneMatch(s -> s instanceof Shape.Nest || s instanceof Shape.Seq)) {
            top.set(rng.between(0, top.size() - 1), nest(0, 0, false, randomDepth(0), plan()));
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
            for (String k : w.keySet()) if (!k.startsWith("loop_")) w.put(k, w.get(k) * 100);
        }
        if (loopDepth == 0) for (String k : LOOP_ONLY) w.put(k, 0);
        if (ifDepth >= policy.maxIfDepth()) {
            w.put("if", 0);
            w.put("invariant_if", 0);
        }
        String kind = rng.weighted(w);
        if (kind == null) kind = "assign";
        return switch (kind) {
            case "compound" -> new Shape.Slot(Shape.SlotKind.COMPOUND);
            case "local" -> new Shape.Slot(Shape.SlotKind.LOCAL);
            case "if", "invariant_if" -> {
                Shape.CondKind cond = kind.equals("invariant_if") ? Shape.CondKind.INVARIANT
                        : inSplit && rng.chance(policy.pParityBranch()) ? Shape.CondKind.PARITY : Shape.CondKind.ANY;
                List<Shape> then = innerBlock(loopDepth, ifDepth + 1, inSplit);
                List<Shape> otherwise = rng.chance(0.5) ? innerBlock(loopDepth, ifDepth + 1, inSplit) : null;
                yield new Shape.IfShape(then, otherwise, cond);
            }
            case "guarded_div" -> new Shape.Slot(Shape.SlotKind.GUARDED_DIV);
            case "redundant_expr" -> new Shape.Slot(Shape.SlotKind.REDUNDANT_EXPR);
            case "loop_nest" -> nest(loopDepth, ifDepth, inSplit, randomDepth(loopDepth), plan());
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

    /** What the next nest is for: an idiom, or a plain nest with an access pattern; and its pragma. */
    private Shape.NestPlan plan() {
        Shape.Idiom idiom = Shape.Idiom.valueOf(idioms.get().toUpperCase());
        Pragma pragma = Pragma.byPolicyName(pragmas.get());
        if (idiom != Shape.Idiom.PLAIN) {
            // Idiom nests walk their arrays row-major, innermost loop on the last dimension.
            return new Shape.NestPlan(idiom, Shape.Access.IN_ORDER, pragma,
                    idiom == Shape.Idiom.STENCIL ? stencilPlan() : null);
        }
        return new Shape.NestPlan(idiom, Shape.Access.valueOf(accesses.get().toUpperCase()), pragma, null);
    }

    private Shape.StencilPlan stencilPlan() {
        return new Shape.StencilPlan(
                rng.between(1, Math.min(policy.maxStencilDims(), policy.maxArrayRank())),
                rng.between(1, policy.maxStencilReach()),
                rng.between(1, policy.maxStencilStride()),
                rng.between(2, policy.maxStencilTaps()),
                rng.between(1, policy.maxStencilArrays()),
                rng.chance(0.3));
    }

    private Shape.Nest nest(int loopDepth, int ifDepth, boolean inSplit, int depth, Shape.NestPlan plan) {
        if (plan.idiom() != Shape.Idiom.PLAIN) return idiomNest(loopDepth, depth, plan);
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
        return new Shape.Nest(levels, body, split, plan);
    }

    /**
     * An idiom nest: perfect (every statement innermost), unsplit, its body the statements
     * the idiom is made of. A stencil nest is at least as deep as the stencil is wide.
     */
    private Shape.Nest idiomNest(int loopDepth, int depth, Shape.NestPlan plan) {
        if (plan.stencil() != null && plan.stencil().dims() > depth) {
            int room = Math.min(policy.maxNestDepth(), policy.maxLoopDepth() - loopDepth);
            Shape.StencilPlan st = plan.stencil();
            depth = Math.max(depth, Math.min(room, st.dims()));
            plan = new Shape.NestPlan(plan.idiom(), plan.access(), plan.pragma(), new Shape.StencilPlan(
                    Math.min(st.dims(), depth), st.reach(), st.stride(), st.taps(), st.arrays(), st.reduced()));
        }
        List<Shape.Level> levels = new ArrayList<>();
        for (int l = 0; l < depth; l++) levels.add(new Shape.Level(List.of(), List.of()));
        List<Shape> body = new ArrayList<>();
        switch (plan.idiom()) {
            case VECTORIZABLE -> {
                int n = rng.between(policy.minBlockStmts(), policy.maxBlockStmts());
                for (int i = 0; i < n; i++) {
                    body.add(new Shape.Slot(i > 0 && rng.chance(0.25) ? Shape.SlotKind.LOCAL : Shape.SlotKind.ELEMENTWISE));
                }
            }
            case REDUCTION -> {
                body.add(new Shape.Slot(Shape.SlotKind.REDUCE));
                if (rng.chance(0.3)) body.add(new Shape.Slot(rng.chance(0.5) ? Shape.SlotKind.REDUCE : Shape.SlotKind.ELEMENTWISE));
            }
            case STENCIL -> body.add(new Shape.Slot(Shape.SlotKind.STENCIL));
            case MEMSET -> body.add(new Shape.Slot(Shape.SlotKind.MEMSET));
            case MEMCPY -> body.add(new Shape.Slot(Shape.SlotKind.MEMCPY));
            default -> throw new IllegalStateException("not an idiom: " + plan.idiom());
        }
        return new Shape.Nest(levels, body, -1, plan);
    }

    private Shape.Seq seq(int loopDepth, int ifDepth, boolean inSplit) {
        int n = rng.between(2, Math.max(2, policy.maxSeqLength()));
        boolean shared = rng.chance(policy.pSharedSpace());
        int depth = randomDepth(loopDepth);
        // Nests sharing one space are one kind of nest: the bounds an idiom needs suit them all.
        Shape.NestPlan plan = shared ? plan() : null;
        List<Shape.Nest> nests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nests.add(nest(loopDepth, ifDepth, inSplit, shared ? depth : randomDepth(loopDepth), shared ? plan : plan()));
        }
        if (shared) {
            // A stencil may have deepened one nest; the nests of a shared space must match.
            int d = nests.get(0).depth();
            if (nests.stream().anyMatch(x -> x.depth() != d)) shared = false;
        }
        return new Shape.Seq(nests, shared);
    }
}
