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
 * A compiler wrong only where a loop runs 9 times (fake-compilers/miscompile-at-trip-9.sh):
 * seed 25's loops run 9 times only in its input set 2, so with input sets the campaign finds
 * it, its finding names that set and its reduction keeps it; with one input set the same seed
 * passes.
 */
class InputSetsCampaignTest {
    static final Path FAKE = Path.of("src/test/resources/fake-compilers/miscompile-at-trip-9.sh").toAbsolutePath();

    private static Path campaign(Path dir, String name, String... policy) throws Exception {
        FAKE.toFile().setExecutable(true);
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: fake-trip-9, c: " + FAKE + ", flags: [-O1]}\n");
        Path results = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("fuzz", "--quiet", "--triage-share", "0", "--seeds", "25..25", "-j", "1", "--out", results.toString(),
                "--testbeds", tb.toString()));
        args.addAll(List.of(policy));
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute(args.toArray(String[]::new)));
        return results;
    }

    @Test
    void aBugAtOneTripCountIsFoundThroughTheInputSetThatRunsItNamedInTheFindingAndKeptByItsReduction(@TempDir Path dir) throws Exception {
        Path results = campaign(dir, "sets");
        List<Path> findings = new ArrayList<>();
        try (Stream<Path> s = Files.walk(results.resolve("wrong-code"), 2)) {
            s.filter(p -> p.getFileName().toString().equals("25")).forEach(findings::add);
        }
        assertEquals(1, findings.size(), "seed 25 is a wrong-code finding");
        Finding f = Finding.read(findings.get(0));
        assertEquals(Map.of("fake-trip-9", List.of(2L)), f.meta().get("input_sets_failing"), f.meta().toString());
        assertEquals(4, Files.readString(f.dir().resolve("expected.txt")).strip().lines().count());
        Map<String, Object> summary = JsonFiles.parseObject(Files.readString(results.resolve("summary.json")));
        assertEquals(4.0, ((Number) ((Map<?, ?>) summary.get("runs")).get("calls_per_build")).doubleValue(), 1e-9, summary.toString());
        Process repro = new ProcessBuilder("bash", f.dir().resolve("repro.sh").toString()).redirectErrorStream(true).start();
        String said = new String(repro.getInputStream().readAllBytes());
        assertTrue(repro.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, repro.exitValue(), said);

        // The IR reducer's first step keeps the planned set and the failing one.
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        assertEquals(0, cl.execute("reduce", f.dir().toString(), "--ir-only", "--candidates", "8", "-j", "1"));
        Path ir = f.dir().resolve("reduced/ir");
        assertEquals(2, Files.readString(ir.resolve("expected.txt")).strip().lines().count());
        assertTrue(Files.readString(ir.resolve("edits.json")).contains("keep input set 2 beside the planned one"),
                Files.readString(ir.resolve("edits.json")));

        Path once = campaign(dir, "one-set", "--policy", "src/test/resources/policies/one-input-set.yaml");
        assertFalse(Files.exists(once.resolve("wrong-code")), "with one input set the loops never run 9 times");
        assertTrue(Files.readString(once.resolve("campaign.jsonl")).contains("\"testbed\": \"fake-trip-9\", \"outcome\": \"pass\""));
    }
}
