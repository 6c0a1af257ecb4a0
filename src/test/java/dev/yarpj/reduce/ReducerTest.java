package dev.yarpj.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A finding of each kind, planted by a fake compiler (wrong code, a compiler crash, a runtime
 * crash, a compile hang), is reduced by C-Vise to a handful of lines, and what it keeps is
 * sanitizer-clean and still shows the bug.
 */
class ReducerTest {
    /**
     * C-Vise's budget for each planted finding, in candidates: the same reduction on a busy
     * machine as on an idle one, only slower (a budget in seconds reached 55 lines of 111 on an
     * idle machine and 74 on a busy one). Six candidates are C-Vise's first line passes, of
     * which it keeps three or four (95 lines of seed 1 become 85); what the tests check is that
     * each kind's interestingness test keeps only candidates with the symptom that are
     * sanitizer-clean, not how far C-Vise gets. Most of a reduction's CPU is the candidates
     * kept, each built and run under both sanitizers: twelve candidates kept five, for 95 lines
     * of seed 1 made 69. The seconds are a backstop only.
     */
    private static final int CANDIDATES = 6, JOBS = 2;
    private static final double BACKSTOP_S = 900;

    private static Reducer.Options budget(double slowAfter) {
        return budget(slowAfter, CANDIDATES);
    }

    private static Reducer.Options budget(double slowAfter, int candidates) {
        return new Reducer.Options(BACKSTOP_S, JOBS, "cvise", slowAfter).withMaxCandidates(candidates);
    }

    /** C-Vise made progress within its candidates: lines cut, each accepted candidate logged, the budget kept. */
    private static void assertReduced(Reducer.Result r) throws Exception {
        String reduced = Files.readString(r.reduced());
        assertTrue(r.linesAfter() < r.linesBefore(), "reduced from " + r.linesBefore() + " to " + r.linesAfter() + " lines:\n" + reduced);
        assertTrue(r.accepted() > 0, "the log names each accepted candidate");
        String info = Files.readString(r.reduced().resolveSibling("reduce.json"));
        var past = java.util.regex.Pattern.compile("\"refused_past_budget\": (\\d+)").matcher(info);
        assertTrue(past.find(), info);
        // C-Vise stops when the budget is spent: only the candidates already started beside the last are
        // refused, and at most the hard limit's margin and one more round of jobs if SIGINT was lost.
        assertTrue(Integer.parseInt(past.group(1)) <= 3 * JOBS + 3, info);
    }

    private static final Path FAKES = Path.of("src/test/resources/fake-compilers").toAbsolutePath();

    @Test
    void plantedWrongCodeIsReducedAndStaysSanitizerClean(@TempDir Path dir) throws Exception {
        String fake = FAKES.resolve("miscompile.sh").toString();
        // Seed 1, the first finding of each fake here (more seeds were tested for nothing: the first finding is the one reduced).
        Path finding = plant(dir, "miscompile", "1..1", "wrong-code");

        Reducer.Result r = Reducer.reduce(finding, budget(Reducer.Options.DEFAULT_SLOW_AFTER));
        assertReduced(r);

        // Independently of the interestingness script: the result is sanitizer-clean with gcc
        // and clang, and the fake compiler still changes its output.
        Path work = r.reduced().getParent();
        assertSanitizerClean(work);
        run(work, "gcc", "-O0", "-w", "merged.c", "-o", "ref.bin", "-lm");
        run(work, fake, "-O2", "-w", "merged.c", "-o", "bug.bin");
        assertNotEquals(run(work, "./ref.bin"), run(work, "./bug.bin"));
    }

    @Test
    void aCviseThatIgnoresSigintIsEndedPastTheHardLimit(@TempDir Path dir) throws Exception {
        Path deaf = Path.of("src/test/resources/fake-cvise/deaf-to-sigint.sh").toAbsolutePath();
        deaf.toFile().setExecutable(true);
        Path finding = plant(dir, "miscompile", "1..1", "wrong-code");
        // One job, so the fake tests one candidate at a time and the count is exact.
        Reducer.Options opt = new Reducer.Options(BACKSTOP_S, 1, deaf.toString(), Reducer.Options.DEFAULT_SLOW_AFTER).withMaxCandidates(2);
        Reducer.Result r = Reducer.reduce(finding, opt);
        String info = Files.readString(r.reduced().resolveSibling("reduce.json"));
        // Candidates 3 to 6 are refused with a SIGINT the fake ignores; the 7th sends SIGTERM, which ends it.
        int refused = Reducer.hardLimit(opt) - opt.maxCandidates() + 1;
        assertEquals(5, refused);
        assertTrue(info.contains("\"tested_candidates\": 2,") && info.contains("\"refused_past_budget\": " + refused + ","), info);
        assertEquals(r.linesBefore(), r.linesAfter(), "the fake changes nothing");
    }

    @Test
    void aMergedTestWithoutTheSymptomIsRefusedAndLeavesNoMergedFileForTriage(@TempDir Path dir) throws Exception {
        // ice.sh crashes on func.c alone: the one-file merge of the test compiles, so it is not interesting.
        Path finding = plant(dir, "ice", "1..1", "compiler-crash");
        var e = org.junit.jupiter.api.Assertions.assertThrows(Reducer.ReduceException.class,
                () -> Reducer.reduce(finding, budget(Reducer.Options.DEFAULT_SLOW_AFTER)));
        assertTrue(e.getMessage().contains("the merged test is not interesting"), e.getMessage());
        // Triage takes reduced/merged.c first; one that never showed the symptom must not be there.
        assertTrue(Files.notExists(finding.resolve("reduced").resolve("merged.c")), "a merged.c without the symptom is left");
        assertTrue(Files.exists(finding.resolve("reduced").resolve("interesting.sh")), "the test that refused it is kept, to look at");
    }

    @Test
    void plantedCompilerCrashIsReducedWithItsSignatureKept(@TempDir Path dir) throws Exception {
        String fake = FAKES.resolve("ice-on-loop.sh").toString();
        Path finding = plant(dir, "ice-on-loop", "1..1", "compiler-crash");
        String signature = Files.readString(finding.getParent().resolve("signature.txt"));
        assertTrue(signature.contains("fake_loop_pass"), signature);

        Reducer.Result r = Reducer.reduce(finding, budget(Reducer.Options.DEFAULT_SLOW_AFTER));
        String reduced = Files.readString(r.reduced());
        assertReduced(r);
        assertTrue(reduced.matches("(?s).*for *\\(.*"), "the loop the crash needs is kept:\n" + reduced);
        // The fake compiler still crashes on it with the same message, and the test is sanitizer-clean.
        Path work = r.reduced().getParent();
        Process p = new ProcessBuilder(fake, "-O2", "-c", "merged.c", "-o", "x.o").directory(work.toFile()).redirectErrorStream(true).start();
        String err = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(dev.yarpj.harness.Finding.crashMessage(Files.readString(finding.resolve("compile.stderr"))), dev.yarpj.harness.Finding.crashMessage(err));
        assertSanitizerClean(work);
    }

    @Test
    void plantedRuntimeCrashIsReducedToALoopThatStillCrashes(@TempDir Path dir) throws Exception {
        String fake = FAKES.resolve("segv-on-loop.sh").toString();
        Path finding = plant(dir, "segv-on-loop", "1..1", "runtime-crash");

        Reducer.Result r = Reducer.reduce(finding, budget(Reducer.Options.DEFAULT_SLOW_AFTER));
        String reduced = Files.readString(r.reduced());
        assertReduced(r);
        assertTrue(reduced.matches("(?s).*for *\\(.*"), "the loop the crash needs is kept:\n" + reduced);
        Path work = r.reduced().getParent();
        run(work, fake, "-O2", "-w", "merged.c", "-o", "bug.bin");
        Process p = new ProcessBuilder("./bug.bin").directory(work.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(128 + 11, p.exitValue(), "the fake build still dies of SIGSEGV (Java reports 128 + the signal)");
        assertSanitizerClean(work);
    }

    @Test
    void plantedCompileHangIsReducedWithEachTryBounded(@TempDir Path dir) throws Exception {
        String fake = FAKES.resolve("hang-on-loop.sh").toString();
        // A compile past the limit is a finding when the limit is ten times the peer's median compile: 2 CPU-s
        // leaves gcc -O0 0.2 CPU-s for the tiny test, which a busy machine's contention cannot reach (1 CPU-s could).
        Path finding = plant(dir, "hang-on-loop", "1..1", "compile-hang", "--compile-timeout", "2", "--recheck-timeout", "1");

        // Each try gives the fake compile 1 CPU-s, not the harness's limit or the forever it spins:
        // nearly every candidate keeps a loop and so pays that second, which makes hangs the
        // slowest kind to reduce.
        // Half the others' candidates: each that keeps the loop spins for its 2 CPU-s.
        Reducer.Result r = Reducer.reduce(finding, budget(1, CANDIDATES / 2));
        String reduced = Files.readString(r.reduced());
        assertReduced(r);
        assertTrue(reduced.matches("(?s).*for *\\(.*"), "the loop the hang needs is kept:\n" + reduced);
        Path work = r.reduced().getParent();
        Process p = new ProcessBuilder("timeout", "3", fake, "-O2", "-w", "merged.c", "-o", "bug.bin").directory(work.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(124, p.exitValue(), "the fake compile of the reduced test still hangs");
        assertSanitizerClean(work);
    }

    @Test
    void ispcAndSyclFindingsReduceInTheIrOnly(@TempDir Path dir) throws Exception {
        for (String lang : List.of("ispc", "sycl")) {
            Path finding = Files.createDirectories(dir.resolve(lang));
            Files.writeString(finding.resolve("meta.json"), "{\"kind\": \"wrong-code\", \"lang\": \"" + lang
                    + "\", \"testbed\": \"t\", \"reference\": \"g++\"}");
            var e = org.junit.jupiter.api.Assertions.assertThrows(Reducer.ReduceException.class,
                    () -> Reducer.reduceAll(finding, new Reducer.Options(60, 1, "cvise", 10, Reducer.Phases.TEXT)));
            assertEquals(lang.toUpperCase() + " findings reduce in the IR only: drop --text-only", e.getMessage());
        }
    }

    @Test
    void theMergedTestBuildsItsDriverUnoptimizedAndPrintsThePrediction(@TempDir Path dir) throws Exception {
        assertEquals(0, cli("gen", "--quiet", "--seed", "3", "--out", dir.toString(), "--policy", "src/test/resources/policies/tiny.yaml"));
        String merged = dev.yarpj.harness.Finding.merge(dir, "c");
        int test = merged.indexOf("void test("), pragma = merged.indexOf(dev.yarpj.harness.Finding.DRIVER_UNOPTIMIZED), main = merged.indexOf("int main(");
        assertTrue(test >= 0 && test < pragma && pragma < main, "test() optimized, the driver's functions not:\n" + merged);
        assertEquals(pragma, merged.lastIndexOf(dev.yarpj.harness.Finding.DRIVER_UNOPTIMIZED));
        Files.writeString(dir.resolve("merged.c"), merged);
        for (String cc : List.of("gcc", "clang")) {
            run(dir, cc, "-O3", "-w", "merged.c", "-o", cc + ".bin");
            assertEquals(Files.readString(dir.resolve("expected.txt")).strip(), run(dir, "./" + cc + ".bin").strip());
        }
    }

    /** merged.c in {@code work} runs clean under UBSan and ASan, built by gcc and by clang at -O0. */
    private static void assertSanitizerClean(Path work) throws Exception {
        for (String cc : List.of("gcc", "clang")) {
            run(work, cc, "-O0", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-w", "merged.c", "-o", cc + ".san");
            run(work, "./" + cc + ".san");
        }
    }

    /**
     * Fuzzes {@code seeds} of the tiny policy with the fake compiler {@code fake} as the only
     * testbed (and {@code more} fuzz options); the first finding of {@code kind}.
     */
    private static Path plant(Path dir, String fake, String seeds, String kind, String... more) throws Exception {
        try (Stream<Path> s = Files.list(FAKES)) {
            s.forEach(p -> p.toFile().setExecutable(true));
        }
        String path = FAKES.resolve(fake + ".sh").toString();
        Path tb = dir.resolve("testbeds.yaml");
        // A compile-time finding needs a testbed that finishes the test, to be many times slower than.
        String peer = kind.equals("compile-hang") ? "  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n" : "";
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n" + peer + "  - {name: fake-" + fake + ", c: " + path + ", cpp: " + path
                + ", flags: [-O2]}\n");
        Path results = dir.resolve("results");
        List<String> args = new java.util.ArrayList<>(List.of("fuzz", "--quiet", "--triage-share", "0", "--seeds", seeds, "-j", "2", "--out", results.toString(),
                "--testbeds", tb.toString(), "--policy", "src/test/resources/policies/tiny.yaml"));
        args.addAll(List.of(more));
        assertEquals(0, cli(args.toArray(String[]::new)));
        try (Stream<Path> s = Files.walk(results.resolve(kind), 2)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d+")).sorted().findFirst().orElseThrow();
        }
    }

    private static int cli(String... args) {
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        return cl.execute(args);
    }

    private static String run(Path dir, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("ASAN_OPTIONS", "detect_leaks=0");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }
}
