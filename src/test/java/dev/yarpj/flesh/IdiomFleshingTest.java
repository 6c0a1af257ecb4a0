package dev.yarpj.flesh;

import dev.yarpj.ir.Idiom;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.interp.UndefinedBehaviorException;
import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Pragma;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import dev.yarpj.policy.TestPolicies;
import dev.yarpj.skeleton.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fleshing honours the idioms the skeleton decided: the IR of generated programs is walked
 * and each idiom is looked for in the shape it promises (paper section 3.2), under a policy
 * that switches on that idiom alone on top of policies/no-idioms.yaml.
 */
class IdiomFleshingTest {
    private static final int SEEDS = 30;

    // ---- policies ---------------------------------------------------------------------

    /**
     * policies/no-idioms.yaml with {@code overrides} on top (see TestPolicies); the
     * iteration budget is cut to a fifth unless overridden: the interpreter's run is most of
     * the time a test takes, and the shapes looked for here do not depend on it.
     */
    static GenPolicy noIdiomsWith(String name, String overrides) {
        boolean ownBudget = overrides.contains("max_iterations");
        return TestPolicies.noIdiomsWith(name, (ownBudget ? "" : "max_iterations: 10000\n") + overrides);
    }

    /** no-idioms with only {@code idiom}'s nests (plus {@code more} keys), on the cut budget. */
    static GenPolicy only(Idiom idiom, String more) {
        return TestPolicies.only(idiom, (more.contains("max_iterations") ? "" : "max_iterations: 10000\n") + more);
    }

    /** Tests for seeds 1..n; the interpreter throws on any UB, so generating is itself a check. */
    static List<GeneratedTest> generate(GenPolicy p, int n) {
        Generator gen = new Generator(p, Language.C, CheckMode.HASH);
        List<GeneratedTest> out = new ArrayList<>();
        for (long seed = 1; seed <= n; seed++) {
            try {
                out.add(gen.generate(seed, "test"));
            } catch (UndefinedBehaviorException e) {
                fail("policy " + p.name() + ", seed " + seed + ": the interpreter rejected the program: " + e.getMessage());
            }
        }
        return out;
    }

    // ---- walking the IR ---------------------------------------------------------------

    /**
     * A statement with the heads of the loops around it, outermost first, and the nest
     * whose innermost body holds it ({@code body}, else null), directly or under an if
     * but not in a nested loop: where an idiom nest's own statements are.
     */
    record Site(long seed, Stmt stmt, List<LoopHead> loops, Stmt.LoopNest body) {
        LoopHead innermost() {
            return loops.isEmpty() ? null : loops.get(loops.size() - 1);
        }

        LoopHead headOf(Iterator it) {
            for (LoopHead h : loops) if (h.iter().equals(it)) return h;
            return null;
        }
    }

    static List<Site> sites(GeneratedTest t) {
        List<Site> out = new ArrayList<>();
        walk(t.seed(), t.program().body(), List.of(), null, out);
        return out;
    }

    static List<Site> sites(List<GeneratedTest> tests) {
        List<Site> out = new ArrayList<>();
        for (GeneratedTest t : tests) out.addAll(sites(t));
        return out;
    }

    /** The statements in the innermost bodies of nests: idiom statements live there. */
    static List<Site> bodySites(List<GeneratedTest> tests) {
        return sites(tests).stream().filter(s -> s.body() != null).toList();
    }

    private static void walk(long seed, Stmt s, List<LoopHead> loops, Stmt.LoopNest body, List<Site> out) {
        // A fold is checked as the assignment it means.
        out.add(new Site(seed, s instanceof Stmt.Reduce r ? r.asAssign() : s, loops, body));
        if (s instanceof Stmt.Block b) {
            for (Stmt t : b.stmts()) walk(seed, t, loops, body, out);
        } else if (s instanceof Stmt.If i) {
            walk(seed, i.then(), loops, body, out);
            if (i.otherwise() != null) walk(seed, i.otherwise(), loops, body, out);
        } else if (s instanceof Stmt.LoopNest n) {
            List<LoopHead> heads = new ArrayList<>(loops);
            for (Stmt.LoopLevel lv : n.levels()) {
                heads.add(lv.head());
                walk(seed, lv.prefix(), List.copyOf(heads), null, out);
                walk(seed, lv.suffix(), List.copyOf(heads), null, out);
            }
            for (Stmt t : n.body().stmts()) walk(seed, t, List.copyOf(heads), n, out);
        } else if (s instanceof Stmt.LoopSeq q) {
            for (Stmt.LoopNest n : q.nests()) walk(seed, n, loops, null, out);
        }
    }

    /** The expressions a statement itself holds (not those of nested statements). */
    static List<Expr> exprsOf(Stmt s) {
        if (s instanceof Stmt.Assign a) return List.of(a.target(), a.value());
        if (s instanceof Stmt.LocalDecl d) return List.of(d.init());
        if (s instanceof Stmt.If i) return List.of(i.cond());
        return List.of();
    }

    /** Every node of {@code e}, {@code e} first. */
    static List<Expr> nodes(Expr e) {
        List<Expr> out = new ArrayList<>();
        collect(e, out);
        return out;
    }

    private static void collect(Expr e, List<Expr> out) {
        out.add(e);
        if (e instanceof Expr.Unary u) {
            collect(u.operand(), out);
        } else if (e instanceof Expr.Binary b) {
            collect(b.lhs(), out);
            collect(b.rhs(), out);
        } else if (e instanceof Expr.Ternary t) {
            collect(t.cond(), out);
            collect(t.then(), out);
            collect(t.otherwise(), out);
        } else if (e instanceof Expr.Cast c) {
            collect(c.operand(), out);
        } else if (e instanceof Expr.Subscript s) {
            for (Expr i : s.indices()) collect(i, out);
        } else if (e instanceof Expr.Call c) {
            for (Expr a : c.args()) collect(a, out);
        } else if (e instanceof Expr.Stencil st) {
            for (Expr.Subscript t : st.taps()) collect(t, out);
        }
    }

    /** Every expression node in a statement and all statements within it. */
    static List<Expr> allNodes(Stmt s) {
        List<Site> inside = new ArrayList<>();
        walk(0, s, List.of(), null, inside);
        List<Expr> out = new ArrayList<>();
        for (Site t : inside) for (Expr e : exprsOf(t.stmt())) out.addAll(nodes(e));
        return out;
    }

    static Expr strip(Expr e) {
        return Exprs.stripImplicit(e);
    }

    static boolean isIter(Expr e, Iterator it) {
        return strip(e) instanceof Expr.IterRef r && r.iter().equals(it);
    }

    static Long constValue(Expr e) {
        return strip(e) instanceof Expr.Const c ? c.value() : null;
    }

    /** The first value of a loop, when it is spelt as a constant (else null: an opaque input). */
    static Long start(LoopHead h) {
        return constValue(h.start());
    }

    /**
     * The last value of an upward loop by 1 whose bound is a constant (else null): the
     * iterator runs while {@code iter < b}, {@code iter != b} or {@code iter <= b}.
     */
    static Long lastOfUpwardByOne(LoopHead h) {
        Long b = constValue(h.cond().rhs());
        if (b == null || !h.countsUp() || !Long.valueOf(1).equals(constValue(h.update().rhs()))) return null;
        return switch (h.cond().op()) {
            case LT, NE -> b - 1;
            case LE -> b;
            default -> null;
        };
    }

    private static String where(Site s) {
        return "seed " + s.seed() + ": " + s.stmt();
    }

    // ---- vectorizable -----------------------------------------------------------------

    @Test
    void vectorizableNestsStoreAlongTheirInnermostLoop() {
        List<GeneratedTest> tests = generate(only(Idiom.VECTORIZABLE, ""), SEEDS);
        int stores = 0;
        int alongInnermost = 0;
        int nests = 0;
        int parallel = 0;
        for (Site s : sites(tests)) {
            if (s.stmt() instanceof Stmt.LoopNest n) {
                nests++;
                // Idiom nests count up by 1, and nothing is around the body in the innermost loop.
                for (Stmt.LoopLevel lv : n.levels()) {
                    assertTrue(lv.head().countsUp(), () -> "counts up; " + where(s));
                    assertEquals(1L, constValue(lv.head().update().rhs()), () -> "step 1; " + where(s));
                }
                Stmt.LoopLevel inner = n.levels().get(n.depth() - 1);
                assertTrue(inner.prefix().stmts().isEmpty() && inner.suffix().stmts().isEmpty(), () -> where(s));
                if (inner.head().dataParallel()) parallel++;
            }
            if (s.body() != null && s.stmt() instanceof Stmt.Assign a) {
                assertEquals(null, a.compound(), () -> "no compound statement in a vectorizable nest; " + where(s));
                stores++;
                if (strip(a.target()) instanceof Expr.Subscript sub
                        && isIter(sub.indices().get(sub.indices().size() - 1), s.innermost().iter())) {
                    alongInnermost++;
                }
            }
        }
        assertTrue(stores > SEEDS, "stores in loops: " + stores);
        // A store falls back to any target only when the array budget is spent.
        assertTrue(alongInnermost >= 0.9 * stores,
                alongInnermost + " of " + stores + " stores have the innermost iterator as their last subscript");
        assertTrue(parallel >= 0.9 * nests, parallel + " of " + nests + " vectorizable innermost loops are data-parallel");
    }

    // ---- reduction --------------------------------------------------------------------

    /** The reduction operator of a statement: ADD, BAND, BOR, BXOR (compound) or MIN, MAX; null if none. */
    static String reductionOp(Stmt.Assign a) {
        if (a.compound() != null) return a.compound().name();
        if (strip(a.value()) instanceof Expr.Call c && c.args().stream().anyMatch(x -> strip(x).equals(a.target()))) {
            return c.fn().name();
        }
        return null;
    }

    /** The initial value of an output: its scalar's, or its array's uniform fill. */
    static long initialValue(Expr target) {
        if (target instanceof Expr.ScalarRef r) return r.var().initValue();
        ArrayVar a = ((Expr.Subscript) target).array();
        assertFalse(a.fill().alternating(), () -> "an accumulator is filled uniformly: " + a);
        return a.fill().even();
    }

    @Test
    void reductionsAccumulateIntoAnOutputOfLowerRank() {
        List<GeneratedTest> tests = generate(only(Idiom.REDUCTION, ""), SEEDS);
        Map<String, Integer> ops = new TreeMap<>();
        int arrays = 0;
        for (Site s : bodySites(tests)) {
            if (!(s.stmt() instanceof Stmt.Assign a)) continue;
            String op = reductionOp(a);
            if (op == null) continue;
            ops.merge(op, 1, Integer::sum);
            // Lower rank: the accumulator is indexed by outer loops only, in order.
            if (a.target() instanceof Expr.Subscript sub) {
                arrays++;
                assertTrue(sub.indices().size() < s.loops().size(), () -> "rank below the nest depth; " + where(s));
                for (int d = 0; d < sub.indices().size(); d++) {
                    assertTrue(isIter(sub.indices().get(d), s.loops().get(d).iter()),
                            () -> "a dimension does not follow its loop; " + where(s));
                }
                for (Expr i : sub.indices()) {
                    assertFalse(isIter(i, s.innermost().iter()), () -> "the innermost iterator is reduced away; " + where(s));
                }
                assertFalse(sub.array().isInput(), () -> where(s));
            } else {
                // An output, or a floating reduction's local carried around the nest (floats: p_local),
                // which starts at its declaration, not at an initial value of its own.
                boolean local = a.target() instanceof Expr.ScalarRef r && r.var().role() == ScalarVar.Role.LOCAL && r.type().isFloat();
                assertTrue(local || a.target() instanceof Expr.ScalarRef r && r.var().role() == ScalarVar.Role.OUTPUT, () -> where(s));
                if (local) continue;
            }
            // The accumulator starts at the operator's identity.
            NumType t = a.target().type();
            long init = initialValue(a.target());
            switch (op) {
                // A floating min or max starts at the largest finite value of its sign (floats: p_float).
                case "MIN" -> assertEquals(t.isFloat() ? dev.yarpj.ir.ReductionOp.MIN.identity(t) : t.max(), init,
                        () -> "min starts at the type's maximum; " + where(s));
                case "MAX" -> assertEquals(t.isFloat() ? dev.yarpj.ir.ReductionOp.MAX.identity(t) : t.min(), init,
                        () -> "max starts at the type's minimum; " + where(s));
                case "BAND" -> assertEquals(Arith.convert(-1, t), init, () -> "and starts with every bit set; " + where(s));
                default -> { }
            }
        }
        for (String op : List.of("ADD", "BAND", "BOR", "BXOR", "MIN", "MAX")) {
            assertTrue(ops.containsKey(op), () -> "reductions by " + op + " appear: " + ops);
        }
        assertTrue(arrays > 0, "some accumulators are arrays");
    }

    /** The variable a store writes: a scalar or a whole array. */
    static Object written(Expr target) {
        return target instanceof Expr.Subscript sub ? sub.array() : ((Expr.ScalarRef) target).var();
    }

    @Test
    void reductionAccumulatorsAreWrittenByTheirReductionOnly() {
        // Plain nests with imperfect levels around reduction nests: plenty of other stores that
        // could pick an accumulator. Compound statements off, so that every op= is a reduction.
        GenPolicy p = noIdiomsWith("private-accumulators", """
                idiom_weights: {plain: 2, reduction: 3}
                stmt_weights: {compound: 0, loop_nest: 8}
                p_imperfect: 0.9
                """);
        int accumulators = 0;
        for (GeneratedTest t : generate(p, SEEDS)) {
            Map<Object, Integer> stores = new java.util.HashMap<>();
            Set<Object> accs = new HashSet<>();
            for (Site s : sites(t)) {
                if (!(s.stmt() instanceof Stmt.Assign a)) continue;
                stores.merge(written(a.target()), 1, Integer::sum);
                if (reductionOp(a) != null) accs.add(written(a.target()));
            }
            for (Object acc : accs) {
                accumulators++;
                assertEquals(1, stores.get(acc), () -> "seed " + t.seed() + ": accumulator " + acc
                        + " is stored to by other statements too (its reduction assumes its start value)");
            }
        }
        assertTrue(accumulators >= SEEDS, "accumulators: " + accumulators);
    }

    @Test
    void signedSumsOverManySeedsStayDefined() {
        // Signed int sums only, extreme constants, reductions inside imperfect plain nests: the
        // mix that overflowed when another statement could overwrite an accumulator
        // (seed 72 at commit 272c80c).
        GenPolicy p = PolicyLoader.parse("""
                idiom_weights: {plain: 3, vectorizable: 0, reduction: 4, stencil: 0, memset: 0, memcpy: 0}
                reduction_weights: {sum: 1, min: 0, max: 0, and: 0, or: 0, xor: 0}
                type_weights: {bool: 0, signed char: 0, unsigned char: 0, short: 0, unsigned short: 0, int: 1,
                               unsigned int: 0, long long: 0, unsigned long long: 0}
                p_imperfect: 0.9
                max_nest_depth: 2
                stmt_weights: {loop_nest: 10, assign: 10, compound: 0, loop_seq: 4}
                p_special_const: 1.0
                """, "test.yaml", "signed-sums");
        List<String> rejected = LongStream.rangeClosed(1, 60).parallel().mapToObj(seed -> {
            try {
                new Generator(p, Language.C, CheckMode.HASH).generate(seed, "test");
                return null;
            } catch (UndefinedBehaviorException e) {
                return "seed " + seed + ": " + e.getMessage();
            }
        }).filter(r -> r != null).toList();
        assertEquals(List.of(), rejected, "seeds the interpreter rejected (generator bugs)");
    }

    // ---- stencil ----------------------------------------------------------------------

    /** An index of a tap: the iterator plus a signed offset, or null when not of that form. */
    record Offset(Iterator iter, long by) {}

    static Offset offset(Expr index) {
        Expr e = strip(index);
        if (e instanceof Expr.IterRef r) return new Offset(r.iter(), 0);
        if (e instanceof Expr.Binary b && (b.op() == BinOp.ADD || b.op() == BinOp.SUB)
                && strip(b.lhs()) instanceof Expr.IterRef r && strip(b.rhs()) instanceof Expr.Const k) {
            return new Offset(r.iter(), b.op() == BinOp.ADD ? k.value() : -k.value());
        }
        return null;
    }

    @Test
    void stencilTapsAreConstantOffsetsThatStayInBounds() {
        GenPolicy p = only(Idiom.STENCIL, "max_stencil_reach: 3\nmax_stencil_taps: 7\nmax_stencil_dims: 3\n");
        List<GeneratedTest> tests = generate(p, SEEDS);
        int stencils = 0;
        int withOffset = 0;
        int negative = 0;
        int checkedStarts = 0;
        int reduced = 0;
        for (Site s : sites(tests)) {
            if (s.stmt() instanceof Stmt.Assign a && strip(a.value()) instanceof Expr.Stencil && reductionOp(a) != null) {
                reduced++;
            }
            for (Expr root : exprsOf(s.stmt())) {
                for (Expr e : nodes(root)) {
                    if (!(e instanceof Expr.Stencil st)) continue;
                    stencils++;
                    assertTrue(st.taps().size() >= 2 && st.taps().size() <= p.maxStencilTaps(),
                            () -> st.taps().size() + " taps; " + where(s));
                    assertTrue(st.combine() == BinOp.ADD || st.combine() == BinOp.BXOR, () -> where(s));
                    NumType elem = st.taps().get(0).type();
                    assertEquals(Arith.promote(elem), st.type(), () -> where(s));
                    Set<List<Offset>> distinct = new HashSet<>();
                    boolean offsetHere = false;
                    for (Expr.Subscript tap : st.taps()) {
                        assertEquals(elem, tap.type(), () -> "every tap has one element type; " + where(s));
                        assertTrue(tap.array().isInput(), () -> "taps read inputs; " + where(s));
                        List<Offset> offs = new ArrayList<>();
                        for (int d = 0; d < tap.indices().size(); d++) {
                            Offset o = offset(tap.indices().get(d));
                            Expr index = tap.indices().get(d);
                            assertTrue(o != null, () -> "tap index " + index + " is iter +- k; " + where(s));
                            offs.add(o);
                            LoopHead h = s.headOf(o.iter());
                            assertTrue(h != null, () -> "a tap's iterator is a loop in scope; " + where(s));
                            assertTrue(Math.abs(o.by()) <= (long) p.maxStencilReach() * p.maxStencilStride(),
                                    () -> "offset " + o.by() + " beyond reach x stride; " + where(s));
                            if (o.by() != 0) offsetHere = true;
                            Long first = start(h);
                            if (o.by() < 0) {
                                negative++;
                                if (first != null) {
                                    checkedStarts++;
                                    assertTrue(first >= -o.by(), () -> "loop from " + first + " read at offset " + o.by()
                                            + "; " + where(s));
                                }
                            }
                            Long last = lastOfUpwardByOne(h);
                            if (last != null) {
                                int dim = d;
                                assertTrue(last + o.by() < tap.array().dims().get(d), () -> "last index " + (last + o.by())
                                        + " past dimension " + dim + " of " + tap.array() + "; " + where(s));
                            }
                        }
                        assertTrue(distinct.add(offs), () -> "taps are distinct; " + where(s));
                    }
                    if (offsetHere) withOffset++;
                }
            }
        }
        assertTrue(stencils >= SEEDS, "stencils: " + stencils);
        assertTrue(withOffset >= 0.9 * stencils, withOffset + " of " + stencils + " stencils have an offset tap");
        assertTrue(negative > 0 && checkedStarts > 0, negative + " negative offsets, " + checkedStarts + " starts checked");
        assertTrue(reduced > 0, "some stencils are reduced");
    }

    // ---- memset / memcpy --------------------------------------------------------------

    /**
     * Whether {@code sub} walks its whole array with the innermost loops of {@code s}, in
     * order: dimension d is indexed by the d-th of the array's rank innermost loops, each
     * starting at 0 and ending at the dimension's last element (when spelt as constants).
     */
    static void assertWholeArrayInOrder(Expr.Subscript sub, Site s) {
        int rank = sub.indices().size();
        int n = s.loops().size();
        assertTrue(rank <= n, () -> where(s));
        for (int d = 0; d < rank; d++) {
            LoopHead h = s.loops().get(n - rank + d);
            int dim = d;
            assertTrue(isIter(sub.indices().get(d), h.iter()), () -> "dimension " + dim + " in order; " + where(s));
            Long first = start(h);
            if (first != null) assertEquals(0L, first, () -> "whole rows from 0; " + where(s));
            Long last = lastOfUpwardByOne(h);
            // An empty loop (a planned trip of 0) walks nothing; its array keeps one element.
            if (last != null && last < (first != null ? first : 0)) continue;
            if (last != null) assertEquals(last + 1, (long) sub.array().dims().get(d), () -> "whole rows to the end; " + where(s));
        }
    }

    @Test
    void memsetStoresARepeatedByteOverWholeArrays() {
        List<GeneratedTest> tests = generate(only(Idiom.MEMSET, ""), SEEDS);
        int inLoops = 0;
        int memsets = 0;
        for (Site s : bodySites(tests)) {
            if (!(s.stmt() instanceof Stmt.Assign a)) continue;
            inLoops++;
            if (!(strip(a.value()) instanceof Expr.Const c) || !(a.target() instanceof Expr.Subscript sub)) continue;
            memsets++;
            assertEquals(null, a.compound(), () -> where(s));
            assertFalse(sub.array().isInput(), () -> where(s));
            assertWholeArrayInOrder(sub, s);
            // The stored value, in the element type, is one byte repeated.
            NumType t = sub.type();
            long v = Arith.convert(c.value(), t);
            long b = v & 0xff;
            for (int i = 1; i < t.bytes(); i++) {
                assertEquals(b, (v >>> (8 * i)) & 0xff, () -> "value " + v + " of " + t + " is a repeated byte; " + where(s));
            }
        }
        assertTrue(memsets >= SEEDS, "memsets: " + memsets);
        assertTrue(memsets >= 0.9 * inLoops, memsets + " of " + inLoops + " stores in nest bodies are memsets");
    }

    @Test
    void memcpyCopiesEachInputElementToTheSameOutputElement() {
        List<GeneratedTest> tests = generate(only(Idiom.MEMCPY, ""), SEEDS);
        int inLoops = 0;
        int copies = 0;
        for (Site s : bodySites(tests)) {
            if (!(s.stmt() instanceof Stmt.Assign a)) continue;
            inLoops++;
            if (!(a.target() instanceof Expr.Subscript out) || !(strip(a.value()) instanceof Expr.Subscript in)) continue;
            copies++;
            assertEquals(null, a.compound(), () -> where(s));
            assertFalse(out.array().isInput(), () -> "the target is an output array; " + where(s));
            assertTrue(in.array().isInput(), () -> "the source is an input array; " + where(s));
            assertEquals(in.indices(), out.indices(), () -> "identical subscripts; " + where(s));
            assertEquals(in.type(), out.type(), () -> "one element type, no conversion; " + where(s));
            assertEquals(in.array().dims(), out.array().dims(), () -> "arrays of one shape; " + where(s));
            assertWholeArrayInOrder(out, s);
        }
        assertTrue(copies >= SEEDS, "copies: " + copies);
        assertTrue(copies >= 0.9 * inLoops, copies + " of " + inLoops + " stores in nest bodies are copies");
    }

    // ---- statement idioms -------------------------------------------------------------

    @Test
    void guardedDivisionTestsItsDivisor() {
        List<GeneratedTest> tests = generate(noIdiomsWith("guarded-div", "stmt_weights: {guarded_div: 50}\n"), SEEDS);
        int guards = 0;
        int divisions = 0;
        for (Site s : sites(tests)) {
            if (!(s.stmt() instanceof Stmt.If i)) continue;
            if (!(strip(i.cond()) instanceof Expr.Binary c && c.op() == BinOp.NE
                    && strip(c.lhs()) instanceof Expr.ScalarRef d && Long.valueOf(0).equals(constValue(c.rhs())))) {
                continue;
            }
            guards++;
            boolean divides = false;
            for (Expr e : allNodes(i.then())) {
                if (e instanceof Expr.Binary b && (b.op() == BinOp.DIV || b.op() == BinOp.REM)
                        && strip(b.rhs()) instanceof Expr.ScalarRef r && r.var().equals(d.var())) {
                    // The guarded division's dividend is loop-invariant: no array element, no
                    // iterator. (The rest of the value is a random expression, which may divide
                    // by the same input too.)
                    boolean invariant = true;
                    for (Expr x : nodes(b.lhs())) {
                        if (x instanceof Expr.Subscript || x instanceof Expr.IterRef) invariant = false;
                    }
                    divides |= invariant;
                }
            }
            if (divides) {
                divisions++;
                assertTrue(s.innermost() != null, () -> "a guarded division is inside a loop; " + where(s));
                assertEquals(ScalarVar.Role.INPUT, d.var().role(), () -> where(s));
                assertNotEquals(0L, d.var().initValue(), () -> "the divisor is not zero; " + where(s));
            }
        }
        assertTrue(divisions >= SEEDS / 2, divisions + " guarded divisions among " + guards + " x != 0 tests");
    }

    @Test
    void redundantExpressionIsUnderAnEqualityOfEqualInputs() {
        List<GeneratedTest> tests = generate(noIdiomsWith("redundant", "stmt_weights: {redundant_expr: 50}\n"), SEEDS);
        int found = 0;
        for (Site s : sites(tests)) {
            if (!(s.stmt() instanceof Stmt.If i)) continue;
            if (!(strip(i.cond()) instanceof Expr.Binary c && c.op() == BinOp.EQ
                    && strip(c.lhs()) instanceof Expr.ScalarRef x && strip(c.rhs()) instanceof Expr.ScalarRef y
                    && !x.var().equals(y.var()) && x.var().role() == ScalarVar.Role.INPUT
                    && y.var().role() == ScalarVar.Role.INPUT)) {
                continue;
            }
            // Only the idiom compares two distinct inputs of equal value that both appear below.
            List<Expr> below = allNodes(i.then());
            boolean readsBoth = below.stream().anyMatch(e -> e instanceof Expr.ScalarRef r && r.var().equals(x.var()))
                    && below.stream().anyMatch(e -> e instanceof Expr.ScalarRef r && r.var().equals(y.var()));
            if (!readsBoth) continue;
            found++;
            assertEquals(x.var().initValue(), y.var().initValue(), () -> "x == y holds; " + where(s));
            assertEquals(x.var().base(), y.var().base(), () -> where(s));
            assertTrue(s.innermost() != null, () -> "inside a loop; " + where(s));
        }
        assertTrue(found >= SEEDS / 2, "redundant expressions: " + found);
    }

    @Test
    void invariantIfConditionsReadNoArrayAndNoIterator() {
        // Plain ifs off, so that every if inside a loop is a loop-invariant one.
        List<GeneratedTest> tests = generate(noIdiomsWith("invariant-if", "stmt_weights: {invariant_if: 30, if: 0}\n"), SEEDS);
        int ifs = 0;
        for (Site s : sites(tests)) {
            if (s.innermost() == null || !(s.stmt() instanceof Stmt.If i)) continue;
            ifs++;
            for (Expr e : nodes(i.cond())) {
                assertFalse(e instanceof Expr.Subscript, () -> "an array element in a loop-invariant condition; " + where(s));
                assertFalse(e instanceof Expr.IterRef, () -> "an iterator in a loop-invariant condition; " + where(s));
            }
        }
        assertTrue(ifs >= SEEDS, "loop-invariant ifs: " + ifs);
    }

    // ---- pragmas ----------------------------------------------------------------------

    @Test
    void ivdepIsOnlyOnDataParallelLoops() {
        // Every idiom, so that nests with and without loop-carried dependences are made.
        GenPolicy p = noIdiomsWith("ivdep", """
                idiom_weights: {plain: 2, vectorizable: 2, reduction: 2, stencil: 1, memset: 1, memcpy: 1}
                pragma_weights: {none: 0, gcc_ivdep: 1}
                """);
        int with = 0;
        int without = 0;
        for (Site s : sites(generate(p, SEEDS))) {
            if (!(s.stmt() instanceof Stmt.LoopNest n)) continue;
            boolean parallel = n.levels().get(n.depth() - 1).head().dataParallel();
            assertTrue(n.pragma() == Pragma.GCC_IVDEP || n.pragma() == Pragma.NONE, () -> where(s));
            if (n.pragma() == Pragma.GCC_IVDEP) {
                with++;
                assertTrue(parallel, () -> "ivdep on a loop that is not data-parallel; " + where(s));
            } else {
                without++;
                assertFalse(parallel, () -> "a data-parallel loop lost the only pragma the policy asks for; " + where(s));
            }
        }
        assertTrue(with > 0 && without > 0, with + " nests with ivdep, " + without + " without");
    }

    @Test
    void clangVectorizePragmaIsPrintedRightBeforeTheInnermostLoop() {
        GenPolicy p = noIdiomsWith("vectorize", """
                idiom_weights: {plain: 1, vectorizable: 1}
                pragma_weights: {none: 1, clang_vectorize: 1}
                """);
        String pragma = "#pragma clang loop vectorize(enable)";
        int marked = 0;
        for (GeneratedTest t : generate(p, SEEDS)) {
            int nests = 0;
            for (Site s : sites(t)) {
                if (s.stmt() instanceof Stmt.LoopNest n && n.pragma() == Pragma.CLANG_VECTORIZE) nests++;
                if (s.stmt() instanceof Stmt.LoopNest n) {
                    assertTrue(n.pragma() == Pragma.CLANG_VECTORIZE || n.pragma() == Pragma.NONE, () -> where(s));
                }
            }
            marked += nests;
            String func = t.files().files().get("func.c");
            List<String> lines = func.lines().map(String::strip).toList();
            int printed = 0;
            for (int i = 0; i < lines.size(); i++) {
                // A helper function's request for SIMD clones is no loop's pragma.
                if (!lines.get(i).startsWith("#pragma") || lines.get(i).equals("#pragma omp declare simd")) continue;
                assertEquals(pragma, lines.get(i), () -> "seed " + t.seed());
                printed++;
                assertTrue(i + 1 < lines.size() && lines.get(i + 1).startsWith("for ("),
                        () -> "seed " + t.seed() + ": the pragma is followed by a for loop:\n" + func);
            }
            assertEquals(nests, printed, () -> "seed " + t.seed() + ": one pragma line per marked nest:\n" + func);
        }
        assertTrue(marked > 0, "some nests carry the pragma");
    }

    // ---- access patterns --------------------------------------------------------------

    /**
     * The only iterator dimension {@code d} of a rank-{@code rank} array may be indexed by
     * under each access pattern, given the loops in scope (else a constant); null: any.
     */
    static Iterator expectedIter(Shape.Access access, int d, int rank, List<LoopHead> loops) {
        int n = loops.size();
        int l = switch (access) {
            case IN_ORDER, SLICE -> n - rank + d;
            case COLUMN_MAJOR -> n - 1 - d;
            case DIAGONAL -> n - 1;
            case RANDOM -> throw new AssertionError();
        };
        return l >= 0 && l < n ? loops.get(l).iter() : null;
    }

    @ParameterizedTest
    @EnumSource(value = Shape.Access.class, names = "RANDOM", mode = EnumSource.Mode.EXCLUDE)
    void plainNestsFollowTheirAccessPattern(Shape.Access access) {
        GenPolicy p = noIdiomsWith(access.name().toLowerCase(), "access_weights: {random: 0, "
                + access.name().toLowerCase() + ": 1}\nmax_nest_depth: 3\n");
        int subscripts = 0;
        int telling = 0;
        for (Site s : sites(generate(p, SEEDS))) {
            if (s.innermost() == null) continue;
            for (Expr root : exprsOf(s.stmt())) {
                for (Expr e : nodes(root)) {
                    if (!(e instanceof Expr.Subscript sub)) continue;
                    subscripts++;
                    int rank = sub.indices().size();
                    for (int d = 0; d < rank; d++) {
                        Expr idx = strip(sub.indices().get(d));
                        Iterator want = expectedIter(access, d, rank, s.loops());
                        boolean ok = idx instanceof Expr.Const || (want != null && isIter(idx, want));
                        int dim = d;
                        assertTrue(ok, () -> access + ": dimension " + dim + " of " + sub + " indexed by " + idx
                                + " with loops " + s.loops().stream().map(h -> h.iter().name()).toList() + "; " + where(s));
                        if (access == Shape.Access.SLICE && rank > 1 && d == 0) {
                            assertTrue(idx instanceof Expr.Const, () -> "a slice fixes the first dimension; " + where(s));
                        }
                    }
                    if (tells(access, sub, s)) telling++;
                }
            }
        }
        assertTrue(subscripts > SEEDS, "subscripts in loops: " + subscripts);
        assertTrue(telling > 0, () -> "some access shows the " + access + " pattern");
    }

    /** Whether {@code sub} shows its pattern in a way a random subscript rarely would. */
    private static boolean tells(Shape.Access access, Expr.Subscript sub, Site s) {
        List<Expr> idx = sub.indices();
        int n = s.loops().size();
        Iterator inner = s.innermost().iter();
        return switch (access) {
            // The innermost loop walks the first dimension of a 2+-d array in a 2+-deep nest.
            case COLUMN_MAJOR -> idx.size() >= 2 && n >= 2 && isIter(idx.get(0), inner);
            // One iterator on two dimensions.
            case DIAGONAL -> idx.size() >= 2 && idx.stream().filter(i -> isIter(i, inner)).count() >= 2;
            // Row-major: the last two dimensions follow the last two loops.
            case IN_ORDER -> idx.size() >= 2 && n >= 2 && isIter(idx.get(idx.size() - 1), inner)
                    && isIter(idx.get(idx.size() - 2), s.loops().get(n - 2).iter());
            case SLICE -> idx.size() >= 2 && strip(idx.get(0)) instanceof Expr.Const
                    && isIter(idx.get(idx.size() - 1), inner);
            case RANDOM -> false;
        };
    }

    // ---- expressions ------------------------------------------------------------------

    /** (e & C1) op C2 nodes: {satisfying C1 & C2 == C2, all}. */
    private static int[] maskTests(List<GeneratedTest> tests) {
        int good = 0;
        int all = 0;
        for (Site s : sites(tests)) {
            for (Expr root : exprsOf(s.stmt())) {
                for (Expr e : nodes(root)) {
                    if (e instanceof Expr.Binary outer && strip(outer.lhs()) instanceof Expr.Binary inner
                            && inner.op() == BinOp.BAND && strip(inner.rhs()) instanceof Expr.Const c1
                            && strip(outer.rhs()) instanceof Expr.Const c2
                            && List.of(BinOp.EQ, BinOp.NE, BinOp.BOR, BinOp.BXOR, BinOp.BAND).contains(outer.op())) {
                        all++;
                        if ((c1.value() & c2.value()) == c2.value()) good++;
                    }
                }
            }
        }
        return new int[] {good, all};
    }

    @Test
    void maskOperatorBuildsSubsetMasks() {
        int[] on = maskTests(generate(noIdiomsWith("mask", "op_weights: {mask: 60}\n"), SEEDS));
        int[] off = maskTests(generate(noIdiomsWith("no-mask", ""), SEEDS));
        assertTrue(on[0] >= 2 * SEEDS, () -> "mask tests with mask weight 60: " + on[0] + " of " + on[1]);
        assertTrue(on[0] >= 0.9 * on[1], () -> "(e & C1) op C2 with C1 & C2 == C2: " + on[0] + " of " + on[1]);
        assertTrue(on[0] > 10 * Math.max(1, off[0]), () -> "with mask 60: " + on[0] + ", with mask 0: " + off[0]);
    }

    /** 0, 1, -1, the type's extremes, powers of two and 2^k - 1 in {@code t}. */
    static boolean special(long v, NumType t) {
        v = Arith.convert(v, t);
        if (v == 0 || v == 1 || v == Arith.convert(-1, t) || v == t.min() || v == t.max()) return true;
        long bits = t.bits >= 64 ? v : v & ((1L << t.bits) - 1);
        return Long.bitCount(bits) == 1 || (bits & (bits + 1)) == 0;
    }

    /**
     * {special, all} over the constants the expression builder chose as values: not those
     * fleshing puts in for structure (subscripts, the masks that keep shift amounts in
     * range, the 2 and 0/1 of parity tests next to an iterator).
     */
    private static int[] constants(List<GeneratedTest> tests) {
        int[] counts = new int[2];
        for (Site s : sites(tests)) {
            for (Expr root : exprsOf(s.stmt())) countConstants(root, counts);
        }
        return counts;
    }

    private static void countConstants(Expr e, int[] counts) {
        if (e instanceof Expr.Const c) {
            // Floating constants are FloatStatements' small dyadic values, not the builder's choices.
            if (c.type().isFloat()) return;
            counts[1]++;
            if (special(c.value(), c.type())) counts[0]++;
        } else if (e instanceof Expr.Binary b) {
            // A constant next to an iterator is a parity test's; a shift amount is masked with 2^k - 1.
            boolean parity = mentionsIterator(b.lhs()) || mentionsIterator(b.rhs());
            if (!(parity && strip(b.lhs()) instanceof Expr.Const)) countConstants(b.lhs(), counts);
            if (!b.op().isShift() && !(parity && strip(b.rhs()) instanceof Expr.Const)) countConstants(b.rhs(), counts);
        } else if (!(e instanceof Expr.Subscript) && !(e instanceof Expr.Stencil)) {
            for (Expr child : children(e)) countConstants(child, counts);
        }
    }

    private static boolean mentionsIterator(Expr e) {
        return nodes(e).stream().anyMatch(x -> x instanceof Expr.IterRef);
    }

    private static List<Expr> children(Expr e) {
        if (e instanceof Expr.Unary u) return List.of(u.operand());
        if (e instanceof Expr.Ternary t) return List.of(t.cond(), t.then(), t.otherwise());
        if (e instanceof Expr.Cast c) return List.of(c.operand());
        if (e instanceof Expr.Call c) return c.args();
        return List.of();
    }

    @Test
    void specialConstantsFollowPSpecialConst() {
        int[] none = constants(generate(noIdiomsWith("uniform", "p_special_const: 0.0\n"), SEEDS));
        int[] most = constants(generate(noIdiomsWith("special", "p_special_const: 0.8\n"), SEEDS));
        assertTrue(none[1] > 100 && most[1] > 100, () -> "constants: " + none[1] + ", " + most[1]);
        double fNone = (double) none[0] / none[1];
        double fMost = (double) most[0] / most[1];
        assertTrue(fMost > 3 * fNone && fMost > 0.4,
                () -> "special constants: " + fNone + " with p_special_const 0, " + fMost + " with 0.8");
    }

    // ---- every policy -----------------------------------------------------------------

    static Stream<String> policyFiles() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("policies"))) {
            List<String> names = files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".yaml")).sorted().toList();
            assertTrue(names.contains("default.yaml") && names.contains("no-idioms.yaml"), names.toString());
            return Stream.concat(names.stream(), Stream.of("swarm"));
        }
    }

    @ParameterizedTest
    @MethodSource("policyFiles")
    void everyShippedPolicyGeneratesUbFreePrograms(String file) {
        GenPolicy base = file.equals("swarm") ? GenPolicy.defaults() : PolicyLoader.load(Path.of("policies", file));
        // Seeds are independent (one Rng and one Generator each): use every core. 8 seeds a
        // policy, that each shipped file loads and generates UB-free programs: the thousand seeds
        // per language of scripts/check-seeds.sh are the deep check (20 seeds here repeated it).
        List<String> rejected = LongStream.rangeClosed(1, 8).parallel().mapToObj(seed -> {
            GenPolicy p = file.equals("swarm") ? base.swarm(seed) : base;
            try {
                new Generator(p, Language.C, CheckMode.HASH).generate(seed, "test");
                return null;
            } catch (UndefinedBehaviorException e) {
                return "seed " + seed + ": " + e.getMessage();
            }
        }).filter(r -> r != null).toList();
        assertEquals(List.of(), rejected, () -> file + ": seeds the interpreter rejected (generator bugs)");
    }
}
