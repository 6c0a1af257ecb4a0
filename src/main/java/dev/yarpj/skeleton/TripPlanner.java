package dev.yarpj.skeleton;

import dev.yarpj.ir.Idiom;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Plans every loop's trip count over the whole skeleton before anything is fleshed, so that
 * loops do real work wherever they sit in the test.
 *
 * <p>Each loop first draws the trip count it would like: rarely 0 or 1 on purpose (edge
 * cases), often a multiple of a vector width or unroll factor plus -1, 0 or +1 (so that a
 * vector body runs and a remainder of every size follows it), otherwise a plain count. Then
 * the work budget ({@code max_iterations}, counted as the interpreter counts: one step per
 * statement and per loop iteration) is shared out over the top-level statements, water-filling
 * style: a statement that wants less than an equal share keeps what it wants and leaves the
 * rest to the others. Within its share, a statement's longest loops are halved until it fits,
 * outer loops before innermost ones (the innermost are what vectorizers and unrollers work
 * on). Halving keeps the offset from the multiple: 64+1 becomes 32+1, not 32.
 */
final class TripPlanner {
    /** A trip count being planned: {@code base + delta}, never below {@code floor}; a tiny trip is never changed. */
    private static final class Trip {
        int base;
        final int delta;
        final int floor;
        final boolean tiny;
        final boolean innermost;

        Trip(int base, int delta, int floor, boolean tiny, boolean innermost) {
            this.base = base;
            this.delta = delta;
            this.floor = floor;
            this.tiny = tiny;
            this.innermost = innermost;
        }

        int value() {
            return tiny ? base : Math.max(floor, base + delta);
        }

        boolean canHalve() {
            return !tiny && base > 2;
        }
    }

    private final GenPolicy policy;
    private final Rng rng;
    private final Supplier<String> multiples;
    /** The trip of every level; the nests of a shared-space sequence share their levels' trips. */
    private final Map<Shape.Level, Trip> trips = new IdentityHashMap<>();

    private TripPlanner(GenPolicy policy, Rng rng) {
        this.policy = policy;
        this.rng = rng;
        this.multiples = rng.sampler(policy.tripMultipleWeights());
    }

    static Skeleton plan(Skeleton sk, GenPolicy policy, Rng rng) {
        TripPlanner p = new TripPlanner(policy, rng);
        p.draw(sk.body(), false);
        p.share(sk.body(), sk.iterations(policy.maxIterations()));
        return new Skeleton(p.rebuild(sk.body()), sk.iterations());
    }

    // ---- the trip each loop would like ----------------------------------------------

    private void draw(List<Shape> shapes, boolean inSplit) {
        for (Shape s : shapes) draw(s, inSplit);
    }

    private void draw(Shape s, boolean inSplit) {
        if (s instanceof Shape.IfShape i) {
            draw(i.then(), inSplit);
            if (i.otherwise() != null) draw(i.otherwise(), inSplit);
        } else if (s instanceof Shape.Nest n) {
            drawNest(n, null, inSplit);
        } else if (s instanceof Shape.Seq q) {
            List<Trip> shared = null;
            for (Shape.Nest n : q.nests()) {
                List<Trip> t = drawNest(n, q.sharedSpace() ? shared : null, inSplit);
                if (q.sharedSpace() && shared == null) shared = t;
            }
        }
    }

    private List<Trip> drawNest(Shape.Nest n, List<Trip> shared, boolean inSplit) {
        List<Trip> out = new ArrayList<>();
        for (int l = 0; l < n.depth(); l++) {
            Shape.Level lv = n.levels().get(l);
            boolean innermost = l == n.depth() - 1;
            boolean split = l == n.splitLevel();
            Trip t = shared != null ? shared.get(l)
                    : wish(innermost && n.plan().idiom() != Idiom.PLAIN, split, innermost);
            trips.put(lv, t);
            out.add(t);
            boolean below = inSplit || (n.splitLevel() >= 0 && l >= n.splitLevel());
            draw(lv.prefix(), below);
            draw(lv.suffix(), below);
        }
        draw(n.body(), inSplit || n.splitLevel() >= 0);
        return out;
    }

    /** The trip count a loop would like, before the budget is shared out. */
    private Trip wish(boolean idiomInner, boolean split, boolean innermost) {
        // The split loop needs both an even and an odd iteration.
        int floor = split ? 2 : 1;
        if (!split && rng.chance(policy.pTinyTrip())) return new Trip(rng.between(0, 1), 0, 0, true, innermost);
        int lo = idiomInner ? policy.minIdiomTrip() : policy.minTrip();
        int hi = idiomInner ? policy.maxIdiomTrip() : policy.maxTrip();
        String m = rng.chance(policy.pVectorTrip()) ? multiples.get() : null;
        // A multiple longer than the loop may be is left out: a plain count instead.
        if (m != null && Integer.parseInt(m) <= hi) {
            int w = Integer.parseInt(m);
            int base = w * rng.between(Math.max(1, lo / w), Math.max(1, hi / w));
            return new Trip(base, rng.between(-1, 1), floor, false, innermost);
        }
        return new Trip(rng.between(lo, hi), 0, floor, false, innermost);
    }

    // ---- sharing the budget out -----------------------------------------------------

    /**
     * Shares {@code budget} steps out over the statements of a block: straight-line ones
     * cost what they cost; those holding loops get equal shares of the rest, a statement
     * that wants less leaving its remainder to the others.
     */
    private void share(List<Shape> block, long budget) {
        List<Shape> loops = new ArrayList<>();
        double rest = budget;
        for (Shape s : block) {
            if (s.hasLoop()) loops.add(s);
            else rest -= cost(s);
        }
        loops.sort(Comparator.comparingDouble(this::cost));
        for (int i = 0; i < loops.size(); i++) {
            double fair = Math.max(0, rest) / (loops.size() - i);
            Shape s = loops.get(i);
            fit(s, fair);
            rest -= cost(s);
        }
    }

    /** Halves the longest loops of {@code s} until one execution of it costs at most {@code share}. */
    private void fit(Shape s, double share) {
        List<Trip> own = new ArrayList<>();
        collect(s, own);
        while (cost(s) > share) {
            Trip longest = null;
            for (Trip t : own) {
                if (t.canHalve() && (longest == null || weight(t) > weight(longest))) longest = t;
            }
            if (longest == null) {
                // Nothing left to halve: run every loop once; the budget check still holds up to the test's size.
                for (Trip t : own) if (!t.tiny) t.base = 1 - t.delta;
                return;
            }
            longest.base /= 2;
        }
    }

    /** Outer loops give way to innermost ones until they are skeleton.inner_preference times shorter. */
    private double weight(Trip t) {
        return t.innermost ? t.base : (double) t.base * policy.skeleton().innerPreference();
    }

    private void collect(Shape s, List<Trip> out) {
        if (s instanceof Shape.IfShape i) {
            for (Shape x : i.then()) collect(x, out);
            if (i.otherwise() != null) for (Shape x : i.otherwise()) collect(x, out);
        } else if (s instanceof Shape.Nest n) {
            for (Shape.Level lv : n.levels()) {
                Trip t = trips.get(lv);
                if (!out.contains(t)) out.add(t);
                for (Shape x : lv.prefix()) collect(x, out);
                for (Shape x : lv.suffix()) collect(x, out);
            }
            for (Shape x : n.body()) collect(x, out);
        } else if (s instanceof Shape.Seq q) {
            for (Shape.Nest n : q.nests()) collect(n, out);
        }
    }

    // ---- the cost model: the interpreter's steps ------------------------------------

    /**
     * Steps of one execution of a shape, as the interpreter counts them: one per statement
     * and per loop iteration, one per loop start. A slot that fleshes into a guarded
     * statement counts two; an if counts its costlier branch.
     */
    double cost(Shape s) {
        if (s instanceof Shape.Slot slot) {
            return switch (slot.kind()) {
                case GUARDED_DIV, REDUNDANT_EXPR, DEAD_CODE -> 2;
                // The selector and the longest way through the cases: a few of their stores.
                case SWITCH -> 3;
                // An if and up to two stores (min/max with its index); a select form fewer.
                case CARRIED -> 3;
                default -> 1;
            };
        }
        if (s instanceof Shape.IfShape i) {
            return 1 + Math.max(cost(i.then()), i.otherwise() == null ? 0 : cost(i.otherwise()));
        }
        if (s instanceof Shape.Nest n) return levelCost(n, 0);
        double c = 0;
        for (Shape.Nest n : ((Shape.Seq) s).nests()) c += levelCost(n, 0);
        return c;
    }

    /** Element-wise slots in {@code shapes}, in ifs too (not in nested loops, which count their own). */
    private static int elementwise(List<Shape> shapes) {
        int k = 0;
        for (Shape s : shapes) {
            if (s instanceof Shape.Slot slot && slot.kind() == Shape.SlotKind.ELEMENTWISE) k++;
            else if (s instanceof Shape.IfShape i) k += elementwise(i.then()) + (i.otherwise() == null ? 0 : elementwise(i.otherwise()));
        }
        return k;
    }

    private double cost(List<Shape> shapes) {
        double c = 0;
        for (Shape s : shapes) c += cost(s);
        return c;
    }

    private double levelCost(Shape.Nest n, int l) {
        if (l == n.depth()) {
            // Split at the innermost loop, an element-wise store may become an if and a store.
            return cost(n.body()) + (n.splitLevel() == n.depth() - 1 ? elementwise(n.body()) : 0);
        }
        Shape.Level lv = n.levels().get(l);
        double perIteration = 1 + cost(lv.prefix()) + levelCost(n, l + 1) + cost(lv.suffix());
        return 1 + trips.get(lv).value() * perIteration;
    }

    // ---- the planned skeleton -------------------------------------------------------

    private List<Shape> rebuild(List<Shape> shapes) {
        List<Shape> out = new ArrayList<>(shapes.size());
        for (Shape s : shapes) out.add(rebuild(s));
        return out;
    }

    private Shape rebuild(Shape s) {
        if (s instanceof Shape.IfShape i) {
            return new Shape.IfShape(rebuild(i.then()), i.otherwise() == null ? null : rebuild(i.otherwise()), i.cond());
        }
        if (s instanceof Shape.Nest n) return rebuildNest(n);
        if (s instanceof Shape.Seq q) {
            List<Shape.Nest> nests = new ArrayList<>();
            for (Shape.Nest n : q.nests()) nests.add(rebuildNest(n));
            return new Shape.Seq(nests, q.sharedSpace());
        }
        return s;
    }

    private Shape.Nest rebuildNest(Shape.Nest n) {
        List<Shape.Level> levels = new ArrayList<>();
        for (Shape.Level lv : n.levels()) {
            levels.add(new Shape.Level(rebuild(lv.prefix()), rebuild(lv.suffix()), trips.get(lv).value()));
        }
        return new Shape.Nest(levels, rebuild(n.body()), n.splitLevel(), n.plan());
    }
}
