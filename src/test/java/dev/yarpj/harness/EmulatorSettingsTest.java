package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
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
 * One build, a run per emulator setting: a build for any vector length runs at every length
 * its drawn alternative allows, and a finding names the lengths it fails at. A fake emulator
 * (fake-compilers/emulator-wrong-at-256.sh) runs the programs here, wrong at vlen=256 only.
 */
class EmulatorSettingsTest {
    static final Path EMULATOR = Path.of("src/test/resources/fake-compilers/emulator-wrong-at-256.sh").toAbsolutePath();

    private static Path testbeds(Path dir, String cpu) throws Exception {
        EMULATOR.toFile().setExecutable(true);
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, "target:\n  name: fake-vectors\n  run: [" + EMULATOR + ", -cpu, \"" + cpu + "\"]\n"
                + "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: scalable\n    c: gcc\n    axes:\n"
                + "      opt: [{flags: -O1, vlen: [128, 256, 512]}]\n");
        return tb;
    }

    private static String fuzz(Path tb, Path results, String seeds) {
        StringWriter out = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute("fuzz", "--quiet", "--triage-share", "0", "--seeds", seeds, "-j", "1", "--out", results.toString(), "--testbeds", tb.toString(),
                "--policy", "src/test/resources/policies/tiny.yaml"));
        return out.toString();
    }

    @Test
    void aBuildRunsAtEveryLengthItsAlternativeAllowsAndAFindingNamesTheLengthsItFailsAt(@TempDir Path dir) throws Exception {
        Path results = dir.resolve("results");
        fuzz(testbeds(dir, "vlen={vlen}"), results, "1..3");
        for (String line : Files.readAllLines(results.resolve("campaign.jsonl"))) {
            Map<String, Object> row = JsonFiles.parseObject(line);
            if (!"scalable".equals(row.get("testbed"))) continue;
            assertEquals(3L, ((Number) row.get("runs")).longValue(), line);
            assertEquals("wrong-code", row.get("outcome"), line);
            assertEquals(List.of("vlen=256"), row.get("failing_at"), line);
        }
        Map<String, Object> summary = JsonFiles.parseObject(Files.readString(results.resolve("summary.json")));
        @SuppressWarnings("unchecked")
        Map<String, Object> runs = (Map<String, Object>) summary.get("runs");
        assertEquals(3.0, ((Number) runs.get("runs_per_build")).doubleValue(), 1e-9, summary.toString());

        List<Path> findings = new ArrayList<>();
        try (Stream<Path> s = Files.walk(results.resolve("wrong-code"), 2)) {
            s.filter(p -> p.getFileName().toString().matches("\\d+")).sorted().forEach(findings::add);
        }
        assertEquals(1, findings.stream().map(Path::getParent).distinct().count(), "one signature: the length is not part of it");
        Finding f = Finding.read(findings.get(0));
        assertFalse(f.signature().contains("vlen"), f.signature());
        // The finding runs where it showed: its emulator, last command and repro.sh are at vlen=256.
        assertEquals(List.of(EMULATOR.toString(), "-cpu", "vlen=256"), f.emulator());
        assertEquals(List.of(EMULATOR.toString(), "-cpu", "vlen=256"), f.commands().get(f.commands().size() - 1).subList(0, 3));
        String meta = Files.readString(f.dir().resolve("meta.json"));
        assertTrue(meta.contains("\"settings\": {\"scalable\": {\"failing\": [\"vlen=256\"], \"passing\": [\""), meta);
        Process repro = new ProcessBuilder("bash", f.dir().resolve("repro.sh").toString()).redirectErrorStream(true).start();
        String said = new String(repro.getInputStream().readAllBytes());
        assertTrue(repro.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, repro.exitValue(), said);
        assertTrue(said.startsWith("reproduced: wrong code"), said);
    }

    @Test
    void runsBeyondABuildsFirstStopWhileRunningTakesMoreThanItsShareOfTheCampaign(@TempDir Path dir) throws Exception {
        // Each run spends about half a CPU-second, several times the compile of a tiny test: past the share
        // after the first build, so builds run at their drawn length only and say how many were left.
        Path results = dir.resolve("results");
        fuzz(testbeds(dir, "vlen={vlen},spin"), results, "1..3");
        int rows = 0;
        for (String line : Files.readAllLines(results.resolve("campaign.jsonl"))) {
            Map<String, Object> row = JsonFiles.parseObject(line);
            if (!"scalable".equals(row.get("testbed"))) continue;
            rows++;
            assertEquals(1L, ((Number) row.get("runs")).longValue(), line);
            assertEquals(2L, ((Number) row.get("runs_left")).longValue(), line);
        }
        assertEquals(3, rows);
    }
}
