package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.interp.Prediction;
import dev.yarpj.lower.Language;
import dev.yarpj.lower.LoweredTest;
import dev.yarpj.policy.GenPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness on ISPC tests: testbeds per language and CPU target, and a hand-made ISPC
 * test (src/test/resources/ispc-harness/handmade, in the form the lowerer writes) run
 * through real ispc, its C++ twin through g++, a fake ispc that miscompiles and one that
 * crashes. Tests that run ispc are skipped when it is not on PATH.
 */
class IspcHarnessTest {
    static final Path DIR = Path.of("src/test/resources/ispc-harness").toAbsolutePath();
    static final Path HANDMADE = DIR.resolve("handmade");
    /** What the hand-made driver prints (g++ -O0, checked against ispc on every target when it was written). */
    static final String HANDMADE_EXPECTED = "6755987635669929516";

    @BeforeAll
    static void executable() throws Exception {
        try (Stream<Path> s = Files.list(DIR)) {
            s.filter(p -> p.toString().endsWith(".sh")).forEach(p -> p.toFile().setExecutable(true));
        }
    }

    static void needIspc() {
        assumeTrue(Testbeds.onPath("ispc"), "ispc is not on PATH (scripts/install-ispc.sh installs it in .tools/ispc/bin,"
                + " which mvn and ./yarpj put first): ISPC harness test skipped");
    }

    /** Two real ispc testbeds on targets this CPU runs (skips the test if it runs neither), a fake if given, and g++'s func.cpp. */
    static Path testbeds(Path dir, String... fakes) throws Exception {
        Set<String> cpu = IspcTargets.hostFlags();
        String wide = cpu == null || IspcTargets.missing("avx2-i32x8", cpu).isEmpty() ? "avx2-i32x8" : null;
        assumeTrue(cpu == null || IspcTargets.missing("sse4-i32x4", cpu).isEmpty(), "this CPU cannot run ISPC target sse4-i32x4");
        StringBuilder y = new StringBuilder("reference: {c: gcc, cpp: g++, ispc: ispc}\ntestbeds:\n");
        y.append("  - {name: ispc-O0-sse4-i32x4, ispc: ispc, flags: [-O0, --target=sse4-i32x4]}\n");
        y.append(wide != null ? "  - {name: ispc-O2-avx2-i32x8, ispc: ispc, flags: [-O2, --target=avx2-i32x8]}\n"
                : "  - {name: ispc-O2-sse4-i32x4, ispc: ispc, flags: [-O2, --target=sse4-i32x4]}\n");
        for (String f : fakes) {
            y.append("  - {name: fake-").append(f).append(", ispc: ").append(DIR.resolve(f + "-ispc.sh")).append(", flags: [-O2, --target=sse4-i32x4]}\n");
        }
        y.append("  - {name: cpp-O0, ispc-cpp: g++, flags: [-O0]}\n");
        Path file = dir.resolve("testbeds.yaml");
        Files.writeString(file, y.toString());
        return file;
    }

    @Test
    void aTargetNeedsTheFlagsOfItsIsa() {
        Set<String> flags = IspcTargets.parseFlags("processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse2 sse4_1 sse4_2 avx avx2 avx512f\n"
                + "\nprocessor\t: 1\nflags\t\t: fpu\n");
        assertEquals(Set.of("fpu", "sse2", "sse4_1", "sse4_2", "avx", "avx2", "avx512f"), flags);
        assertEquals(List.of(), IspcTargets.missing("sse4-i32x4", flags));
        assertEquals(List.of(), IspcTargets.missing("avx2-i32x16", flags));
        assertEquals(List.of("avx512bw", "avx512dq", "avx512vl"), IspcTargets.missing("avx512skx-x16", flags));
        assertEquals(List.of("sse4_2"), IspcTargets.missing("sse4-i32x4", Set.of("sse2")));
        assertEquals(List.of("avx2"), IspcTargets.missing("avx2-i64x4", Set.of("sse2", "sse4_2", "avx")));
        assertEquals(List.of(), IspcTargets.missing("generic-i32x8", Set.of()), "ISAs it does not know are not checked");
        assertEquals(null, IspcTargets.parseFlags("no flags here\n"));
    }

    @Test
    void testbedsTakePartOnlyInTheirLanguageAndTargetsTheCpuLacksAreSkippedWithOneWarning(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tb.yaml");
        // "sh" stands in for ispc: only whether it is installed matters here.
        Files.writeString(file, """
                reference: {c: gcc, cpp: g++, ispc: sh}
                testbeds:
                  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}
                  - {name: ispc-O0-sse4-i32x4, ispc: sh, flags: [-O0, --target=sse4-i32x4]}
                  - {name: ispc-O0-avx512skx-x16, ispc: sh, flags: [-O0, --target=avx512skx-x16]}
                  - {name: ispc-O2-avx512skx-x16, ispc: sh, flags: [-O2, --target, avx512skx-x16]}
                  - {name: ispc-O2-avx2-i32x8, ispc: sh, flags: [-O2, --target=avx2-i32x8]}
                  - {name: cpp-O0, ispc-cpp: g++, flags: [-O0]}
                """);
        Testbeds tbs = Testbeds.load(file);
        Set<String> cpu = IspcTargets.parseFlags("flags : fpu sse2 sse4_1 sse4_2 avx avx2 avx512f\n");
        List<String> warnings = new ArrayList<>();
        List<Testbed> ispc = tbs.usable(Language.ISPC, cpu, warnings::add);
        assertEquals(List.of("ispc-O0-sse4-i32x4", "ispc-O2-avx2-i32x8", "cpp-O0"), ispc.stream().map(Testbed::name).toList());
        assertEquals(List.of("testbeds ispc-O0-avx512skx-x16, ispc-O2-avx512skx-x16 skipped: this CPU cannot run ISPC target"
                + " avx512skx-x16 (it lacks avx512bw, avx512dq, avx512vl)"), warnings);
        // C and C++ campaigns see neither the ispc testbeds nor the C++ twin's, and say nothing about them.
        for (Language lang : List.of(Language.C, Language.CPP)) {
            warnings.clear();
            assertEquals(List.of("gcc-O0"), tbs.usable(lang, cpu, warnings::add).stream().map(Testbed::name).toList());
            assertEquals(List.of(), warnings);
        }
        // Each language is compiled by its own compiler: never ISPC by g++, nor C++ by ispc.
        Testbed sse4 = ispc.get(0);
        assertEquals(List.of("sh", "--pic", "-O0", "--target=sse4-i32x4", "--woff", "func.ispc", "-o", "x.o"),
                sse4.compileCommand(Language.ISPC, "x.o"));
        assertEquals(List.of("g++", "-O0", "-w", "-c", "func.cpp", "-o", "x.o"), ispc.get(2).compileCommand(Language.ISPC, "x.o"));
        Testbed gcc = tbs.all().get(0);
        assertEquals(List.of("gcc", "-O0", "-w", "-c", "func.c", "-o", "x.o"), gcc.compileCommand(Language.C, "x.o"));
        assertEquals(List.of("g++", "-O0", "-w", "-c", "func.cpp", "-o", "x.o"), gcc.compileCommand(Language.CPP, "x.o"));
        assertEquals(null, gcc.compiler(Language.ISPC));
        assertEquals(null, sse4.compiler(Language.C));
        assertEquals("g++", tbs.reference().compiler(Language.ISPC.driverLanguage()));
        assertEquals("sh", tbs.reference().ispcCompiler());
    }

    @Test
    void badIspcTestbedsAreOneLineErrors(@TempDir Path dir) throws Exception {
        Map<String, String> bad = Map.of(
                "  - {name: x, ispc: ispc, c: gcc, flags: [-O2]}\n", "a testbed with 'ispc' has no other compiler",
                "  - {name: x, ispc: ispc, flags: ['--target=sse4-i32x4,avx2-i32x8']}\n", "one ISPC target per testbed",
                "  - {name: x, flags: [-O2]}\n", "names no compiler",
                "  - {name: x, ispc-c: gcc, flags: [-O2]}\n", "unknown key 'ispc-c'");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            Path file = dir.resolve("tb.yaml");
            Files.writeString(file, "reference: {c: gcc, cpp: g++, ispc: ispc}\ntestbeds:\n" + e.getKey());
            Testbeds.TestbedException x = assertThrows(Testbeds.TestbedException.class, () -> Testbeds.load(file));
            assertTrue(x.getMessage().contains(e.getValue()), x.getMessage());
        }
    }

    @Test
    void theShippedTestbedsHaveEveryIspcTargetAtEveryLevelFastMathOnOneAndACppTwin() {
        Testbeds tbs = Testbeds.load(Path.of("harness/testbeds.yaml"));
        List<String> names = tbs.all().stream().filter(t -> t.compiler(Language.ISPC) != null).map(Testbed::name).toList();
        List<String> want = new ArrayList<>();
        for (String t : List.of("sse4-i32x4", "avx2-i32x8", "avx2-i32x16", "avx2-i64x4", "avx512skx-x16", "avx512skx-x8", "avx512skx-x32")) {
            for (String o : List.of("O0", "O1", "O2")) want.add("ispc-" + o + "-" + t);
            // ispc's fast-math, for floating point (floats: p_float), on one target.
            if (t.equals("avx2-i32x8")) want.add("ispc-O2-fast-math-" + t);
        }
        want.add("cpp-O0");
        assertEquals(want, names);
        Testbed twin = tbs.all().stream().filter(t -> t.name().equals("cpp-O0")).findFirst().orElseThrow();
        assertEquals(List.of("g++", "-O0", "-w", "-c", "func.cpp", "-o", "o"), twin.compileCommand(Language.ISPC, "o"));
        assertEquals("ispc", tbs.reference().ispcCompiler());
        // The C testbeds are GCC trunk's and the newest clang's, two of each drawing from a configuration space, and the newest gcc's.
        assertEquals(List.of("gcc-{version}-O1", "gcc-{version}-Os", "gcc-{version}-space-1", "gcc-{version}-space-2",
                        "clang-{version}-O1", "clang-{version}-Os", "clang-{version}-space-1", "clang-{version}-space-2", "gcc-{version}-space"),
                tbs.all().stream().filter(t -> t.compiler(Language.C) != null).map(Testbed::name).toList());
    }

    /** Runs the hand-made test as seed 1 through the testbeds of {@code tbFile}; returns the results directory. */
    static Path runHandmade(Path dir, Path tbFile) throws Exception {
        Testbeds tbs = Testbeds.load(tbFile);
        List<Testbed> usable = tbs.usable(Language.ISPC, w -> { });
        CampaignConfig cfg = new CampaignConfig(Language.ISPC, GenPolicy.defaults(), null, false, tbs.reference(), usable,
                new ProcessRunner.Limits(60, 4096, 256), new ProcessRunner.Limits(240, 4096, 256), new ProcessRunner.Limits(10, 2048, 64),
                "yarpj", Map.of());
        Map<String, String> files = new LinkedHashMap<>();
        for (String f : List.of("func.ispc", "func.cpp", "driver.cpp", "init.h")) files.put(f, Files.readString(HANDMADE.resolve(f)));
        Prediction p = new Prediction(List.of(), List.of(), Long.parseUnsignedLong(HANDMADE_EXPECTED), 0, List.of(), false);
        Path results = dir.resolve("results");
        Files.createDirectories(results);
        try (CampaignLog log = new CampaignLog(results.resolve("campaign.jsonl"))) {
            new TestRunner(cfg, new FindingStore(results), log, new CampaignStats(),
                    seed -> new GeneratedTest(seed, null, null, p, new LoweredTest(files))).run(1, dir.resolve("scratch"));
        }
        return results;
    }

    static List<String> outcomes(Path results) throws Exception {
        return Files.readAllLines(results.resolve("campaign.jsonl")).stream().filter(l -> l.contains("\"outcome\""))
                .map(l -> l.replaceAll(".*\"testbed\": \"([^\"]+)\", \"outcome\": \"([^\"]+)\".*", "$1 $2")).toList();
    }

    static String bash(Path script) throws Exception {
        Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return p.exitValue() + " " + out;
    }

    @Test
    void aHandMadeTestAgreesOnEveryIspcTestbedAndItsCppTwin(@TempDir Path dir) throws Exception {
        needIspc();
        Path results = runHandmade(dir, testbeds(dir));
        List<String> outcomes = outcomes(results);
        assertEquals(3, outcomes.size(), String.join("\n", outcomes));
        for (String o : outcomes) assertTrue(o.endsWith(" pass"), String.join("\n", outcomes));
        assertTrue(outcomes.get(2).startsWith("cpp-O0 "), outcomes.toString());
        for (String kind : List.of("wrong-code", "compiler-crash", "program-rejected", "runtime-crash", "generator-failure")) {
            assertFalse(Files.exists(results.resolve(kind)), kind + " in " + results);
        }
        // The header, the driver with it, then each testbed's own compile: ispc on func.ispc, g++ on func.cpp.
        Path scratch = dir.resolve("scratch");
        assertTrue(Files.exists(scratch.resolve("func_ispc.h")));
        assertTrue(Files.readString(scratch.resolve("ispc-O0-sse4-i32x4.compile.stderr")).isEmpty());
        assertTrue(Files.exists(scratch.resolve("func-cpp-O0.o")));
    }

    @Test
    void aMiscompilingIspcIsAWrongCodeFindingWithAWorkingRepro(@TempDir Path dir) throws Exception {
        needIspc();
        Path results = runHandmade(dir, testbeds(dir, "miscompile"));
        List<String> outcomes = outcomes(results);
        assertTrue(outcomes.contains("fake-miscompile wrong-code"), outcomes.toString());
        assertEquals(3, outcomes.stream().filter(o -> o.endsWith(" pass")).count(), outcomes.toString());
        Path finding = FuzzHarnessTest.examples(results, "wrong-code").get(0);
        for (String f : List.of("func.ispc", "func.cpp", "driver.cpp", "init.h", "expected.txt", "meta.json", "commands.txt", "repro.sh")) {
            assertTrue(Files.exists(finding.resolve(f)), finding.resolve(f).toString());
        }
        String meta = Files.readString(finding.resolve("meta.json"));
        assertTrue(meta.contains("\"testbeds\": [\"fake-miscompile\"]"), meta);
        assertTrue(meta.contains("\"majority_agrees_with_prediction\": true"), meta);
        assertTrue(meta.contains("\"lang\": \"ispc\""), meta);
        String commands = Files.readString(finding.resolve("commands.txt"));
        assertTrue(commands.startsWith("ispc --woff --target=sse4-i32x4 func.ispc -h func_ispc.h\n"
                + "g++ -O0 -w -DYARPJ_ISPC -c driver.cpp -o driver.o\n"), commands);
        assertTrue(commands.contains("miscompile-ispc.sh --pic -O2 --target=sse4-i32x4 --woff func.ispc -o func-fake-miscompile.o\n"), commands);
        String out = bash(finding.resolve("repro.sh"));
        assertTrue(out.startsWith("0 reproduced: wrong code"), out);
        // With the real ispc in the fake's place, the repro says the symptom is gone.
        Path fixed = finding.resolve("repro-fixed.sh");
        Files.writeString(fixed, Files.readString(finding.resolve("repro.sh")).replace(DIR.resolve("miscompile-ispc.sh").toString(), "ispc"));
        out = bash(fixed);
        assertTrue(out.startsWith("1 ") && out.contains("not reproduced"), out);
    }

    @Test
    void anIspcAssertionIsACompilerCrashWithItsOwnSignature(@TempDir Path dir) throws Exception {
        needIspc();
        Path results = runHandmade(dir, testbeds(dir, "ice"));
        assertTrue(outcomes(results).contains("fake-ice compiler-crash"), outcomes(results).toString());
        Path finding = FuzzHarnessTest.examples(results, "compiler-crash").get(0);
        String sig = Files.readString(finding.getParent().resolve("signature.txt")).strip();
        assertTrue(sig.endsWith("ice-ispc.sh: Assertion failed: \"lanes == fakeWidth\"."), sig);
        String out = bash(finding.resolve("repro.sh"));
        assertTrue(out.startsWith("0 ") && out.contains("reproduced: compiler crash: /build/ispc/src/opt/FakePass.cpp:4242: Assertion failed"), out);
    }

    @Test
    void fuzzLangIspcAgreesOnRealIspcAndTheCppTwin(@TempDir Path dir) throws Exception {
        needIspc();
        Path results = dir.resolve("results");
        FuzzHarnessTest.Result r = FuzzHarnessTest.fuzz("--policy", FuzzHarnessTest.SMALL, "--lang=ispc", "--seeds", "1..2", "-j", "2", "--out", results.toString(),
                "--testbeds", testbeds(dir).toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("tests: 2 "), r.out());
        assertTrue(r.out().contains("testbed runs: {pass=6}"), r.out());
        assertTrue(r.out().contains("findings: {}"), r.out());
        List<String> outcomes = outcomes(results);
        assertEquals(6, outcomes.size(), String.join("\n", outcomes));
        assertEquals(2, outcomes.stream().filter(o -> o.equals("cpp-O0 pass")).count(), String.join("\n", outcomes));
    }

    @Test
    void fuzzLangIspcSavesTheWrongCodeOfAMiscompilingIspc(@TempDir Path dir) throws Exception {
        needIspc();
        Path results = dir.resolve("results");
        FuzzHarnessTest.Result r = FuzzHarnessTest.fuzz("--policy", FuzzHarnessTest.SMALL, "--lang=ispc", "--seeds", "1..2", "-j", "2", "--out", results.toString(),
                "--testbeds", testbeds(dir, "miscompile").toString());
        assertEquals(0, r.code(), r.err());
        List<Path> found = FuzzHarnessTest.examples(results, "wrong-code");
        assertFalse(found.isEmpty(), r.out());
        for (Path f : found) {
            String meta = Files.readString(f.resolve("meta.json"));
            assertTrue(meta.contains("\"testbeds\": [\"fake-miscompile\"]"), meta);
            assertTrue(meta.contains("\"majority_agrees_with_prediction\": true"), meta);
            for (String file : List.of("func.ispc", "func.cpp", "driver.cpp", "init.h", "expected.txt")) {
                assertTrue(Files.exists(f.resolve(file)), f.resolve(file).toString());
            }
            String out = bash(f.resolve("repro.sh"));
            assertTrue(out.startsWith("0 reproduced: wrong code"), out);
        }
        // The real testbeds agree with the prediction on every seed.
        for (String o : outcomes(results)) if (!o.startsWith("fake-")) assertTrue(o.endsWith(" pass"), o);
    }

    // That a C campaign on the shipped testbeds says nothing about their ISPC testbeds is checked on the campaign
    // NewestCompilersTest.aCampaignOnTheDefaultTestbeds... runs on that file: a second campaign here repeated it.
}
