package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import dev.yarpj.source.FakeYarpgen;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A campaign of another generator's tests, which have no prediction: a fake YARPGen
 * ({@link FakeYarpgen}) on the system's gcc and clang (harness/testbeds-system.yaml), seeds 1
 * to 5. Seeds 1 and 5 are miscompiled by clang when it optimizes, and only those are findings;
 * seed 2 prints one thing built by gcc and another built by clang at -O0, seed 3 has a signed
 * overflow that optimizing changes: each is dropped and counted, never a finding. One campaign
 * serves every test here (it takes some 10 s on two busy cores).
 */
class OtherGeneratorTest {
    static final String SYSTEM = Path.of("harness/testbeds-system.yaml").toAbsolutePath().toString();

    @TempDir
    static Path dir;
    static Path fake;
    static Path results;
    static FuzzHarnessTest.Result run;

    @BeforeAll
    static void campaign() throws Exception {
        Assumptions.assumeTrue(Testbeds.onPath("gcc") && Testbeds.onPath("clang"), "needs the system's gcc and clang");
        fake = FakeYarpgen.write(dir);
        results = dir.resolve("results");
        run = FuzzHarnessTest.fuzz("--generator", "yarpgen", "--yarpgen", fake.toString(), "--testbeds", SYSTEM, "--seeds", "1..5", "-j", "2",
                "--out", results.toString());
    }

    private static Map<String, Object> json(Path p) throws Exception {
        return JsonFiles.parseObject(Files.readString(p));
    }

    /** campaign.jsonl's rows and done lines, by seed. */
    private static Map<Long, List<Map<String, Object>>> log(Path results) throws Exception {
        Map<Long, List<Map<String, Object>>> bySeed = new LinkedHashMap<>();
        for (String line : Files.readAllLines(results.resolve("campaign.jsonl"))) {
            Map<String, Object> m = JsonFiles.parseObject(line);
            if (m.get("seed") instanceof Number n) bySeed.computeIfAbsent(n.longValue(), k -> new ArrayList<>()).add(m);
        }
        return bySeed;
    }

    private static Map<String, Object> done(List<Map<String, Object>> lines) {
        return lines.stream().filter(l -> "done".equals(l.get("event"))).findFirst().orElseThrow();
    }

    private static List<String> testbedsWith(List<Map<String, Object>> lines, String outcome) {
        return lines.stream().filter(l -> outcome.equals(l.get("outcome"))).map(l -> (String) l.get("testbed")).toList();
    }

    @Test
    @SuppressWarnings("unchecked")
    void onlyAMiscompilationThatASecondCompilerAndTheSanitizersConfirmIsAFinding() throws Exception {
        assertEquals(0, run.code(), run.err());
        Map<String, Object> summary = json(results.resolve("summary.json"));
        assertEquals(5, ((Number) summary.get("tests")).intValue());
        assertEquals("yarpgen", summary.get("generator"));
        assertEquals(FakeYarpgen.VERSION, summary.get("generator_version"));
        assertEquals("{wrong-code=2}", String.valueOf(summary.get("findings")), run.out());
        Map<String, Object> dropped = (Map<String, Object>) summary.get("dropped");
        assertEquals(2, dropped.size(), String.valueOf(dropped));
        assertEquals(1, ((Number) dropped.get("references disagree (gcc and clang at -O0)")).intValue(), String.valueOf(dropped));
        String sanitizer = dropped.keySet().stream().filter(k -> k.startsWith("sanitizer (gcc): signed integer overflow")).findFirst()
                .orElseThrow(() -> new AssertionError("no sanitizer's drop: " + dropped));
        assertEquals(1, ((Number) dropped.get(sanitizer)).intValue());
        assertFalse(sanitizer.matches(".*\\d.*"), "by kind, its values masked: " + sanitizer);
        assertTrue(run.out().contains("dropped tests (no finding can come of them): 2 "), run.out());

        // The two planted miscompilations, one signature naming clang's optimizing testbeds alone; nothing else.
        try (Stream<Path> kinds = Files.list(results)) {
            assertEquals(List.of("wrong-code"), kinds.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith(".")).toList(), "the kinds of finding");
        }
        List<Path> found = FuzzHarnessTest.examples(results, "wrong-code");
        assertEquals(List.of("1", "5"), found.stream().map(p -> p.getFileName().toString()).toList());
        assertEquals(found.get(0).getParent(), found.get(1).getParent(), "one signature");
        for (Path f : found) {
            long seed = Long.parseLong(f.getFileName().toString());
            Map<String, Object> meta = json(f.resolve("meta.json"));
            assertTrue(String.valueOf(meta.get("signature")).matches("wrong code on clang-[\\d.]+-O3,clang-[\\d.]+-O3-native"), meta.toString());
            assertEquals("yarpgen", meta.get("generator"));
            assertEquals(FakeYarpgen.VERSION, meta.get("generator_version"));
            assertEquals(List.of(fake.toString(), "--std=c", "-s", Long.toString(seed), "-o", "."), meta.get("regenerate"));
            assertEquals("reference at -O0, clang at -O0 agreeing, clean under ASan and UBSan", meta.get("oracle"));
            assertNull(meta.get("policy"), "yarpj's policy is not what wrote it");
            Map<String, Object> outputs = (Map<String, Object>) meta.get("outputs");
            assertEquals(meta.get("expected"), outputs.entrySet().stream().filter(e -> e.getKey().startsWith("gcc-") && e.getKey().endsWith("-O0"))
                    .findFirst().orElseThrow().getValue(), "the reference's -O0 build is the oracle");
            for (String file : List.of("func.c", "driver.c", "init.h", "expected.txt", "repro.sh")) assertTrue(Files.exists(f.resolve(file)), file);
            assertTrue(Files.readString(f.resolve("func.c")).contains("Seed: " + seed + "\n"));
        }
        assertTrue(FuzzHarnessTest.runRepro(found.get(0).resolve("repro.sh")).contains("reproduced: wrong code"));

        // Each test's done line says why it was dropped, and its testbeds' symptoms are kept as what they showed.
        Map<Long, List<Map<String, Object>>> log = log(results);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), log.keySet().stream().sorted().toList());
        for (long seed : List.of(1L, 4L, 5L)) assertNull(done(log.get(seed)).get("dropped"), "seed " + seed);
        assertEquals("references disagree (gcc and clang at -O0)", done(log.get(2L)).get("dropped"));
        assertEquals(sanitizer, done(log.get(3L)).get("dropped"));
        for (long seed : List.of(2L, 3L)) {
            List<Map<String, Object>> lines = log.get(seed);
            assertEquals(List.of(), done(lines).get("findings"));
            assertEquals(List.of(), testbedsWith(lines, "wrong-code"), "seed " + seed);
            for (Map<String, Object> l : lines) if ("dropped".equals(l.get("outcome"))) assertEquals("wrong-code", l.get("symptom"), l.toString());
        }
        // gcc at -O0 is the reference: clang, at every level, printed otherwise on seed 2, and every optimizing build on seed 3.
        assertTrue(testbedsWith(log.get(2L), "dropped").stream().allMatch(t -> t.startsWith("clang-")), log.get(2L).toString());
        assertEquals(3, testbedsWith(log.get(2L), "dropped").size(), log.get(2L).toString());
        assertTrue(testbedsWith(log.get(3L), "dropped").stream().allMatch(t -> t.contains("-O3")), log.get(3L).toString());
        assertEquals(4, testbedsWith(log.get(3L), "dropped").size(), log.get(3L).toString());
        assertEquals(2, testbedsWith(log.get(1L), "wrong-code").size(), log.get(1L).toString());
    }

    @Test
    void aResumedCampaignKeepsItsGeneratorAndRefusesAnother(@TempDir Path own) throws Exception {
        assertEquals(0, run.code(), run.err());
        Path results = copy(own);
        Map<String, Object> settings = json(CampaignSettings.file(results));
        assertEquals("yarpgen", settings.get("generator"));
        assertEquals(fake.toString(), settings.get("generator_tool"));
        FuzzHarnessTest.Result other = FuzzHarnessTest.fuzz("--resume", "--out", results.toString(), "--generator", "csmith");
        assertNotEquals(0, other.code());
        assertTrue(other.err().contains("--generator differ"), other.err());
        // Resumed with nothing given again: YARPGen's tests still, every seed done already.
        FuzzHarnessTest.Result again = FuzzHarnessTest.fuzz("--resume", "--out", results.toString());
        assertEquals(0, again.code(), again.err());
        Map<String, Object> summary = json(results.resolve("summary.json"));
        assertEquals("yarpgen", summary.get("generator"), summary.toString());
        assertEquals(5, ((Number) summary.get("skipped_finished_seeds")).intValue(), summary.toString());
    }

    /** A copy of the campaign's results in {@code own}: the other tests read them as the campaign left them. */
    private static Path copy(Path own) throws Exception {
        Path copy = own.resolve("results");
        try (Stream<Path> s = Files.walk(results)) {
            for (Path p : (Iterable<Path>) s::iterator) Files.copy(p, copy.resolve(results.relativize(p).toString()));
        }
        return copy;
    }

    @Test
    @SuppressWarnings("unchecked")
    void theTwoPlantedMiscompilationsTriageAsOneBug(@TempDir Path own) throws Exception {
        assertEquals(0, run.code(), run.err());
        Path results = copy(own);
        Path known = Files.createDirectory(own.resolve("known-bugs"));
        // No reduction: C-Vise's minutes are not what this checks (a yarpj test's IR phase has no part in another generator's).
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        assertEquals(0, cl.execute("bugs", results.toString(), "--triage", "--reduce-budget", "0", "--known-bugs", known.toString()), err.toString());
        Map<String, Object> book = json(results.resolve("bugs.json"));
        List<Map<String, Object>> bugs = (List<Map<String, Object>>) book.get("bugs");
        assertEquals(1, bugs.size(), out.toString());
        assertEquals(2, ((Number) book.get("findings_triaged")).intValue(), out.toString());
        Map<String, Object> key = (Map<String, Object>) bugs.get(0).get("key");
        assertEquals("wrong-code", key.get("kind"), key.toString());
        assertEquals("clang", key.get("family"), key.toString());
        assertEquals(2, ((List<?>) bugs.get(0).get("findings")).size(), bugs.get(0).toString());

        // Into a record, the planted bug is one the benchmark of known bugs counts: the fake generator's seeds 1 to 5 at the bug's
        // smallest configuration expose it twice (seeds 1 and 5), and drop seeds 2 and 3 as the campaign did.
        Path record = own.resolve("record");
        assertEquals(0, cl.execute("bugs", results.toString(), "--merge", "--known-bugs", record.toString(), "--bugs-md",
                own.resolve("bugs.md").toString()), err.toString());
        String id = (String) bugs.get(0).get("id");
        assertTrue(Files.exists(record.resolve(id).resolve("bug.json")), out.toString());
        StringWriter table = new StringWriter();
        cl.setOut(new PrintWriter(table));
        assertEquals(0, cl.execute("bench", "--bugs", id, "--generators", "yarpgen", "--yarpgen", fake.toString(), "--tests", "5", "--seed", "1",
                "--chunk", "5", "-j", "2", "--known-bugs", record.toString(), "--out", own.resolve("bench").toString()), err.toString());
        String row = table.toString().lines().filter(l -> l.startsWith(id.length() > 12 ? id.substring(0, 12) : id)).findFirst().orElseThrow(() -> new AssertionError(table.toString()));
        List<String> cells = List.of(row.trim().split("\\s+"));
        // bug, generator, tests, dropped, CPU-s, exposures, other bugs, ...
        assertEquals(List.of("yarpgen", "5", "2"), cells.subList(1, 4), table.toString());
        assertEquals(List.of("2", "0"), cells.subList(5, 7), table.toString());

        // The bench keeps its settings: another --chunk is refused, and another generator joins, walking the same seeds until it
        // has had the CPU of the others (one turn: five of yarpj's tests take more than five of the fake's).
        String[] again = {"bench", "--bugs", id, "--yarpgen", fake.toString(), "--tests", "5", "--seed", "1", "-j", "2", "--known-bugs",
                record.toString(), "--out", own.resolve("bench").toString()};
        StringWriter refused = new StringWriter();
        cl.setErr(new PrintWriter(refused));
        assertNotEquals(0, cl.execute(concat(again, "--generators", "yarpgen", "--chunk", "4")));
        assertTrue(refused.toString().contains("holds a bench with other settings"), refused.toString());
        cl.setErr(new PrintWriter(err));
        StringWriter joined = new StringWriter();
        cl.setOut(new PrintWriter(joined));
        assertEquals(0, cl.execute(concat(again, "--generators", "yarpj", "--chunk", "5")), err.toString());
        assertEquals(List.of("yarpgen", "yarpj"), json(own.resolve("bench").resolve("bench.json")).get("generators"));
        String yarpjRow = joined.toString().lines().filter(l -> l.contains(" yarpj ")).findFirst().orElseThrow(() -> new AssertionError(joined.toString()));
        assertEquals("5", List.of(yarpjRow.trim().split("\\s+")).get(2), joined.toString());
    }

    private static String[] concat(String[] a, String... b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
    }

    @Test
    void aSeedTheGeneratorGivesNoTestForIsDroppedWithItsReason(@TempDir Path own) throws Exception {
        Path out = own.resolve("results");
        FuzzHarnessTest.Result r = FuzzHarnessTest.fuzz("--generator", "yarpgen", "--yarpgen", fake.toString(), "--testbeds", SYSTEM,
                "--seeds", FakeYarpgen.FAILS + ".." + FakeYarpgen.NO_DRIVER, "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        Map<Long, List<Map<String, Object>>> log = log(out);
        assertEquals("generator: yarpgen gave no program: exit 3: ERROR: fake yarpgen cannot write seed 13", done(log.get(FakeYarpgen.FAILS)).get("dropped"));
        assertEquals("generator: yarpgen wrote no driver.c", done(log.get(FakeYarpgen.NO_DRIVER)).get("dropped"));
        assertEquals(1, log.get(FakeYarpgen.FAILS).size(), "no testbed ran");
        Map<String, Object> summary = json(out.resolve("summary.json"));
        assertEquals(2, ((Map<?, ?>) summary.get("dropped")).size(), summary.toString());
        assertEquals(Map.of(), summary.get("findings"), summary.toString());
    }

    @Test
    void yarpgenWithoutItsBinaryOrABinaryForAnotherGeneratorIsRefusedBeforeAnythingRuns(@TempDir Path own) {
        Path out = own.resolve("results");
        FuzzHarnessTest.Result none = FuzzHarnessTest.fuzz("--generator", "yarpgen", "--testbeds", SYSTEM, "--seeds", "1..1", "--out", out.toString());
        assertNotEquals(0, none.code());
        assertTrue(none.err().contains("--generator yarpgen needs --yarpgen PATH"), none.err());
        FuzzHarnessTest.Result misplaced = FuzzHarnessTest.fuzz("--yarpgen", fake.toString(), "--testbeds", SYSTEM, "--seeds", "1..1", "--out", out.toString());
        assertNotEquals(0, misplaced.code());
        assertTrue(misplaced.err().contains("--yarpgen is for --generator yarpgen"), misplaced.err());
        assertFalse(Files.exists(out), "no campaign was started");
    }
}
