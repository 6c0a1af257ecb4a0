package dev.yarpj.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.interp.LoopTrips;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import dev.yarpj.stats.ispc.IfMask;
import dev.yarpj.stats.ispc.IspcMaskBuild;
import dev.yarpj.stats.ispc.IspcSummary;
import dev.yarpj.stats.ispc.MaskSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/**
 * {@code yarpj stats --lang=ispc}: the ISPC lowering figures against the generated tests
 * themselves, and a real ispc build and run of the
 * measurement variant (skipped when ispc is not on the PATH).
 */
class StatsIspcTest {
    private static final long FIRST = 1;
    private static final long LAST = 6;

    record Result(int code, String out, String err) {}

    private static Result cli(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    /** The IR's Reduce statements, counted independently of {@link IspcLowering}. */
    private static int reduces(List<? extends Stmt> stmts) {
        int n = 0;
        for (Stmt s : stmts) {
            if (s instanceof Stmt.Reduce) n++;
            else if (s instanceof Stmt.Block b) n += reduces(b.stmts());
            else if (s instanceof Stmt.If i) n += reduces(i.then().stmts()) + (i.otherwise() == null ? 0 : reduces(i.otherwise().stmts()));
            else if (s instanceof Stmt.DeadBranch d) n += reduces(d.body().stmts());
            else if (s instanceof Stmt.LoopNest l) n += reduces(l.blocksFrom(0));
            else if (s instanceof Stmt.LoopSeq q) for (Stmt.LoopNest l : q.nests()) n += reduces(l.blocksFrom(0));
        }
        return n;
    }

    @Test
    void noCompileReportAgreesWithTheGeneratedTests() {
        PolicyResults<NoCompileCollector.Generated> c = new SeedRunner(Language.ISPC, 1, null, 0)
                .run(new NoCompileCollector(), List.of(GenPolicy.defaults()), false, FIRST, LAST).get(0);
        assertEquals(0, c.skippedCount(Skip.GENERATOR), "every seed generates");
        IspcSummary s = new IspcSummary(c.tests(TestFigures::ispc));
        int tests = (int) (LAST - FIRST + 1);
        assertEquals(tests, s.tests());

        // The same seeds generated here, plain and in the measurement variant.
        Generator plain = new Generator(GenPolicy.defaults(), Language.ISPC, CheckMode.HASH);
        Generator measuring = new Generator(GenPolicy.defaults(), Language.ISPC, CheckMode.HASH, true);
        long parallel = 0;
        long reductions = 0;
        long varyingIfs = 0;
        int withParallel = 0;
        for (long seed = FIRST; seed <= LAST; seed++) {
            GeneratedTest t = plain.generate(seed, "test");
            int p = 0;
            for (LoopTrips l : t.prediction().loops()) if (l.parallel()) p++;
            parallel += p;
            if (p > 0) withParallel++;
            reductions += reduces(t.program().body().stmts());
            varyingIfs += t.files().choices().get("varying_ifs");
            assertEquals(t.files().choices(), measuring.generate(seed, "test").files().choices(),
                    "seed " + seed + ": the measurement variant makes the same choices");
        }
        assertTrue(parallel > 0, "no data-parallel loop in seeds " + FIRST + ".." + LAST);

        IspcSummary.Row dp = s.row("data_parallel_loops");
        assertEquals(parallel, dp.total(), "data-parallel loops: the LoopTrips marked parallel");
        assertEquals(withParallel, dp.tests());
        assertEquals((double) parallel / tests, dp.mean(), 1e-12);
        long gang = s.row("gang_loops").total();
        assertEquals(gang, s.row("gang_foreach").total() + s.row("gang_foreach_tiled").total()
                + s.row("gang_program_index").total(), "the forms split the gang loops");
        assertEquals(1.0, s.row("gang_foreach").share() + s.row("gang_foreach_tiled").share()
                + s.row("gang_program_index").share(), 1e-12);
        assertTrue(gang > 0, "no gang loop");
        assertEquals(parallel, gang + s.row("serial_parallel_loops").total() + s.row("unplanned_parallel_loops").total(),
                "every data-parallel loop is a gang loop, left serial, or has no planned trip count");
        assertEquals(reductions, s.row("reductions").total());
        assertTrue(s.row("reductions").total() >= s.row("partials").total(), "more partials than reductions");
        assertEquals(varyingIfs, s.row("varying_ifs").total());
        for (IspcSummary.Row r : s.rows()) {
            assertTrue(r.tests() <= tests && r.total() >= r.tests(), r.toString());
            if (r.measure().partOf() != null && !Double.isNaN(r.share())) {
                assertTrue(r.share() >= 0 && r.share() <= 1, r.toString());
            }
        }
        TripSummary trips = new TripSummary(s.parallelLoops());
        assertEquals(parallel, trips.row(TripSummary.GROUPS.get(0)).loops(), "the trip table covers the data-parallel loops");
        int bucketed = 0;
        for (int n : trips.row(TripSummary.GROUPS.get(0)).counts()) bucketed += n;
        assertEquals(parallel, bucketed);

        StringWriter w = new StringWriter();
        new TablePrinter(new PrintWriter(w)).print(
                StatsReport.ofGenerated(new RunInfo(null, null, "", "ispc", FIRST, LAST, false), List.of(c)));
        String table = w.toString();
        assertTrue(table.contains("ISPC lowering of " + tests + " tests:"), table);
        assertTrue(table.matches("(?s).*\\n  data-parallel loops +" + parallel + " .*"), table);
        assertTrue(table.contains("for over programIndex"), table);
        assertTrue(table.contains("trip counts per entry of the " + parallel + " data-parallel loops"), table);
        assertFalse(table.contains("execution masks"), "nothing was run: " + table);
    }

    @Test
    @SuppressWarnings("unchecked")
    void noCompileCliTableJsonAndCsv() {
        Result t = cli("stats", "--lang=ispc", "--no-compile", "--seeds", "1..3", "-j", "1");
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("trip counts per entry (iterations / times entered)"), "the trip report stays: " + t.out());
        assertTrue(t.out().contains("ISPC lowering of 3 tests:"), t.out());

        Result j = cli("stats", "--lang=ispc", "--no-compile", "--seeds", "1..3", "-j", "1", "--format", "json");
        assertEquals(0, j.code(), j.err());
        Map<String, Object> m = (Map<String, Object>) new Yaml().load(j.out());
        Map<String, Object> ispc = (Map<String, Object>) m.get("ispc");
        assertEquals(3, ispc.get("tests"));
        Map<String, Object> lowering = (Map<String, Object>) ispc.get("lowering");
        int gang = (Integer) ((Map<String, Object>) lowering.get("gang_loops")).get("total");
        int forms = 0;
        for (String f : List.of("gang_foreach", "gang_foreach_tiled", "gang_program_index")) {
            forms += (Integer) ((Map<String, Object>) lowering.get(f)).get("total");
        }
        assertEquals(gang, forms);
        assertNull(ispc.get("masks"), "nothing was run");
        assertFalse(((List<Object>) ispc.get("trips_data_parallel")).isEmpty());

        Result c = cli("stats", "--lang=ispc", "--no-compile", "--seeds", "1..3", "-j", "1", "--format", "csv");
        assertEquals(0, c.code(), c.err());
        assertTrue(c.out().contains("\nispc,gang_foreach,,per_test,"), c.out());
        assertTrue(c.out().contains("\nispc,partials,,share_of_reductions,"), c.out());
        assertTrue(c.out().contains("\nispc_trips,all,all,median_per_entry,"), c.out());

        // C keeps its report: no ISPC section.
        Result plainC = cli("stats", "--lang=c", "--no-compile", "--seeds", "1..2", "-j", "1");
        assertEquals(0, plainC.code(), plainC.err());
        assertFalse(plainC.out().contains("ISPC"), plainC.out());
    }

    private static boolean ispcOnPath() {
        try {
            Process p = new ProcessBuilder("ispc", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void realIspcMeasuresTheMasksOfVaryingIfs() {
        boolean found = ispcOnPath();
        if (!found) System.err.println("StatsIspcTest.realIspcMeasuresTheMasksOfVaryingIfs skipped: ispc is not on the PATH"
                + " (run scripts/install-ispc.sh)");
        Assumptions.assumeTrue(found, "ispc is not on the PATH (run scripts/install-ispc.sh)");
        // Varying ifs are rare: no-idioms has a few in its first seeds (34 and 42 the first); take the first two tests with one.
        GenPolicy policy = PolicyLoader.load(Path.of("policies/no-idioms.yaml"));
        // The scan only picks the seeds, from the lowering's choices: with one input set the program and
        // its lowering are the same (InputSetsTest: func is the same file whatever the count), and the
        // interpreter runs once a seed instead of once a set. Each seed picked is checked again below.
        GenPolicy oneSet;
        try {
            oneSet = PolicyLoader.parse(java.nio.file.Files.readString(Path.of("policies/no-idioms.yaml")) + "inputs:\n  count: 1\n",
                    "no-idioms.yaml with one input set", "no-idioms-one-set");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Generator gen = new Generator(oneSet, Language.ISPC, CheckMode.HASH);
        List<Long> seeds = new ArrayList<>();
        for (long s = 1; s <= 80 && seeds.size() < 2; s++) {
            if (gen.generate(s, "test").files().choices().get("varying_ifs") > 0) seeds.add(s);
        }
        assertFalse(seeds.isEmpty(), "no test of no-idioms seeds 1..80 has a varying if");

        IspcMaskBuild runner = new IspcMaskBuild("ispc", "g++", IspcMaskBuild.DEFAULT_TARGET, IspcMaskBuild.DEFAULT_LEVEL,
                120, 60);
        MaskCollector collector = new MaskCollector(runner, 300);
        List<List<IfMask>> masks = new ArrayList<>();
        int varyingIfs = 0;
        PolicyResults<List<IfMask>> last = null;
        for (long s : seeds) {
            PolicyResults<List<IfMask>> c = new SeedRunner(Language.ISPC, 1, null, 0).run(collector, List.of(policy), false, s, s).get(0);
            SeedResult<List<IfMask>> r = c.seeds().get(0);
            if (r instanceof SeedResult.Skipped<List<IfMask>> k) fail("seed " + s + ": " + k.why() + ": " + k.message());
            List<IfMask> measured = ((SeedResult.Measured<List<IfMask>>) r).measure();
            assertNotNull(measured, "seed " + s);
            assertTrue(r.test().ispc().varyingIfs() > 0, "seed " + s + ": no varying if in the test of every input set");
            assertEquals(r.test().ispc().varyingIfs(), measured.size(), "seed " + s + ": a mask line per varying if");
            varyingIfs += measured.size();
            masks.add(measured);
            last = c;
        }
        MaskSummary m = new MaskSummary(masks);
        assertEquals(varyingIfs, m.ifs());
        assertTrue(m.ran() > 0, "no varying if ran in seeds " + seeds);
        assertTrue(m.mixedOnceShare() >= 0 && m.mixedOnceShare() <= 1, "share " + m.mixedOnceShare());
        assertTrue(m.mixedRunShare() >= 0 && m.mixedRunShare() <= 1, "share " + m.mixedRunShare());

        StringWriter w = new StringWriter();
        new TablePrinter(new PrintWriter(w)).print(StatsReport.ofMasks(new RunInfo(null, "ispc", "ispc", "ispc",
                seeds.get(seeds.size() - 1), seeds.get(seeds.size() - 1), false, runner.describe()), List.of(last)));
        assertTrue(w.toString().contains("checksums: 1 of 1 matched the prediction"), w.toString());
        assertTrue(w.toString().contains("had a mixed mask at least once:"), w.toString());

        // The command line, on the first of those seeds.
        String seed = Long.toString(seeds.get(0));
        Result r = cli("stats", "--lang=ispc", "--policy", "policies/no-idioms.yaml", "--seeds", seed + ".." + seed, "-j", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("execution masks of the varying ifs, measured on 1 test built with ispc "), r.out());
        assertTrue(r.out().contains("checksums: 1 of 1 matched the prediction"), r.out());
    }
}
