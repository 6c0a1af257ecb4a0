package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import dev.yarpj.harness.JsonFiles;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wrong code that shows only when func is compiled apart from its driver, as the harness
 * builds it (src/test/resources/fake-compilers/miscompile-apart.sh miscompiles a file without
 * main): the merged test loses it, and triage builds the finding's files as the harness did.
 */
class SplitTriageTest {
    static final Path FAKE = Path.of("src/test/resources/fake-compilers/miscompile-apart.sh").toAbsolutePath();

    @Test
    void aSymptomThatNeedsTheDriverApartIsTriagedOnTheFindingsFiles(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        StringWriter out = campaign(dir, FAKE, "[-O2]", "1..1");
        List<Path> findings = BugBook.findings(results);
        assertFalse(findings.isEmpty(), out.toString());
        for (Path f : findings) {
            assertFalse(Files.exists(f.resolve(TriageLane.REFUSED)), () -> f + ": " + read(f.resolve(TriageLane.REFUSED)));
            Map<String, Object> t = JsonFiles.parseObject(Files.readString(f.resolve("triage/triage.json")));
            // The fake's wrong constants make some programs crash (a division by zero): one miscompilation, either way.
            assertTrue(List.of("wrong-code", "runtime-crash").contains(t.get("kind")), t.toString());
            assertTrue(String.valueOf(t.get("minimal")).endsWith("miscompile-apart.sh -O0"), t.toString());
            String report = Files.readString(f.resolve("triage/report.md"));
            assertTrue(report.contains("needs the driver in a translation unit of its own"), report);
            assertTrue(report.contains("test.c driver.o -o bug"), report);
            assertTrue(report.contains("-w test.c driver.c -o san.bin -lm && ./san.bin`: runs clean"), report);
        }
        assertTrue(out.toString().contains("bugs: 1 new, 0 known"), out.toString());
    }

    /**
     * A wrong result of the harness's build that triage's one-step builds show as a crash
     * (src/test/resources/fake-compilers/wrong-linked-crash-alone.sh, as clang 23's LTO for SVE
     * did): triaged by the crash, one bug, with the report saying so.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aWrongResultThatTriagesBuildsShowAsACrashIsTriagedByTheCrash(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        StringWriter out = campaign(dir, Path.of("src/test/resources/fake-compilers/wrong-linked-crash-alone.sh"), "[-O2]", "1..1");
        List<Path> wrong = BugBook.findings(results).stream().filter(f -> f.toString().contains("/wrong-code/")).toList();
        assertFalse(wrong.isEmpty(), out.toString());
        for (Path f : wrong) {
            assertFalse(Files.exists(f.resolve(TriageLane.REFUSED)), () -> f + ": " + read(f.resolve(TriageLane.REFUSED)));
            Map<String, Object> t = JsonFiles.parseObject(Files.readString(f.resolve("triage/triage.json")));
            assertEquals("wrong-code", t.get("kind"));
            assertTrue(String.valueOf(t.get("symptom")).startsWith("a crash of the program built in one step"), t.toString());
            String report = Files.readString(f.resolve("triage/report.md"));
            assertTrue(report.contains("it crashes, and triage followed the crash"), report);
        }
        assertTrue(out.toString().contains("bugs: 1 new, 0 known"), out.toString());
    }

    /**
     * A link that fails on an undefined reference (gcc's missing SVE simd clone:
     * src/test/resources/fake-compilers/undefined-clone.sh calls a vector variant nobody
     * defines under -mplanted-clone) is a finding triage takes: one bug, keyed a link failure
     * under that option, with the reference in its report.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aLinkFailureOnAnUndefinedReferenceIsTriaged(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        // Two seeds: two findings, one bug.
        StringWriter out = campaign(dir, Path.of("src/test/resources/fake-compilers/undefined-clone.sh"), "[-O2, -mplanted-clone]", "1..2");
        List<Path> rejected = BugBook.findings(results);
        assertEquals(2, rejected.size(), out.toString());
        for (Path f : rejected) {
            assertTrue(f.toString().contains("/program-rejected/"), f.toString());
            assertFalse(Files.exists(f.resolve(TriageLane.REFUSED)), () -> f + ": " + read(f.resolve(TriageLane.REFUSED)));
            Map<String, Object> t = JsonFiles.parseObject(Files.readString(f.resolve("triage/triage.json")));
            assertEquals("link failure: undefined reference to _ZGVsMxv_fn_N", t.get("symptom"), t.toString());
            assertTrue(String.valueOf(t.get("minimal")).endsWith("undefined-clone.sh -O0 -mplanted-clone"), t.toString());
            assertTrue(Files.readString(f.resolve("triage/report.md")).startsWith("# link failure (undefined reference to _ZGVsMxv_fn_N) at -O0 -mplanted-clone"));
        }
        Map<String, Object> book = JsonFiles.parseObject(Files.readString(results.resolve("bugs.json")));
        List<Map<String, Object>> bugs = (List<Map<String, Object>>) book.get("bugs");
        assertEquals(1, bugs.size(), out.toString());
        assertEquals("link-failure", ((Map<String, Object>) bugs.get(0).get("key")).get("kind"));
    }

    /**
     * A campaign of {@code seeds} into {@code dir/results} with one testbed, fake compiler
     * {@code fake} at {@code flags} (a YAML list), its lane triaging everything, no reduction; its output.
     * Seed 1 is a finding of each fake here, and each finding a full triage of its own.
     */
    private static StringWriter campaign(Path dir, Path fake, String flags, String seeds) throws Exception {
        Path compiler = fake.toAbsolutePath();
        compiler.toFile().setExecutable(true);
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: fake\n    c: " + compiler + "\n    flags: " + flags + "\n");
        var cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute("fuzz", "--quiet", "--seeds", seeds, "-j", "1", "--out", dir.resolve("results").toString(), "--testbeds",
                tb.toString(), "--policy", "src/test/resources/policies/small.yaml", "--triage-share", "100", "--reduce-budget", "0"), out.toString());
        return out;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
