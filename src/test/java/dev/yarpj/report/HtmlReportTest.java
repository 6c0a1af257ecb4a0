package dev.yarpj.report;

import dev.yarpj.harness.JsonFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * yarpj report over a small two-shard campaign against the fake miscompiling compiler of
 * the harness tests: the page's numbers agree with the results, and Chromium (headless)
 * renders it: the DOM has the findings table and the plots, and the screenshot is not blank.
 */
class HtmlReportTest {
    private static final Path FAKES = Path.of("src/test/resources/fake-compilers").toAbsolutePath();

    @TempDir
    static Path dir;

    static Path results;

    record Result(int code, String out, String err) {}

    static Result yarpj(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return new Result(cl.execute(args), out.toString(), err.toString());
    }

    @BeforeAll
    static void campaign() throws Exception {
        FAKES.resolve("miscompile.sh").toFile().setExecutable(true);
        Path tb = dir.resolve("testbeds.yaml");
        String fake = FAKES.resolve("miscompile.sh").toString();
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: gcc-O0, c: gcc, cpp: g++, flags: [-O0]}\n"
                + "  - {name: fake-miscompile, c: " + fake + ", cpp: " + fake + ", flags: [-O2]}\n");
        results = dir.resolve("results");
        for (int k = 0; k < 2; k++) {
            Result r = yarpj("fuzz", "--quiet", "--triage-share", "0", "--shard", k + "/2", "--seeds", "1..8", "-j", "2", "--out", results.toString(),
                    "--testbeds", tb.toString());
            assertEquals(0, r.code(), r.err());
        }
    }

    @Test
    void thePageCountsWhatTheResultsHold() throws Exception {
        Path page = dir.resolve("report.html");
        Result r = yarpj("report", results.toString(), "--out", page.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("report: " + page + " (2 logs, 8 tests, "), r.out());
        assertTrue(r.out().contains("The campaign logs and the finding directories agree: "), r.out());
        String html = Files.readString(page);
        // Self-contained: no scripts, nothing loaded from elsewhere.
        assertFalse(html.contains("<script"), "no scripts");
        assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), "nothing from the network");
        assertTrue(html.contains("results shard 0") && html.contains("results shard 1"), "a row per shard");
        assertTrue(html.contains("all, from the first start to the last test"), "a total row");
        // The wrong-code signature's test count is its number of seeds in the results.
        Matcher m = Pattern.compile("wrong code on fake-miscompile<br><span class=\"muted\">([0-9a-f]+)</span></td><td class=\"n\">(\\d+)</td>")
                .matcher(html);
        assertTrue(m.find(), "the wrong-code finding has a row");
        long stored = dev.yarpj.harness.FindingStore.hits(results.resolve("wrong-code").resolve(m.group(1))).size();
        assertEquals(stored, Long.parseLong(m.group(2)));
        assertTrue(stored >= 4, "most tests miscompiled: " + stored);
        assertTrue(html.contains("/repro.sh\">"), "links to repro.sh");
        assertEquals(5, count(html, "<svg"), "five plots: over time, outcomes, compile times, trip counts, idioms");
        // Eight tests, two testbeds, every build ran once (no emulator settings here).
        assertTrue(html.contains("<p id=\"runs\">Runs: 16 of 16 builds that ran (1.00 per build, "), html);
    }

    @Test
    void chromiumRendersTheFindingsTableAndANonBlankPage() throws Exception {
        String chromium = null;
        for (String c : List.of("chromium", "chromium-browser", "google-chrome")) {
            if (new ProcessBuilder("sh", "-c", "command -v " + c).start().waitFor() == 0) {
                chromium = c;
                break;
            }
        }
        if (chromium == null) {
            String why = "Chromium is not installed (apt-get install chromium)";
            System.err.println("HtmlReportTest.chromiumRendersTheFindingsTableAndANonBlankPage skipped: " + why);
            Assumptions.abort(why);
        }
        Path page = dir.resolve("rendered.html");
        assertEquals(0, yarpj("report", results.toString(), "--out", page.toString()).code());
        List<String> headless = List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--user-data-dir=" + dir.resolve("chromium-profile"));
        List<String> dump = new ArrayList<>(headless);
        dump.addAll(List.of("--dump-dom", page.toUri().toString()));
        Process p = new ProcessBuilder(dump).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String dom = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertTrue(dom.contains("<table id=\"findings\">"), "the rendered DOM has the findings table");
        assertTrue(dom.contains("wrong code on fake-miscompile"), "and the finding");
        assertTrue(count(dom, "<svg") >= 5, "and the plots");
        Path png = dir.resolve("report.png");
        List<String> shot = new ArrayList<>(headless);
        shot.addAll(List.of("--window-size=1200,1600", "--screenshot=" + png, page.toUri().toString()));
        Process s = new ProcessBuilder(shot).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(s.waitFor(120, TimeUnit.SECONDS));
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(1200, img.getWidth());
        Set<Integer> colours = new HashSet<>();
        long dark = 0;
        for (int y = 0; y < img.getHeight(); y += 3) {
            for (int x = 0; x < img.getWidth(); x += 3) {
                int rgb = img.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                if (((rgb >> 16) & 0xFF) + ((rgb >> 8) & 0xFF) + (rgb & 0xFF) < 200) dark++;
            }
        }
        assertTrue(colours.size() > 20 && dark > 500, "not blank: " + colours.size() + " colours, " + dark + " dark samples");
    }

    @Test
    void slowCompilesHaveTheirOwnLineAndAreNotFindings() throws Exception {
        Path copy = dir.resolve("slow");
        copyTree(results, copy);
        Path page = dir.resolve("slow.html");
        Result before = yarpj("report", copy.toString(), "--out", page.toString());
        assertEquals(0, before.code(), before.err());
        assertTrue(Files.readString(page).contains("<p id=\"slow-compiles\">Slow compiles (past the compile limit; not findings): none.</p>"));
        // Two slow compiles of one test and one of another, as the harness logs them.
        Path log = copy.resolve("shards/0/campaign.jsonl");
        Files.writeString(log, "{\"seed\": 901, \"testbed\": \"gcc-O3\", \"outcome\": \"slow-compile\", \"compile_s\": 60.000, \"run_s\": 0.000, \"limit\": \"time\"}\n"
                + "{\"seed\": 901, \"testbed\": \"gcc-O2\", \"outcome\": \"slow-compile\", \"compile_s\": 60.000, \"run_s\": 0.000, \"limit\": \"time\"}\n"
                + "{\"event\": \"done\", \"seed\": 901, \"t\": 1.000, \"findings\": []}\n"
                + "{\"seed\": 902, \"testbed\": \"gcc-O3\", \"outcome\": \"slow-compile\", \"compile_s\": 61.000, \"run_s\": 0.000, \"limit\": \"time\"}\n"
                + "{\"event\": \"done\", \"seed\": 902, \"t\": 2.000, \"findings\": []}\n", java.nio.file.StandardOpenOption.APPEND);
        Result r = yarpj("report", copy.toString(), "--out", page.toString());
        assertEquals(0, r.code(), r.err());
        String html = Files.readString(page);
        assertTrue(html.contains("Slow compiles (past the compile limit; not findings): 3 runs in 2 tests, 3&nbsp;min&nbsp;01&nbsp;s of compiling; by testbed: gcc-O2 1, gcc-O3 2."),
                html.substring(html.indexOf("slow-compiles")));
        // The findings are the same as before: slow compiles add no row and no signature.
        assertEquals(before.out().replaceAll("\\(.*", ""), r.out().replaceAll("\\(.*", ""));
        assertFalse(html.contains("compile-hang"), "no compile-hang finding");
    }

    @Test
    void theDrawnConfigurationsAreCountedPerAlternativeWithTheirFindings() throws Exception {
        Path copy = dir.resolve("spaces");
        copyTree(results, copy);
        Path page = dir.resolve("spaces.html");
        assertEquals(0, yarpj("report", copy.toString(), "--out", page.toString()).code());
        assertFalse(Files.readString(page).contains("Configurations drawn"), "no testbed had a configuration space");
        // Three runs of a testbed with a space, as the harness logs them: two drew -O3, one of which was wrong code.
        String row = "{\"seed\": %d, \"testbed\": \"gcc-space\", \"outcome\": \"%s\", \"compile_s\": 0.1, \"run_s\": 0.0,"
                + " \"options\": {\"opt\": \"%s\", \"lto\": \"%s\"}}\n";
        Files.writeString(copy.resolve("shards/0/campaign.jsonl"), String.format(row, 911, "pass", "-O2", "(none)")
                + String.format(row, 912, "wrong-code", "-O3", "-flto") + String.format(row, 913, "pass", "-O3", "(none)")
                + "{\"event\": \"done\", \"seed\": 913, \"t\": 3.000, \"findings\": []}\n", java.nio.file.StandardOpenOption.APPEND);
        assertEquals(0, yarpj("report", copy.toString(), "--out", page.toString()).code());
        String html = Files.readString(page);
        assertTrue(html.contains("<h2 id=\"configurations\">Configurations drawn</h2>"), html);
        assertTrue(html.contains("<tr><td>gcc-space</td><td>opt</td><td>-O3</td><td class=\"n\">2</td><td class=\"n\">1</td></tr>"), html);
        assertTrue(html.contains("<tr><td>gcc-space</td><td>lto</td><td>(none)</td><td class=\"n\">2</td><td class=\"n\">0</td></tr>"), html);
    }

    @Test
    void aTornLogLineIsSkippedAndWholeLinesAreRead() {
        Map<String, Object> m = JsonFiles.parseObject("{\"event\": \"done\", \"seed\": 7, \"t\": 1.500, \"findings\": [{\"kind\": \"wrong-code\"}], \"x\": null}");
        assertEquals(7L, m.get("seed"));
        assertEquals(1.5, m.get("t"));
        assertEquals(List.of(Map.of("kind", "wrong-code")), m.get("findings"));
        assertNull(JsonFiles.parseObject("{\"event\": \"done\", \"seed\": 7, \"t\": 1.5"));
        assertNull(JsonFiles.parseObject("not json"));
    }

    @Test
    void aFindingRecordedWithoutItsLogLineIsReportedAsDisagreement() throws Exception {
        Path copy = dir.resolve("tampered");
        copyTree(results, copy);
        try (var s = Files.walk(copy.resolve("wrong-code"))) {
            Path record = s.filter(p -> p.getFileName().toString().equals("shard-0.txt")).findFirst().orElseThrow();
            Files.writeString(record, "424242\n", java.nio.file.StandardOpenOption.APPEND);
        }
        Result r = yarpj("report", copy.toString(), "--out", dir.resolve("tampered.html").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("disagree: stored, not logged: 1 (wrong-code/"), r.out());
        assertTrue(r.out().contains(" 424242; a test killed before its log line"), r.out());
    }

    @Test
    void signaturesThatTriageBlamesOnOnePassAreCountedAsOneBug() throws Exception {
        Path copy = dir.resolve("triaged");
        copyTree(results, copy);
        Path sig;
        try (var s = Files.list(copy.resolve("wrong-code"))) {
            sig = s.findFirst().orElseThrow();
        }
        // A second signature of the same bug (the harness told them apart by testbed), and a third, untriaged.
        Path twin = copy.resolve("wrong-code").resolve("0123456789ab");
        copyTree(sig, twin);
        Files.writeString(twin.resolve("signature.txt"), "wrong code on fake-miscompile-native\n");
        copyTree(sig, copy.resolve("wrong-code").resolve("ba9876543210"));
        Files.writeString(copy.resolve("wrong-code").resolve("ba9876543210").resolve("signature.txt"), "wrong code on fake-other\n");
        for (Path s : List.of(sig, twin)) {
            try (var ex = Files.list(s)) {
                Path example = ex.filter(p -> p.getFileName().toString().matches("\\d+")).findFirst().orElseThrow();
                Files.createDirectories(example.resolve("triage"));
                Files.writeString(example.resolve("triage/triage.json"), "{\"kind\": \"wrong-code\", \"group\": \"gcc: -fdisable-tree-fake\"}\n");
            }
        }
        Path page = dir.resolve("triaged.html");
        Result r = yarpj("report", copy.toString(), "--out", page.toString());
        assertEquals(0, r.code(), r.err());
        // The fake miscompiler's changed constants may also crash a test: signatures of other kinds, none triaged.
        long others = otherKindSignatures(copy);
        String bugs = "By yarpj triage's blamed pass, the 2 triaged signatures are 1 distinct bug: 0 open on the newest compilers, 0 fixed there,"
                + " 1 not checked against them; " + (1 + others) + " not triaged.";
        assertTrue(r.out().contains(bugs), r.out());
        String html = Files.readString(page);
        assertTrue(html.contains((3 + others) + " signatures, hit by ") && html.contains(bugs), html);
        assertEquals(2, count(html, "<td>gcc: -fdisable-tree-fake</td>"), "each triaged signature names its bug");
        assertEquals(1 + others, count(html, "not triaged</span>"));
        assertEquals(2, count(html, "not checked</span>"), "triage of an older yarpj did not check the newest compilers");
    }

    @Test
    void bugsOpenOnTheNewestCompilersAreCountedApartFromFixedOnes() throws Exception {
        Path copy = dir.resolve("standing");
        copyTree(results, copy);
        Path sig;
        try (var s = Files.list(copy.resolve("wrong-code"))) {
            sig = s.findFirst().orElseThrow();
        }
        List<Path> sigs = new ArrayList<>(List.of(sig));
        for (String id : List.of("0123456789ab", "ba9876543210")) {
            copyTree(sig, copy.resolve("wrong-code").resolve(id));
            Files.writeString(copy.resolve("wrong-code").resolve(id).resolve("signature.txt"), "wrong code on fake-" + id + "\n");
            sigs.add(copy.resolve("wrong-code").resolve(id));
        }
        // Two signatures of a gcc bug, one of whose examples was triaged before trunk was installed
        // (it is the same bug: open); a clang bug fixed in the newest release.
        String[] json = {
            "{\"group\": \"gcc: -fdisable-tree-fake\", \"status\": \"open\", \"standing\": \"open on GCC trunk (gcc-trunk 17.0.0-20261020)\"}",
            "{\"group\": \"gcc: -fdisable-tree-fake\", \"status\": \"unknown\", \"standing\": \"unknown: GCC trunk (gcc-trunk 17.0.0-20261020) cannot build the test\"}",
            "{\"group\": \"clang: FakePass\", \"status\": \"fixed\", \"standing\": \"fixed on the newest clang release installed (clang-23 23.1.4)\"}"};
        for (int i = 0; i < 3; i++) {
            try (var ex = Files.list(sigs.get(i))) {
                Path example = ex.filter(p -> p.getFileName().toString().matches("\\d+")).findFirst().orElseThrow();
                Files.createDirectories(example.resolve("triage"));
                Files.writeString(example.resolve("triage/triage.json"), json[i] + "\n");
            }
        }
        Path page = dir.resolve("standing.html");
        Result r = yarpj("report", copy.toString(), "--out", page.toString());
        assertEquals(0, r.code(), r.err());
        String bugs = "By yarpj triage's blamed pass, the 3 triaged signatures are 2 distinct bugs: 1 open on the newest compilers, 1 fixed there"
                + (otherKindSignatures(copy) == 0 ? "." : "; " + otherKindSignatures(copy) + " not triaged.");
        assertTrue(r.out().contains(bugs), r.out());
        String html = Files.readString(page);
        assertTrue(html.contains(bugs), html);
        assertTrue(html.contains("<th>on the newest compilers</th>"), html);
        assertEquals(1, count(html, "<span class=\"open\">open on GCC trunk (gcc-trunk 17.0.0-20261020)</span>"), html);
        assertEquals(1, count(html, "<span class=\"fixed\">fixed on the newest clang release installed (clang-23 23.1.4)</span>"), html);
    }

    /** Signatures of kinds other than wrong-code in a results directory. */
    private static long otherKindSignatures(Path results) throws Exception {
        long n = 0;
        for (String kind : List.of("runtime-crash", "runtime-hang", "compiler-crash", "compile-hang", "program-rejected", "generator-failure")) {
            if (!Files.isDirectory(results.resolve(kind))) continue;
            try (var s = Files.list(results.resolve(kind))) {
                n += s.filter(p -> Files.exists(p.resolve("signature.txt"))).count();
            }
        }
        return n;
    }

    private static void copyTree(Path from, Path to) throws Exception {
        try (var s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }

    @Test
    void aDirectoryWithoutACampaignIsAOneLineError() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Result r = yarpj("report", empty.toString());
        assertEquals(2, r.code());
        assertEquals("yarpj: " + empty + " holds no campaign (no campaign.json or campaign.jsonl): give yarpj fuzz's --out", r.err().strip());
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) n++;
        return n;
    }
}
