package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/slurm/fuzz.sbatch on a real one-node Slurm cluster (scripts/slurm/one-node-test.sh
 * starts it): a two-task array against the fake miscompiling compiler, task 1 cancelled
 * midway and resubmitted, which continues its shard with --resume. Skipped, with a line
 * that says why, without Slurm and munge (CI installs them) or without root.
 */
class SlurmArrayTest {
    @Test
    void anArrayWithACancelledAndResubmittedTaskRunsEverySeedOnceAndKeepsEveryFinding(@TempDir Path dir) throws Exception {
        // The fake of two planted bugs, as scripts/two-shards.py: findings come quickly and their triage takes seconds.
        // Seeds 1 to 12 give 9 findings (3 miscompilations, 6 crashes), 6 of them in shard 1, which is cancelled after its
        // first 3 tests; seeds 13 to 20 added 4 crashes and 4 passes (13 findings in all, each triaged).
        Path fake = Path.of("src/test/resources/fake-compilers/two-planted-bugs.sh").toAbsolutePath();
        fake.toFile().setExecutable(true);
        Path tb = Files.writeString(dir.resolve("testbeds.yaml"), "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - name: space\n    c: " + fake
                + "\n    axes:\n      opt: [-O1, -O2]\n      planted: [\"\", -mplanted-wrong, -mplanted-ice]\n");
        Path results = dir.resolve("results");
        String yarpj = String.join(" ", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), "dev.yarpj.cli.Main");
        Process p = new ProcessBuilder("bash", Path.of("scripts/slurm/one-node-test.sh").toAbsolutePath().toString(),
                dir.resolve("cluster").toString(), "3", yarpj, "--", "--out", results.toString(), "--seeds", "1..12",
                "--testbeds", tb.toString(), "--policy", Path.of("src/test/resources/policies/small.yaml").toAbsolutePath().toString(),
                "--triage-share", "50", "--reduce-budget", "0").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), out);
        if (p.exitValue() == 77) {
            System.err.println("SlurmArrayTest skipped: " + out.strip());
            Assumptions.abort(out.strip());
        }
        System.out.println("SlurmArrayTest: one-node-test.sh said:\n" + out);
        assertEquals(0, p.exitValue(), out);
        // Both tasks ran; task 1 was cancelled and its resubmission resumed shard 1.
        assertTrue(out.contains(": shard 0/2\n"), out);
        assertTrue(out.contains(": shard 1/2\n") && out.contains("CANCELLED"), out);
        assertTrue(out.contains(": shard 1/2 (resumed)\n"), out);
        Map<Long, Integer> once = new HashMap<>();
        for (long s = 1; s <= 12; s++) once.put(s, 1);
        assertEquals(once, ShardedCampaignTest.doneSeeds(results), "every seed done once");
        Map<String, Integer> logged = ShardedCampaignTest.loggedFindings(results);
        assertTrue(logged.size() >= 6, "the fake compiler's planted bugs show in most tests: " + logged);
        logged.forEach((k, n) -> assertEquals(1, n, k + " logged once"));
        assertEquals(new java.util.TreeSet<>(logged.keySet()), ShardedCampaignTest.storedFindings(results));
        // Every task triages, in its own share, and between them every finding is triaged: the two planted bugs.
        java.util.regex.Matcher lanes = java.util.regex.Pattern.compile("triage lane: (\\d+) finding").matcher(out);
        List<Integer> byTask = new java.util.ArrayList<>();
        while (lanes.find()) byTask.add(Integer.parseInt(lanes.group(1)));
        assertTrue(byTask.size() >= 2 && byTask.stream().filter(n -> n > 0).count() >= 2, "two tasks' lanes triaged: " + byTask + "\n" + out);
        Map<String, Object> book = JsonFiles.parseObject(Files.readString(results.resolve("bugs.json")));
        long dirs;
        try (java.util.stream.Stream<Path> w = Files.walk(results, 4)) {
            dirs = w.filter(x -> x.getFileName().toString().equals("meta.json") && x.getNameCount() == results.getNameCount() + 4).count();
        }
        assertTrue(dirs >= 2, "findings kept whole: " + dirs);
        assertEquals(dirs, ((Number) book.get("findings_triaged")).intValue(), "every finding kept whole is triaged: " + book);
        assertEquals(List.of(), book.get("findings_refused"));
        assertEquals(2, ((List<?>) book.get("bugs")).size(), "the two planted bugs: " + book);
        List<String> shard1 = Files.readAllLines(results.resolve("shards/1/campaign.jsonl"));
        assertEquals(2, shard1.stream().filter(l -> l.startsWith("{\"event\": \"start\"")).count(), "shard 1 ran twice: " + shard1);
    }
}
