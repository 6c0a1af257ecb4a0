package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Interleaved groups as policies/vectorize.yaml generates them (skeleton: p_interleaved): the
 * innermost loop of element-wise and reduction nests walks the last dimension as
 * {@code a[k*i + j]}, every group size from 2 to max_group and every member j of a group
 * appears, loads and stores both, and a nest whose stores are all interleaved groups of one
 * size stays data-parallel (an ISPC gang loop, a SYCL parallel_for); no-idioms.yaml
 * makes none.
 */
class InterleavedFleshingTest {
    private static final GenPolicy VECTORIZE = PolicyLoader.load(Path.of("policies/vectorize.yaml"));

    /** "k/j load" and "k/j store" for each interleaved access of {@code t}; "parallel store" when its innermost loop is parallel. */
    private static Set<String> groups(GeneratedTest t) {
        Set<String> seen = new TreeSet<>();
        new Stmt.Walker() {
            Stmt.LoopNest nest;

            @Override
            public Void loopNest(Stmt.LoopNest n) {
                Stmt.LoopNest outer = nest;
                nest = n;
                super.loopNest(n);
                nest = outer;
                return null;
            }

            @Override
            public Void assign(Stmt.Assign a) {
                if (a.target() instanceof Expr.Subscript sub && nest != null) {
                    String g = group(sub);
                    if (g != null) {
                        seen.add(g + " store");
                        if (nest.levels().get(nest.depth() - 1).head().parallel()) seen.add("parallel store");
                    }
                }
                return super.assign(a);
            }

            @Override
            protected void expr(Expr e) {
                e.accept(new Expr.AnyOperand() {
                    @Override
                    public Boolean subscript(Expr.Subscript sub) {
                        String g = group(sub);
                        if (g != null) seen.add(g + " load");
                        return super.subscript(sub);
                    }
                });
            }

            private String group(Expr.Subscript sub) {
                if (nest == null) return null;
                Expr last = sub.indices().get(sub.indices().size() - 1);
                int k = Exprs.groupOf(last, nest.levels().get(nest.depth() - 1).head().iter());
                if (k < 2) return null;
                Expr e = Exprs.stripImplicit(last);
                long j = e instanceof Expr.Binary b && b.op() == dev.yarpj.ir.BinOp.ADD ? ((Expr.Const) Exprs.stripImplicit(b.rhs())).value() : 0;
                return k + "/" + j;
            }
        }.all(t.program().body().stmts());
        return seen;
    }

    @Test
    void everyGroupSizeAndMemberAppearsAndGroupedStoresStayParallel() throws Exception {
        String text = java.nio.file.Files.readString(Path.of("policies/vectorize.yaml"));
        assertTrue(text.contains("p_interleaved"), "vectorize.yaml switches interleaved groups on");
        Set<String> all = new TreeSet<>();
        for (Language lang : List.of(Language.C, Language.ISPC)) {
            Generator g = new Generator(VECTORIZE, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 40; seed++) all.addAll(groups(g.generate(seed, "interleaved test")));
        }
        for (int k = 2; k <= VECTORIZE.skeleton().maxGroup(); k++) {
            for (int j = 0; j < k; j++) {
                assertTrue(all.contains(k + "/" + j + " load"), k + "/" + j + " load: " + all);
                assertTrue(all.contains(k + "/" + j + " store"), k + "/" + j + " store: " + all);
            }
        }
        assertTrue(all.contains("parallel store"), all.toString());
    }

    @Test
    void theNoIdiomsPolicyMakesNone() {
        Generator g = new Generator(IdiomFleshingTest.noIdiomsWith("no-idioms", ""), Language.C, CheckMode.HASH);
        for (long seed = 1; seed <= 40; seed++) assertEquals(Set.of(), groups(g.generate(seed, "t")), "seed " + seed);
    }
}
