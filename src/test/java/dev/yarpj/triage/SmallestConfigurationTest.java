package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import dev.yarpj.harness.Finding;
import dev.yarpj.harness.JsonFiles;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compiler that miscompiles under one option of a configuration space only: a campaign
 * that draws from the space finds it on exactly the configurations with that option, says
 * so per axis, and triage's smallest configuration is that option alone.
 */
class SmallestConfigurationTest {
    static final Path FAKE = Path.of("src/test/resources/fake-compilers/miscompile-under-option.sh").toAbsolutePath();

    @Test
    void aBugUnderOneOptionOfASpaceIsFoundAndItsSmallestConfigurationIsThatOption(@TempDir Path dir) throws Exception {
        for (String f : List.of("miscompile-under-option.sh", "miscompile.sh")) FAKE.resolveSibling(f).toFile().setExecutable(true);
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: space\n    c: " + FAKE + "\n    axes:\n"
                + "      opt: [-O1, -O2]\n      planted: [\"\", -mplanted-bug]\n      vector: [\"\", -fno-tree-vectorize]\n      lto: [\"\", -flto]\n");
        Path results = dir.resolve("results");
        StringWriter out = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute("fuzz", "--quiet", "--triage-share", "0", "--seeds", "1..8", "-j", "2", "--out", results.toString(), "--testbeds", tb.toString(),
                "--policy", "src/test/resources/policies/small.yaml"));

        // Every run that drew the option is wrong code; every other passes.
        int drew = 0;
        for (String line : Files.readAllLines(results.resolve("campaign.jsonl"))) {
            Map<String, Object> row = JsonFiles.parseObject(line);
            if (!(row.get("options") instanceof Map<?, ?> options)) continue;
            boolean planted = "-mplanted-bug".equals(options.get("planted"));
            if (planted) drew++;
            // (A run that drew it may pass: a program with no constant the fake changes is built right.)
            if (!planted) assertEquals("pass", row.get("outcome"), line);
        }
        assertTrue(drew >= 2, "seeds 1 to 8 drew -mplanted-bug " + drew + " times");
        assertTrue(out.toString().contains("configurations drawn on space (runs/findings):"), out.toString());
        assertTrue(out.toString().matches("(?s).*  planted: \\(none\\) \\d+/0; -mplanted-bug \\d+/[1-9]\\d*\\n.*"), out.toString());

        List<Path> findings = new ArrayList<>();
        try (Stream<Path> s = Files.walk(results.resolve("wrong-code"), 2)) {
            s.filter(p -> p.getFileName().toString().matches("\\d+")).sorted().forEach(findings::add);
        }
        assertFalse(findings.isEmpty());
        Path finding = findings.get(0);
        Finding f = Finding.read(finding);
        // The drawn options are in the signature, meta.json and the commands repro.sh runs.
        assertTrue(f.signature().startsWith("wrong code on space [-O"), f.signature());
        assertTrue(f.signature().contains("-mplanted-bug"), f.signature());
        String meta = Files.readString(finding.resolve("meta.json"));
        assertTrue(meta.contains("\"options\": {\"opt\": \"-O"), meta);
        assertTrue(Files.readString(finding.resolve("repro.sh")).contains("-mplanted-bug"));
        Process repro = new ProcessBuilder("bash", finding.resolve("repro.sh").toString()).redirectErrorStream(true).start();
        String said = new String(repro.getInputStream().readAllBytes());
        assertTrue(repro.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, repro.exitValue(), said);

        // Triage's smallest configuration: the lowest level and the option alone.
        Path work = Files.createDirectories(finding.resolve("triage"));
        Files.writeString(work.resolve("merged.c"), f.merged()); // the name the fake miscompiles
        Symptom s = new Symptom(Symptom.Kind.WRONG_CODE, work, "merged.c", "gcc", null, 30, List.of());
        assertTrue(s.shows(f.compileCommand()));
        assertEquals(List.of(FAKE.toString(), "-O0", "-mplanted-bug"), Triage.minimize(s, f.compileCommand()));
    }

    /** A report must reproduce on another machine: -march=native becomes the lowest named level that shows the bug. */
    @Test
    void marchNativeInTheSmallestConfigurationBecomesTheLowestNamedLevelThatShowsTheBug(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(List.of("amd64", "x86_64").contains(System.getProperty("os.arch")),
                "the named levels tried here are x86-64's");
        Path fake = FAKE.resolveSibling("miscompile-from-avx2.sh");
        for (String f : List.of("miscompile-from-avx2.sh", "miscompile.sh")) FAKE.resolveSibling(f).toFile().setExecutable(true);
        Files.writeString(dir.resolve("merged.c"), String.join("\n", "#include <stdio.h>", "int a[8];", "void test(void) {",
                "    for (int i = 0; i < 8; i++)", "        a[i] = 3;", "}", "int main(void) { test(); printf(\"%d\\n\", a[5]); return 0; }", ""));
        Symptom s = new Symptom(Symptom.Kind.WRONG_CODE, dir, "merged.c", "gcc", null, 30, List.of());
        assertEquals(List.of(fake.toString(), "-O0", "-march=x86-64-v3"),
                Triage.minimize(s, List.of(fake.toString(), "-O3", "-march=native", "-funroll-loops")));
        // An option the bug does not need still goes, native or not.
        assertEquals(List.of(FAKE.toString(), "-O0", "-mplanted-bug"),
                Triage.minimize(s, List.of(FAKE.toString(), "-O2", "-march=native", "-mplanted-bug")));
    }

    @Test
    void anOptionWithItsValueWordGoesOrStaysWithIt() {
        assertEquals(List.of(List.of("-O3"), List.of("-mllvm", "-force-vector-width=4"), List.of("--param", "x=1"), List.of("-flto")),
                Triage.options(List.of("-O3", "-mllvm", "-force-vector-width=4", "--param", "x=1", "-flto")));
    }
}
