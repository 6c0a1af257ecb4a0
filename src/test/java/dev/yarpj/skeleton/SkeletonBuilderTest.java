package dev.yarpj.skeleton;

import dev.yarpj.ir.Idiom;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.ir.Pragma;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import dev.yarpj.policy.TestPolicies;
import dev.yarpj.policy.Rng;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The skeleton honours the idiom knobs: with one idiom switched on, every nest is that
 * idiom, perfect, unsplit and made of that idiom's statements; the loop-only statement
 * idioms appear only inside loops; and policies/no-idioms.yaml switches all of it off.
 */
class SkeletonBuilderTest {
    private static final int SEEDS = 100;

    // ---- policies ---------------------------------------------------------------------

    static GenPolicy noIdiomsWith(String name, String overrides) {
        return TestPolicies.noIdiomsWith(name, overrides);
    }

    static GenPolicy only(Idiom idiom, String more) {
        return TestPolicies.only(idiom, more);
    }

    private static Skeleton skeleton(GenPolicy p, long seed) {
        return new SkeletonBuilder(p, new Rng(seed)).build();
    }

    // ---- walking ----------------------------------------------------------------------

    /** A shape with how many loops are around it. */
    record Site(Shape shape, int loopDepth, boolean inSeq) {}

    static List<Site> sites(Skeleton sk) {
        List<Site> out = new ArrayList<>();
        walk(sk.body(), 0, false, out);
        return out;
    }

    private static void walk(List<? extends Shape> shapes, int depth, boolean inSeq, List<Site> out) {
        for (Shape s : shapes) walk(s, depth, inSeq, out);
    }

    private static void walk(Shape s, int depth, boolean inSeq, List<Site> out) {
        out.add(new Site(s, depth, inSeq));
        if (s instanceof Shape.IfShape i) {
            walk(i.then(), depth, false, out);
            if (i.otherwise() != null) walk(i.otherwise(), depth, false, out);
        } else if (s instanceof Shape.Nest n) {
            for (int l = 0; l < n.depth(); l++) {
                walk(n.levels().get(l).prefix(), depth + l + 1, false, out);
                walk(n.levels().get(l).suffix(), depth + l + 1, false, out);
            }
            walk(n.body(), depth + n.depth(), false, out);
        } else if (s instanceof Shape.Seq q) {
            for (Shape.Nest n : q.nests()) walk(n, depth, true, out);
        }
    }

    private static List<Shape.Nest> nests(List<Site> sites) {
        List<Shape.Nest> out = new ArrayList<>();
        for (Site s : sites) if (s.shape() instanceof Shape.Nest n) out.add(n);
        return out;
    }

    private static boolean loopOnly(Shape s) {
        return (s instanceof Shape.IfShape i && i.cond() == Shape.CondKind.INVARIANT)
                || (s instanceof Shape.Slot slot
                        && (slot.kind() == Shape.SlotKind.GUARDED_DIV || slot.kind() == Shape.SlotKind.REDUNDANT_EXPR));
    }

    private static Shape.SlotKind kind(Shape s) {
        return s instanceof Shape.Slot slot ? slot.kind() : null;
    }

    // ---- one idiom at a time ----------------------------------------------------------

    @ParameterizedTest
    @EnumSource(value = Idiom.class, names = "PLAIN", mode = EnumSource.Mode.EXCLUDE)
    void withOneIdiomEveryNestIsThatIdiomPerfectAndUnsplitButAtAnElementWiseInnermost(Idiom idiom) {
        // Sequences and ifs are frequent, so that nests inside them are checked too.
        GenPolicy p = only(idiom, "stmt_weights: {loop_nest: 5, loop_seq: 5, if: 5}\n");
        int nests = 0;
        int inSeq = 0;
        int inIf = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Skeleton sk = skeleton(p, seed);
            List<Site> sites = sites(sk);
            String where = "seed " + seed + ", " + idiom + " nest:\n" + sk.dump();
            for (Site site : sites) {
                if (!(site.shape() instanceof Shape.Nest n)) continue;
                nests++;
                if (site.inSeq()) inSeq++;
                assertEquals(idiom, n.plan().idiom(), where);
                assertEquals(Shape.Access.IN_ORDER, n.plan().access(), "idiom nests walk arrays in order; " + where);
                // Only an element-wise nest splits, and only its innermost loop (p_parity_store).
                assertEquals(idiom == Idiom.VECTORIZABLE && n.splitLevel() >= 0 ? n.depth() - 1 : -1, n.splitLevel(),
                        "idiom nests are not split, but at the innermost loop of an element-wise one; " + where);
                assertTrue(n.depth() >= 1, where);
                Shape.Level inner = n.levels().get(n.depth() - 1);
                assertTrue(inner.prefix().isEmpty() && inner.suffix().isEmpty(), "the innermost level is the body; " + where);
                assertFalse(n.body().isEmpty(), where);
                List<Shape.SlotKind> body = new ArrayList<>();
                for (Shape b : n.body()) {
                    // A statement of the idiom, or one under a loop-invariant test (for unswitching).
                    if (b instanceof Shape.IfShape i) {
                        assertEquals(Shape.CondKind.INVARIANT, i.cond(), "an if in an idiom body is loop-invariant; " + where);
                        List<Shape> branches = new ArrayList<>(i.then());
                        if (i.otherwise() != null) branches.addAll(i.otherwise());
                        for (Shape x : branches) {
                            assertTrue(x instanceof Shape.Slot, "an idiom body is its statements only; " + where);
                            body.add(kind(x));
                        }
                    } else {
                        assertTrue(b instanceof Shape.Slot, "an idiom body is its statements only; " + where);
                        body.add(kind(b));
                    }
                }
                checkBody(p, idiom, body, where);
                if (idiom == Idiom.STENCIL) {
                    checkStencil(p, n, where);
                } else {
                    assertEquals(null, n.plan().stencil(), where);
                }
            }
            for (Site site : sites) {
                if (site.shape() instanceof Shape.IfShape i) {
                    List<Site> inside = new ArrayList<>();
                    walk(i.then(), site.loopDepth(), false, inside);
                    if (i.otherwise() != null) walk(i.otherwise(), site.loopDepth(), false, inside);
                    inIf += nests(inside).size();
                }
            }
        }
        assertTrue(nests >= SEEDS, "every test has a loop: " + nests + " nests in " + SEEDS + " seeds");
        assertTrue(inSeq > 0, "some nests were in loop sequences");
        assertTrue(inIf > 0, "some nests were inside ifs");
    }

    /**
     * The body of an idiom nest: led by the idiom's own statement, and otherwise made of
     * the kinds it may mix in (temporaries in vectorizable nests, element-wise stores in
     * reductions); no more statements than a block may hold.
     */
    private static void checkBody(GenPolicy p, Idiom idiom, List<Shape.SlotKind> body, String where) {
        Shape.SlotKind lead = switch (idiom) {
            case VECTORIZABLE -> Shape.SlotKind.ELEMENTWISE;
            case REDUCTION -> Shape.SlotKind.REDUCE;
            case STENCIL -> Shape.SlotKind.STENCIL;
            case MEMSET -> Shape.SlotKind.MEMSET;
            case MEMCPY -> Shape.SlotKind.MEMCPY;
            default -> throw new AssertionError(idiom);
        };
        Shape.SlotKind extra = switch (idiom) {
            case VECTORIZABLE -> Shape.SlotKind.LOCAL;
            case REDUCTION -> Shape.SlotKind.ELEMENTWISE;
            default -> lead;
        };
        assertEquals(lead, body.get(0), "an " + idiom + " body starts with " + lead + "; " + where);
        for (Shape.SlotKind k : body) assertTrue(k == lead || k == extra, k + " in an " + idiom + " body; " + where);
        assertTrue(body.size() <= Math.max(2, p.maxBlockStmts()), "body of " + body.size() + " statements; " + where);
    }

    /**
     * The outer levels of an idiom nest are imperfect as p_imperfect says, as in a plain
     * nest (its innermost level always holds the idiom's body alone, checked above).
     */
    @ParameterizedTest
    @EnumSource(value = Idiom.class, names = "PLAIN", mode = EnumSource.Mode.EXCLUDE)
    void idiomNestOuterLevelsFollowPImperfect(Idiom idiom) {
        GenPolicy perfect = only(idiom, "p_imperfect: 0.0\nmax_nest_depth: 3\n");
        GenPolicy imperfect = only(idiom, "p_imperfect: 1.0\nmax_nest_depth: 3\n");
        int deep = 0;
        int withOuterStatements = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Skeleton sk = skeleton(perfect, seed);
            for (Shape.Nest n : nests(sites(sk))) {
                for (int l = 0; l < n.depth(); l++) {
                    Shape.Level lv = n.levels().get(l);
                    long at = seed;
                    int level = l;
                    assertTrue(lv.prefix().isEmpty() && lv.suffix().isEmpty(), () -> "seed " + at + ": level " + level
                            + " of an " + idiom + " nest has statements with p_imperfect 0:\n" + sk.dump());
                }
            }
            for (Shape.Nest n : nests(sites(skeleton(imperfect, seed)))) {
                if (n.depth() < 2) continue;
                deep++;
                if (n.levels().stream().anyMatch(lv -> !lv.prefix().isEmpty() || !lv.suffix().isEmpty())) withOuterStatements++;
            }
        }
        assertTrue(deep > 0 && withOuterStatements == deep,
                withOuterStatements + " of " + deep + " nests of depth 2+ have outer statements with p_imperfect 1");
    }

    @Test
    void pIdiomSeqMakesIdiomNestsFusibleRuns() {
        // Sequences only from p_idiom_seq: loop_seq off.
        GenPolicy runs = only(Idiom.VECTORIZABLE, "p_idiom_seq: 1.0\nstmt_weights: {loop_seq: 0}\n");
        GenPolicy single = only(Idiom.VECTORIZABLE, "p_idiom_seq: 0.0\nstmt_weights: {loop_seq: 0}\n");
        int nests = 0;
        int inSharedRuns = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            for (Site s : sites(skeleton(runs, seed))) {
                if (s.shape() instanceof Shape.Seq q) {
                    assertTrue(q.sharedSpace(), "seed " + seed + ": an idiom run shares one space");
                    Shape.NestPlan first = q.nests().get(0).plan();
                    for (Shape.Nest n : q.nests()) assertEquals(first, n.plan(), "seed " + seed + ": one plan per run");
                }
                if (s.shape() instanceof Shape.Nest) {
                    nests++;
                    if (s.inSeq()) inSharedRuns++;
                }
            }
            for (Site s : sites(skeleton(single, seed))) {
                assertFalse(s.shape() instanceof Shape.Seq, "seed " + seed + ": a sequence with p_idiom_seq 0 and loop_seq 0");
            }
        }
        // Only the loop a test is given when it drew none stands alone.
        assertTrue(inSharedRuns >= 0.8 * nests, inSharedRuns + " of " + nests + " nests are in runs");
    }

    @Test
    void pInvariantGuardPutsIdiomStatementsUnderLoopInvariantIfs() {
        GenPolicy guarded = only(Idiom.MEMSET, "p_invariant_guard: 1.0\n");
        GenPolicy unguarded = only(Idiom.MEMSET, "p_invariant_guard: 0.0\n");
        int statements = 0;
        int underGuard = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            for (Shape.Nest n : nests(sites(skeleton(guarded, seed)))) {
                for (Shape b : n.body()) {
                    statements++;
                    if (b instanceof Shape.IfShape i && i.cond() == Shape.CondKind.INVARIANT) underGuard++;
                }
            }
            for (Shape.Nest n : nests(sites(skeleton(unguarded, seed)))) {
                for (Shape b : n.body()) assertTrue(b instanceof Shape.Slot, "seed " + seed + ": a guard with p_invariant_guard 0");
            }
        }
        // Nests already max_if_depth ifs deep get no guard.
        assertTrue(underGuard >= 0.8 * statements, underGuard + " of " + statements + " idiom statements are guarded");
    }

    private static void checkStencil(GenPolicy p, Shape.Nest n, String where) {
        Shape.StencilPlan st = n.plan().stencil();
        assertNotNull(st, "a stencil nest has a stencil plan; " + where);
        assertTrue(st.dims() >= 1 && st.dims() <= Math.min(p.maxStencilDims(), p.maxArrayRank()), "dims; " + where);
        assertTrue(st.dims() <= n.depth(), "a stencil spans at most the nest's loops; " + where);
        assertTrue(st.reach() >= 1 && st.reach() <= p.maxStencilReach(), "reach; " + where);
        assertTrue(st.stride() >= 1 && st.stride() <= p.maxStencilStride(), "stride; " + where);
        assertTrue(st.taps() >= 2 && st.taps() <= p.maxStencilTaps(), "taps; " + where);
        assertTrue(st.arrays() >= 1 && st.arrays() <= p.maxStencilArrays(), "arrays; " + where);
        assertEquals(st.reach() * st.stride(), n.plan().halo(), where);
    }

    @Test
    void stencilPlansSpanThePolicyLimits() {
        // Limits other than the defaults, so that a builder ignoring them shows.
        GenPolicy p = only(Idiom.STENCIL, """
                max_stencil_reach: 3
                max_stencil_stride: 3
                max_stencil_taps: 9
                max_stencil_arrays: 3
                max_stencil_dims: 3
                max_array_rank: 3
                """);
        int maxReach = 0, maxStride = 0, maxTaps = 0, maxArrays = 0, maxDims = 0, reduced = 0, stored = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            for (Shape.Nest n : nests(sites(skeleton(p, seed)))) {
                checkStencil(p, n, "seed " + seed);
                Shape.StencilPlan st = n.plan().stencil();
                maxReach = Math.max(maxReach, st.reach());
                maxStride = Math.max(maxStride, st.stride());
                maxTaps = Math.max(maxTaps, st.taps());
                maxArrays = Math.max(maxArrays, st.arrays());
                maxDims = Math.max(maxDims, st.dims());
                if (st.reduced()) reduced++;
                else stored++;
            }
        }
        assertEquals(List.of(3, 3, 9, 3, 3), List.of(maxReach, maxStride, maxTaps, maxArrays, maxDims),
                "reach, stride, taps, arrays and dims reach the policy's maxima");
        assertTrue(reduced > 0 && stored > 0, "stencils are stored and reduced: " + stored + "/" + reduced);
    }

    @Test
    void stencilDimsAreCappedByMaxArrayRank() {
        GenPolicy p = only(Idiom.STENCIL, "max_stencil_dims: 3\nmax_array_rank: 1\n");
        for (long seed = 1; seed <= SEEDS; seed++) {
            for (Shape.Nest n : nests(sites(skeleton(p, seed)))) {
                assertEquals(1, n.plan().stencil().dims(), "seed " + seed);
            }
        }
    }

    // ---- loop-only statements ---------------------------------------------------------

    @Test
    void loopOnlyStatementsAppearOnlyInsideLoops() {
        GenPolicy p = noIdiomsWith("loop-only", "stmt_weights: {invariant_if: 20, guarded_div: 20, redundant_expr: 20}\n");
        Map<String, Integer> inside = new LinkedHashMap<>();
        int topLevelStatements = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Skeleton sk = skeleton(p, seed);
            for (Site s : sites(sk)) {
                if (s.loopDepth() == 0) {
                    topLevelStatements++;
                    long at = seed;
                    assertFalse(loopOnly(s.shape()), () -> "seed " + at + ": " + s.shape() + " outside a loop:\n" + sk.dump());
                } else if (loopOnly(s.shape())) {
                    String k = s.shape() instanceof Shape.IfShape ? "invariant_if" : kind(s.shape()).name();
                    inside.merge(k, 1, Integer::sum);
                }
            }
        }
        assertTrue(topLevelStatements > 2 * SEEDS, "statements outside loops were checked: " + topLevelStatements);
        for (String k : List.of("invariant_if", "GUARDED_DIV", "REDUNDANT_EXPR")) {
            assertTrue(inside.getOrDefault(k, 0) >= 20, k + " appears inside loops: " + inside);
        }
    }

    @Test
    void loopOnlyStatementsRespectTheIfDepthLimit() {
        GenPolicy p = noIdiomsWith("no-ifs", "max_if_depth: 0\nstmt_weights: {invariant_if: 20, guarded_div: 5}\n");
        int guarded = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            for (Site s : sites(skeleton(p, seed))) {
                assertFalse(s.shape() instanceof Shape.IfShape, "seed " + seed + ": an if with max_if_depth 0");
                if (kind(s.shape()) == Shape.SlotKind.GUARDED_DIV) guarded++;
            }
        }
        assertTrue(guarded > 0, "the other loop-only statements still appear");
    }

    // ---- the baseline -----------------------------------------------------------------

    @Test
    void noIdiomsSwitchesEveryIdiomOff() throws IOException {
        GenPolicy p = PolicyLoader.load(Path.of("policies/no-idioms.yaml"));
        int nests = 0;
        int seqs = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            Skeleton sk = skeleton(p, seed);
            String where = "seed " + seed + ":\n" + sk.dump();
            for (Site s : sites(sk)) {
                assertFalse(loopOnly(s.shape()), where);
                Shape.SlotKind k = kind(s.shape());
                if (k != null) {
                    assertTrue(k == Shape.SlotKind.ASSIGN || k == Shape.SlotKind.COMPOUND || k == Shape.SlotKind.LOCAL,
                            k + " in " + where);
                }
                if (s.shape() instanceof Shape.Nest n) {
                    nests++;
                    assertEquals(Idiom.PLAIN, n.plan().idiom(), where);
                    assertEquals(Pragma.NONE, n.plan().pragma(), where);
                    assertEquals(Shape.Access.RANDOM, n.plan().access(), where);
                    assertEquals(null, n.plan().stencil(), where);
                }
                if (s.shape() instanceof Shape.Seq q) {
                    seqs++;
                    assertFalse(q.sharedSpace(), "p_shared_space is 0; " + where);
                }
            }
            String d = sk.dump();
            for (String word : List.of("vectorizable", "reduction", "stencil", "memset", "memcpy", "pragma", "access",
                    "loop-invariant", "guarded", "redundant")) {
                assertFalse(d.contains(word), word + " in " + where);
            }
        }
        assertTrue(nests >= SEEDS && seqs > 0, nests + " nests, " + seqs + " sequences");
    }

    @Test
    void theDefaultPolicyMakesEveryIdiomAndPlainNests() {
        GenPolicy p = GenPolicy.defaults();
        Map<Idiom, Integer> seen = new EnumMap<>(Idiom.class);
        Map<Pragma, Integer> pragmas = new EnumMap<>(Pragma.class);
        Map<Shape.Access, Integer> accesses = new EnumMap<>(Shape.Access.class);
        for (long seed = 1; seed <= 2 * SEEDS; seed++) {
            for (Shape.Nest n : nests(sites(skeleton(p, seed)))) {
                seen.merge(n.plan().idiom(), 1, Integer::sum);
                pragmas.merge(n.plan().pragma(), 1, Integer::sum);
                if (n.plan().idiom() == Idiom.PLAIN) accesses.merge(n.plan().access(), 1, Integer::sum);
            }
        }
        assertEquals(Idiom.values().length, seen.size(), "every idiom: " + seen);
        assertEquals(Pragma.values().length, pragmas.size(), "every pragma: " + pragmas);
        assertEquals(Shape.Access.values().length, accesses.size(), "every access pattern in plain nests: " + accesses);
    }

    // ---- dump -------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(value = Idiom.class, names = "PLAIN", mode = EnumSource.Mode.EXCLUDE)
    void dumpNamesTheIdiomOnTheNestLine(Idiom idiom) {
        GenPolicy p = only(idiom, "");
        Pattern nestLine = Pattern.compile("(?m)^\\s*loop nest depth \\d+, " + idiom.name().toLowerCase() + "\\b");
        for (long seed = 1; seed <= 20; seed++) {
            Skeleton sk = skeleton(p, seed);
            String d = sk.dump();
            assertTrue(nestLine.matcher(d).find(), "seed " + seed + ":\n" + d);
            long lines = d.lines().filter(l -> l.strip().startsWith("loop nest depth")).count();
            long named = d.lines().filter(l -> nestLine.matcher(l).find()).count();
            assertEquals(lines, named, "every nest line names " + idiom + ":\n" + d);
        }
    }

    @Test
    void dumpNamesPragmasAndAccessPatterns() {
        GenPolicy p = noIdiomsWith("patterns", """
                access_weights: {random: 0, column_major: 1}
                pragma_weights: {none: 0, gcc_unroll: 1}
                """);
        String d = skeleton(p, 1).dump();
        assertTrue(d.contains("column-major access"), d);
        assertTrue(d.contains("pragma gcc_unroll"), d);
    }

    @Test
    void theSameSeedGivesTheSameSkeleton() {
        GenPolicy p = GenPolicy.defaults();
        for (long seed = 1; seed <= 20; seed++) {
            assertEquals(skeleton(p, seed), skeleton(p, seed), "seed " + seed);
        }
    }
}
