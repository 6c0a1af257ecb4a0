package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The harness against small fake compilers (src/test/resources/fake-compilers): one reports
 * an internal compiler error, one hangs, one miscompiles by changing constants, one builds
 * binaries that crash. Real gcc is the reference and one testbed.
 */
class FuzzHarnessTest {
    static final Path FAKES = Path.of("src/test/resources/fake-compilers").toAbsolutePath();
    /** The default policy sized down: what these tests check is the harness, and a third of the compiling keeps them quick. */
    static final String SMALL = Path.of("src/test/resources/policies/small.yaml").toAbsolutePath().toString();

    @BeforeAll
    static void executable() throws Exception {
        try (Stream<Path> s = Files.list(FAKES)) {
            s.filter(p -> p.toString().endsWith(".sh")).forEach(p -> p.toFile().setExecutable(true));
        }
    }

    static Path testbeds(Path dir, String... fakes) throws Exception {
        StringBuilder y = new StringBuilder("reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n");
        for (String f : fakes) {
            String path = FAKES.resolve(f + ".sh").toString();
            y.append("  - {name: fake-").append(f).append(", c: ").append(path).append(", cpp: ").append(path).append(", flags: [-O2]}\n");
        }
        Path file = dir.resolve("testbeds.yaml");
        Files.writeString(file, y.toString());
        return file;
    }

    /**
     * A campaign stopped at a known point: testbeds as {@code testbeds(dir, "miscompile")},
     * whose fake compiler blocks on every test of seed {@code firstBlocked} or later while the
     * gate is closed (fake-compilers/gate.sh). A test waits until the seeds it expects are
     * blocked, kills the campaign, then opens the gate: no timing decides which seeds ran.
     */
    record Gate(Path testbeds, Path file) {
        static Gate closed(Path dir, long firstBlocked) throws Exception {
            Path gate = dir.resolve("gate");
            Files.writeString(gate, "closed\n");
            Path cc = dir.resolve("gated-miscompile.sh");
            Files.writeString(cc, "#!/bin/sh\nexec '" + FAKES.resolve("gate.sh") + "' '" + gate + "' " + firstBlocked + " \"$@\"\n");
            cc.toFile().setExecutable(true);
            Path file = dir.resolve("testbeds.yaml");
            Files.writeString(file, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n"
                    + "  - {name: fake-miscompile, c: " + cc + ", cpp: " + cc + ", flags: [-O2]}\n");
            return new Gate(file, gate);
        }

        /** Waits until the compiles of these seeds are blocked at the gate (a campaign that hangs fails here). */
        void awaitBlocked(long... seeds) throws Exception {
            long deadline = System.nanoTime() + 300_000_000_000L;
            for (long s : seeds) {
                Path mark = file.resolveSibling(file.getFileName() + "." + s);
                while (!Files.exists(mark)) {
                    assertTrue(System.nanoTime() < deadline, "seed " + s + " never reached the gate");
                    Thread.sleep(50);
                }
            }
        }

        /** Opens the gate and waits until every compile blocked at it has left (they exit without compiling). */
        void open() throws Exception {
            Files.delete(file);
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (true) {
                try (Stream<Path> s = Files.list(file.getParent())) {
                    if (s.noneMatch(p -> p.getFileName().toString().startsWith(file.getFileName() + "."))) return;
                }
                assertTrue(System.nanoTime() < deadline, "a compile stayed at the gate");
                Thread.sleep(50);
            }
        }
    }

    record Result(int code, String out, String err) {}

    static Result fuzz(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        List<String> all = new ArrayList<>(List.of("fuzz", "--quiet", "--triage-share", "0"));
        all.addAll(List.of(args));
        int code = cl.execute(all.toArray(String[]::new));
        return new Result(code, out.toString(), err.toString());
    }

    static String runRepro(Path repro) throws Exception {
        Process p = new ProcessBuilder("bash", repro.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), repro + ": " + out);
        return out;
    }

    static List<Path> examples(Path results, String kind) throws Exception {
        Path k = results.resolve(kind);
        if (!Files.isDirectory(k)) return List.of();
        try (Stream<Path> s = Files.walk(k, 2)) {
            // A finding is KIND/SIGNATURE/SEED; a signature directory's hex name may be all digits too.
            return s.filter(p -> k.relativize(p).getNameCount() == 2 && p.getFileName().toString().matches("\\d+")).sorted()
                    .collect(Collectors.toList());
        }
    }

    @Test
    void everyOutcomeIsClassifiedAndItsReproShowsTheSymptom(@TempDir Path dir) throws Exception {
        Path tb = testbeds(dir, "ice", "hang", "miscompile", "segv", "loop", "reject");
        Path results = dir.resolve("results");
        // The hang is an outlier (the others build in a tenth of the 5 s limit): a finding, whose recheck is the lane's.
        // Seed 1 alone: each fake makes its finding of it (a second seed made a second of each, its repro run again).
        Result r = fuzz("--policy", SMALL, "--seeds", "1..1", "-j", "2", "--out", results.toString(), "--testbeds", tb.toString(),
                "--compile-timeout", "5", "--run-timeout", "1");
        assertEquals(0, r.code(), r.err());
        Map<String, String> expected = Map.of(
                "compiler-crash", "reproduced: compiler crash",
                // Still running at the limit; or, when a busy machine made it wait past its backstop and it was compiled
                // again after the others had finished, past their bar.
                "compile-hang", "reproduced: compile ",
                "wrong-code", "reproduced: wrong code",
                "runtime-crash", "reproduced: test exits with",
                "runtime-hang", "reproduced: test still running",
                "program-rejected", "reproduced: rejected");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            List<Path> found = examples(results, e.getKey());
            assertFalse(found.isEmpty(), "no " + e.getKey() + " finding: " + r.out() + Files.readString(results.resolve("campaign.jsonl")));
            for (Path f : found) {
                for (String file : List.of("func.c", "driver.c", "init.h", "expected.txt", "meta.json", "commands.txt", "repro.sh")) {
                    assertTrue(Files.exists(f.resolve(file)), f.resolve(file).toString());
                }
                assertTrue(runRepro(f.resolve("repro.sh")).contains(e.getValue()), f.toString());
            }
        }
        String hangMeta = Files.readString(examples(results, "compile-hang").get(0).resolve("meta.json"));
        assertTrue(hangMeta.contains("\"signature\": \"compile-time outlier on fake-hang\""), hangMeta);
        assertTrue(hangMeta.contains("\"recheck\": \"" + TestRunner.RECHECK_BY_LANE + "\""), hangMeta);
        assertTrue(hangMeta.contains("\"fake-hang\": \"> "), hangMeta);
        String wrongMeta = Files.readString(examples(results, "wrong-code").get(0).resolve("meta.json"));
        assertTrue(wrongMeta.contains("\"testbeds\": [\"fake-miscompile\"]"), wrongMeta);
        // gcc-O0 and the miscompiler are the only testbeds with an output: one vote each, no majority.
        assertTrue(wrongMeta.contains("\"majority\": null"), wrongMeta);
        // The real compiler passed: a start line, one log row per test and testbed, and a done line per test.
        List<String> log = Files.readAllLines(results.resolve("campaign.jsonl"));
        assertEquals(1 + 1 * 7 + 1, log.size(), String.join("\n", log));
        assertTrue(log.get(0).startsWith("{\"event\": \"start\""), log.get(0));
        assertTrue(log.stream().anyMatch(l -> l.contains("\"testbed\": \"gcc-O0\", \"outcome\": \"pass\"")));
        assertTrue(log.stream().anyMatch(l -> l.contains("\"testbed\": \"fake-hang\", \"outcome\": \"slow-compile\"")
                || l.contains("\"testbed\": \"fake-hang\", \"outcome\": \"compile-hang\"")));
    }

    @Test
    void aCompileThatFinishesManyTimesSlowerThanTheOthersIsAnOutlier(@TempDir Path dir) throws Exception {
        // gcc builds each test in a fraction of a second; the fake spends 2.5 CPU-s first, over a twentieth of the 12 CPU-s
        // limit (a busy machine does not push it past: the rule counts CPU time, and the wall-clock allowance is three times that).
        String spin = FAKES.resolve("spin.sh").toString();
        Path tb = dir.resolve("tb.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n"
                + "  - {name: gcc-O1, c: gcc, cpp: g++, flags: [-O1]}\n  - {name: fake-spin, c: " + spin + ", cpp: " + spin
                + ", flags: [-O2]}\n");
        Path results = dir.resolve("results");
        Result r = fuzz("--policy", SMALL, "--seeds", "1..1", "--out", results.toString(), "--testbeds", tb.toString(), "--compile-timeout", "12",
                "--recheck-timeout", "1");
        assertEquals(0, r.code(), r.err());
        List<Path> found = examples(results, "compile-hang");
        assertEquals(1, found.size(), r.out());
        String meta = Files.readString(found.get(0).resolve("meta.json"));
        assertTrue(meta.contains("\"signature\": \"compile-time outlier on fake-spin\""), meta);
        assertTrue(meta.contains("\"recheck\": \"not needed: it finished in "), meta);
        assertTrue(runRepro(found.get(0).resolve("repro.sh")).contains("reproduced: compile took"), meta);
        // The program it built is right: the test passed there too.
        assertTrue(Files.readString(results.resolve("campaign.jsonl")).contains("\"testbed\": \"fake-spin\", \"outcome\": \"pass\""));
    }

    @Test
    void aCompileSlowOnlyBecauseItWaitedForACoreIsCompiledAgainAndIsNoFinding(@TempDir Path dir) throws Exception {
        // The fake's first compile sleeps past the wall-clock backstop (three times the 4 CPU-s limit) using no CPU,
        // as a niced campaign's compile does beside heavy work; compiled again after the others, it is gcc's.
        String once = FAKES.resolve("slow-once.sh").toString();
        Path mark = dir.resolve("first-compile-done");
        Path tb = dir.resolve("tb.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n"
                + "  - {name: gcc-O1, c: gcc, cpp: g++, flags: [-O1]}\n  - {name: fake-once, c: " + once + ", cpp: " + once
                + ", flags: [-O1, '-DYARPJ_FAKE_MARK=" + mark + "']}\n");
        Path results = dir.resolve("results");
        Result r = fuzz("--policy", SMALL, "--seeds", "1..1", "--out", results.toString(), "--testbeds", tb.toString(), "--compile-timeout", "4");
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.exists(mark), "the fake never compiled");
        assertEquals(List.of(), examples(results, "compile-hang"), r.out());
        String log = Files.readString(results.resolve("campaign.jsonl"));
        assertTrue(log.contains("\"testbed\": \"fake-once\", \"outcome\": \"pass\""), log);
        assertFalse(log.contains("slow-compile"), "its first compile's row is replaced by the second's: " + log);
    }

    @Test
    void aCompileTenTimesSlowerThanTheOthersIsStoppedAtItsBarAndIsAFinding(@TempDir Path dir) throws Exception {
        // Three gcc builds of a fraction of a second, then one that never ends: stopped at its bar (ten times their median,
        // at least a twentieth of the 40 CPU-s limit: 2 CPU-s), not at the limit, and filed with what stopped it.
        String hang = FAKES.resolve("hang.sh").toString();
        Path tb = dir.resolve("tb.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n"
                + "  - {name: gcc-O1, c: gcc, cpp: g++, flags: [-O1]}\n  - {name: gcc-Os, c: gcc, cpp: g++, flags: [-Os]}\n"
                + "  - {name: fake-hang, c: " + hang + ", cpp: " + hang + ", flags: [-O2]}\n");
        Path results = dir.resolve("results");
        Result r = fuzz("--policy", SMALL, "--seeds", "1..1", "--out", results.toString(), "--testbeds", tb.toString(), "--compile-timeout", "40");
        assertEquals(0, r.code(), r.err());
        List<Path> found = examples(results, "compile-hang");
        assertEquals(1, found.size(), r.out());
        String meta = Files.readString(found.get(0).resolve("meta.json"));
        assertTrue(meta.matches("(?s).*\"fake-hang\": \"past 10x at [0-9.]+ CPU-s\".*"), meta);
        assertTrue(meta.contains("\"recheck\": \"" + TestRunner.RECHECK_BY_LANE + "\""), meta);
        Map<String, Object> row = Files.readAllLines(results.resolve("campaign.jsonl")).stream().map(JsonFiles::parseObject)
                .filter(m -> "fake-hang".equals(m.get("testbed"))).findFirst().orElseThrow();
        assertEquals("compile-hang", row.get("outcome"), row.toString());
        assertTrue(((Number) row.get("compile_s")).doubleValue() < 10, "stopped near its bar, not at the 40 CPU-s limit: " + row);
        // The repro stops the compile a little past the bar too, and shows the symptom.
        assertTrue(runRepro(found.get(0).resolve("repro.sh")).contains("reproduced: compile took"), meta);
    }

    @Test
    void aRunEndsAtItsDurationAndATestStillCompilingThenIsLeftForResume(@TempDir Path dir) throws Exception {
        // A compile that never ends, with a limit of 10 CPU-minutes: only stopping it at the 3 s duration ends the run soon.
        Path tb = testbeds(dir, "hang");
        Path results = dir.resolve("results");
        Result r = fuzz("--policy", SMALL, "--seed", "1", "-j", "1", "--duration", "3s", "--out", results.toString(), "--testbeds", tb.toString(),
                "--compile-timeout", "600");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("tests: 0 in "), r.out());
        List<String> log = Files.readAllLines(results.resolve("campaign.jsonl"));
        assertTrue(log.stream().noneMatch(l -> l.contains("\"event\": \"done\"")), "the stopped test is not done: " + log);
        assertEquals(List.of(), examples(results, "compile-hang"));
    }

    @Test
    void aTestWithASecondFileBuildsBothIntoOneObjectAndItsFindingKeepsAndReplaysIt(@TempDir Path dir) throws Exception {
        // Every helper extern: seed 1's test has a second file, helpers.c.
        Path policy = dir.resolve("extern.yaml");
        Files.writeString(policy, Files.readString(Path.of(SMALL)) + "\nfunctions: {p_call: 0.2, linkage_weights: "
                + "{static: 0, inline: 0, noinline: 0, always_inline: 0, extern: 1}}\n");
        String fake = FAKES.resolve("miscompile.sh").toString();
        Path tb = dir.resolve("tb.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n"
                + "  - {name: gcc-lto, c: gcc, cpp: g++, flags: [-O2, -flto]}\n"
                + "  - {name: fake-miscompile, c: " + fake + ", cpp: " + fake + ", flags: [-O2]}\n");
        Path results = dir.resolve("results");
        Result r = fuzz("--policy", policy.toString(), "--seeds", "1..1", "--out", results.toString(), "--testbeds", tb.toString());
        assertEquals(0, r.code(), r.err());
        String log = Files.readString(results.resolve("campaign.jsonl"));
        // Built with -flto into one object and linked by gcc itself, the test prints the prediction.
        assertTrue(log.contains("\"testbed\": \"gcc-lto\", \"outcome\": \"pass\""), log);
        List<Path> wrong = examples(results, "wrong-code");
        assertEquals(1, wrong.size(), r.out());
        Path f = wrong.get(0);
        assertTrue(Files.exists(f.resolve("helpers.c")), "the finding keeps the second file");
        String meta = Files.readString(f.resolve("meta.json"));
        assertTrue(meta.contains("\"-r\", \"func.c\", \"helpers.c\""), meta);
        assertTrue(runRepro(f.resolve("repro.sh")).contains("reproduced: wrong code"), meta);
        Finding finding = Finding.read(f);
        assertEquals(List.of(fake, "-O2"), finding.compileCommand(), "the buggy flags, without the files");
        // One translation unit for C-Vise: the second file's min and max functions, which func may define too, once.
        String merged = finding.merged();
        Files.writeString(dir.resolve("merged.c"), merged);
        dev.yarpj.Commands.run(dir, "gcc", "-O0", "-w", "merged.c", "-o", "merged.bin", "-lm");
        assertEquals(Files.readString(f.resolve("expected.txt")).strip(), dev.yarpj.Commands.run(dir, dir.resolve("merged.bin").toString()).strip());
        // Replayed as the harness built it: the buggy compile and the -O0 guard build both files.
        Replay replay = new Replay(finding, 60, 10);
        Map<String, String> files = new java.util.HashMap<>();
        for (String n : List.of("func.c", "helpers.c", "driver.c", "init.h")) files.put(n, Files.readString(f.resolve(n)));
        String expected = Files.readString(f.resolve("expected.txt")).strip();
        assertEquals(Replay.Verdict.SHOWS, replay.check(files, expected));
    }

    @Test
    void aLinkPastTheLimitIsASlowCompileAndOneThatCrashesIsACompilerCrashNotARejectedProgram(@TempDir Path dir) throws Exception {
        // With -flto the optimizers run at the link: it is judged as a compile is.
        String hang = FAKES.resolve("hang-at-link.sh").toString();
        String ice = FAKES.resolve("ice-at-link.sh").toString();
        Path tb = dir.resolve("tb.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n"
                + "  - {name: fake-link-hang, c: " + hang + ", cpp: " + hang + ", flags: [-O1, -flto]}\n"
                + "  - {name: fake-link-ice, c: " + ice + ", cpp: " + ice + ", flags: [-O1, -flto]}\n");
        Path results = dir.resolve("results");
        Result r = fuzz("--policy", SMALL, "--seeds", "1..1", "--out", results.toString(), "--testbeds", tb.toString(), "--compile-timeout", "1");
        assertEquals(0, r.code(), r.err());
        String log = Files.readString(results.resolve("campaign.jsonl"));
        assertTrue(log.contains("\"testbed\": \"fake-link-hang\", \"outcome\": \"slow-compile\""), log);
        assertTrue(examples(results, "program-rejected").isEmpty(), r.out());
        List<Path> crashes = examples(results, "compiler-crash");
        assertEquals(1, crashes.size(), r.out());
        String meta = Files.readString(crashes.get(0).resolve("meta.json"));
        assertTrue(meta.contains("(link): ") && meta.contains("internal compiler error"), meta);
        assertTrue(runRepro(crashes.get(0).resolve("repro.sh")).contains("reproduced: compiler crash: lto1: internal compiler error"), meta);
    }

    @Test
    void aTestbedWhoseCompilerRefusesItsFlagsIsSkippedNotAFindingPerTest(@TempDir Path dir) throws Exception {
        Path tb = dir.resolve("tb.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O1, c: gcc, cpp: g++, flags: [-O1]}\n"
                + "  - {name: gcc-typo, c: gcc, cpp: g++, flags: [-O2, -fno-such-yarpj-option]}\n");
        Path results = dir.resolve("results");
        Result r = fuzz("--policy", SMALL, "--seeds", "1..2", "--out", results.toString(), "--testbeds", tb.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("yarpj: warning: testbed gcc-typo skipped: gcc -O2 -fno-such-yarpj-option -w -c yarpj-flags.c"
                + " -o yarpj-flags.o fails: "), r.err());
        assertTrue(r.err().contains("-fno-such-yarpj-option"), r.err());
        assertFalse(Files.exists(results.resolve("program-rejected")), "no test is taken as rejected");
        String log = Files.readString(results.resolve("campaign.jsonl"));
        assertTrue(log.contains("\"testbed\": \"gcc-O1\", \"outcome\": \"pass\"") && !log.contains("gcc-typo"), log);
    }

    @Test
    void compilesThatAreAllSlowAreCountedApartAndAreNoFinding(@TempDir Path dir) throws Exception {
        // Every testbed sleeps past the limit: nothing finished to compare with, so no compiler stands out.
        String hang = FAKES.resolve("hang.sh").toString();
        Path tb = dir.resolve("tb.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: slow-a, c: " + hang + ", cpp: " + hang
                + ", flags: [-O2]}\n  - {name: slow-b, c: " + hang + ", cpp: " + hang + ", flags: [-O3]}\n");
        Path results = dir.resolve("results");
        Result r = fuzz("--policy", SMALL, "--seeds", "1..2", "-j", "2", "--out", results.toString(), "--testbeds", tb.toString(), "--compile-timeout", "1");
        assertEquals(0, r.code(), r.err());
        assertFalse(Files.exists(results.resolve("compile-hang")), "slow compiles are not findings");
        assertTrue(r.out().contains("findings: {}, distinct signatures: 0"), r.out());
        assertTrue(r.out().contains("slow compiles (past the limit, not findings): 4 runs in 2 tests"), r.out());
        assertTrue(r.out().contains("slow-a=2") && r.out().contains("slow-b=2"), r.out());
        String summary = Files.readString(results.resolve("summary.json"));
        assertTrue(summary.contains("\"slow_compiles\": {\"runs\": 4, \"tests\": 2"), summary);
    }

    @Test
    void reproScriptsSayNotReproducedWithACorrectCompiler(@TempDir Path dir) throws Exception {
        Path tb = testbeds(dir, "ice", "miscompile");
        Path results = dir.resolve("results");
        // Seed 1 alone: each fake makes its finding of it (everyOutcomeIsClassified...), and one repro of each kind is checked.
        assertEquals(0, fuzz("--policy", SMALL, "--seeds", "1..1", "--out", results.toString(), "--testbeds", tb.toString()).code());
        for (String kind : List.of("compiler-crash", "wrong-code")) {
            Path f = examples(results, kind).get(0);
            String fixed = Files.readString(f.resolve("repro.sh")).replace(FAKES.resolve("ice.sh").toString(), "gcc")
                    .replace(FAKES.resolve("miscompile.sh").toString(), "gcc");
            Files.writeString(f.resolve("repro-fixed.sh"), fixed);
            Process p = new ProcessBuilder("bash", f.resolve("repro-fixed.sh").toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertEquals(1, p.exitValue(), kind + ": " + out);
            assertTrue(out.contains("not reproduced"), kind + ": " + out);
        }
    }

    @Test
    void aPredictionEveryCompilerDisagreesWithIsAGeneratorFailure(@TempDir Path dir) throws Exception {
        // Two testbeds that miscompile alike: they agree with each other and not with the interpreter.
        String fake = FAKES.resolve("miscompile.sh").toString();
        Path tb = dir.resolve("tb.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: a, c: " + fake + ", cpp: " + fake + ", flags: [-O1]}\n"
                + "  - {name: b, c: " + fake + ", cpp: " + fake + ", flags: [-O2]}\n");
        Path results = dir.resolve("results");
        // Seed 1 alone: the fake miscompiles it (everyOutcomeIsClassified...), and one generator failure is what is checked.
        assertEquals(0, fuzz("--policy", SMALL, "--seeds", "1..1", "--out", results.toString(), "--testbeds", tb.toString()).code());
        assertTrue(examples(results, "wrong-code").isEmpty());
        Path f = examples(results, "generator-failure").get(0);
        assertTrue(Files.readString(f.resolve("meta.json")).contains("prediction differs from every testbed"));
    }

    @Test
    void aCompilerThatCannotRunStopsTheCampaign(@TempDir Path dir) throws Exception {
        Path notExecutable = Files.writeString(dir.resolve("cc.sh"), "#!/bin/sh\n");
        Path tb = dir.resolve("tb.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: x, c: " + notExecutable + ", cpp: " + notExecutable
                + ", flags: [-O2]}\n");
        notExecutable.toFile().setExecutable(true);
        Files.writeString(notExecutable, "#!/no/such/interpreter\n");
        Result r = fuzz("--policy", SMALL, "--seeds", "1..3", "--out", dir.resolve("r").toString(), "--testbeds", tb.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("campaign stopped: cannot run"), r.err());
        assertFalse(Files.exists(dir.resolve("r/program-rejected")), "not filed as findings");
    }

    @Test
    void killedCampaignResumesWithoutLosingFindingsOrRepeatingTests(@TempDir Path dir) throws Exception {
        // Seeds 1..4 run through; each job then blocks on its next seed (5 and 6).
        Gate gate = Gate.closed(dir, 5);
        Path results = dir.resolve("results");
        Process p = ShardedCampaignTest.fuzzProcess(dir.resolve("first.log"), "--policy", SMALL, "--seeds", "1..8", "-j", "2", "--out", results.toString(),
                "--testbeds", gate.testbeds().toString());
        Path log = results.resolve("campaign.jsonl");
        gate.awaitBlocked(5, 6);
        p.destroyForcibly(); // SIGKILL, mid-campaign
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        gate.open();
        Set<Long> before = new TreeSet<>(doneSeeds(log));
        assertEquals(Set.of(1L, 2L, 3L, 4L), before, "killed after " + before);
        Map<Long, Integer> findingsBefore = wrongCodeSeeds(results);
        assertFalse(findingsBefore.isEmpty(), "the fake miscompiler made findings before the kill");

        Result r = fuzz("--resume", "--out", results.toString());
        assertEquals(0, r.code(), r.err());
        List<Long> done = doneSeedList(log);
        assertEquals(8, done.size(), "every seed done exactly once: " + done);
        assertEquals(new TreeSet<>(done), new TreeSet<>(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L)));
        // No finding lost: what was saved before the kill is still there.
        Map<Long, Integer> after = wrongCodeSeeds(results);
        for (Long s : findingsBefore.keySet()) assertTrue(after.containsKey(s), "finding for seed " + s + " lost");
        // Every logged wrong-code test has its finding, counted once.
        for (String line : Files.readAllLines(log)) {
            Matcher m = Pattern.compile("\"seed\": (\\d+), \"testbed\": \"fake-miscompile\", \"outcome\": \"wrong-code\"").matcher(line);
            if (m.find()) assertEquals(1, after.get(Long.parseLong(m.group(1))), "seed " + m.group(1));
        }
        assertTrue(r.out().contains("tests: " + (8 - before.size())), r.out());
    }

    @Test
    void aTestbedsCompileTimeInTheLogIsItsCpuNotTheWallClockItWaited(@TempDir Path dir) throws Exception {
        // A compiler that waits 3 s before compiling: waiting is not compiling.
        Path cc = dir.resolve("sleepy.sh");
        Files.writeString(cc, "#!/bin/sh\nsleep 3\nexec gcc \"$@\"\n");
        cc.toFile().setExecutable(true);
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: sleepy, c: " + cc + ", cpp: " + cc + ", flags: [-O1]}\n");
        Path results = dir.resolve("results");
        Result r = fuzz("--policy", SMALL, "--seeds", "7..7", "-j", "1", "--out", results.toString(), "--testbeds", tb.toString());
        assertEquals(0, r.code(), r.err());
        String row = Files.readAllLines(results.resolve("campaign.jsonl")).stream().filter(l -> l.contains("\"testbed\": \"sleepy\"")).findFirst().orElseThrow();
        Matcher m = Pattern.compile("\"outcome\": \"pass\", \"compile_s\": ([0-9.]+)").matcher(row);
        assertTrue(m.find(), row);
        assertTrue(Double.parseDouble(m.group(1)) < 2, "a 3 s sleep counted as compiling: " + row);
    }

    @Test
    void aResumedCampaignKeepsTheJobsOfTheRunItContinuesUnlessGivenOthers(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        // More jobs than this machine's cores, so that the default (its cores) cannot pass for them.
        int jobs = Runtime.getRuntime().availableProcessors() + 1;
        Result r = fuzz("--policy", SMALL, "--seeds", "7..7", "-j", Integer.toString(jobs), "--out", results.toString(), "--testbeds", testbeds(dir).toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(0, fuzz("--resume", "--out", results.toString()).code());
        assertEquals(0, fuzz("--resume", "--out", results.toString(), "-j", "1").code());
        List<String> starts = Files.readAllLines(results.resolve("campaign.jsonl")).stream().filter(l -> l.startsWith("{\"event\": \"start\"")).toList();
        assertEquals(3, starts.size(), starts.toString());
        assertTrue(starts.get(1).contains("\"jobs\": " + jobs), starts.get(1));
        assertTrue(starts.get(2).contains("\"jobs\": 1"), starts.get(2));
    }

    @Test
    void noUsableTestbedIsAOneLineError(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tb.yaml");
        Files.writeString(file, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: x, c: no-such-cc, cpp: no-such-cc++, flags: [-O2]}\n");
        Result r = fuzz("--count", "1", "--out", dir.resolve("r").toString(), "--testbeds", file.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("warning: testbed x skipped: no-such-cc is not installed"), r.err());
        assertTrue(r.err().contains("yarpj: no usable testbed in"), r.err());
    }

    @Test
    void missingTestbedFileIsAOneLineError(@TempDir Path dir) {
        Result r = fuzz("--count", "1", "--out", dir.resolve("r").toString(), "--testbeds", dir.resolve("none.yaml").toString());
        assertEquals(2, r.code());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
        assertTrue(r.err().contains("testbed file not found"), r.err());
    }

    @Test
    void badDurationIsAOneLineError(@TempDir Path dir) {
        Result r = fuzz("--duration", "soon", "--out", dir.resolve("r").toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--duration must look like"), r.err());
    }

    private static List<Long> doneSeedList(Path log) throws Exception {
        List<Long> seeds = new ArrayList<>();
        if (!Files.exists(log)) return seeds;
        Pattern done = Pattern.compile("\"event\": \"done\", \"seed\": (\\d+)");
        for (String line : Files.readAllLines(log)) {
            Matcher m = done.matcher(line);
            if (m.find()) seeds.add(Long.parseLong(m.group(1)));
        }
        return seeds;
    }

    private static Set<Long> doneSeeds(Path log) throws Exception {
        return new TreeSet<>(doneSeedList(log));
    }

    /** Seed to the number of wrong-code signatures whose seed records list it. */
    private static Map<Long, Integer> wrongCodeSeeds(Path results) throws Exception {
        Map<Long, Integer> m = new HashMap<>();
        Path k = results.resolve("wrong-code");
        if (!Files.isDirectory(k)) return m;
        try (Stream<Path> s = Files.list(k)) {
            for (Path sig : s.toList()) for (long seed : FindingStore.hits(sig)) m.merge(seed, 1, Integer::sum);
        }
        return m;
    }
}
