package dev.yarpj.inputs;

import static dev.yarpj.Commands.cmd;
import static dev.yarpj.Commands.run;
import static dev.yarpj.Commands.sources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.interp.LoopTrips;
import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.InputSet;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input sets: a test's inputs that only loop bounds read get other values set by set, which
 * give those loops trip counts around the vector boundaries, and its early exits fire at other
 * iterations or never, each set predicted by the interpreter and printed by one build of the
 * test.
 */
class InputSetsTest {
    @TempDir
    Path dir;

    private static final GenPolicy ONE = PolicyLoader.load(Path.of("src/test/resources/policies/one-input-set.yaml"));

    @Test
    void theTripCountsProposedAreTheVectorBoundariesUpToTheReachButThePlannedOne() {
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 7L, 8L, 9L, 15L, 16L, 17L), InputSets.boundaryTrips(20, 20));
        assertEquals(List.of(0L), InputSets.boundaryTrips(1, 1));
        List<Long> all = InputSets.boundaryTrips(1000, 1000);
        assertTrue(all.containsAll(List.of(63L, 64L, 65L, 127L, 129L)) && all.size() == 20, all.toString());
        // A loop planned at 17 with room for 129: every boundary but 17, the ones above it too.
        List<Long> above = InputSets.boundaryTrips(17, 129);
        assertTrue(!above.contains(17L) && above.containsAll(List.of(16L, 31L, 33L, 63L, 65L, 127L, 129L)) && above.size() == 19, above.toString());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 7L, 8L, 9L), InputSets.boundaryTrips(10, 9));
    }

    private static final GenPolicy BOUNDS_AND_EXITS = PolicyLoader.load(Path.of("src/test/resources/policies/input-sets-bounds-and-exits.yaml"));

    private static List<GeneratedTest> defaultC;

    /** C seeds 1..40 of the default policy, generated once for the tests that look at them. */
    private static synchronized List<GeneratedTest> defaultC() {
        if (defaultC == null) {
            Generator gen = new Generator(GenPolicy.defaults(), Language.C, CheckMode.HASH);
            List<GeneratedTest> all = new java.util.ArrayList<>();
            for (long s = 1; s <= 40; s++) all.add(gen.generate(s, "test"));
            defaultC = List.copyOf(all);
        }
        return defaultC;
    }

    @Test
    void setsBeyondThePlannedOneChangeOnlyBoundInputsExitSentinelsAndContentsAndTheTripCountsTheirLoopsRun() {
        int multi = 0;
        int differing = 0;
        for (long s = 1; s <= 40; s++) {
            GeneratedTest t = defaultC().get((int) s - 1);
            List<InputSet> sets = t.program().inputSets();
            Prediction p = t.prediction();
            assertEquals(sets.size(), p.sets(), "seed " + s);
            assertEquals(InputSet.PLANNED, sets.get(0));
            assertTrue(sets.size() <= 4, "seed " + s);
            if (sets.size() == 1) continue;
            multi++;
            Set<String> bounds = InputSets.BoundInput.of(t.program()).stream().map(b -> b.input().name()).collect(Collectors.toSet());
            Set<String> sentinels = InputSets.Sentinel.of(t.program()).stream().map(x -> x.array().name()).collect(Collectors.toSet());
            Set<String> contents = InputSets.Content.of(t.program()).stream()
                    .map(c -> c.scalar() != null ? c.scalar().name() : c.array().name()).collect(Collectors.toSet());
            Set<String> scalars = new java.util.HashSet<>(bounds);
            scalars.addAll(contents);
            for (InputSet x : sets.subList(1, sets.size())) {
                assertTrue(scalars.containsAll(x.values().keySet()), "seed " + s + ": " + x + " changes an input other than a loop bound or content " + scalars);
                assertTrue(sentinels.containsAll(x.plants().keySet()), "seed " + s + ": " + x + " moves what is no exit's sentinel " + sentinels);
                assertTrue(contents.containsAll(x.fills().keySet()), "seed " + s + ": " + x + " fills what is no content " + contents);
            }
            assertEquals(sets.size(), Set.copyOf(sets).size(), "seed " + s + ": the sets differ");
            if (Set.copyOf(p.checksums()).size() > 1) differing++;
        }
        assertTrue(multi >= 25, multi + " of 40 tests have several input sets");
        assertTrue(differing >= multi / 2, differing + " of " + multi + " tests print other checksums for other sets");
    }

    @Test
    void someSetsMoveAnEarlyExitSoThatItsLoopEndsAtAnotherIteration() {
        int moved = 0;
        int endsElsewhere = 0;
        for (long s = 1; s <= 40; s++) {
            GeneratedTest t = defaultC().get((int) s - 1);
            Prediction p = t.prediction();
            for (int k = 1; k < p.sets(); k++) {
                if (t.program().inputSets().get(k).plants().isEmpty()) continue;
                moved++;
                // The interpreter counts where exits ended each loop: some set ends one elsewhere than planned.
                for (int site = 0; site < p.loops().size(); site++) {
                    LoopTrips a = p.loops().get(site);
                    LoopTrips b = p.set(k).loops().get(site);
                    if (a.exits() && (a.broken() != b.broken() || a.iterations() != b.iterations())) {
                        endsElsewhere++;
                        break;
                    }
                }
            }
        }
        assertTrue(moved >= 10, moved + " sets move a sentinel");
        assertTrue(endsElsewhere >= moved / 3, endsElsewhere + " of " + moved + " sets end a loop with an exit elsewhere");
    }

    /**
     * Sets that change contents give conditions inside loops outcomes (never held, always held,
     * held on some runs) the planned set did not, more of them than sets that move bounds and
     * exits alone; and no set changes what an index or a loop's head reads (where the
     * program reads and writes, and how often a loop runs, are what the generator planned).
     */
    @Test
    void contentsGiveConditionsOtherOutcomesAndNeverChangeWhatAnIndexOrALoopHeadReads() {
        int withContents = 0;
        long[] more = new long[2];
        Generator boundsAndExits = new Generator(BOUNDS_AND_EXITS, Language.C, CheckMode.HASH);
        for (long s = 1; s <= 30; s++) {
            for (int side = 0; side < 2; side++) {
                GeneratedTest t = side == 0 ? defaultC().get((int) s - 1) : boundsAndExits.generate(s, "t");
                Prediction p = t.prediction();
                for (int site = 0; site < p.branches().size(); site++) {
                    if (!p.branches().get(site).inLoop() || p.branches().get(site).evaluated() == 0) continue;
                    Set<String> outcomes = new java.util.HashSet<>();
                    for (int k = 0; k < p.sets(); k++) if (p.set(k).branches().get(site).evaluated() > 0) outcomes.add(p.set(k).branches().get(site).outcome());
                    if (outcomes.size() > 1) more[side]++;
                }
                if (side == 1) continue;
                Set<String> addressing = addressing(t.program());
                for (InputSet x : t.program().inputSets()) {
                    Set<String> changed = new java.util.HashSet<>(x.fills().keySet());
                    for (String v : x.values().keySet()) if (!InputSets.BoundInput.of(t.program()).stream().anyMatch(b -> b.input().name().equals(v))) changed.add(v);
                    if (!changed.isEmpty()) withContents++;
                    changed.retainAll(addressing);
                    assertTrue(changed.isEmpty(), "seed " + s + ": a set changes " + changed + ", which an index or a loop head reads");
                }
            }
        }
        assertTrue(withContents >= 20, withContents + " sets change contents");
        assertTrue(more[0] > more[1] * 5 / 4, "conditions with several outcomes: " + more[0] + " with contents against " + more[1]);
    }

    /** The names of the inputs any index or loop head of {@code p} reads, walked here on its own. */
    private static Set<String> addressing(dev.yarpj.ir.Program p) {
        Set<String> out = new java.util.HashSet<>();
        dev.yarpj.ir.Expr.Walker names = new dev.yarpj.ir.Expr.Walker() {
            @Override
            public Void scalar(dev.yarpj.ir.Expr.ScalarRef e) {
                out.add(e.var().name());
                return null;
            }

            @Override
            public Void subscript(dev.yarpj.ir.Expr.Subscript e) {
                out.add(e.array().name());
                return super.subscript(e);
            }
        };
        dev.yarpj.ir.Expr.Walker indices = new dev.yarpj.ir.Expr.Walker() {
            @Override
            public Void subscript(dev.yarpj.ir.Expr.Subscript e) {
                for (dev.yarpj.ir.Expr i : e.indices()) names.walk(i);
                return super.subscript(e);
            }
        };
        new dev.yarpj.ir.Stmt.Walker() {
            @Override
            protected void expr(dev.yarpj.ir.Expr e) {
                if (e != null) indices.walk(e);
            }

            @Override
            public Void loopNest(dev.yarpj.ir.Stmt.LoopNest n) {
                for (dev.yarpj.ir.Stmt.LoopLevel lv : n.levels()) {
                    names.walk(lv.head().start());
                    names.walk(lv.head().cond());
                    names.walk(lv.head().update());
                }
                return super.loopNest(n);
            }
        }.all(p.body().stmts());
        return out;
    }

    /**
     * Seeds 1..6 in C, whose tests with every set the class generates once for all its tests; 1..3 in the other languages
     * (seeds 4..6 of them repeated the check on three more programs each, generated twice).
     */
    @Test
    void theFunctionFilesAreTheSameWhateverTheCount() {
        for (Language lang : Language.values()) {
            for (long s = 1; s <= (lang == Language.C ? 6 : 3); s++) {
                Map<String, String> many = (lang == Language.C ? defaultC().get((int) s - 1)
                        : new Generator(GenPolicy.defaults(), lang, CheckMode.HASH).generate(s, "test")).files().files();
                Map<String, String> one = new Generator(ONE, lang, CheckMode.HASH).generate(s, "test").files().files();
                for (String f : many.keySet()) {
                    if (!f.startsWith("driver")) assertEquals(one.get(f), many.get(f), lang + " seed " + s + " " + f);
                }
            }
        }
    }

    /**
     * The smallest test of seeds 1..12 whose sets fill arrays otherwise (as well as change
     * scalars), built by gcc and clang at -O0 and -O3 with the hash and the asserts driver, and
     * under the sanitizers: one program, all of whose sets every build prints or checks (the
     * compiles are the cost, as in setsRunLoopsWhoseBoundIsAnInput...).
     */
    @Test
    void gccAndClangPrintEverySetsPredictionAndTheAssertsDriverChecksEverySet() throws Exception {
        GeneratedTest hash = null;
        for (long s = 1; s <= 12; s++) {
            GeneratedTest t = defaultC().get((int) s - 1);
            // Sets that fill arrays otherwise, as well as change scalars.
            if (t.program().inputSets().stream().allMatch(x -> x.fills().isEmpty())) continue;
            if (hash == null || size(t) < size(hash)) hash = t;
        }
        assertTrue(hash != null, "none of seeds 1 to 12 has sets that fill arrays otherwise");
        long s = hash.seed();
        GeneratedTest asserts = new Generator(GenPolicy.defaults(), Language.C, CheckMode.ASSERTS).generate(s, "t");
        Path h = write(hash, "hash-" + s);
        Path a = write(asserts, "asserts-" + s);
        for (String cc : List.of("gcc", "clang")) {
            for (String o : List.of("-O0", "-O3")) {
                run(h, cmd(cc, o, "-w", "driver.c", sources(h, "c"), "-o", "t.bin", "-lm"));
                assertEquals(hash.prediction().expectedOutput(), run(h, h.resolve("t.bin").toString()).strip(), "seed " + s + " " + cc + " " + o);
                run(a, cmd(cc, o, "-w", "driver.c", sources(a, "c"), "-o", "t.bin", "-lm"));
                assertEquals("OK", run(a, a.resolve("t.bin").toString()).strip(), "seed " + s + " " + cc + " " + o);
            }
            run(h, cmd(cc, "-O0", "-g", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-w", "driver.c", sources(h, "c"),
                    "-o", "san.bin", "-lm"));
            assertEquals(hash.prediction().expectedOutput(), run(h, h.resolve("san.bin").toString()).strip(), "seed " + s + " " + cc + " sanitizers");
        }
        assertTrue(hash.prediction().sets() > 1, "seed " + s + " has one input set");
        assertEquals(hash.prediction().sets(), hash.prediction().expectedOutput().lines().count());
    }

    /** The sets of {@code t} (beyond the planned one) in which some loop runs more iterations per entry than it does in the planned set. */
    private static List<Integer> setsRunningALoopLonger(GeneratedTest t) {
        Prediction p = t.prediction();
        List<Integer> out = new java.util.ArrayList<>();
        for (int k = 1; k < p.sets(); k++) {
            for (int site = 0; site < p.loops().size(); site++) {
                LoopTrips a = p.loops().get(site);
                LoopTrips b = p.set(k).loops().get(site);
                if (a.entered() > 0 && b.entered() == a.entered() && b.iterations() > a.iterations() && !a.exits()) {
                    out.add(k);
                    break;
                }
            }
        }
        return out;
    }

    private static int size(GeneratedTest t) {
        return t.files().files().values().stream().mapToInt(String::length).sum();
    }

    @Test
    void setsRunLoopsWhoseBoundIsAnInputLongerThanPlannedWithinTheRoomTheirArraysWereSizedFor() throws Exception {
        int longer = 0;
        GeneratedTest built = null;
        for (long s = 1; s <= 40; s++) {
            GeneratedTest t = defaultC().get((int) s - 1);
            List<Integer> sets = setsRunningALoopLonger(t);
            if (sets.isEmpty()) continue;
            longer++;
            boolean room = InputSets.BoundInput.of(t.program()).stream().anyMatch(b -> b.reach() > b.plannedTrip());
            assertTrue(room, "seed " + s + ": sets " + sets + " run a loop longer, and no bound input's loop has room to");
            // The smallest such test is built below: the compiles are the cost.
            if (built == null || size(t) < size(built)) built = t;
        }
        assertTrue(longer >= 5, longer + " of 40 tests have a set that runs a loop longer than planned");
        // Without the room, no set runs a loop without an exit longer: every array was sized for the planned trip.
        GenPolicy noRoom = PolicyLoader.load(Path.of("src/test/resources/policies/no-reach.yaml"));
        Generator gen = new Generator(noRoom, Language.C, CheckMode.HASH);
        for (long s = 1; s <= 10; s++) assertEquals(List.of(), setsRunningALoopLonger(gen.generate(s, "t")), "seed " + s + " without room");
        // The longer sets are defined: gcc and clang print their predictions, and the sanitizers find nothing.
        Path h = write(built, "longer");
        for (String cc : List.of("gcc", "clang")) {
            run(h, cmd(cc, "-O3", "-w", "driver.c", sources(h, "c"), "-o", "t.bin", "-lm"));
            assertEquals(built.prediction().expectedOutput(), run(h, h.resolve("t.bin").toString()).strip(), cc + " -O3");
            run(h, cmd(cc, "-O0", "-g", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-w", "driver.c", sources(h, "c"),
                    "-o", "san.bin", "-lm"));
            assertEquals(built.prediction().expectedOutput(), run(h, h.resolve("san.bin").toString()).strip(), cc + " sanitizers");
        }
    }

    private Path write(GeneratedTest t, String name) throws Exception {
        Path d = Files.createDirectories(dir.resolve(name));
        for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
        return d;
    }
}
