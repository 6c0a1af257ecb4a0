package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Pragma;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control-path oracle ({@code exits: trace_branches}): every arm of every if starts with
 * a counter of its own, counters are outputs nothing else touches, the program is otherwise
 * the one the seed gives without them, and real gcc runs count what the interpreter predicts.
 */
class BranchTraceTest {
    private static final GenPolicy CONTROL_FLOW = PolicyLoader.load(Path.of("policies/control-flow.yaml"));
    /** control-flow.yaml with the counters switched on. */
    private static final GenPolicy TRACED = tracedControlFlow();

    private static GenPolicy tracedControlFlow() {
        try {
            String text = Files.readString(Path.of("policies/control-flow.yaml"));
            String on = text.replaceFirst("(?m)^exits:\n", "exits:\n  trace_branches: true\n");
            assertTrue(!on.equals(text), "control-flow.yaml has an exits: section");
            return PolicyLoader.parse(on, "control-flow traced", "control-flow-traced");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static boolean isCounter(Stmt s) {
        return s instanceof Stmt.Reduce r && r.target() instanceof Expr.ScalarRef ref && ref.var().name().startsWith("path_");
    }

    /** Seeds 1..10 a language: some 750 arms, 170 of them leaving a loop. */
    @Test
    void everyArmOfEveryIfCountsIntoACounterOfItsOwn() {
        int arms = 0;
        int exitArms = 0;
        for (Language lang : List.of(Language.C, Language.ISPC, Language.SYCL)) {
            Generator g = new Generator(TRACED, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 10; seed++) {
                GeneratedTest t = g.generate(seed, "trace test");
                Set<String> counted = new HashSet<>();
                List<Stmt.Block> seenArms = new ArrayList<>();
                new Stmt.Walker() {
                    @Override
                    public Void ifStmt(Stmt.If i) {
                        seenArms.add(i.then());
                        if (i.otherwise() != null) seenArms.add(i.otherwise());
                        return super.ifStmt(i);
                    }

                    @Override
                    public Void reduce(Stmt.Reduce r) {
                        if (isCounter(r)) assertTrue(counted.add(((Expr.ScalarRef) r.target()).var().name()), "a counter counts one arm");
                        return null;
                    }

                    @Override
                    public Void loopNest(Stmt.LoopNest n) {
                        // ivdep promises no loop-carried dependence; a counter in the loop is one.
                        if (n.pragma() == Pragma.GCC_IVDEP) assertTrue(n.levels().get(n.depth() - 1).head().dataParallel());
                        return super.loopNest(n);
                    }
                }.all(t.program().body().stmts());
                for (Stmt.Block arm : seenArms) {
                    assertTrue(isCounter(arm.stmts().get(0)), "seed " + seed + ": an arm that does not count first");
                    if (arm.stmts().get(arm.stmts().size() - 1) instanceof Stmt.Exit) exitArms++;
                }
                arms += seenArms.size();
                List<String> outputs = t.program().outputs().stream().map(ScalarVar::name).filter(n -> n.startsWith("path_")).toList();
                assertEquals(counted, new HashSet<>(outputs), "seed " + seed + ": every counter is an output");
            }
        }
        assertTrue(arms > 300, arms + " arms");
        assertTrue(exitArms > 30, exitArms + " arms that leave a loop");
    }

    @Test
    void aSeedGivesTheSameProgramApartFromItsCounters() {
        Generator plain = new Generator(CONTROL_FLOW, Language.C, CheckMode.HASH);
        Generator withTrace = new Generator(TRACED, Language.C, CheckMode.HASH);
        int counters = 0;
        for (long seed = 1; seed <= 10; seed++) {
            String a = plain.generate(seed, "t").files().files().get("func.c");
            String b = withTrace.generate(seed, "t").files().files().get("func.c");
            counters += b.lines().filter(l -> l.matches("\\s*path_\\d+ \\+= 1U;")).count();
            assertEquals(withoutPragmas(a), withoutPragmas(b.lines().filter(l -> !l.matches("\\s*path_\\d+ \\+= 1U;"))
                    .reduce("", (x, y) -> x + y + "\n")), "seed " + seed);
        }
        assertTrue(counters > 100, counters + " counters");
    }

    /** The text without ivdep pragmas, which a counter takes away from a loop. */
    private static String withoutPragmas(String func) {
        return func.lines().filter(l -> !l.strip().equals("#pragma GCC ivdep")).reduce("", (x, y) -> x + y + "\n");
    }

    @Test
    void theDefaultPolicyCountsNothing() {
        Generator g = new Generator(GenPolicy.defaults(), Language.C, CheckMode.HASH);
        for (long seed = 1; seed <= 10; seed++) {
            assertFalse(g.generate(seed, "t").files().files().get("func.c").contains("path_"), "seed " + seed);
        }
    }

    /** gcc at -O0 and -O2 counts every arm as the interpreter predicted (the asserts driver names any counter that differs), seeds 1..4. */
    @Test
    void realGccCountsWhatTheInterpreterPredicts(@TempDir Path dir) throws Exception {
        Generator g = new Generator(TRACED, Language.C, CheckMode.ASSERTS);
        int checked = 0;
        for (long seed = 1; seed <= 4; seed++) {
            GeneratedTest t = g.generate(seed, "t");
            Path d = Files.createDirectories(dir.resolve(Long.toString(seed)));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            for (String level : List.of("-O0", "-O2")) {
                String out = run(d, dev.yarpj.Commands.cmd("gcc", level, "-w", "-o", "t" + level, dev.yarpj.Commands.sources(d, "c"), "driver.c", "-lm"));
                assertEquals("", out, "gcc " + level + " seed " + seed);
                String ran = run(d, "./t" + level);
                assertEquals("OK", ran.strip(), "seed " + seed + " at " + level);
                checked++;
            }
        }
        assertEquals(8, checked);
    }

    private static String run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd) + " timed out");
        return out;
    }
}
