package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Campaigns split into shards that run at once, as separate processes, into one results
 * directory (as the tasks of a Slurm array do), and resuming with the campaign's own
 * command line repeated.
 */
class ShardedCampaignTest {
    private static final Pattern DONE = Pattern.compile("\"event\": \"done\", \"seed\": (\\d+)");
    /** The reducer tests' policy (test resources, policies/tiny.yaml): one small loop, for tests of the seeds' bookkeeping only. */
    private static final String TINY = Path.of("src/test/resources/policies/tiny.yaml").toAbsolutePath().toString();
    private static final Pattern FINDING = Pattern.compile("\\{\"kind\": \"([a-z-]+)\", \"signature\": \"([0-9a-f]+)\"}");

    static Process fuzzProcess(Path log, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // The JVM options of the yarpj launcher, as a user's shards run.
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "dev.yarpj.cli.Main", "fuzz", "--quiet", "--triage-share", "0"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** Every done line of every log under the results directory: seed to how many times it was done. */
    static Map<Long, Integer> doneSeeds(Path results) throws Exception {
        Map<Long, Integer> m = new HashMap<>();
        for (Path log : logs(results)) {
            for (String line : Files.readAllLines(log)) {
                Matcher d = DONE.matcher(line);
                if (d.find()) m.merge(Long.parseLong(d.group(1)), 1, Integer::sum);
            }
        }
        return m;
    }

    static List<Path> logs(Path results) throws Exception {
        try (Stream<Path> s = Files.walk(results)) {
            return s.filter(p -> p.getFileName().toString().equals("campaign.jsonl")).sorted().toList();
        }
    }

    /** (kind/signature, seed) pairs that the logs' done lines name, each with how often. */
    static Map<String, Integer> loggedFindings(Path results) throws Exception {
        Map<String, Integer> m = new HashMap<>();
        for (Path log : logs(results)) {
            for (String line : Files.readAllLines(log)) {
                Matcher d = DONE.matcher(line);
                if (!d.find()) continue;
                Matcher f = FINDING.matcher(line);
                while (f.find()) m.merge(f.group(1) + "/" + f.group(2) + " " + d.group(1), 1, Integer::sum);
            }
        }
        return m;
    }

    /** (kind/signature, seed) pairs in the finding directories' seed records, merged as readers merge them. */
    static Set<String> storedFindings(Path results) throws Exception {
        Set<String> s = new TreeSet<>();
        for (Outcome o : Outcome.values()) {
            Path k = results.resolve(o.dir);
            if (!Files.isDirectory(k)) continue;
            try (Stream<Path> sigs = Files.list(k)) {
                for (Path sig : sigs.toList()) for (long seed : FindingStore.hits(sig)) s.add(o.dir + "/" + sig.getFileName() + " " + seed);
            }
        }
        return s;
    }

    @Test
    void concurrentShardsRunEverySeedOnceAndRecordEveryFindingOnce(@TempDir Path dir) throws Exception {
        Path tb = FuzzHarnessTest.testbeds(dir, "miscompile");
        Path results = dir.resolve("results");
        List<Process> shards = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            shards.add(fuzzProcess(dir.resolve("shard" + k + ".log"), "--policy", FuzzHarnessTest.SMALL, "--shard", k + "/3", "--seeds", "101..109", "-j", "1",
                    "--out", results.toString(), "--testbeds", tb.toString()));
        }
        for (int k = 0; k < 3; k++) {
            assertTrue(shards.get(k).waitFor(300, TimeUnit.SECONDS));
            assertEquals(0, shards.get(k).exitValue(), Files.readString(dir.resolve("shard" + k + ".log")));
        }
        Map<Long, Integer> done = doneSeeds(results);
        Map<Long, Integer> once = new HashMap<>();
        for (long s = 101; s <= 109; s++) once.put(s, 1);
        assertEquals(once, done, "every seed of 101..109 done once, by one shard");
        for (int k = 0; k < 3; k++) {
            for (String line : Files.readAllLines(results.resolve("shards/" + k + "/campaign.jsonl"))) {
                Matcher d = DONE.matcher(line);
                if (d.find()) assertEquals(k, (Long.parseLong(d.group(1)) - 101) % 3, "shard " + k + " ran seed " + d.group(1));
            }
        }
        // The logs and the finding directories agree line by line: no finding lost, none counted twice.
        Map<String, Integer> logged = loggedFindings(results);
        assertTrue(logged.size() >= 6, "the fake compiler miscompiles most tests: " + logged);
        logged.forEach((k, n) -> assertEquals(1, n, k + " logged once"));
        assertEquals(new TreeSet<>(logged.keySet()), storedFindings(results));
        // The shards' records are separate files: nothing was written by two processes.
        try (Stream<Path> s = Files.walk(results.resolve("wrong-code"))) {
            List<Path> records = s.filter(p -> p.getParent().getFileName().toString().equals("seeds")).toList();
            assertTrue(records.stream().allMatch(p -> p.getFileName().toString().matches("shard-[012]\\.txt")), records.toString());
        }
    }

    @Test
    void shardsOfACampaignWithAPickedSeedAgreeOnIt(@TempDir Path dir) throws Exception {
        Path tb = FuzzHarnessTest.testbeds(dir);
        Path results = dir.resolve("results");
        // The tiny policy: only gcc -O0 builds the tests, and what is checked is which seeds ran.
        Process a = fuzzProcess(dir.resolve("a.log"), "--policy", TINY, "--shard", "0/2", "--count", "4", "--out", results.toString(), "--testbeds", tb.toString());
        Process b = fuzzProcess(dir.resolve("b.log"), "--policy", TINY, "--shard", "1/2", "--count", "4", "--out", results.toString(), "--testbeds", tb.toString());
        assertTrue(a.waitFor(300, TimeUnit.SECONDS) && b.waitFor(300, TimeUnit.SECONDS));
        assertEquals(0, a.exitValue(), Files.readString(dir.resolve("a.log")));
        assertEquals(0, b.exitValue(), Files.readString(dir.resolve("b.log")));
        Map<Long, Integer> done = doneSeeds(results);
        assertEquals(4, done.size(), "four seeds between them: " + done);
        long first = done.keySet().stream().min(Long::compare).orElseThrow();
        assertEquals(Set.of(first, first + 1, first + 2, first + 3), done.keySet());
        assertTrue(done.values().stream().allMatch(n -> n == 1), done.toString());
        // The shared settings are JSON, as their name says, with the picked seed in them.
        String settings = Files.readString(results.resolve("campaign.json"));
        assertTrue(settings.startsWith("{\"lang\": \"c\", ") && settings.contains("\"first_seed\": " + first + ", "), settings);
    }

    @Test
    void resumeTakesTheCampaignsOwnCommandLineAndRefusesADifferentSetting(@TempDir Path dir) throws Exception {
        Path tb = FuzzHarnessTest.testbeds(dir);
        String out = dir.resolve("r").toString();
        // The tiny policy: only gcc -O0 builds the tests, and what is checked is the settings a resumed run takes.
        var first = FuzzHarnessTest.fuzz("--policy", TINY, "--lang=c", "-j", "2", "--seeds", "88001..88004", "--out", out, "--testbeds", tb.toString());
        assertEquals(0, first.code(), first.err());
        var again = FuzzHarnessTest.fuzz("--policy", TINY, "--lang=c", "-j", "2", "--seeds", "88001..88004", "--out", out, "--testbeds", tb.toString(), "--resume");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("tests: 0"), "nothing left to run: " + again.out());
        var other = FuzzHarnessTest.fuzz("--lang=cpp", "--seeds", "88001..88005", "--out", out, "--resume");
        assertEquals(2, other.code());
        assertEquals("yarpj: --lang, --seeds differ from the campaign in " + out + ": a campaign keeps its settings (see "
                + Path.of(out, "campaign.json") + ")", other.err().strip());
        var sharded = FuzzHarnessTest.fuzz("--shard", "1/2", "--out", out, "--resume");
        assertEquals(2, sharded.code());
        assertTrue(sharded.err().contains("not sharded"), sharded.err());
    }

    @Test
    void aShardRequeuedWithResumeFinishesItsOwnSeedsOnly(@TempDir Path dir) throws Exception {
        // Shard 1/2 runs seeds 2, 4, 6, 8, 10: 2 and 4 run through, 6 blocks until the shard is killed.
        FuzzHarnessTest.Gate gate = FuzzHarnessTest.Gate.closed(dir, 6);
        Path results = dir.resolve("results");
        String[] shard1 = {"--policy", FuzzHarnessTest.SMALL, "--shard", "1/2", "--seeds", "1..10", "-j", "1", "--out", results.toString(),
            "--testbeds", gate.testbeds().toString()};
        Process p = fuzzProcess(dir.resolve("first.log"), shard1);
        gate.awaitBlocked(6);
        p.destroyForcibly();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        gate.open();
        assertEquals(Map.of(2L, 1, 4L, 1), doneSeeds(results));
        var again = FuzzHarnessTest.fuzz(shard1);
        assertEquals(2, again.code());
        assertTrue(again.err().contains("already ran"), again.err());
        List<String> resume = new ArrayList<>(List.of(shard1));
        resume.add("--resume");
        var r = FuzzHarnessTest.fuzz(resume.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        assertEquals(Map.of(2L, 1, 4L, 1, 6L, 1, 8L, 1, 10L, 1), doneSeeds(results));
        loggedFindings(results).forEach((k, n) -> assertEquals(1, n, k));
        assertEquals(new TreeSet<>(loggedFindings(results).keySet()), storedFindings(results));
    }
}
