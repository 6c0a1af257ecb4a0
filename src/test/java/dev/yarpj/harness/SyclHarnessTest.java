package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness on SYCL tests, with fake SYCL compilers (src/test/resources/sycl-harness) that
 * build the C++ lowering in place of the SYCL one, so that no SYCL implementation is
 * needed: a SYCL testbed compiles func.cpp and links with its own compiler and flags, a
 * sycl-cpp testbed builds func_ref.cpp, and a miscompiling fake is caught as wrong code
 * whose repro.sh reproduces it.
 */
class SyclHarnessTest {
    static final Path DIR = Path.of("src/test/resources/sycl-harness").toAbsolutePath();

    @BeforeAll
    static void executable() throws Exception {
        try (Stream<Path> s = Files.list(DIR)) {
            s.filter(p -> p.toString().endsWith(".sh")).forEach(p -> p.toFile().setExecutable(true));
        }
    }

    private static Testbeds testbeds(Path dir) throws Exception {
        Path file = dir.resolve("testbeds.yaml");
        Files.writeString(file, "reference: {c: gcc, cpp: g++}\ntestbeds:\n"
                + "  - {name: fake-O2, sycl: " + DIR.resolve("fake-sycl.sh") + ", flags: [-O2, --acpp-targets=omp]}\n"
                + "  - {name: wrong-O2, sycl: " + DIR.resolve("miscompile-sycl.sh") + ", flags: [-O2, --acpp-targets=omp]}\n"
                + "  - {name: sycl-ref-O0, sycl-cpp: g++, flags: [-O0]}\n"
                + "  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n");
        return Testbeds.load(file);
    }

    @Test
    void syclTestbedsCompileTheirOwnFileAndLinkWithTheirOwnCompiler(@TempDir Path dir) throws Exception {
        Testbeds tbs = testbeds(dir);
        List<Testbed> usable = tbs.usable(Language.SYCL, w -> { });
        assertEquals(List.of("fake-O2", "wrong-O2", "sycl-ref-O0"), usable.stream().map(Testbed::name).toList(),
                "the C testbed takes no part in SYCL campaigns");
        Testbed fake = usable.get(0);
        assertEquals(List.of(DIR.resolve("fake-sycl.sh").toString(), "-O2", "--acpp-targets=omp", "-w", "-c", "func.cpp", "-o", "f.o"),
                fake.compileCommand(Language.SYCL, "f.o"));
        assertEquals(List.of(DIR.resolve("fake-sycl.sh").toString(), "-O2", "--acpp-targets=omp", "driver.o", "f.o", "-o", "t", "-lm"),
                fake.linkCommand(Language.SYCL, "g++", "f.o", "t"));
        Testbed ref = usable.get(2);
        assertEquals("func_ref.cpp", ref.source(Language.SYCL));
        assertEquals(List.of("g++", "driver.o", "f.o", "-o", "t", "-lm"), ref.linkCommand(Language.SYCL, "g++", "f.o", "t"));
    }

    @Test
    void aSyclTestbedWithAnotherCompilerIsRefused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: mixed, sycl: acpp, cpp: g++, flags: [-O2]}\n");
        Testbeds.TestbedException e = assertThrows(Testbeds.TestbedException.class, () -> Testbeds.load(file));
        assertTrue(e.getMessage().contains("a testbed with 'sycl' has no other compiler"), e.getMessage());
    }

    @Test
    void aMiscompilingSyclCompilerIsCaughtAndItsReproReproduces(@TempDir Path dir) throws Exception {
        Testbeds tbs = testbeds(dir);
        List<Testbed> usable = tbs.usable(Language.SYCL, w -> { });
        // Seed 1 without helper calls or floating point: a program whose output the fake's changed constants change.
        GenPolicy noCalls = dev.yarpj.policy.PolicyLoader.parse("functions: {p_call: 0}\nfloats: {p_float: 0}\n", "no-calls.yaml", "no-calls");
        CampaignConfig cfg = new CampaignConfig(Language.SYCL, noCalls, null, false, tbs.reference(), usable,
                new ProcessRunner.Limits(60, 4096, 256), new ProcessRunner.Limits(240, 4096, 256), new ProcessRunner.Limits(10, 2048, 64),
                "yarpj", Map.of());
        Path results = dir.resolve("results");
        Files.createDirectories(results);
        try (CampaignLog log = new CampaignLog(results.resolve("campaign.jsonl"))) {
            new TestRunner(cfg, new FindingStore(results), log, new CampaignStats()).run(1, dir.resolve("scratch"));
        }
        List<String> outcomes = IspcHarnessTest.outcomes(results);
        assertEquals(List.of("fake-O2 pass", "wrong-O2 wrong-code", "sycl-ref-O0 pass"), outcomes);
        Path finding;
        try (Stream<Path> s = Files.walk(results.resolve("wrong-code"))) {
            finding = s.filter(p -> p.endsWith("repro.sh")).findFirst().orElseThrow().getParent();
        }
        for (String f : List.of("func.cpp", "func_ref.cpp", "driver.cpp", "init.h", "expected.txt")) {
            assertTrue(Files.exists(finding.resolve(f)), f + " saved with the finding");
        }
        String repro = Files.readString(finding.resolve("repro.sh"));
        assertTrue(repro.contains("miscompile-sycl.sh") && repro.contains("ACPP_DEBUG_LEVEL=0"), repro);
        String out = IspcHarnessTest.bash(finding.resolve("repro.sh"));
        assertTrue(out.startsWith("0 reproduced: wrong code"), out);
    }

    @Test
    void syclCampaignsGiveCompilesThreeTimesTheUsualLimitUnlessTold(@TempDir Path dir) throws Exception {
        testbeds(dir);
        for (String[] run : List.of(new String[] {"sycl", "180.000"}, new String[] {"c", "60.000"})) {
            Path out = dir.resolve("r-" + run[0]);
            FuzzHarnessTest.Result r = FuzzHarnessTest.fuzz("--lang=" + run[0], "--seeds", "5..5", "-j", "1", "--out", out.toString(),
                    "--testbeds", dir.resolve("testbeds.yaml").toString(), "--policy", "src/test/resources/policies/tiny.yaml");
            assertEquals(0, r.code(), r.err());
            String settings = Files.readString(out.resolve("campaign.json"));
            assertTrue(settings.contains("\"compile_timeout_s\": " + run[1] + ","), settings);
        }
    }
}
