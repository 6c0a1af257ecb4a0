package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Generated switch statements (statement kind {@code switch}, policy {@code switches:}) take
 * every shape the policy names, and their cases really run: with the control-path counters on,
 * the interpreter's counts show that most switches run some case, and that others stay dead
 * code the compiler must keep; some are state machines, switching on a scalar their cases set.
 * An ISPC program's labels fit 32 bits, as ispc requires.
 */
class SwitchStatementTest {
    private static final GenPolicy SWITCHING = PolicyLoader.parse(
            "stmt_weights: {switch: 30}\nexits: {trace_branches: true}\n", "switching.yaml", "switching");

    /** The switches, or the loop nests ({@code kind}), of a test's program, at any depth, in program order. */
    private static <T extends Stmt> List<T> all(GeneratedTest t, Class<T> kind) {
        List<T> out = new ArrayList<>();
        new Stmt.Walker() {
            @Override
            public Void switchStmt(Stmt.Switch s) {
                if (kind.isInstance(s)) out.add(kind.cast(s));
                return super.switchStmt(s);
            }

            @Override
            public Void loopNest(Stmt.LoopNest n) {
                if (kind.isInstance(n)) out.add(kind.cast(n));
                return super.loopNest(n);
            }
        }.all(t.program().body().stmts());
        return out;
    }

    @Test
    void anElementwiseSwitchStoresTheIterationsOwnElementInEveryCaseAndItsLoopStaysDataParallel() {
        GenPolicy p = PolicyLoader.parse("idiom_weights: {plain: 1, vectorizable: 6, reduction: 1, stencil: 0, memset: 0, memcpy: 0}\n"
                + "switches: {p_elementwise: 0.5}\n", "elementwise-switch.yaml", "elementwise-switch");
        int found = 0, parallel = 0;
        for (Language lang : List.of(Language.C, Language.ISPC)) {
            Generator g = new Generator(p, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 20; seed++) {
                GeneratedTest t = g.generate(seed, "switch test");
                for (Stmt.LoopNest n : all(t, Stmt.LoopNest.class)) {
                    for (Stmt s : n.body().stmts()) {
                        if (!(s instanceof Stmt.Switch w) || n.idiom() != dev.yarpj.ir.Idiom.VECTORIZABLE) continue;
                        List<Stmt.Block> bodies = new ArrayList<>();
                        w.cases().forEach(c -> bodies.add(c.body()));
                        if (w.otherwise() != null) bodies.add(w.otherwise());
                        Expr target = ((Stmt.Assign) bodies.get(0).stmts().get(0)).target();
                        if (!(target instanceof Expr.Subscript)) continue;
                        // Every body is one store to the same element.
                        assertTrue(bodies.stream().allMatch(b -> b.stmts().size() == 1 && b.stmts().get(0) instanceof Stmt.Assign a
                                && a.target().equals(target)), "seed " + seed + ": " + w);
                        found++;
                        if (n.levels().get(n.depth() - 1).head().dataParallel()) parallel++;
                    }
                }
            }
        }
        assertTrue(found > 20, found + " element-wise switches");
        assertTrue(parallel > found / 2, parallel + " of " + found + " element-wise switches are in a data-parallel innermost loop");
    }

    /** A switch on a scalar that every case body sets to a constant, last. */
    private static boolean isStateMachine(Stmt.Switch s) {
        Expr sel = s.selector() instanceof Expr.Cast c ? c.operand() : s.selector();
        if (!(sel instanceof Expr.ScalarRef ref)) return false;
        for (Stmt.Switch.Case c : s.cases()) {
            List<Stmt> b = c.body().stmts();
            if (!(b.get(b.size() - 1) instanceof Stmt.Assign a && a.target() instanceof Expr.ScalarRef t && t.var() == ref.var()
                    && (a.value() instanceof Expr.Const || a.value() instanceof Expr.Cast k && k.operand() instanceof Expr.Const))) return false;
        }
        return true;
    }

    /** How often the body ran, by the counter it starts with (BranchTrace). */
    private static long runs(GeneratedTest t, Stmt.Block body) {
        ScalarVar counter = ((Expr.ScalarRef) ((Stmt.Reduce) body.stmts().get(0)).target()).var();
        return t.prediction().scalars().get(t.program().outputs().indexOf(counter));
    }

    @Test
    void switchesTakeEveryShapeAndTheirCasesRun() {
        int switches = 0, dense = 0, sparse = 0, multiLabel = 0, fallsThrough = 0, withDefault = 0, withoutDefault = 0;
        int bodies = 0, bodiesRun = 0, switchesRun = 0, stateMachines = 0;
        for (Language lang : List.of(Language.C, Language.ISPC)) {
            Generator g = new Generator(SWITCHING, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 30; seed++) {
                GeneratedTest t = g.generate(seed, "switch test");
                for (Stmt.Switch s : all(t, Stmt.Switch.class)) {
                    switches++;
                    List<Long> labels = new ArrayList<>();
                    boolean ran = false;
                    for (Stmt.Switch.Case c : s.cases()) {
                        labels.addAll(c.labels());
                        if (c.labels().size() > 1) multiLabel++;
                        if (c.fallsThrough()) fallsThrough++;
                        bodies++;
                        if (runs(t, c.body()) > 0) {
                            bodiesRun++;
                            ran = true;
                        }
                    }
                    if (isStateMachine(s)) stateMachines++;
                    if (s.otherwise() != null) withDefault++;
                    else withoutDefault++;
                    if (ran) switchesRun++;
                    List<Long> sorted = labels.stream().sorted().toList();
                    if (sorted.size() > 2 && sorted.get(sorted.size() - 1) - sorted.get(0) == sorted.size() - 1) dense++;
                    else if (sorted.size() > 2) sparse++;
                    if (lang == Language.ISPC) {
                        for (long l : labels) assertTrue(l >= Integer.MIN_VALUE && l <= 0xffffffffL, "ispc takes no label " + l);
                    }
                    assertEquals(s.selector().type(), dev.yarpj.ir.Arith.promote(s.selector().type()), "the selector is promoted");
                }
            }
        }
        String counts = switches + " switches: " + dense + " dense, " + sparse + " sparse, " + multiLabel + " cases with several labels, "
                + fallsThrough + " falling through, " + withDefault + " with a default, " + withoutDefault + " without; "
                + bodiesRun + " of " + bodies + " case bodies ran, in " + switchesRun + " switches; " + stateMachines + " state machines";
        assertTrue(switches > 100, counts);
        assertTrue(stateMachines > 20, counts);
        assertTrue(dense > 10 && sparse > 10 && multiLabel > 10 && fallsThrough > 10 && withDefault > 10 && withoutDefault > 10, counts);
        // Most switches run a case; most case bodies are code that never runs (as the paper's dead branches).
        assertTrue(switchesRun > switches / 2, counts);
        assertTrue(bodiesRun < bodies / 2, counts);
    }
}
