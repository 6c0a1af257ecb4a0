package dev.yarpj.inputs;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.InputSet;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The input-set stage, between fleshing and interpretation: proposes other values for a
 * fleshed program's inputs, each set a candidate the generator keeps only if the interpreter
 * runs the program on it without undefined behaviour.
 *
 * <p>What changes is the trip counts, where early exits fire, and the values conditions test. An input that only loop bounds read (a bound opaque to
 * the compiler, {@code i < n} or {@code i < n + 3}: {@link BoundInput}) gets, set by set,
 * values that give its first loop a trip count around the vector boundaries: 0, 1, and
 * VF-1, VF, VF+1, 2VF-1 and 2VF+1 for VF from 2 to 64. One build of the test then runs that
 * loop's scalar path, main vector loop, epilogue and masked tail. Counts up to the loop's
 * reach ({@link LoopHead#reach}) are proposed: the generator sized its arrays for that many
 * iterations, and its dependence plans and restrict promises hold on any prefix of them
 * (they are decided on the space up to the reach); whatever else a longer trip breaks (a
 * sum that overflows, another loop reading the same input that runs past its arrays) the
 * interpreter refuses. Loops with constant bounds keep the trip count the compiler sees. An early exit's sentinel array
 * ({@link Sentinel}) gets its special element moved to the first, middle or last iteration of
 * its loop, or taken away. The other integer inputs ({@link Content}: those that no index
 * or loop head reads) get other values: the conditions they decide then hold never, always,
 * or at one chosen iteration, and values reach the edges of their types.
 */
public final class InputSets {
    private InputSets() {}

    /** The vectorization factors whose boundaries a loop's trip counts should meet. */
    static final List<Integer> FACTORS = List.of(2, 4, 8, 16, 32, 64);

    /**
     * Up to {@code count} candidate input sets for {@code p} beyond its planned one (changing
     * {@link Content} too where {@code otherValues}; only the bounds of loops that {@code
     * movable} accepts), in the
     * order the generator should try them, each a list of tries: the generator keeps the first
     * try of each that the program runs without undefined behaviour, or none. A set's first
     * try changes trip counts, exits and the other inputs' values ({@link Content}, edges of
     * their types included); the next keeps those values to the ones the inputs already hold
     * or next to them; the two after that change one of those inputs alone (a different one
     * set by set), and the last changes trip counts and exits alone. The first tries differ
     * from the planned set and from each other; none when nothing can change.
     */
    public static List<List<InputSet>> candidates(Program p, int count, boolean otherValues, java.util.function.Predicate<LoopHead> movable,
            Rng rng) {
        Uses uses = Uses.of(p);
        List<BoundInput> knobs = BoundInput.of(uses).stream().filter(b -> uses.bounds().get(b.input()).stream().allMatch(movable)).toList();
        List<Sentinel> sentinels = Sentinel.of(p, uses);
        List<Content> contents = otherValues ? Content.of(p, uses, sentinels) : List.of();
        if ((knobs.isEmpty() && sentinels.isEmpty() && contents.isEmpty()) || count <= 0) return List.of();
        // Each input's trip counts, sentinel's positions and content's values, shuffled: set k takes the k-th of each, so sets mix them.
        Map<BoundInput, List<Long>> trips = new LinkedHashMap<>();
        for (BoundInput k : knobs) trips.put(k, spread(k.plannedTrip(), k.reach(), rng));
        Map<Sentinel, List<Long>> places = new LinkedHashMap<>();
        for (Sentinel x : sentinels) places.put(x, shuffled(x.otherPositions(), rng));
        Map<Content, List<Content.Change>> any = new LinkedHashMap<>();
        Map<Content, List<Content.Change>> near = new LinkedHashMap<>();
        for (Content c : contents) {
            List<Content.Change> close = c.near();
            List<Content.Change> all = new ArrayList<>(close);
            all.addAll(c.edges());
            any.put(c, shuffled(all, rng));
            near.put(c, shuffled(close, rng));
        }
        List<List<InputSet>> out = new ArrayList<>();
        int longest = Math.max(Math.max(trips.values().stream().mapToInt(List::size).max().orElse(0),
                places.values().stream().mapToInt(List::size).max().orElse(0)), contents.isEmpty() ? 0 : count);
        for (int k = 0; k < longest && out.size() < count; k++) {
            Map<String, Long> values = new LinkedHashMap<>();
            for (BoundInput b : knobs) {
                List<Long> t = trips.get(b);
                if (t.isEmpty()) continue;
                Long v = b.valueFor(t.get(k % t.size()));
                if (v != null) values.put(b.input().name(), v);
            }
            Map<String, InputSet.Plant> plants = new LinkedHashMap<>();
            for (Sentinel x : sentinels) {
                List<Long> at = places.get(x);
                if (!at.isEmpty()) plants.put(x.array().name(), new InputSet.Plant(at.get(k % at.size()), x.sentinel()));
            }
            List<InputSet> tries = new ArrayList<>();
            // Every content input changed, then the k-th alone (a program is more often defined on one change than on all).
            List<Content> one = contents.isEmpty() ? List.of() : List.of(contents.get(k % contents.size()));
            for (List<Content> changed : List.of(contents, one)) {
                for (Map<Content, List<Content.Change>> changes : List.of(any, near)) {
                    Map<String, Long> v = new LinkedHashMap<>(values);
                    Map<String, ArrayVar.Fill> fills = new LinkedHashMap<>();
                    for (Content c : changed) {
                        List<Content.Change> l = changes.get(c);
                        if (!l.isEmpty()) l.get(k % l.size()).into(v, fills);
                    }
                    tries.add(new InputSet(v, plants, fills));
                }
            }
            tries.add(new InputSet(values, plants));
            tries = tries.stream().distinct().filter(x -> !x.equals(InputSet.PLANNED)).toList();
            InputSet first = tries.isEmpty() ? null : tries.get(0);
            if (first != null && out.stream().noneMatch(t -> t.get(0).equals(first))) out.add(tries);
        }
        return out;
    }

    private static <T> List<T> shuffled(List<T> l, Rng rng) {
        List<T> t = new ArrayList<>(l);
        for (int i = t.size() - 1; i > 0; i--) java.util.Collections.swap(t, i, rng.between(0, i));
        return t;
    }

    /**
     * The sentinel array of an early exit: a one-dimensional input array of one value that
     * the program reads only in {@code if (s[i] == K)}, {@code i} the iterator of {@code loop},
     * and whose element at the planned iteration holds {@code K} (or none does). A set moves
     * {@code K} to the element of the loop's first, middle or last planned iteration, or takes
     * it away: the exit then fires there, or never. Where it fires later than planned, or
     * never, the loop runs more of its planned iterations than it did, all within the space
     * its arrays were sized for, and the interpreter checks the values it computes there.
     */
    record Sentinel(ArrayVar array, long sentinel, Space loop) {
        /** The element offsets a set may move the sentinel to: the first, middle and last planned iterations', and none (-1), but the planned one. */
        List<Long> otherPositions() {
            TreeSet<Long> at = loop.firstMiddleLast(array.dims().get(0));
            at.add(-1L);
            at.remove(array.fill().plantAt());
            return List.copyOf(at);
        }

        static List<Sentinel> of(Program p) {
            return of(p, Uses.of(p));
        }

        static List<Sentinel> of(Program p, Uses uses) {
            List<Sentinel> out = new ArrayList<>();
            for (ArrayVar a : p.inputArrays()) {
                ArrayVar.Fill f = a.fill();
                List<SentinelTest> tests = uses.sentinelTests().get(a);
                if (a.rank() != 1 || a.field() != null || f.varies() || f.even() != f.odd() || tests == null) continue;
                // Read once, by its test alone.
                if (tests.size() != 1 || uses.arrayReads().get(a) != 1) continue;
                long k = tests.get(0).sentinel();
                if (k == f.even() || (f.planted() && f.plant() != k)) continue;
                LoopHead h = uses.heads().get(tests.get(0).by());
                if (h == null || h.trip() <= 0 || h.guard() != null) continue;
                Space loop = Space.of(h);
                if (loop != null) out.add(new Sentinel(a, k, loop));
            }
            return out;
        }
    }

    /**
     * An integer input whose value changes what the program computes but not where it reads
     * or writes, nor how often a loop runs: a scalar or the contents of an array that no index,
     * loop head, bound input or exit sentinel reads, and no view shares. A set gives it other
     * values, so that the conditions it decides come out never, always, or on one chosen
     * iteration, and values reach the edges of their types: {@link #near} keeps to the values
     * it holds or next to them (an alternating array all even, all odd, swapped, or one
     * element of the other value at its loop's first, middle or last iteration; a scalar one
     * above or below), which a program built around them more often stays defined on;
     * {@link #edges} takes its type's smallest, largest, 0, 1 and -1.
     */
    record Content(ScalarVar scalar, ArrayVar array, Space loop) {
        /** One change of a set: a scalar's value or an array's fill. */
        record Change(String name, Long value, ArrayVar.Fill fill) {
            void into(Map<String, Long> values, Map<String, ArrayVar.Fill> fills) {
                if (value != null) values.put(name, value);
                else fills.put(name, fill);
            }
        }

        private dev.yarpj.ir.NumType type() {
            return scalar != null ? scalar.type().base() : array.base();
        }

        private boolean fits(long v) {
            return Arith.convert(v, type()) == v;
        }

        private Change to(long v) {
            return scalar != null ? new Change(scalar.name(), v, null) : new Change(array.name(), null, ArrayVar.Fill.uniform(v));
        }

        List<Change> near() {
            List<Change> out = new ArrayList<>();
            if (scalar != null) {
                for (long v : new long[] {scalar.initValue() - 1, scalar.initValue() + 1}) if (fits(v)) out.add(to(v));
                return out;
            }
            ArrayVar.Fill f = array.fill();
            long e = f.even();
            long o = f.odd();
            boolean bits = array.field() != null && array.field().bitField();
            if (f.varies()) {
                // Data that changes element by element: all its smallest, all its largest, or shifted by one element.
                out.add(to(e));
                if (f.span() > 1) out.add(to(e + f.span() - 1));
                out.add(new Change(array.name(), null, ArrayVar.Fill.varied(e, f.mul(), f.add() + f.mul(), f.span())));
                return out;
            }
            if (e != o) {
                out.add(to(e));
                out.add(to(o));
                out.add(new Change(array.name(), null, new ArrayVar.Fill(o, e, f.axis())));
            } else if (!bits) {
                // A uniform array: its neighbours everywhere, or at one element.
                for (long v : new long[] {e - 1, e + 1}) if (fits(v)) o = v;
                if (o != e) out.add(to(o));
            }
            if (o != e) {
                for (long at : positions()) out.add(new Change(array.name(), null, ArrayVar.Fill.planted(e, at, o)));
            }
            return out;
        }

        List<Change> edges() {
            List<Change> out = new ArrayList<>();
            if (array != null && (array.field() != null && array.field().bitField() || array.fill().varies())) return out;
            dev.yarpj.ir.NumType t = type();
            long now = scalar != null ? scalar.initValue() : array.fill().even();
            for (long v : new long[] {t.min(), t.max(), 0, 1, -1}) {
                boolean same = v == now && (scalar != null || array.fill().odd() == now);
                if (fits(v) && !same && !out.contains(to(v))) out.add(to(v));
            }
            return out;
        }

        /** Where one element of an array takes the other value: its loop's first, middle and last iteration's, else the array's first, middle and last element. */
        private List<Long> positions() {
            long n = array.elements();
            TreeSet<Long> at = loop != null && array.rank() == 1 ? loop.firstMiddleLast(n) : new TreeSet<>();
            if (at.isEmpty()) at.addAll(List.of(0L, n / 2, n - 1));
            return List.copyOf(at);
        }

        static List<Content> of(Program p) {
            Uses uses = Uses.of(p);
            return of(p, uses, Sentinel.of(p, uses));
        }

        /** The contents of {@code p}: bound inputs are left out as every loop head's reads are ({@link Uses#addressing}). */
        static List<Content> of(Program p, Uses uses, List<Sentinel> sentinels) {
            Set<String> taken = new java.util.HashSet<>(uses.addressing());
            for (Sentinel x : sentinels) taken.add(x.array().name());
            List<Content> out = new ArrayList<>();
            for (ScalarVar v : p.inputs()) {
                if (v.type().base().isFloat() || taken.contains(v.name()) || !uses.inputReads().containsKey(v)) continue;
                out.add(new Content(v, null, null));
            }
            for (ArrayVar a : p.inputArrays()) {
                if (a.base().isFloat() || taken.contains(a.name()) || !uses.arrayReads().containsKey(a) || a.fill().planted() || a.passing() instanceof ArrayVar.Passing.View || shared(p, a)) continue;
                Iterator it = uses.readAt().get(a);
                LoopHead h = it == null ? null : uses.heads().get(it);
                out.add(new Content(null, a, h == null ? null : Space.of(h)));
            }
            return out;
        }

        /** Whether some view reads {@code a}'s storage. */
        private static boolean shared(Program p, ArrayVar a) {
            List<ArrayVar> all = new ArrayList<>(p.inputArrays());
            all.addAll(p.outputArrays());
            return all.stream().anyMatch(x -> x.passing() instanceof ArrayVar.Passing.View v && v.storage().name().equals(a.name()));
        }
    }

    /** A loop whose start and step are known: the value its iterator takes in iteration {@code t}. */
    record Space(LoopHead head, long first, long step) {
        /** Null when the start or step is no constant (of constants and inputs), or the step not positive. */
        static Space of(LoopHead h) {
            Long start = BoundInput.constant(h.start());
            Long step = BoundInput.constant(Exprs.stripImplicit(h.update().rhs()));
            return start == null || step == null || step <= 0 ? null : new Space(h, start, step);
        }

        long at(long t) {
            return head.countsUp() ? first + t * step : first - t * step;
        }

        /** The values the iterator takes in the loop's first, middle and last planned iterations that lie in {@code [0, size)}, ascending. */
        TreeSet<Long> firstMiddleLast(long size) {
            TreeSet<Long> at = new TreeSet<>();
            long trip = head.trip();
            if (trip <= 0) return at;
            for (long t : new long[] {0, trip / 2, trip - 1}) {
                long v = at(t);
                if (v >= 0 && v < size) at.add(v);
            }
            return at;
        }
    }

    /** A test {@code if (s[i] == K)} of array {@code s} at the iterator {@code by}. */
    record SentinelTest(long sentinel, Iterator by) {}

    /**
     * What one walk of a program finds that input sets may change: how often each input scalar
     * and each array is read, the loops whose bound is an input (by input), every loop by its
     * iterator, and the tests {@code if (s[i] == K)} by array.
     */
    record Uses(Map<ScalarVar, Integer> inputReads, Map<ArrayVar, Integer> arrayReads, Map<ScalarVar, List<LoopHead>> bounds,
                Map<Iterator, LoopHead> heads, Map<ArrayVar, List<SentinelTest>> sentinelTests, Set<String> addressing,
                Map<ArrayVar, Iterator> readAt) {
        static Uses of(Program p) {
            Uses u = new Uses(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(),
                    new java.util.HashSet<>(), new LinkedHashMap<>());
            // What an index or a loop's head reads decides where the program reads and writes, and how often.
            Expr.Walker addresses = new Expr.Walker() {
                @Override
                public Void scalar(Expr.ScalarRef e) {
                    u.addressing().add(e.var().name());
                    return null;
                }

                @Override
                public Void subscript(Expr.Subscript e) {
                    u.addressing().add(e.array().name());
                    return super.subscript(e);
                }
            };
            Expr.Walker count = new Expr.Walker() {
                @Override
                public Void scalar(Expr.ScalarRef e) {
                    if (e.var().role() == ScalarVar.Role.INPUT) u.inputReads().merge(e.var(), 1, Integer::sum);
                    return null;
                }

                @Override
                public Void subscript(Expr.Subscript e) {
                    u.arrayReads().merge(e.array(), 1, Integer::sum);
                    for (Expr i : e.indices()) addresses.walk(i);
                    if (e.indices().size() == 1 && Exprs.stripImplicit(e.indices().get(0)) instanceof Expr.IterRef it) {
                        u.readAt().putIfAbsent(e.array(), it.iter());
                    }
                    return super.subscript(e);
                }
            };
            new Stmt.Walker() {
                @Override
                protected void expr(Expr e) {
                    if (e != null) count.walk(e);
                }

                @Override
                public Void ifStmt(Stmt.If s) {
                    if (Exprs.stripImplicit(s.cond()) instanceof Expr.Binary b && b.op() == BinOp.EQ
                            && Exprs.stripImplicit(b.lhs()) instanceof Expr.Subscript sub && sub.indices().size() == 1
                            && Exprs.stripImplicit(sub.indices().get(0)) instanceof Expr.IterRef it
                            && Exprs.stripImplicit(b.rhs()) instanceof Expr.Const k) {
                        u.sentinelTests().computeIfAbsent(sub.array(), x -> new ArrayList<>()).add(new SentinelTest(k.value(), it.iter()));
                    }
                    return super.ifStmt(s);
                }

                @Override
                public Void loopNest(Stmt.LoopNest s) {
                    for (Stmt.LoopLevel lv : s.levels()) {
                        LoopHead h = lv.head();
                        for (Expr e : new Expr[] {h.start(), h.cond(), h.update(), h.guard()}) if (e != null) addresses.walk(e);
                        u.heads().put(lv.head().iter(), lv.head());
                        ScalarVar v = lv.head().boundInput();
                        if (v != null) u.bounds().computeIfAbsent(v, k -> new ArrayList<>()).add(lv.head());
                    }
                    return super.loopNest(s);
                }
            }.all(p.body().stmts());
            return u;
        }
    }

    /**
     * {@link #boundaryTrips} in the order the sets take them: grouped by the factor they are a
     * boundary of (0 and 1 a group of their own), the groups in a random order and each
     * group's trips shuffled, then one trip of each group in turn. The few sets of a test
     * then meet the boundaries of different vector widths (a flat draw would mostly give the
     * many short ones) and so one build runs its loop on both sides of a wide vector.
     */
    static List<Long> spread(long planned, long reach, Rng rng) {
        Set<Long> left = new java.util.LinkedHashSet<>(boundaryTrips(planned, reach));
        List<List<Long>> groups = new ArrayList<>();
        List<Long> tiny = new ArrayList<>();
        for (long x : new long[] {0, 1}) if (left.remove(x)) tiny.add(x);
        if (!tiny.isEmpty()) groups.add(tiny);
        for (int vf : FACTORS) {
            List<Long> g = new ArrayList<>();
            for (long x : boundariesOf(vf)) if (left.remove(x)) g.add(x);
            if (!g.isEmpty()) groups.add(g);
        }
        groups = shuffled(groups, rng);
        for (int i = 0; i < groups.size(); i++) groups.set(i, shuffled(groups.get(i), rng));
        int total = groups.stream().mapToInt(List::size).sum();
        List<Long> out = new ArrayList<>();
        for (int round = 0; out.size() < total; round++) {
            for (List<Long> g : groups) if (round < g.size()) out.add(g.get(round));
        }
        return out;
    }

    /** The trip counts at the boundaries of a vector of {@code vf} elements: VF-1, VF, VF+1, 2VF-1 and 2VF+1. */
    private static long[] boundariesOf(int vf) {
        return new long[] {vf - 1, vf, vf + 1, 2L * vf - 1, 2L * vf + 1};
    }

    /** The trip counts up to {@code reach} but {@code planned} at the boundaries of {@link #FACTORS}, ascending. */
    static List<Long> boundaryTrips(long planned, long reach) {
        TreeSet<Long> t = new TreeSet<>(List.of(0L, 1L));
        for (int vf : FACTORS) for (long x : boundariesOf(vf)) t.add(x);
        t.remove(planned);
        return List.copyOf(t.headSet(Math.max(planned, reach), true));
    }

    /**
     * An input that the program reads only as the bound of loops, all of which stop sooner when
     * it moves the same way; {@code first} is the first of them, whose trip count its value is
     * chosen for, and {@code boundNow} that loop's bound at the planned value.
     */
    record BoundInput(ScalarVar input, Space first, long boundNow) {
        long plannedTrip() {
            return first.head().trip();
        }

        /** The most iterations its first loop's arrays are sized for. */
        long reach() {
            return first.head().reach();
        }

        /**
         * The input's value that gives its first loop {@code trip} iterations, or null when its
         * type cannot hold it.
         */
        Long valueFor(long trip) {
            long f = first.first();
            long step = first.step();
            BinOp op = first.head().cond().op();
            long bound;
            if (first.head().countsUp()) {
                bound = switch (op) {
                    case LT -> trip == 0 ? f : f + (trip - 1) * step + 1;
                    case LE -> trip == 0 ? f - 1 : f + (trip - 1) * step;
                    case NE -> f + trip * step;
                    default -> Long.MIN_VALUE;
                };
            } else {
                bound = switch (op) {
                    case GT -> trip == 0 ? f : f - (trip - 1) * step - 1;
                    case GE -> trip == 0 ? f + 1 : f - (trip - 1) * step;
                    case NE -> f - trip * step;
                    default -> Long.MIN_VALUE;
                };
            }
            if (bound == Long.MIN_VALUE) return null;
            long v = input.initValue() + (bound - boundNow);
            dev.yarpj.ir.NumType t = input.type().base();
            return Arith.convert(v, t) == v && (t.signed || v >= 0) ? v : null;
        }

        /** The inputs of {@code p} that only loop bounds read, each with its first loop. */
        static List<BoundInput> of(Program p) {
            return of(Uses.of(p));
        }

        static List<BoundInput> of(Uses uses) {
            List<BoundInput> out = new ArrayList<>();
            uses.bounds().forEach((v, heads) -> {
                // Every read of it is one of these bounds, and every loop stops sooner the same way.
                if (uses.inputReads().getOrDefault(v, 0) != heads.size()) return;
                if (heads.stream().map(LoopHead::countsUp).distinct().count() != 1) return;
                LoopHead h = heads.get(0);
                if (h.trip() <= 1 || h.guard() != null) return;
                Space first = Space.of(h);
                Long bound = constant(h.cond().rhs());
                if (first != null && bound != null) out.add(new BoundInput(v, first, bound));
            });
            return out;
        }

        /** The value of an expression of constants and inputs (their planned values), with C's conversions; null for others. */
        static Long constant(Expr e) {
            if (e instanceof Expr.Const c) return Arith.convert(c.value(), c.type());
            if (e instanceof Expr.ScalarRef r && r.var().role() == ScalarVar.Role.INPUT) return r.var().initValue();
            if (e instanceof Expr.Cast c) {
                Long v = constant(c.operand());
                return v == null ? null : Arith.convert(v, c.operand().type(), c.type());
            }
            if (e instanceof Expr.Binary b && (b.op() == BinOp.ADD || b.op() == BinOp.SUB)) {
                Long l = constant(b.lhs());
                Long r = constant(b.rhs());
                if (l == null || r == null) return null;
                return Arith.convert(b.op() == BinOp.ADD ? l + r : l - r, b.type());
            }
            return null;
        }
    }
}
