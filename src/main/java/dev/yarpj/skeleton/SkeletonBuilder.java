package dev.yarpj.skeleton;

import dev.yarpj.ir.Idiom;
import dev.yarpj.ir.Pragma;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import dev.yarpj.policy.SkeletonPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Builds a {@link Skeleton} top-down from a policy and a random source. */
public final class SkeletonBuilder {
    /** Statement kinds that only make sense inside a loop. */
    private static final List<String> LOOP_ONLY = List.of("invariant_if", "guarded_div", "redundant_expr", "aliased_update");

    private final GenPolicy policy;
    /** The policy's skeleton: section. */
    private final SkeletonPolicy sk;
    private final Rng rng;
    private final Supplier<String> idioms;
    private final Supplier<String> accesses;
    private final Supplier<String> pragmas;
    /** Set while building a block that must hold no loop (see the else branch of an if). */
    private boolean loopsBanned;

    public SkeletonBuilder(GenPolicy policy, Rng rng) {
        this.policy = policy;
        this.sk = policy.skeleton();
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
        if (policy.maxCompileS() <= 0) return TripPlanner.plan(new Skeleton(top), policy, rng);
        int natural = top.size();
        List<Shape> sized = toBudget(top, compileBudget());
        // Each top-level statement keeps the share of the iteration budget it has in a test of
        // its natural size: a test grown to its budget has more loops, not shorter ones.
        long iterations = policy.maxIterations() * Math.max(1, sized.size() / natural);
        return TripPlanner.plan(new Skeleton(sized, iterations), policy, rng);
    }

    /** Top-level statements of a test grown to its budget: far more than any budget up to 1e6 s needs. */
    private static final int MAX_TOP_STMTS = 4096;

    /**
     * This test's compile budget in estimated seconds of gcc -O3 ({@link CompileCost}), the
     * most it may cost: log-uniform between the policy's min_compile_s and max_compile_s, so
     * that the cap varies from test to test (a swarm over size) and sizes spread over the
     * whole range instead of piling up at the largest.
     */
    private double compileBudget() {
        double lo = Math.log(policy.minCompileS());
        double hi = Math.log(policy.maxCompileS());
        return Math.exp(lo + (hi - lo) * rng.between(0, 1_000_000) / 1e6);
    }

    /**
     * The top-level statements of a test sized between min_compile_s and {@code budget}: a
     * test estimated under min_compile_s gets more statements until it reaches it (a compile
     * that short is mostly the compiler starting up); one over the budget keeps the longest
     * leading run that fits (at least one statement, and the first loop if the run has
     * none); a test in between keeps its natural size. The estimate counts statements only,
     * so it is known before any trip is planned.
     */
    private List<Shape> toBudget(List<Shape> top, double budget) {
        List<Shape> out = new ArrayList<>(top);
        while (out.size() < MAX_TOP_STMTS && CompileCost.of(out).seconds() < policy.minCompileS()) out.add(statement(0, 0, false));
        // Compile time grows faster than size, so a prefix is costed whole, not as a sum of parts.
        CompileCost sum = CompileCost.of(List.of());
        int keep = 0;
        while (keep < out.size()) {
            CompileCost with = sum.plus(CompileCost.of(List.of(out.get(keep))));
            if (keep > 0 && with.seconds() > budget) break;
            sum = with;
            keep++;
        }
        if (keep == out.size()) return out;
        List<Shape> cut = new ArrayList<>(out.subList(0, keep));
        if (policy.maxLoopDepth() > 0 && !Shape.hasLoop(cut)) {
            out.stream().skip(keep).filter(Shape::hasLoop).findFirst().ifPresent(cut::add);
        }
        return cut;
    }

    /**
     * Statements at the top level. Most tests are small; a heavy-tailed factor (log-uniform
     * up to skeleton.max_big_test_factor, for skeleton.p_big_test of the tests) gives the
     * long tail of big tests YARPGen shows.
     */
    private int topCount() {
        int n = rng.between(1, policy.maxTopStmts());
        if (rng.chance(sk.pBigTest())) n = (int) Math.ceil(n * Math.exp(rng.between(0, 1000) / 1000.0 * Math.log(sk.maxBigTestFactor())));
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
        boolean loopsAllowed = loopDepth < policy.maxLoopDepth() && !loopsBanned;
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
                List<Shape> otherwise = null;
                if (rng.chance(sk.pElse())) {
                    // Loops in both branches: one of them would never run (fleshing steers the
                    // condition toward the branch with loops), so mostly keep loops to one side.
                    boolean banned = loopsBanned;
                    loopsBanned = banned || (Shape.hasLoop(then) && rng.chance(policy.pEnterLoops()));
                    otherwise = innerBlock(loopDepth, ifDepth + 1, inSplit);
                    loopsBanned = banned;
                }
                yield new Shape.IfShape(then, otherwise, cond);
            }
            case "guarded_div" -> new Shape.Slot(Shape.SlotKind.GUARDED_DIV);
            case "redundant_expr" -> new Shape.Slot(Shape.SlotKind.REDUNDANT_EXPR);
            case "aliased_update" -> new Shape.Slot(Shape.SlotKind.ALIASED_UPDATE);
            case "dead_code" -> new Shape.Slot(Shape.SlotKind.DEAD_CODE);
            case "switch" -> new Shape.Slot(Shape.SlotKind.SWITCH);
            case "loop_nest" -> {
                Shape.NestPlan plan = plan();
                // Idioms come in runs over one range, as in real code: a fusible sequence.
                yield plan.idiom() != Idiom.PLAIN && rng.chance(policy.pIdiomSeq())
                        ? seq(loopDepth, ifDepth, inSplit, plan)
                        : nest(loopDepth, ifDepth, inSplit, randomDepth(loopDepth), plan);
            }
            case "loop_seq" -> seq(loopDepth, ifDepth, inSplit, null);
            default -> new Shape.Slot(Shape.SlotKind.ASSIGN);
        };
    }

    private int randomDepth(int loopDepth) {
        int room = Math.min(policy.maxNestDepth(), policy.maxLoopDepth() - loopDepth);
        // Shallow nests are the common case, deep ones the tail: the odds shrink geometrically per level.
        int d = 1;
        while (d < room && rng.chance(sk.pDeeperNest())) d++;
        return d;
    }

    /** What the next nest is for: an idiom, or a plain nest with an access pattern; and its pragma. */
    private Shape.NestPlan plan() {
        Idiom idiom = Idiom.valueOf(idioms.get().toUpperCase());
        Pragma pragma = Pragma.byPolicyName(pragmas.get());
        if (idiom != Idiom.PLAIN) {
            // Idiom nests walk their arrays row-major, innermost loop on the last dimension.
            // Element-wise and reduction nests sometimes walk in interleaved groups (no draw when off).
            boolean grouped = (idiom == Idiom.VECTORIZABLE || idiom == Idiom.REDUCTION) && sk.pInterleaved() > 0
                    && rng.chance(sk.pInterleaved());
            return new Shape.NestPlan(idiom, Shape.Access.IN_ORDER, pragma,
                    idiom == Idiom.STENCIL ? stencilPlan() : null, grouped ? rng.between(2, sk.maxGroup()) : 1);
        }
        return new Shape.NestPlan(idiom, Shape.Access.valueOf(accesses.get().toUpperCase()), pragma, null, 1);
    }

    private Shape.StencilPlan stencilPlan() {
        return new Shape.StencilPlan(
                rng.between(1, Math.min(policy.maxStencilDims(), policy.maxArrayRank())),
                rng.between(1, policy.maxStencilReach()),
                rng.between(1, policy.maxStencilStride()),
                rng.between(2, policy.maxStencilTaps()),
                rng.between(1, policy.maxStencilArrays()),
                rng.chance(sk.pStencilReduced()));
    }

    private Shape.Nest nest(int loopDepth, int ifDepth, boolean inSplit, int depth, Shape.NestPlan plan) {
        if (plan.walksLikeAnIdiom()) return idiomNest(loopDepth, ifDepth, inSplit, depth, plan);
        int split = !inSplit && rng.chance(policy.pSplit()) ? rng.between(0, depth - 1) : -1;
        List<Shape.Level> levels = new ArrayList<>();
        for (int l = 0; l < depth; l++) {
            levels.add(level(l < depth - 1, loopDepth + l + 1, ifDepth, inSplit || (split >= 0 && l >= split)));
        }
        List<Shape> body = innermost(innerBlock(loopDepth + depth, ifDepth, inSplit || split >= 0), plan);
        return new Shape.Nest(levels, body, split, plan);
    }

    /** One level of a nest: statements before and after the next loop, when it is not the innermost and the nest is imperfect there. */
    private Shape.Level level(boolean outer, int loopDepth, int ifDepth, boolean inSplit) {
        boolean imperfect = outer && rng.chance(policy.pImperfect());
        List<Shape> prefix = imperfect && rng.chance(sk.pLevelPrefix())
                ? block(rng.between(sk.minLevelStmts(), sk.maxLevelStmts()), loopDepth, ifDepth, inSplit) : List.of();
        List<Shape> suffix = imperfect && (prefix.isEmpty() || rng.chance(sk.pLevelSuffix()))
                ? block(rng.between(sk.minLevelStmts(), sk.maxLevelStmts()), loopDepth, ifDepth, inSplit) : List.of();
        return new Shape.Level(prefix, suffix, 0);
    }

    /**
     * An idiom nest: unsplit, its innermost loop perfect and its body the statements the
     * idiom is made of. Outer levels may carry statements before and after the next loop,
     * as in a plain nest. A stencil nest is at least as deep as the stencil is wide.
     */
    private Shape.Nest idiomNest(int loopDepth, int ifDepth, boolean inSplit, int depth, Shape.NestPlan plan) {
        if (plan.stencil() != null && plan.stencil().dims() > depth) {
            int room = Math.min(policy.maxNestDepth(), policy.maxLoopDepth() - loopDepth);
            Shape.StencilPlan st = plan.stencil();
            depth = Math.max(depth, Math.min(room, st.dims()));
            plan = plan.withStencil(new Shape.StencilPlan(
                    Math.min(st.dims(), depth), st.reach(), st.stride(), st.taps(), st.arrays(), st.reduced()));
        }
        List<Shape.Level> levels = new ArrayList<>();
        // An interchange candidate must be perfect: the compiler can only swap loops with nothing between them.
        boolean interchange = plan.access() == Shape.Access.COLUMN_MAJOR;
        for (int l = 0; l < depth; l++) levels.add(level(!interchange && l < depth - 1, loopDepth + l + 1, ifDepth, inSplit));
        // As many statements as a plain nest's body, each of the idiom's own kind.
        int n = rng.between(policy.minBlockStmts(), policy.maxBlockStmts());
        Shape.SlotKind kind = switch (plan.idiom()) {
            case VECTORIZABLE, PLAIN -> Shape.SlotKind.ELEMENTWISE;
            case REDUCTION -> Shape.SlotKind.REDUCE;
            case STENCIL -> Shape.SlotKind.STENCIL;
            case MEMSET -> Shape.SlotKind.MEMSET;
            case MEMCPY -> Shape.SlotKind.MEMCPY;
        };
        List<Shape> body = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // Element-wise nests also compute temporaries; reductions sometimes store element-wise too.
            Shape.SlotKind k = kind;
            if (i > 0 && kind == Shape.SlotKind.ELEMENTWISE && rng.chance(sk.pElementwiseLocal())) k = Shape.SlotKind.LOCAL;
            if (i > 0 && kind == Shape.SlotKind.REDUCE && rng.chance(sk.pReductionElementwise())) k = Shape.SlotKind.ELEMENTWISE;
            Shape slot = new Shape.Slot(k);
            if (ifDepth < policy.maxIfDepth() && rng.chance(policy.pInvariantGuard())) {
                // A loop-invariant test around the idiom: unswitching makes two loops of one.
                slot = new Shape.IfShape(List.of(slot), rng.chance(sk.pGuardElse()) ? List.of(new Shape.Slot(kind)) : null,
                        Shape.CondKind.INVARIANT);
            }
            body.add(slot);
        }
        // An element-wise nest may split its innermost loop into odd and even iterations:
        // its stores then differ by parity (p_parity_store), lane by lane in an ISPC gang.
        int split = !inSplit && plan.idiom() == Idiom.VECTORIZABLE && rng.chance(policy.pSplit()) ? depth - 1 : -1;
        return new Shape.Nest(levels, innermost(body, plan), split, plan);
    }

    /**
     * A nest's innermost body as {@link #withCarried} makes it or, when the nest asks for
     * distribution ({@code #pragma clang loop distribute(enable)}) and the policy's
     * {@code skeleton: p_distributable} draws it, with a recurrence through memory at a place
     * drawn among its statements and no carried scalar. LoopDistribute splits a loop only
     * around a dependence that stops vectorization; without one the pragma asks for nothing.
     */
    private List<Shape> innermost(List<Shape> body, Shape.NestPlan plan) {
        if (plan.pragma() != Pragma.CLANG_DISTRIBUTE || sk.pDistributable() <= 0 || !rng.chance(sk.pDistributable())) {
            return withCarried(body);
        }
        List<Shape> b = new ArrayList<>(body);
        b.add(rng.between(0, b.size()), new Shape.Slot(Shape.SlotKind.RECURRENCE));
        return b;
    }

    /**
     * An innermost body, sometimes (policy {@code carried: p_carried}) with a statement that
     * carries a scalar across the loop's iterations at a place drawn among its statements, or
     * ({@code p_alone}) that statement alone: a loop that does nothing else.
     * Nothing is drawn when the chance is 0, so such a policy builds what it built before.
     */
    private List<Shape> withCarried(List<Shape> body) {
        double p = policy.carried().pCarried();
        if (p <= 0 || !rng.chance(p)) return body;
        if (rng.chance(policy.carried().pAlone())) return List.of(new Shape.Slot(Shape.SlotKind.CARRIED));
        List<Shape> b = new ArrayList<>(body);
        b.add(rng.between(0, b.size()), new Shape.Slot(Shape.SlotKind.CARRIED));
        return b;
    }

    /** @param idiomPlan the plan every nest shares, over one space; null for a random sequence */
    private Shape.Seq seq(int loopDepth, int ifDepth, boolean inSplit, Shape.NestPlan idiomPlan) {
        int n = rng.between(2, Math.max(2, policy.maxSeqLength()));
        boolean shared = idiomPlan != null || rng.chance(policy.pSharedSpace());
        int depth = randomDepth(loopDepth);
        // Nests sharing one space are one kind of nest: the bounds an idiom needs suit them all.
        Shape.NestPlan plan = idiomPlan != null ? idiomPlan : shared ? plan() : null;
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
