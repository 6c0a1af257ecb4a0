package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Scalars carried across iterations as policies/control-flow.yaml generates them: each idiom
 * appears (find-last, min/max with its index, a conditional assignment, a recurrence; as an if
 * and as a select; in outputs and in locals declared before the nest), over data arrays of
 * their own; no loop around an assignment to a scalar is marked parallel (so no ISPC gang
 * loop or SYCL parallel_for carries one); no-idioms.yaml generates none.
 */
class CarriedFleshingTest {
    private static final GenPolicy CONTROL_FLOW = PolicyLoader.load(Path.of("policies/control-flow.yaml"));

    /** What the IR of a test shows of carried scalars, by kind of statement. */
    private static Map<String, Integer> carried(GeneratedTest t) {
        Map<String, Integer> n = new TreeMap<>();
        for (ArrayVar a : t.program().inputArrays()) if (a.fill().varies()) n.merge("data arrays", 1, Integer::sum);
        new Stmt.Walker() {
            @Override
            public Void assign(Stmt.Assign a) {
                if (a.target() instanceof Expr.ScalarRef r) {
                    Expr v = dev.yarpj.ir.Exprs.stripImplicit(a.value());
                    if (v instanceof Expr.Ternary) n.merge("select", 1, Integer::sum);
                    if (v instanceof Expr.IterRef) n.merge("index", 1, Integer::sum);
                    if (v instanceof Expr.Subscript s && s.array().fill().varies()) n.merge("element", 1, Integer::sum);
                    if (r.var().role() == dev.yarpj.ir.ScalarVar.Role.LOCAL) n.merge("local", 1, Integer::sum);
                }
                // out[i] = d[i] op prev
                if (a.target() instanceof Expr.Subscript && dev.yarpj.ir.Exprs.stripImplicit(a.value()) instanceof Expr.Binary b
                        && dev.yarpj.ir.Exprs.stripImplicit(b.lhs()) instanceof Expr.Subscript s && s.array().fill().varies()
                        && dev.yarpj.ir.Exprs.stripImplicit(b.rhs()) instanceof Expr.ScalarRef) {
                    n.merge("recurrence", 1, Integer::sum);
                }
                return super.assign(a);
            }

            @Override
            public Void ifStmt(Stmt.If i) {
                if (i.then().stmts().size() == 2 && i.then().stmts().stream().allMatch(s -> s instanceof Stmt.Assign a && a.target() instanceof Expr.ScalarRef)) {
                    n.merge("min/max if", 1, Integer::sum);
                }
                return super.ifStmt(i);
            }

            @Override
            public Void loopNest(Stmt.LoopNest nest) {
                for (int l = 0; l < nest.depth(); l++) {
                    if (assignsScalar(nest.blocksFrom(l))) {
                        assertFalse(nest.levels().get(l).head().parallel(), "a loop that assigns a scalar is parallel (seed " + t.seed() + ")");
                    }
                }
                return super.loopNest(nest);
            }
        }.all(t.program().body().stmts());
        return n;
    }

    /** The locals that some statement assigns: carried ones (other locals are only declared). */
    private static List<String> carriedLocals(GeneratedTest t) {
        List<String> names = new java.util.ArrayList<>();
        new Stmt.Walker() {
            @Override
            public Void assign(Stmt.Assign a) {
                if (a.target() instanceof Expr.ScalarRef r && r.var().role() == dev.yarpj.ir.ScalarVar.Role.LOCAL) names.add(r.var().name());
                return super.assign(a);
            }
        }.all(t.program().body().stmts());
        return names;
    }

    private static boolean assignsScalar(List<Stmt> stmts) {
        return new Stmt.AnyStatement() {
            @Override
            protected boolean leaf(Stmt s) {
                return s instanceof Stmt.Assign a && a.target() instanceof Expr.ScalarRef;
            }
        }.any(stmts);
    }

    @Test
    void everyIdiomAppearsAndNoLoopThatCarriesAScalarIsParallel() {
        Map<String, Integer> all = new TreeMap<>();
        int tests = 0;
        int withData = 0;
        for (Language lang : List.of(Language.C, Language.ISPC, Language.SYCL)) {
            Generator g = new Generator(CONTROL_FLOW, lang, CheckMode.HASH);
            // Seeds 1..20 a language: the rarest idiom, the min/max if, is in 53 places (139 in seeds 1..60).
            for (long seed = 1; seed <= 20; seed++) {
                GeneratedTest t = g.generate(seed, "carried test");
                Map<String, Integer> n = carried(t);
                n.forEach((k, v) -> all.merge(k, v, Integer::sum));
                tests++;
                if (n.containsKey("data arrays")) withData++;
                if (lang == Language.ISPC) {
                    // Outside every gang loop, a carried local is one uniform value, not one per lane.
                    String ispc = t.files().files().get("func.ispc");
                    for (String local : carriedLocals(t)) {
                        assertTrue(java.util.regex.Pattern.compile("uniform [a-z0-9 ]+ " + local + " = ").matcher(ispc).find(),
                                local + " in seed " + seed + ":\n" + ispc);
                    }
                }
            }
        }
        System.out.printf("carried scalars in %d of %d tests: %s%n", withData, tests, all);
        assertTrue(withData > tests / 2, withData + " of " + tests + " tests carry a scalar");
        for (String k : List.of("select", "index", "element", "local", "recurrence", "min/max if")) {
            assertTrue(all.getOrDefault(k, 0) > 10, k + ": " + all);
        }
    }

    @Test
    void theNoIdiomsPolicyGeneratesNone() {
        Generator g = new Generator(IdiomFleshingTest.noIdiomsWith("no-idioms", ""), Language.C, CheckMode.HASH);
        for (long seed = 1; seed <= 60; seed++) {
            GeneratedTest t = g.generate(seed, "t");
            assertEquals(0, t.program().inputArrays().stream().filter(a -> a.fill().varies()).count(), "seed " + seed);
        }
    }
}
