package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import dev.yarpj.harness.JsonFiles;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Triage inside the campaign: a fake compiler with two planted bugs, each under its own option
 * of a configuration space (a miscompilation and an internal compiler error), gives a campaign
 * several findings with several signatures; its triage lane ends them as exactly two bugs,
 * each with its report from its smallest finding, reduced. Merged into a record of known bugs that then keeps one of them, a
 * resumed campaign reports one known bug and one new, and triages again only what was not
 * finished.
 */
class TriageLaneTest {
    static final Path FAKE = Path.of("src/test/resources/fake-compilers/two-planted-bugs.sh").toAbsolutePath();

    private static String fuzz(String... args) {
        StringWriter out = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        assertEquals(0, cl.execute(args), err.toString());
        return out.toString();
    }

    /** A testbed file of one testbed, the fake with its planted bugs, drawing from a space of {@code axes} (YAML lines). */
    private static Path plantedSpace(Path dir, String axes) throws Exception {
        FAKE.toFile().setExecutable(true);
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: space\n    c: " + FAKE + "\n    axes:\n" + axes);
        return tb;
    }

    @Test
    @SuppressWarnings("unchecked")
    void twoPlantedBugsUnderDifferentOptionsEndAsTwoBugsAndAResumedCampaignTriagesOnlyWhatWasLeft(@TempDir Path dir) throws Exception {
        Path tb = plantedSpace(dir, "      opt: [-O1, -O2]\n      planted: [\"\", -mplanted-wrong, -mplanted-ice]\n      vector: [\"\", -fno-tree-vectorize]\n");
        Path results = dir.resolve("results");
        // Seeds 1 to 6 draw two miscompilations under two configurations and two crashes: four findings, three signatures,
        // each miscompilation a full quick triage of its own (no blamed pass to label it by). The lane is niced: --duration
        // keeps the drain (3 minutes for a campaign bounded by its seeds alone, and for its resumption) from cutting a busy
        // machine's triage short. A reduction budget under 30 s leaves C-Vise out (it runs only when 30 s are left after the
        // IR phase); within it, 4 candidates end the IR phase, on a busy machine as on an idle one: the test checks that
        // the reduction made the test smaller, not by how much (8 candidates took the miscompilation's test from 288 lines
        // to 227 and the crash's from 135 to 43; unbounded, the IR phase built 26 and 16 and took 8 CPU-s more).
        String out = fuzz("fuzz", "--quiet", "--seeds", "1..6", "--duration", "30m", "-j", "2", "--out", results.toString(), "--testbeds", tb.toString(),
                "--policy", "src/test/resources/policies/small.yaml", "--reduce-budget", "29s", "--reduce-candidates", "4");

        List<Path> findings = BugBook.findings(results);
        assertTrue(findings.size() >= 4, "findings: " + findings);
        Map<String, Object> book = JsonFiles.parseObject(Files.readString(results.resolve("bugs.json")));
        List<Map<String, Object>> bugs = (List<Map<String, Object>>) book.get("bugs");
        assertEquals(2, bugs.size(), out);
        assertEquals(findings.size(), ((Number) book.get("findings_triaged")).intValue(), out);
        Map<String, String> kindByOption = new HashMap<>();
        int grouped = 0;
        for (Map<String, Object> b : bugs) {
            Map<String, Object> key = (Map<String, Object>) b.get("key");
            assertEquals("gcc", key.get("family"));
            List<String> options = (List<String>) key.get("options");
            assertEquals(1, options.size(), key.toString());
            kindByOption.put(options.get(0), (String) key.get("kind"));
            List<Map<String, Object>> fs = (List<Map<String, Object>>) b.get("findings");
            grouped += fs.size();
            String report = Files.readString(results.resolve((String) b.get("report")));
            for (Map<String, Object> f : fs) assertTrue(report.contains("`" + f.get("finding") + "`"), report);
            // The bug's smallest finding was reduced, then triaged again on the reduced test; its quick triage keys it still.
            Path smallest = results.resolve((String) fs.get(0).get("finding"));
            assertTrue(Files.exists(smallest.resolve(TriageLane.QUICK)), smallest.toString());
            int reducedLines = ((Number) fs.get(0).get("lines")).intValue();
            int quickLines = ((Number) JsonFiles.parseObject(Files.readString(smallest.resolve(TriageLane.QUICK))).get("lines")).intValue();
            // Smaller, not by how much: a few candidates are a small part of what the IR phase could do.
            assertTrue(reducedLines < quickLines, reducedLines + " lines reduced from " + quickLines);
            assertTrue(report.contains("The test below is " + reducedLines + " lines"), report);
            assertEquals(1, fs.stream().filter(f -> Files.exists(results.resolve((String) f.get("finding")).resolve(TriageLane.QUICK))).count(),
                    "one reduction per bug");
        }
        assertEquals(Map.of("-mplanted-wrong", "wrong-code", "-mplanted-ice", "compiler-crash"), kindByOption);
        assertEquals(findings.size(), grouped);
        long signatures = findings.stream().map(Path::getParent).distinct().count();
        assertTrue(signatures > 2, signatures + " signatures: grouping had something to do");
        assertTrue(out.contains("bugs: 2 new, 0 known ") && out.contains("triage lane: " + findings.size() + " finding(s) triaged, 0 refused and 2 bug(s) reduced"), out);

        // Into a record of known bugs, with its index in a bugs.md; then the record keeps the crash alone.
        Path record = dir.resolve("known-bugs");
        String merged = fuzz("bugs", results.toString(), "--merge", "--known-bugs", record.toString(), "--bugs-md", dir.resolve("bugs.md").toString());
        assertTrue(merged.contains("added 2 bug(s)"), merged);
        String index = Files.readString(dir.resolve("bugs.md"));
        for (Map<String, Object> b : bugs) {
            Path r = record.resolve((String) b.get("id"));
            assertTrue(Files.exists(r.resolve("bug.json")) && Files.exists(r.resolve("test.c")) && Files.exists(r.resolve("report.md")), r.toString());
            assertTrue(index.contains("known-bugs/" + b.get("id") + "/report.md"), index);
        }
        String wrongId = (String) bugs.stream().filter(b -> ((Map<String, Object>) b.get("key")).get("kind").equals("wrong-code"))
                .findFirst().orElseThrow().get("id");
        try (var s = Files.walk(record.resolve(wrongId))) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }

        // A triage killed midway leaves triage/ without triage.json: the next run does that finding again, and only it.
        // A crash's that was not reduced: its triage is a few builds, where a miscompilation's is thirty.
        Path killed = findings.stream().filter(f -> f.toString().contains("/compiler-crash/") && !Files.exists(f.resolve(TriageLane.QUICK)))
                .reduce((first, last) -> last).orElseThrow();
        Files.delete(killed.resolve("triage/triage.json"));
        Map<Path, FileTime> before = new HashMap<>();
        for (Path f : findings) if (!f.equals(killed)) before.put(f, Files.getLastModifiedTime(f.resolve("triage/triage.json")));
        String again = fuzz("fuzz", "--quiet", "--resume", "--out", results.toString(), "--known-bugs", record.toString(), "--reduce-budget", "29s", "--reduce-candidates", "4");
        assertTrue(again.contains("triage lane: 1 finding(s) triaged, 0 refused and 0 bug(s) reduced"), again);
        assertTrue(Files.exists(killed.resolve("triage/triage.json")));
        for (Map.Entry<Path, FileTime> e : before.entrySet()) {
            assertEquals(e.getValue(), Files.getLastModifiedTime(e.getKey().resolve("triage/triage.json")), "triaged twice: " + e.getKey());
        }
        assertTrue(again.contains("bugs: 1 new, 1 known "), again);
        assertTrue(again.matches("(?s).*known: [0-9a-f]{10} \\(.*compiler-crash, gcc, blamed: \\(nothing\\), options: -mplanted-ice.*"), again);
        // The known bug's reduced test in the record was built again with the campaign's compiler: it still crashes it.
        Map<String, Object> knownBug = ((List<Map<String, Object>>) JsonFiles.parseObject(Files.readString(results.resolve("bugs.json")))
                .get("bugs")).stream().filter(b -> b.get("known") != null).findFirst().orElseThrow();
        Map<String, Object> recheck = (Map<String, Object>) ((Map<String, Object>) knownBug.get("known")).get("recheck");
        assertEquals("shows it", recheck.get("result"), recheck.toString());
        assertTrue(String.valueOf(recheck.get("configuration")).startsWith(FAKE + " ") && String.valueOf(recheck.get("configuration")).contains("-mplanted-ice"),
                recheck.toString());
        assertTrue(again.contains("its reduced test: shows it on two-planted-bugs.sh"), again);
        // A record whose test no longer shows the bug (no loop: the planted crash needs one) is told apart: right on the campaign's compiler.
        String crashId = (String) ((Map<String, Object>) knownBug.get("known")).get("id");
        Path crashRecord = record.resolve(crashId);
        Files.writeString(crashRecord.resolve("test.c"), "int main(void) { return 0; }\n");
        Path rechecked = results.resolve((String) ((List<Map<String, Object>>) knownBug.get("findings")).get(0).get("finding"));
        // On the version the record shows it on, that says nothing of the bug: not rechecked, never fixed.
        Map<String, Object> same = Recheck.known(crashRecord, rechecked, 30, System.getenv("PATH"));
        assertTrue(String.valueOf(same.get("result")).startsWith("not rechecked: the record's test gets it right on "), same.toString());
        assertEquals("unknown", same.get("status"), same.toString());
        // On a compiler newer than the one the record shows it on, it is fixed.
        Map<String, Object> bugJson = JsonFiles.parseObject(Files.readString(crashRecord.resolve("bug.json")));
        assertTrue(bugJson.get("shown_on") != null, "the merged record says which version showed it: " + bugJson);
        bugJson.put("shown_on", "1.0");
        Files.writeString(crashRecord.resolve("bug.json"), JsonFiles.write(bugJson) + "\n");
        Map<String, Object> fixed = Recheck.known(crashRecord, rechecked, 30, System.getenv("PATH"));
        assertEquals("gets it right", fixed.get("result"), fixed.toString());
        assertEquals("fixed", fixed.get("status"), fixed.toString());
        assertTrue(again.matches("(?s).*new " + wrongId + " \\(.*wrong-code, gcc.*"), again);

        // yarpj report leads with the bugs.
        fuzz("report", results.toString(), "--out", dir.resolve("report.html").toString());
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.indexOf("id=\"bugs-heading\"") > 0 && html.indexOf("id=\"bugs-heading\"") < html.indexOf("id=\"findings-heading\""), "bugs first");
        assertTrue(html.contains("<p id=\"bug-count\">1 new, 1 known.</p>"), html);
        assertTrue(html.contains("<tr><td>new " + wrongId + "</td>"), html);
        assertTrue(html.contains("reduced test: shows it on two-planted-bugs.sh"), "the known bug's recheck, from bugs.json");
    }

    @Test
    void twoLanesIntoOneResultsDirectoryShareItsFindingsAndTriageNoneTwice(@TempDir Path dir) throws Exception {
        // As two shards' lanes do: one results directory, both lanes at work at once, each finding claimed by one.
        // The planted crash only: its triage takes a few builds where a miscompilation's takes thirty, and which kind a
        // finding is does not change how the lanes claim it. Four findings: a lane that lost the race for the first one
        // waits 3 s, and finds one left even if the other has triaged two by then.
        Path tb = plantedSpace(dir, "      opt: [-O1]\n      planted: [-mplanted-ice]\n");
        Path results = dir.resolve("results");
        fuzz("fuzz", "--quiet", "--seeds", "1..4", "-j", "2", "--out", results.toString(), "--testbeds", tb.toString(),
                "--policy", "src/test/resources/policies/small.yaml", "--triage-share", "0");
        List<Path> findings = BugBook.findings(results);
        assertTrue(findings.size() >= 4, "findings: " + findings);
        TriageLane a = new TriageLane(results, 1, 30, KnownBugs.NONE, 0);
        TriageLane b = new TriageLane(results, 1, 30, KnownBugs.NONE, 0);
        a.start();
        b.start();
        TriageLane.Done da = a.finish(true);
        TriageLane.Done db = b.finish(true);
        assertEquals(findings.size(), da.triaged() + db.triaged(), "every finding triaged once: " + da + " " + db);
        assertTrue(da.triaged() > 0 && db.triaged() > 0, "both lanes triaged: " + da + " " + db);
        BugBook.Book book = BugBook.read(results, KnownBugs.NONE);
        assertEquals(findings.size(), book.triaged());
        assertEquals(List.of(), book.untriaged());
    }

    @Test
    void aBugKeyKeepsTheOptionsByNameWithoutTheCompilerAndItsLevel() {
        assertEquals(List.of("-march=*", "-mllvm -force-vector-width=*"),
                BugKey.optionNames("clang-23 -O3 -mllvm -force-vector-width=8 -march=rv64gcv_zvl256b"));
        assertEquals(List.of(), BugKey.optionNames("gcc -O2"));
        assertEquals(List.of("-mllvm -force-vector-width=*"), BugKey.optionNames("clang-newest -O2 --target=aarch64-linux-gnu -mllvm -force-vector-width=8"),
                "the triple is the key's target, not an option");
        BugKey a = BugKey.of(Map.of("kind", "runtime-crash", "family", "clang", "group", "clang: LoopVectorizePass",
                "minimal", "clang -O2 -mllvm -force-vector-width=4"));
        BugKey b = BugKey.of(Map.of("kind", "wrong-code", "family", "clang", "group", "clang: LoopVectorizePass",
                "minimal", "clang -O3 -mllvm -force-vector-width=16"));
        BugKey b16 = BugKey.of(Map.of("kind", "wrong-code", "family", "clang", "group", "clang: LoopVectorizePass",
                "minimal", "clang -O2 -mllvm -force-vector-width=4"));
        assertEquals(b16, b, "one miscompilation at any forced width");
        assertEquals(b16.id(), b.id());
        assertTrue(!a.equals(b), "a crash of the program built and a wrong result are two kinds");
        assertEquals(a, BugKey.of(Map.of("kind", "wrong-code", "family", "clang", "group", "clang: LoopVectorizePass",
                "minimal", "clang -O2 -mllvm -force-vector-width=4", "symptom", BugKey.CRASH_SYMPTOM + " in one step")),
                "a wrong code whose triage followed a crash is keyed as the crash");
        BugKey c = BugKey.of(Map.of("kind", "wrong-code", "family", "clang", "group", "clang: InstCombinePass",
                "minimal", "clang -O3 -mllvm -force-vector-width=16"));
        assertTrue(!a.equals(c) && !a.id().equals(c.id()), "another pass is another bug");
        assertEquals("tree-vect", BugKey.gccCulprit("-fno-tree-ch -fno-tree-loop-optimize -fno-tree-loop-vectorize -fdisable-tree-loop -fdisable-tree-vect"));
        assertEquals("tree-vect", BugKey.gccCulprit("-fno-tree-loop-vectorize"), "the unreduced test of the same bug");
        assertEquals("tree-slp", BugKey.gccCulprit("-fno-tree-slp-vectorize -fdisable-tree-slp1"));
        assertEquals("-fdisable-tree-cunroll", BugKey.gccCulprit("-fno-tree-ch -fdisable-tree-ch -fdisable-tree-cunroll"));
        assertEquals("no single flag or pass", BugKey.gccCulprit("no single flag or pass"));
        assertEquals("", BugKey.gccCulprit(""));
    }
}
