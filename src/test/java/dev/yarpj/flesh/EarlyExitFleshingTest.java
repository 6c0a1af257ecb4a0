package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.interp.LoopTrips;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Early exits as policies/control-flow.yaml generates them: every kind appears, no break
 * leaves a loop marked parallel, the loops with exits still iterate, and their exits fire
 * on some entries and not on others (the sentinel planted, or not); no-idioms.yaml
 * generates none.
 */
class EarlyExitFleshingTest {
    private static final GenPolicy CONTROL_FLOW = PolicyLoader.load(Path.of("policies/control-flow.yaml"));
    /** 60 a language: early returns are the rarest, and seeds 1..60 of both have 50 (a test has one at most). */
    private static final int SEEDS = 60;
    /** Seeds 1..60 of control-flow.yaml in C, then in ISPC: both tests read the same programs, generated once. */
    private static List<GeneratedTest> controlFlowTests;

    private static synchronized List<GeneratedTest> controlFlowTests() {
        if (controlFlowTests == null) {
            List<GeneratedTest> out = new ArrayList<>();
            for (Language lang : List.of(Language.C, Language.ISPC)) {
                Generator g = new Generator(CONTROL_FLOW, lang, CheckMode.HASH);
                for (long seed = 1; seed <= SEEDS; seed++) out.add(g.generate(seed, "exit test"));
            }
            controlFlowTests = List.copyOf(out);
        }
        return controlFlowTests;
    }

    private static Map<Stmt.Exit.Kind, Integer> exits(GeneratedTest t) {
        Map<Stmt.Exit.Kind, Integer> n = new EnumMap<>(Stmt.Exit.Kind.class);
        new Stmt.Walker() {
            @Override
            public Void exit(Stmt.Exit e) {
                n.merge(e.kind(), 1, Integer::sum);
                return null;
            }
        }.all(t.program().body().stmts());
        return n;
    }

    @Test
    void exitsOfEveryKindThatFireSometimesAndLeaveLoopsThatIterate() {
        Map<Stmt.Exit.Kind, Integer> kinds = new EnumMap<>(Stmt.Exit.Kind.class);
        List<Double> perEntry = new ArrayList<>();
        long loops = 0;
        long fired = 0;
        long neverFired = 0;
        for (GeneratedTest t : controlFlowTests()) {
            exits(t).forEach((k, v) -> kinds.merge(k, v, Integer::sum));
            for (LoopTrips l : t.prediction().loops()) {
                if (!l.exits()) continue;
                assertFalse(l.parallel(), "a loop a break leaves is never parallel (seed " + t.seed() + ")");
                if (l.entered() == 0) continue;
                loops++;
                perEntry.add(l.perEntry());
                if (l.broken() > 0) fired++;
                else neverFired++;
            }
        }
        assertTrue(kinds.getOrDefault(Stmt.Exit.Kind.BREAK, 0) > 50 && kinds.getOrDefault(Stmt.Exit.Kind.CONTINUE, 0) > 20
                && kinds.getOrDefault(Stmt.Exit.Kind.RETURN, 0) > 40, kinds.toString());
        assertTrue(loops > 50, loops + " entered loops with a break");
        assertTrue(fired > loops / 4 && neverFired > loops / 20, fired + " fired, " + neverFired + " never fired, of " + loops);
        Collections.sort(perEntry);
        double median = perEntry.get(perEntry.size() / 2);
        System.out.printf("early exits: %s; %d entered loops with a break: %d fired, %d never; median iterations per entry %.1f%n",
                kinds, loops, fired, neverFired, median);
        assertTrue(median >= 4, "loops with a break still iterate: median " + median + " per entry");
    }

    @Test
    void anEarlyReturnIsInTheLastStatementAndFiresOnSomeTestsOnly() {
        int returning = 0;
        int fired = 0;
        for (GeneratedTest t : controlFlowTests()) {
            List<Stmt> top = t.program().body().stmts();
            if (!Stmt.returns(top)) continue;
            returning++;
            // Every loop level a return leaves is serial (checked here on the IR: the interpreter
            // refuses only a return that fires in a parallel loop).
            new Stmt.Walker() {
                @Override
                public Void loopNest(Stmt.LoopNest n) {
                    for (int l = 0; l < n.depth(); l++) {
                        if (n.returnsFrom(l)) assertFalse(n.levels().get(l).head().parallel(), "a return leaves a parallel loop: " + n);
                    }
                    return super.loopNest(n);
                }
            }.all(top);
            if (t.prediction().returned()) fired++;
        }
        System.out.printf("early returns: %d of %d tests, %d fired%n", returning, controlFlowTests().size(), fired);
        assertTrue(returning > 40, returning + " tests return early");
        assertTrue(fired > returning / 4 && fired < returning, fired + " of " + returning + " returns fired");
    }

    /** Seeds 1..20: no-idioms.yaml sets p_exit to 0, so no test may have an exit (seeds 21..60 repeated the check on forty more). */
    @Test
    void theNoIdiomsPolicyGeneratesNone() {
        Generator g = new Generator(IdiomFleshingTest.noIdiomsWith("no-idioms", ""), Language.C, CheckMode.HASH);
        for (long seed = 1; seed <= 20; seed++) assertEquals(Map.of(), exits(g.generate(seed, "t")), "seed " + seed);
    }
}
