package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
 * A compile-time outlier of a known bug costs one timed build: a fake clang that spins in
 * "loop-load-elim" unless that pass is turned off is stopped at its test's bar, and the lane
 * labels it with the record's key by one build with the pass disabled, without a triage; a
 * key of another pass does not fit it.
 */
class KnownOutlierTest {
    static final Path FAKE = Path.of("src/test/resources/fake-compilers/lle-clang.sh").toAbsolutePath();

    /**
     * Three gcc builds of a fraction of a second (so that the fourth is stopped at their bar), then the fake clang with
     * {@code flags} (a YAML list's items).
     */
    private static Path gccPeersAnd(Path dir, Path fake, String flags) throws Exception {
        fake.toFile().setExecutable(true);
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n"
                + "  - {name: gcc-O1, c: gcc, cpp: g++, flags: [-O1]}\n  - {name: gcc-Os, c: gcc, cpp: g++, flags: [-Os]}\n"
                + "  - {name: clang-fake, c: " + fake + ", cpp: " + fake + ", flags: [" + flags + "]}\n");
        return tb;
    }

    @Test
    @SuppressWarnings("unchecked")
    void anOutlierOfAKnownPassIsLabelledKnownByOneBuildWithThatPassOff(@TempDir Path dir) throws Exception {
        Path tb = gccPeersAnd(dir, FAKE, "-O1");
        Path record = Files.createDirectories(dir.resolve("known").resolve("efbc36ade6"));
        Files.writeString(record.resolve("bug.json"), "{\"title\": \"LLE at -O1\", \"status\": \"open\", \"keys\": [{\"kind\": \"compile-hang\","
                + " \"target\": \"host\", \"family\": \"clang\", \"blamed\": \"loop-load-elim\", \"options\": []}]}\n");
        Path results = dir.resolve("results");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute("fuzz", "--quiet", "--seeds", "1..1", "--out", results.toString(), "--testbeds", tb.toString(),
                "--policy", "src/test/resources/policies/small.yaml", "--compile-timeout", "40", "--known-bugs", dir.resolve("known").toString(),
                "--triage-share", "100");
        assertEquals(0, code, err.toString());
        Map<String, Object> book = JsonFiles.parseObject(Files.readString(results.resolve("bugs.json")));
        List<Map<String, Object>> bugs = (List<Map<String, Object>>) book.get("bugs");
        assertEquals(1, bugs.size(), out.toString());
        assertEquals("efbc36ade6", ((Map<String, Object>) bugs.get(0).get("known")).get("id"), bugs.toString());
        assertTrue(out.toString().contains("1 finding(s) triaged (1 of them labelled with a bug already seen by a few builds)"), out.toString());
        Path finding = results.resolve((String) ((List<Map<String, Object>>) bugs.get(0).get("findings")).get(0).get("finding"));
        Map<String, Object> triage = JsonFiles.parseObject(Files.readString(finding.resolve("triage/triage.json")));
        assertTrue(String.valueOf(triage.get("labelled_by_one_build")).contains("-opt-disable=loop-load-elim"), triage.toString());
        // No quick triage ran (its bisection would have left its builds' files), and no recheck of a known bug's outlier.
        assertTrue(Files.notExists(finding.resolve("triage/lane.stderr")), "a triage child ran");
        assertTrue(String.valueOf(JsonFiles.parseObject(Files.readString(finding.resolve("meta.json"))).get("recheck")).startsWith("once per new bug"));

        // A key of another pass does not fit: turning that pass off leaves the compile as slow.
        Files.delete(finding.resolve("triage/triage.json"));
        double[] spent = {0};
        assertNull(KnownOutlier.label(finding, List.of(new BugKey("compile-hang", BugKey.HOST, "clang", "loop-vectorize", List.of())), spent));
        assertTrue(spent[0] > 0, "it built once");
        // Nor a key whose options the finding's compile does not have (no build is tried for it).
        double[] none = {0};
        assertNull(KnownOutlier.label(finding, List.of(new BugKey("compile-hang", BugKey.HOST, "clang", "loop-load-elim",
                List.of("-mllvm -force-vector-width=*"))), none));
        assertEquals(0, none[0]);
    }

    @Test
    void anOutlierThatNeedsOptionsAKeyLacksIsNotThatKeysBug(@TempDir Path dir) throws Exception {
        // Slow in loop-load-elim only under a forced width: the key of that pass at the level alone must not take it
        // (its configuration, without the width, compiles fast), the key with the width does.
        Path tb = gccPeersAnd(dir, FAKE.resolveSibling("lle-width-clang.sh"), "-O1, -mllvm, -force-vector-width=4");
        Path results = dir.resolve("results");
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute("fuzz", "--quiet", "--seeds", "1..1", "--out", results.toString(), "--testbeds", tb.toString(),
                "--policy", "src/test/resources/policies/small.yaml", "--compile-timeout", "40", "--triage-share", "0"));
        Path finding = BugBook.findings(results).get(0);
        BugKey levelAlone = new BugKey("compile-hang", BugKey.HOST, "clang", "loop-load-elim", List.of());
        BugKey widths = new BugKey("compile-hang", BugKey.HOST, "clang", "loop-load-elim", List.of("-mllvm -force-vector-width=*"));
        assertNull(KnownOutlier.label(finding, List.of(levelAlone), new double[1]), "the level alone compiles fast: another bug");
        KnownOutlier.Label l = KnownOutlier.label(finding, List.of(levelAlone, widths), new double[1]);
        assertEquals(widths, l == null ? null : l.key());
    }

    @Test
    void thePassOfAKeyIsTurnedOffByItsOwnFlag() {
        assertEquals(List.of("-mllvm", "-opt-disable=loop-load-elim"), KnownOutlier.disabling("clang", "loop-load-elim"));
        assertNull(KnownOutlier.disabling("clang", "Loop Strength Reduction"));
        assertEquals(List.of("-fno-tree-loop-vectorize", "-fno-tree-vectorize"), KnownOutlier.disabling("gcc", "tree-vect"));
        assertEquals(List.of("-fdisable-tree-pre"), KnownOutlier.disabling("gcc", "-fdisable-tree-pre"));
        assertEquals(List.of("-fno-peel-loops"), KnownOutlier.disabling("gcc", "-fpeel-loops"));
    }

    @Test
    void theLabelsConfigurationIsTheFindingsLevelAndTheOptionsTheKeyNames() {
        BugKey k = new BugKey("compile-hang", BugKey.HOST, "clang", "loop-load-elim", List.of("-mllvm -force-vector-width=*"));
        assertEquals(List.of("clang-newest", "-O3", "-mllvm", "-force-vector-width=16"), KnownOutlier.configuration(
                List.of("clang-newest", "-O3", "-march=native", "-mllvm", "-force-vector-width=16", "-mllvm", "-force-vector-interleave=4"), k));
    }
}
