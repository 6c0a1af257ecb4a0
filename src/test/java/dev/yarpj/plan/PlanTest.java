package dev.yarpj.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.Generator;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlanTest {
    private static final EmitPolicy.Ispc ISPC = EmitPolicy.DEFAULT.ispc();
    private static final EmitPolicy.Sycl SYCL = EmitPolicy.DEFAULT.sycl();

    /** Seeds 1..count of the default policy, generated once per language for all the tests (a test taking fewer takes a prefix). */
    private static final java.util.Map<Language, List<Program>> GENERATED = new java.util.EnumMap<>(Language.class);

    private static synchronized List<Program> programs(Language lang, int count) {
        List<Program> ps = GENERATED.computeIfAbsent(lang, l -> new ArrayList<>());
        Generator g = new Generator(GenPolicy.defaults(), lang, CheckMode.HASH);
        for (long seed = ps.size() + 1; seed <= count; seed++) ps.add(g.generate(seed, "plan test").program());
        return List.copyOf(ps.subList(0, count));
    }

    /** Every loop nest of a program, with whether it sits in another nest's body. */
    private static void nests(List<Stmt> stmts, boolean nested, List<Stmt.LoopNest> out, List<Boolean> inner) {
        for (Stmt s : stmts) {
            if (s instanceof Stmt.LoopNest n) {
                out.add(n);
                inner.add(nested);
                nests(n.blocksFrom(0), true, out, inner);
            } else if (s instanceof Stmt.LoopSeq q) {
                nests(new ArrayList<>(q.nests()), nested, out, inner);
            } else if (s instanceof Stmt.If i) {
                nests(i.then().stmts(), nested, out, inner);
                if (i.otherwise() != null) nests(i.otherwise().stmts(), nested, out, inner);
            } else if (s instanceof Stmt.DeadBranch d) {
                nests(d.body().stmts(), nested, out, inner);
            } else if (s instanceof Stmt.Block b) {
                nests(b.stmts(), nested, out, inner);
            }
        }
    }

    @Test
    void aGangLoopIsADataParallelLevelAndNeverInsideAnother() {
        int gangs = 0;
        long seed = 0;
        for (Program p : programs(Language.ISPC, 40)) {
            IspcPlan plan = IspcPlan.of(p, ISPC, new Rng(++seed));
            List<Stmt.LoopNest> all = new ArrayList<>();
            List<Boolean> inner = new ArrayList<>();
            nests(p.body().stmts(), false, all, inner);
            for (Stmt.LoopNest n : all) {
                IspcPlan.Gang g = plan.gang(n);
                if (g == null) continue;
                gangs++;
                LoopHead h = g.level().head(0);
                assertTrue(h.parallel() && h.trip() >= 0, "a gang loop runs a data-parallel level with a planned trip count");
                assertTrue(plan.isVarying(new Expr.IterRef(h.iter())), "the gang iterator is varying");
                // No gang loop below this one.
                List<Stmt.LoopNest> below = new ArrayList<>();
                nests(n.blocksFrom(g.level().first()), true, below, new ArrayList<>());
                for (Stmt.LoopNest b : below) assertNull(plan.gang(b), "a gang loop inside another's body");
                for (Stmt.Reduce r : g.level().partialFolds()) {
                    assertFalse(Folds.indexedBy(r.target(), h), "a fold with a partial result is not indexed by the gang loop");
                }
            }
        }
        assertTrue(gangs > 20, "40 programs plan some gang loops: " + gangs);
    }

    @Test
    void theEmitOddsDecide() {
        EmitPolicy.Ispc never = new EmitPolicy.Ispc(0, ISPC.gangForms(), 1, 1);
        EmitPolicy.Ispc always = new EmitPolicy.Ispc(1, List.of("foreach_tiled"), 0, 0);
        for (Program p : programs(Language.ISPC, 30)) {
            List<Stmt.LoopNest> all = new ArrayList<>();
            List<Boolean> inner = new ArrayList<>();
            nests(p.body().stmts(), false, all, inner);
            IspcPlan none = IspcPlan.of(p, never, new Rng(1));
            IspcPlan every = IspcPlan.of(p, always, new Rng(1));
            for (int i = 0; i < all.size(); i++) {
                Stmt.LoopNest n = all.get(i);
                assertNull(none.gang(n), "p_gang 0 plans no gang loop");
                boolean candidate = n.levels().stream().anyMatch(l -> l.head().parallel() && l.head().trip() >= 0);
                IspcPlan.Gang g = every.gang(n);
                if (candidate && !inner.get(i)) {
                    assertTrue(g != null && g.form() == IspcPlan.GangForm.FOREACH_TILED, "p_gang 1: every top nest that can be a gang is one");
                }
            }
        }
    }

    @Test
    void kernelsKeepTheProgramsOrderAndTheirRules() {
        Set<KernelPlan.Memory> modes = new HashSet<>();
        int parallel = 0;
        int nd = 0;
        long seed = 0;
        for (Program p : programs(Language.SYCL, 40)) {
            KernelPlan plan = KernelPlan.of(p, SYCL, new Rng(++seed));
            modes.add(plan.memory());
            List<Stmt> top = new ArrayList<>();
            for (Stmt s : p.body().stmts()) {
                if (s instanceof Stmt.LoopSeq q) top.addAll(q.nests());
                else top.add(s);
            }
            List<Stmt> covered = new ArrayList<>();
            for (KernelPlan.Kernel k : plan.kernels()) {
                if (k instanceof KernelPlan.SingleTask st) {
                    covered.addAll(st.stmts());
                    continue;
                }
                KernelPlan.ParallelFor pf = (KernelPlan.ParallelFor) k;
                parallel++;
                covered.add(pf.levels().nest());
                int dims = pf.levels().count();
                assertTrue(dims >= 1 && dims <= 3 && pf.levels().first() == 0);
                for (int d = 0; d < dims; d++) assertTrue(pf.levels().head(d).parallel() && pf.levels().head(d).trip() > 0);
                for (Stmt.Reduce r : pf.levels().partialFolds()) {
                    assertTrue(r.target() instanceof Expr.ScalarRef, "only folds into scalars are sycl::reductions");
                }
                if (pf.ndRange()) {
                    nd++;
                    assertEquals(dims, pf.groupSizes().size());
                    List<Integer> allowed = pf.levels().partialFolds().isEmpty() ? SYCL.groupSizes() : SYCL.reductionGroupSizes();
                    for (long g : pf.groupSizes()) assertTrue(allowed.contains((int) g), "work-group size " + g);
                }
            }
            assertEquals(top.size(), covered.size(), "every top-level statement runs in exactly one kernel");
            for (int i = 0; i < top.size(); i++) assertTrue(top.get(i) == covered.get(i), "in program order");
        }
        assertEquals(3, modes.size(), "every memory mode was planned: " + modes);
        assertTrue(parallel > 20 && nd > 5, parallel + " parallel_for kernels, " + nd + " over an nd_range");
    }

    @Test
    void thePolicysEmitSectionReachesThePlans() {
        GenPolicy serial = dev.yarpj.policy.PolicyLoader.parse(
                "emit:\n  ispc:\n    p_gang: 0\n  sycl:\n    p_parallel_for: 0\n    memory: [usm_device]\n", "serial.yaml", "serial");
        for (long seed = 1; seed <= 15; seed++) {
            String ispc = new Generator(serial, Language.ISPC, CheckMode.HASH).generate(seed, "t").files().files().get("func.ispc");
            assertFalse(ispc.contains("foreach") || ispc.contains("programIndex"), "p_gang 0: no gang loop\n" + ispc);
            String sycl = new Generator(serial, Language.SYCL, CheckMode.HASH).generate(seed, "t").files().files().get("func.cpp");
            assertFalse(sycl.contains("parallel_for"), "p_parallel_for 0: no parallel_for");
            assertTrue(sycl.contains("sycl::malloc_device"), "memory: [usm_device]");
        }
    }

    @Test
    void aProgramWithoutParallelForsWhenTheOddsSaySo() {
        EmitPolicy.Sycl serial = new EmitPolicy.Sycl(0, 0, 1, List.of("usm_device"), List.of(1), List.of(2));
        for (Program p : programs(Language.SYCL, 20)) {
            KernelPlan plan = KernelPlan.of(p, serial, new Rng(5));
            assertEquals(KernelPlan.Memory.USM_DEVICE, plan.memory());
            assertTrue(plan.inOrder());
            assertTrue(plan.kernels().stream().allMatch(k -> k instanceof KernelPlan.SingleTask));
        }
    }
}
