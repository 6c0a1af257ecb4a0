package dev.yarpj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

class StatsCommandTest {
    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String text) {
        return (Map<String, Object>) new Yaml().load(text);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(Map<String, Object> m, String key) {
        return (List<Map<String, Object>>) m.get(key);
    }

    private static void assertOneLineUsageError(Result r, String expected) {
        assertEquals(2, r.code(), r.err());
        assertTrue(r.out().isEmpty(), r.out());
        assertTrue(r.err().startsWith("yarpj: "), r.err());
        assertEquals(1, r.err().strip().split("\n").length, "one line: " + r.err());
        assertTrue(r.err().contains(expected), r.err());
    }

    @Test
    void jsonCountsRemarksOfSixPrograms() {
        Result r = run("stats", "--lang=c", "--seeds", "1..6", "--format", "json");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> m = json(r.out());
        assertEquals(6, m.get("programs"));
        assertEquals("clang", m.get("compiler"));
        assertEquals(1, m.get("first_seed"));
        assertEquals(6, m.get("last_seed"));
        List<Map<String, Object>> passes = rows(m, "passes");
        assertFalse(passes.isEmpty());
        assertTrue(passes.stream().anyMatch(p -> p.get("pass").equals("licm")), passes.toString());
        for (Map<String, Object> p : passes) {
            assertTrue(List.of("Passed", "Missed", "Analysis").contains(p.get("kind")), p.toString());
            int programs = (Integer) p.get("programs");
            assertTrue(programs >= 1 && programs <= 6, p.toString());
        }
        assertFalse(rows(m, "remarks").isEmpty());
    }

    @Test
    void aPolicyComparedWithItselfHasRatiosOfOneAndNothingSignificant() {
        // Three seeds a side (a comparison needs two or more): a policy against itself compiles the same programs twice.
        Result r = run("stats", "--lang=c", "--seeds", "1..3", "--format", "json", "--compare", "policies/default.yaml");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> m = json(r.out());
        for (String side : List.of("a", "b")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> s = (Map<String, Object>) m.get(side);
            assertEquals(3, s.get("programs"), side);
        }
        for (String section : List.of("passes_passed", "passes_all_kinds", "remarks_passed")) {
            List<Map<String, Object>> rows = rows(m, section);
            assertFalse(rows.isEmpty(), section);
            for (Map<String, Object> row : rows) {
                assertEquals(1.0, row.get("ratio"), row.toString());
                assertEquals(false, row.get("significant"), row.toString());
                assertEquals("both", row.get("presence"), row.toString());
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> g = (Map<String, Object>) m.get("geomean");
        assertTrue((Integer) g.get("count") >= 1, g.toString());
        assertEquals(1.0, g.get("value"));
        assertEquals(0, g.get("significant"));
        assertEquals(List.of(), g.get("only_in_a"));
        assertEquals(List.of(), g.get("only_in_b"));
    }

    @Test
    void tableHasBothSectionsAndGccWorksToo() {
        Result r = run("stats", "--seeds", "1..3", "--compiler", "gcc", "-j", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("opt-info  Passed"), r.out());
        assertTrue(r.out().contains("top Passed remarks per pass"), r.out());
    }

    /** A script in {@code dir} that says it is clang when asked its version, and runs {@code compile} (shell) for a compile. */
    private static Path fakeClang(Path dir, String name, String compile) throws Exception {
        Path cc = dir.resolve(name);
        Files.writeString(cc, "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'fake clang version 1'; exit 0; fi\n" + compile + "\n");
        assertTrue(cc.toFile().setExecutable(true));
        return cc;
    }

    @Test
    void badSeedRangeIsOneLine() {
        assertOneLineUsageError(run("stats", "--seeds", "5..2"), "--seeds must be A..B with 0 <= A <= B, got 5..2");
        assertOneLineUsageError(run("stats", "--seeds", "1-5"), "--seeds");
        assertOneLineUsageError(run("stats", "--seeds", "-1..5"), "--seeds");
        assertOneLineUsageError(run("stats"), "--seeds");
    }

    @Test
    void otherBadInputIsOneLine(@TempDir Path dir) throws Exception {
        assertOneLineUsageError(run("stats", "--seeds", "1..2", "--lang=fortran"), "fortran");
        assertOneLineUsageError(run("stats", "--seeds", "1..2", "--policy", dir.resolve("no.yaml").toString()),
                "policy file not found");
        assertOneLineUsageError(run("stats", "--seeds", "1..2", "--compare", dir.resolve("no.yaml").toString()),
                "policy file not found");
        assertOneLineUsageError(run("stats", "--seeds", "3..3", "--compare", "policies/default.yaml"), "at least 2 seeds");
        assertOneLineUsageError(run("stats", "--seeds", "1..2", "--cc", dir.resolve("no-such-cc").toString()),
                "cannot run compiler");
        assertOneLineUsageError(run("stats", "--seeds", "1..2", "--cc", "gcc"), "does not look like clang");
        assertOneLineUsageError(run("stats", "--seeds", "1..2", "-j", "0"), "-j");
        assertOneLineUsageError(run("stats", "--seeds", "1..2", "--format", "xml"), "xml");
        Path notCompiler = dir.resolve("false-cc");
        Files.writeString(notCompiler, "#!/bin/sh\nexit 3\n");
        assertTrue(notCompiler.toFile().setExecutable(true));
        assertOneLineUsageError(run("stats", "--seeds", "1..2", "--cc", notCompiler.toString()), "cannot run compiler");
    }

    @Test
    void failingCompilesAreSkippedAndCounted(@TempDir Path dir) throws Exception {
        // Says it is clang, then fails every compile.
        Path cc = fakeClang(dir, "broken-clang", "echo 'error: broken on purpose' >&2; exit 1");
        Result r = run("stats", "--seeds", "1..3", "--cc", cc.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("3 of 3 seeds skipped: 3 compile failures (first: seed 1: exit code 1: error: broken on purpose)"),
                r.err());
        assertTrue(r.err().contains("no program compiled"), r.err());
        assertTrue(r.out().isEmpty(), r.out());
    }

    @Test
    void compilesPastTheCpuOrWallLimitAreSkippedAsTimeoutsAndNamed(@TempDir Path dir) throws Exception {
        // Says it is clang, then spins on the CPU (stopped at the CPU limit) ...
        Path spinning = fakeClang(dir, "spinning-clang", "while :; do :; done");
        // ... or sleeps (stopped at 3 times the limit on the wall clock).
        Path sleeping = fakeClang(dir, "sleeping-clang", "exec sleep 60");
        Result spun = run("stats", "--seeds", "4..5", "-j", "1", "--compile-timeout", "1", "--cc", spinning.toString());
        assertEquals(1, spun.code(), spun.err());
        assertTrue(spun.err().contains("2 of 2 seeds skipped: 2 compile timeouts (first: seed 4: "), spun.err());
        assertTrue(spun.err().contains("), seeds 4, 5"), spun.err());
        // On a busy machine the wall clock (3 s) may stop it before the CPU limit does.
        assertTrue(spun.err().contains("used its 1 CPU-s and was stopped") || spun.err().contains("still compiling after 3 s"), spun.err());
        Result slept = run("stats", "--seeds", "7..7", "--compile-timeout", "1", "--cc", sleeping.toString());
        assertEquals(1, slept.code(), slept.err());
        assertTrue(slept.err().contains("1 of 1 seeds skipped: 1 compile timeout (first: seed 7: still compiling after 3 s)"), slept.err());
    }

    @Test
    void aCompileStoppedAtTheFileSizeLimitIsNotCalledACrash(@TempDir Path dir) throws Exception {
        // Says it is clang, then dies as a write past ulimit -f makes it die.
        Path cc = fakeClang(dir, "big-remarks-clang", "echo 'PLEASE submit a bug report' >&2; kill -s XFSZ $$");
        Result r = run("stats", "--seeds", "3..3", "--cc", cc.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("1 compile failure (first: seed 3: its remarks file passed the 1024 MiB file-size limit"
                + " (killed by signal 25))"), r.err());
        assertFalse(r.err().contains("PLEASE"), r.err());
    }

    @Test
    void aCompileTimeoutOutsideOneSecondToADayIsOneLine() {
        for (String bad : List.of("0", "-5", "0.5", "NaN", "1e300", "Infinity")) {
            assertOneLineUsageError(run("stats", "--seeds", "1..2", "--compile-timeout", bad), "--compile-timeout must be 1 to 86400 CPU seconds");
        }
        assertOneLineUsageError(run("stats", "--seeds", "1..2", "--compile-timeout", "soon"), "--compile-timeout");
    }

    @Test
    void flagsGoToEveryRemarkCompileAndTheReportSaysSo(@TempDir Path dir) throws Exception {
        // A clang that logs its options, then compiles as clang does.
        Path log = dir.resolve("args.log");
        Path cc = dir.resolve("logging-clang");
        Files.writeString(cc, "#!/bin/sh\necho \"$*\" >> " + log + "\nexec clang \"$@\"\n");
        assertTrue(cc.toFile().setExecutable(true));
        Result r = run("stats", "--seeds", "1..2", "-j", "1", "--cc", cc.toString(), "--flag=-march=x86-64-v2", "--flag", "-fno-unroll-loops");
        assertEquals(0, r.code(), r.err());
        List<String> compiles = Files.readAllLines(log).stream().filter(l -> l.contains("func.c")).toList();
        assertEquals(2, compiles.size(), compiles.toString());
        for (String c : compiles) assertTrue(c.startsWith("-O3 -march=x86-64-v2 -fno-unroll-loops -c -w func.c"), c);
        assertTrue(r.out().contains(" -O3 -march=x86-64-v2 -fno-unroll-loops on 2 programs"), r.out());
    }

    @Test
    void helpNamesEveryOption() {
        Result r = run("stats", "--help");
        assertEquals(0, r.code());
        for (String o : List.of("--lang", "--seeds", "--policy", "--swarm", "--compare", "--compiler", "--cc", "--flag", "--format", "-j",
                "--no-compile", "--compile-timeout")) {
            assertTrue(r.out().contains(o), o + " in " + r.out());
        }
        // picocli formats the description: a bare % would leave it unformatted, %n and all.
        assertFalse(r.out().contains("%n"), r.out());
        assertTrue(r.out().contains("95% bootstrap interval"), r.out());
    }

    @Test
    void noCompilePrintsShapeAndTripCountsOnly() {
        // A compiler that cannot run does not matter: nothing is compiled.
        Result r = run("stats", "--no-compile", "--seeds", "1..5", "--cc", "/no/such/cc");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().matches("(?s)loops of \\d programs \\(generated and interpreted, nothing compiled\\): seeds 1\\.\\.5, .*"),
                r.out());
        assertTrue(r.out().contains("program shape of "), r.out());
        assertTrue(r.out().contains("trip counts per entry"), r.out());
        assertTrue(r.out().contains("scope      idiom         loops  never"), r.out());
        for (String idiom : List.of("plain", "vectorizable", "reduction", "stencil", "memset", "memcpy")) {
            assertTrue(r.out().contains("innermost  " + idiom), idiom + " in " + r.out());
        }
        assertFalse(r.out().contains("remarks"), r.out());
    }

    @Test
    void noCompileWritesThePerSeedSizesAndEstimatesWithTheCompileColumnsEmpty(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("sizes.csv");
        Result r = run("stats", "--no-compile", "--seeds", "1..4", "--per-seed", csv.toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals("policy,seed,status,func_lines,slots,loops,loop_slots,unrolled,estimate_s,compile_cpu_s,passed,passed_loop",
                lines.get(0));
        assertEquals(5, lines.size(), String.join("\n", lines));
        for (int i = 1; i <= 4; i++) {
            String[] f = lines.get(i).split(",", -1);
            assertEquals(List.of("default", String.valueOf(i), "ok"), List.of(f[0], f[1], f[2]), lines.get(i));
            assertTrue(Integer.parseInt(f[3]) > 0 && Integer.parseInt(f[4]) > 0, "func lines and slots: " + lines.get(i));
            assertTrue(Double.parseDouble(f[8]) > 0, "estimate: " + lines.get(i));
            assertEquals(List.of("", "", ""), List.of(f[9], f[10], f[11]), "nothing compiled: " + lines.get(i));
        }
    }

    @Test
    void noCompileJsonHasATripRowPerGroup() {
        Result r = run("stats", "--no-compile", "--seeds", "1..5", "--format", "json");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> m = json(r.out());
        assertEquals(false, m.get("compiled"));
        assertFalse(m.containsKey("passes"));
        @SuppressWarnings("unchecked")
        Map<String, Object> skipped = (Map<String, Object>) m.get("skipped");
        assertEquals(5, (Integer) m.get("programs") + (Integer) skipped.get("generator"), m.toString());
        assertEquals(0, skipped.get("compile"));
        List<Map<String, Object>> trips = rows(m, "trips");
        assertEquals(15, trips.size(), "all and innermost, each: every idiom and the six idioms; then the loops that leave early");
        Map<String, Object> all = trips.get(0);
        assertEquals("all", all.get("scope"));
        assertEquals("all", all.get("idiom"));
        int loops = (Integer) all.get("loops");
        assertTrue(loops >= 1, all.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> counts = (Map<String, Object>) all.get("counts");
        int sum = 0;
        for (Object c : counts.values()) sum += (Integer) c;
        assertEquals(loops, sum, all.toString());
        assertEquals(loops - (Integer) counts.get("never"), all.get("entered"));
    }

    @Test
    void noCompileComparisonOfAPolicyWithItselfIsNeverSignificant() {
        Result r = run("stats", "--no-compile", "--seeds", "1..6", "--format", "json", "--compare", "policies/default.yaml");
        assertEquals(0, r.code(), r.err());
        Map<String, Object> m = json(r.out());
        for (Map<String, Object> row : rows(m, "trips")) {
            assertEquals(row.get("a"), row.get("b"), row.toString());
            assertTrue(row.get("significant") == null || row.get("significant").equals(false), row.toString());
        }
        Result t = run("stats", "--no-compile", "--seeds", "1..6", "--compare", "policies/no-idioms.yaml");
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("scope      idiom         policy  loops"), t.out());
        Result c = run("stats", "--no-compile", "--seeds", "1..6", "--format", "csv");
        assertEquals(0, c.code(), c.err());
        assertTrue(c.out().startsWith("section,pass,kind,remark,total,mean,programs\n"), c.out());
        assertTrue(c.out().contains("\ntrips,innermost,memcpy,64_or_more,"), c.out());
    }
}
