package dev.yarpj.harness;

import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The newest compilers that scripts/install-compilers.sh installs into .tools/compilers
 * (GCC trunk, the newest gcc and clang of Debian unstable, each run inside a private root):
 * every wrapper compiles generated programs that print the interpreter's prediction, both
 * as an object linked by the machine's own gcc (how the harness uses it) and as a whole
 * program it links itself (how triage and reduction use it); and a campaign over the
 * default testbeds names each testbed with its compiler's version.
 */
class NewestCompilersTest {
    static final Path TOOLS = Path.of(".tools/compilers").toAbsolutePath();
    private static List<String> wrappers;
    /** The default policy sized down (test resources, policies/small.yaml): the compilers, not the programs' size, are under test. */
    private static final GenPolicy SMALL = dev.yarpj.policy.PolicyLoader.load(Path.of(FuzzHarnessTest.SMALL));

    @TempDir
    Path dir;

    @BeforeAll
    static void installed() throws Exception {
        Path list = TOOLS.resolve("installed");
        boolean there = Files.exists(list);
        if (!there) System.err.println("NewestCompilersTest skipped: the newest compilers are not installed (run scripts/install-compilers.sh)");
        Assumptions.assumeTrue(there, "the newest compilers are not installed (run scripts/install-compilers.sh)");
        wrappers = Files.readAllLines(list).stream().filter(l -> !l.isBlank()).toList();
    }

    @Test
    void everyWrapperBuildsProgramsThatPrintThePrediction() throws Exception {
        assertTrue(wrappers.containsAll(List.of("gcc-trunk", "g++-trunk")), "GCC trunk is always installed: " + wrappers);
        assertTrue(wrappers.stream().anyMatch(w -> w.matches("clang\\+\\+-\\d+")) && wrappers.stream().anyMatch(w -> w.matches("gcc-\\d+")),
                "the newest gcc and clang releases: " + wrappers);
        // The host's compilers; the cross compilers and qemu are the cross-target test's, the LLVM tools triage's (LlvmReproducerTest).
        for (String w : wrappers.stream().filter(w -> !w.contains("-linux-gnu-") && !w.startsWith("qemu-") && !w.matches("(opt|llc|llvm-reduce)-\\d+")).toList()) {
            Language lang = w.startsWith("g++") || w.startsWith("clang++") ? Language.CPP : Language.C;
            String cc = TOOLS.resolve("bin").resolve(w).toString();
            String system = lang == Language.C ? "gcc" : "g++";
            String ext = lang.extension;
            Generator gen = new Generator(SMALL, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 1; seed++) {
                GeneratedTest t = gen.generate(seed, "test");
                Path d = Files.createDirectories(dir.resolve(w + "-" + seed));
                for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
                String want = t.prediction().expectedOutput();
                run(d, system, "-O0", "-w", "-c", "driver." + ext, "-o", "driver.o");
                run(d, dev.yarpj.Commands.cmd(cc, "-O3", "-w", dev.yarpj.Commands.object(d, ext), "-o", "func.o"));
                run(d, system, "driver.o", "func.o", "-o", "test.bin", "-lm");
                assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(), w + " -O3, linked by " + system + ", seed " + seed);
                run(d, dev.yarpj.Commands.cmd(cc, "-O2", "-w", "driver." + ext, dev.yarpj.Commands.sources(d, ext), "-o", "own.bin", "-lm"));
                assertEquals(want, run(d, d.resolve("own.bin").toString()).strip(), w + " -O2, linked by itself, seed " + seed);
            }
        }
    }

    /**
     * A test whose extern helpers are in a second file, built with {@code -flto} by GCC trunk
     * and the newest clang as the harness builds it (both files into one object, linked by
     * the compiler itself), prints the prediction; and the link-time optimizer did work
     * across the files: fewer calls of helpers are left than without {@code -flto}.
     */
    @Test
    void aTestOfTwoFilesBuiltWithLtoByGccTrunkAndTheNewestClangPrintsThePrediction() throws Exception {
        GenPolicy extern = dev.yarpj.policy.PolicyLoader.parse(Files.readString(Path.of(FuzzHarnessTest.SMALL))
                + "\nfunctions: {p_call: 0.2, linkage_weights: {static: 0, inline: 0, noinline: 0, always_inline: 0, extern: 1}}\n",
                "extern.yaml", "extern");
        String clang = wrappers.stream().filter(w -> w.matches("clang-\\d+")).findFirst().orElseThrow();
        for (String w : List.of("gcc-trunk", clang)) {
            String cc = TOOLS.resolve("bin").resolve(w).toString();
            long leftWithout = 0, leftWith = 0;
            int tests = 0;
            Generator gen = new Generator(extern, Language.C, CheckMode.HASH);
            for (long seed = 1; seed <= 3; seed++) {
                GeneratedTest t = gen.generate(seed, "test");
                if (!t.files().files().containsKey("helpers.c")) continue;
                tests++;
                Path d = Files.createDirectories(dir.resolve(w + "-lto-" + seed));
                for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
                String want = t.prediction().expectedOutput();
                run(d, "gcc", "-O0", "-w", "-c", "driver.c", "-o", "driver.o");
                for (boolean lto : List.of(false, true)) {
                    List<String> flags = lto ? List.of("-O3", "-flto") : List.of("-O3");
                    run(d, dev.yarpj.Commands.cmd(cc, flags, "-w", "-r", "func.c", "helpers.c", "-o", "func.o"));
                    run(d, dev.yarpj.Commands.cmd(cc, flags, "driver.o", "func.o", "-o", "test.bin", "-lm"));
                    assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(), w + " " + flags + ", seed " + seed);
                    // Calls of helpers left in the program (clang's LTO at the partial link keeps their global symbols).
                    long left = run(d, "objdump", "-d", "test.bin").lines().filter(l -> l.matches(".*\\scall\\s.*<fn_\\d+.*")).count();
                    if (lto) leftWith += left;
                    else leftWithout += left;
                }
            }
            assertTrue(tests >= 2, "only " + tests + " of 3 tests have a second file");
            assertTrue(leftWith < leftWithout, w + ": " + leftWith + " calls of helpers left with -flto, " + leftWithout + " without");
        }
    }

    @Test
    void aCampaignOnTheDefaultTestbedsNamesEachTestbedWithItsCompilersVersion() throws Exception {
        // harness/testbeds.yaml with the wrappers' paths: this JVM's PATH does not have them (the launcher adds them).
        String yaml = Files.readString(Path.of("harness/testbeds.yaml"));
        for (String w : List.of("gcc-trunk", "g++-trunk", "gcc-newest", "g++-newest", "clang-newest", "clang++-newest")) {
            yaml = yaml.replace(": " + w + "\n", ": " + TOOLS.resolve("bin").resolve(w) + "\n");
        }
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, yaml);
        Path out = dir.resolve("results");
        // One test: a run on each of the nine testbeds names it (the options of the spaces are checked before any test runs).
        FuzzHarnessTest.Result r = FuzzHarnessTest.fuzz("--lang=c", "--seeds", "1..1", "-j", "2", "--testbeds", tb.toString(),
                "--policy", "src/test/resources/policies/tiny.yaml", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("testbed runs: {pass=9}"), r.out() + r.err());
        // Every option of the default configuration spaces is one the installed compilers take (and this CPU runs).
        assertFalse(r.err().contains("skipped") || r.err().contains("dropped"), r.err());
        // A C campaign on the shipped file says nothing of its ISPC testbeds (nor of the C++ twin's cpp-O0): they take no part.
        assertFalse(r.err().contains("ispc") || r.err().contains("cpp-O0"), r.err());
        assertFalse(r.out().contains("ispc"), r.out());
        List<String> names = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("campaign.jsonl"))) {
            var m = Pattern.compile("\"testbed\": \"([^\"]+)\"").matcher(line);
            if (m.find() && !names.contains(m.group(1))) names.add(m.group(1));
        }
        assertEquals(9, names.size(), names.toString());
        for (String n : names) assertTrue(n.matches("(gcc-\\d+\\.\\d+\\.\\d+(-\\d{8})?|clang-\\d+\\.\\d+\\.\\d+)-(O[1s]|space(-[12])?)"), n);
        assertTrue(names.stream().anyMatch(n -> n.matches("gcc-\\d+\\.\\d+\\.\\d+-\\d{8}-space-1")), "GCC trunk's snapshot date: " + names);
    }

    /**
     * AArch64 with SVE2 and RISC-V with RVV: a generated C (AArch64) or C++ (RISC-V) program built by the cross
     * gcc and by clang on every testbed of the shipped files, run under qemu at each vector
     * length, prints the prediction; the summary names the target of each testbed.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"aarch64-sve, qemu-aarch64", "riscv64-rvv, qemu-riscv64"})
    void aProgramBuiltForEachCrossTargetPrintsThePredictionUnderQemu(String target, String qemu) throws Exception {
        boolean there = wrappers.contains(qemu);
        if (!there) System.err.println("NewestCompilersTest cross targets skipped: " + qemu + " is not installed"
                + " (scripts/install-compilers.sh installs it unless YARPJ_COMPILERS_CROSS=no)");
        Assumptions.assumeTrue(there, qemu + " is not installed (run scripts/install-compilers.sh)");
        // C on one target and C++ on the other: both front ends and both targets, at half the emulated runs.
        for (String lang : List.of(target.startsWith("aarch64") ? "c" : "cpp")) {
            Path out = dir.resolve(target + "-" + lang);
            FuzzHarnessTest.Result r = FuzzHarnessTest.fuzz("--policy", FuzzHarnessTest.SMALL, "--lang=" + lang, "--seeds", "1..1", "-j", "2",
                    "--testbeds", "harness/testbeds-" + target + ".yaml", "--out", out.toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("testbed runs: {pass=10}"), r.out() + r.err());
            assertTrue(r.out().contains("target " + target + " (under " + qemu + " -cpu "), r.out());
        }
        // The target's configuration space: every option taken by the installed compilers, the runs under the drawn emulator.
        Path out = dir.resolve(target + "-space");
        FuzzHarnessTest.Result r = FuzzHarnessTest.fuzz("--policy", FuzzHarnessTest.SMALL, "--lang=c", "--seeds", "1..1", "-j", "2",
                "--testbeds", "harness/testbeds-" + target + "-space.yaml", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("skipped") || r.err().contains("dropped"), r.err());
        assertTrue(r.out().contains("testbed runs: {pass=4}"), r.out() + r.err());
    }
}
