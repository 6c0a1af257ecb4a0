package dev.yarpj.report;

import dev.yarpj.harness.FindingStore;
import dev.yarpj.harness.JsonFiles;
import dev.yarpj.harness.OptionCounts;
import dev.yarpj.harness.Outcome;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A whole campaign as its results directories hold it, every shard merged: the campaign
 * logs ({@code campaign.jsonl}, and {@code shards/K/campaign.jsonl} of a sharded campaign)
 * and the finding directories. Read only; a campaign may be running while it is read, and
 * a line torn by a killed writer is skipped.
 */
record CampaignData(List<Log> logs, List<Finding> findings, List<TestDone> tests, Map<String, Map<String, Long>> outcomesPerTestbed,
                    Map<String, List<Double>> compileSecondsPerTestbed, Map<String, Long> tripBands, Map<String, Long> idioms,
                    SlowCompiles slowCompiles, Map<String, Map<String, Map<String, OptionCounts.Count>>> options, long skippedLines) {

    /**
     * Compiles past the compile limit, which are not findings: how many per testbed, in how
     * many tests, and the seconds they held a job.
     */
    record SlowCompiles(Map<String, Long> byTestbed, long tests, double seconds) {
        long runs() {
            return byTestbed.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Gathers the slow compiles of every log while it is read. */
    private static final class SlowTally {
        final Map<String, Long> byTestbed = new TreeMap<>();
        final java.util.Set<String> tests = new java.util.HashSet<>();
        double seconds;

        void add(Path log, Object seed, String testbed, double compileSeconds) {
            byTestbed.merge(testbed, 1L, Long::sum);
            tests.add(log + " " + seed);
            if (!Double.isNaN(compileSeconds)) seconds += compileSeconds;
        }

        SlowCompiles result() {
            return new SlowCompiles(byTestbed, tests.size(), seconds);
        }
    }

    /**
     * Whether the logs and the finding directories agree: every (finding, seed) a done line
     * names is in the signature's seed records, and every record has its done line. A test
     * killed after saving its finding and before its done line leaves a record without a
     * line until the campaign is resumed; anything else is lost or doubled.
     *
     * @param logged   (kind/signature, seed) pairs named by done lines, each with how many lines name it
     * @param onlyLogged pairs logged but not in the records (lost); {@code onlyStored}: recorded, not logged
     */
    record Agreement(long pairs, List<String> doubled, List<String> onlyLogged, List<String> onlyStored, long unchecked) {
        boolean agrees() {
            return doubled.isEmpty() && onlyLogged.isEmpty() && onlyStored.isEmpty();
        }
    }

    /** Every outcome the campaign logged, pass first, then by name: the columns of the report's tables and plots. */
    List<String> outcomes() {
        SortedSet<String> names = new TreeSet<>();
        for (Map<String, Long> m : outcomesPerTestbed.values()) names.addAll(m.keySet());
        List<String> out = new ArrayList<>(names);
        if (out.remove("pass")) out.add(0, "pass");
        return out;
    }

    Agreement agreement() {
        Map<String, Integer> logged = new TreeMap<>();
        // Done lines of an older yarpj do not list findings: their tests' findings cannot be checked.
        java.util.Set<Long> unlisted = new java.util.HashSet<>();
        for (TestDone t : tests) {
            if (!t.findingsLogged()) unlisted.add(t.seed());
            for (String f : t.findings()) logged.merge(f + " " + t.seed(), 1, Integer::sum);
        }
        SortedSet<String> stored = new TreeSet<>();
        long[] unchecked = {0};
        for (Finding f : findings) {
            for (long s : f.seeds()) {
                if (unlisted.contains(s)) unchecked[0]++;
                else stored.add(f.kind() + "/" + f.id() + " " + s);
            }
        }
        List<String> doubled = new ArrayList<>();
        List<String> onlyLogged = new ArrayList<>();
        logged.forEach((k, n) -> {
            if (n > 1) doubled.add(k);
            if (!stored.contains(k)) onlyLogged.add(k);
        });
        List<String> onlyStored = stored.stream().filter(k -> !logged.containsKey(k)).toList();
        return new Agreement(logged.size(), doubled, onlyLogged, onlyStored, unchecked[0]);
    }

    /** One campaign log: one process's part (a shard, or the whole campaign), over all its runs. */
    record Log(Path dir, String label, List<Run> runs, long tests, Map<String, Long> outcomes, double generationS, double compileS,
               double executionS, long builds, long buildRuns) {
        double wallSeconds() {
            return runs.stream().mapToDouble(Run::seconds).sum();
        }

        double testsPerHour() {
            return tests / Math.max(wallSeconds(), 1e-9) * 3600;
        }
    }

    /** One run of a log, from its start line to its last done line; {@code start} NaN in logs that had no start lines. */
    record Run(double start, double end, int jobs, String host) {
        double seconds() {
            return Double.isNaN(start) || Double.isNaN(end) ? 0 : Math.max(0, end - start);
        }
    }

    /** A finished test: when (NaN if not logged) and the findings it saved as "kind/signature-id". */
    record TestDone(long seed, double t, List<String> findings, boolean findingsLogged) {}

    /**
     * One signature of one kind, all shards merged. {@code bugs} are the groups {@code yarpj
     * triage} put its triaged examples in (family and blamed pass; empty when none was triaged).
     */
    record Finding(String kind, String id, String signature, Path dir, SortedSet<Long> seeds, double firstSeen, List<String> testbeds,
                   List<Path> examples, List<Path> reduced, List<Triaged> bugs) {}

    /**
     * What {@code yarpj triage} said of an example: its group (family and blamed pass), and
     * whether the bug is open or fixed on the newest compiler of its family ({@code status}
     * open, fixed or unknown, with {@code standing} in words; null when triage did not check,
     * as before yarpj checked the newest compilers).
     */
    record Triaged(String group, String status, String standing) {}

    static CampaignData read(List<Path> resultDirs) throws IOException {
        List<Log> logs = new ArrayList<>();
        List<TestDone> tests = new ArrayList<>();
        Map<String, Map<String, Long>> perTestbed = new TreeMap<>();
        Map<String, List<Double>> compile = new TreeMap<>();
        Map<String, Long> trips = new LinkedHashMap<>();
        Map<String, Long> idioms = new LinkedHashMap<>();
        long[] skipped = {0};
        SlowTally slow = new SlowTally();
        OptionCounts options = new OptionCounts();
        for (Path dir : resultDirs) {
            for (Path logFile : logFiles(dir)) {
                logs.add(readLog(dir, logFile, tests, perTestbed, compile, trips, idioms, slow, options, skipped));
            }
        }
        tests.sort(Comparator.comparingDouble(TestDone::t));
        Map<String, Double> firstSeen = new HashMap<>();
        for (TestDone t : tests) for (String f : t.findings()) firstSeen.merge(f, t.t(), Math::min);
        List<Finding> findings = new ArrayList<>();
        for (Path dir : resultDirs) findings.addAll(readFindings(dir, firstSeen));
        findings.sort(Comparator.comparing((Finding f) -> f.kind()).thenComparing(f -> -f.seeds().size()).thenComparing(Finding::id));
        return new CampaignData(logs, findings, tests, perTestbed, compile, trips, idioms,
                slow.result(), options.counts(), skipped[0]);
    }

    private static List<Path> logFiles(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.exists(dir.resolve("campaign.jsonl"))) files.add(dir.resolve("campaign.jsonl"));
        Path shards = dir.resolve("shards");
        if (Files.isDirectory(shards)) {
            try (Stream<Path> s = Files.list(shards)) {
                s.filter(p -> Files.exists(p.resolve("campaign.jsonl")))
                        .sorted(Comparator.comparing(p -> p.getFileName().toString(), CampaignData::naturalOrder))
                        .forEach(p -> files.add(p.resolve("campaign.jsonl")));
            }
        }
        return files;
    }

    private static int naturalOrder(String a, String b) {
        return a.matches("\\d{1,9}") && b.matches("\\d{1,9}") ? Integer.compare(Integer.parseInt(a), Integer.parseInt(b)) : a.compareTo(b);
    }

    @SuppressWarnings("unchecked")
    private static Log readLog(Path dir, Path file, List<TestDone> tests, Map<String, Map<String, Long>> perTestbed,
                               Map<String, List<Double>> compile, Map<String, Long> trips, Map<String, Long> idioms, SlowTally slow, OptionCounts options,
                               long[] skipped)
            throws IOException {
        List<Run> runs = new ArrayList<>();
        Map<String, Long> outcomes = new TreeMap<>();
        long count = 0;
        double gen = 0;
        double comp = 0;
        double exec = 0;
        long builds = 0;
        long buildRuns = 0;
        double start = Double.NaN;
        double last = Double.NaN;
        int jobs = 0;
        String host = "";
        try (BufferedReader r = Files.newBufferedReader(file)) {
            for (String line; (line = r.readLine()) != null; ) {
                Map<String, Object> m = JsonFiles.parseObject(line);
                if (m == null) {
                    if (!line.isBlank()) skipped[0]++;
                    continue;
                }
                Object event = m.get("event");
                if ("start".equals(event)) {
                    if (!Double.isNaN(start) || !Double.isNaN(last)) runs.add(new Run(start, last, jobs, host));
                    start = num(m.get("t"));
                    last = start;
                    jobs = (int) num(m.get("jobs"));
                    host = String.valueOf(m.get("host"));
                } else if ("done".equals(event)) {
                    count++;
                    double t = m.containsKey("t") ? num(m.get("t")) : Double.NaN;
                    if (!Double.isNaN(t)) last = Double.isNaN(last) ? t : Math.max(last, t);
                    gen += m.containsKey("gen_s") ? num(m.get("gen_s")) : 0;
                    List<String> found = new ArrayList<>();
                    if (m.get("findings") instanceof List<?> l) {
                        for (Object o : l) {
                            Map<String, Object> f = (Map<String, Object>) o;
                            found.add(f.get("kind") + "/" + f.get("signature"));
                        }
                    }
                    tests.add(new TestDone((long) num(m.get("seed")), t, found, m.containsKey("findings")));
                    if (m.get("trips") instanceof Map<?, ?> tm) tm.forEach((k, v) -> trips.merge((String) k, (long) num(v), Long::sum));
                    if (m.get("idioms") instanceof Map<?, ?> im) im.forEach((k, v) -> idioms.merge((String) k, (long) num(v), Long::sum));
                } else if (m.containsKey("testbed") && m.containsKey("outcome")) {
                    String tb = (String) m.get("testbed");
                    String outcome = (String) m.get("outcome");
                    outcomes.merge(outcome, 1L, Long::sum);
                    perTestbed.computeIfAbsent(tb, k -> new TreeMap<>()).merge(outcome, 1L, Long::sum);
                    double c = num(m.get("compile_s"));
                    // A slow compile's row has the wall time it held a job in wall_s (older logs have it in compile_s).
                    if (Outcome.SLOW_COMPILE.dir.equals(outcome)) slow.add(file, m.get("seed"), tb, m.containsKey("wall_s") ? num(m.get("wall_s")) : c);
                    if (m.get("options") instanceof Map<?, ?> drawn) options.add(tb, drawn, outcome);
                    comp += c;
                    exec += num(m.get("run_s"));
                    if (RAN.contains(outcome)) {
                        // A build that ran: once per emulator setting it ran under (logs before those counted one run).
                        builds++;
                        buildRuns += m.get("runs") instanceof Number n ? n.longValue() : 1;
                    }
                    if (!tb.equals("generator") && !tb.equals("reference")) compile.computeIfAbsent(tb, k -> new ArrayList<>()).add(c);
                }
            }
        }
        if (!Double.isNaN(start) || !Double.isNaN(last)) runs.add(new Run(start, last, jobs, host));
        Path home = file.getParent();
        String label = home.equals(dir) ? dir.getFileName().toString() : dir.getFileName() + " shard " + home.getFileName();
        // Another generator's campaign says whose programs it ran (summary.json, written at the end of each run).
        Path summary = home.resolve("summary.json");
        if (Files.exists(summary)) {
            Map<String, Object> m = dev.yarpj.harness.JsonFiles.parseObject(Files.readString(summary));
            if (m != null && m.get("generator") instanceof String g && !g.equals("yarpj")) label += " (" + m.getOrDefault("generator_version", g) + ")";
        }
        return new Log(home, label, runs, count, outcomes, gen, comp, exec, builds, buildRuns);
    }

    /** The outcomes of a row whose build ran. */
    private static final java.util.Set<String> RAN = java.util.Set.of(Outcome.PASS.dir, Outcome.WRONG_CODE.dir, Outcome.RUNTIME_CRASH.dir,
            Outcome.RUNTIME_HANG.dir);

    private static double num(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static List<Finding> readFindings(Path dir, Map<String, Double> firstSeen) throws IOException {
        List<Finding> out = new ArrayList<>();
        for (Outcome o : Outcome.values()) {
            Path kindDir = dir.resolve(o.dir);
            if (o == Outcome.PASS || !Files.isDirectory(kindDir)) continue;
            List<Path> sigs;
            try (Stream<Path> s = Files.list(kindDir)) {
                sigs = s.filter(p -> Files.exists(p.resolve("signature.txt"))).sorted().toList();
            }
            for (Path sig : sigs) {
                String id = sig.getFileName().toString();
                List<Path> examples;
                try (Stream<Path> s = Files.list(sig)) {
                    examples = s.filter(p -> p.getFileName().toString().matches("\\d{1,19}") && Files.isDirectory(p))
                            .sorted(Comparator.comparingLong(p -> Long.parseLong(p.getFileName().toString()))).toList();
                }
                SortedSet<Long> seeds = new TreeSet<>(FindingStore.hits(sig));
                if (seeds.isEmpty() && examples.isEmpty()) continue; // every hit withdrawn by its recheck
                List<String> testbeds = new ArrayList<>();
                List<Path> reduced = new ArrayList<>();
                List<Triaged> bugs = new ArrayList<>();
                for (Path ex : examples) {
                    Triaged bug = triaged(ex.resolve("triage").resolve("triage.json"));
                    if (bug != null && !bugs.contains(bug)) bugs.add(bug);
                    for (String t : exampleTestbeds(ex)) if (!testbeds.contains(t)) testbeds.add(t);
                    Path red = ex.resolve("reduced");
                    if (Files.isDirectory(red)) {
                        try (Stream<Path> s = Files.list(red)) {
                            s.filter(p -> p.getFileName().toString().startsWith("merged.")).findFirst().ifPresent(reduced::add);
                        }
                    }
                }
                out.add(new Finding(o.dir, id, Files.readString(sig.resolve("signature.txt")).strip(), sig, seeds,
                        firstSeen.getOrDefault(o.dir + "/" + id, Double.NaN), testbeds, examples, reduced, bugs));
            }
        }
        return out;
    }

    /** The testbeds that showed an example's finding; none when its meta.json is missing or unreadable. */
    private static List<String> exampleTestbeds(Path example) throws IOException {
        try {
            return dev.yarpj.harness.Finding.read(example).testbeds();
        } catch (dev.yarpj.harness.Finding.Unreadable e) {
            return List.of();
        }
    }

    /**
     * What {@code yarpj triage} wrote for an example, or null when it was not triaged (or the
     * file cannot be read). Read as JSON, or as YAML when it is not JSON: triage wrote YAML into
     * triage.json before it wrote JSON.
     */
    static Triaged triaged(Path triageJson) {
        if (!Files.exists(triageJson)) return null;
        try {
            String text = Files.readString(triageJson);
            Object o = JsonFiles.parseObject(text);
            if (o == null) o = new org.yaml.snakeyaml.Yaml().load(text);
            if (!(o instanceof Map<?, ?> m && m.get("group") instanceof String g && !g.isBlank())) return null;
            return new Triaged(g, m.get("status") instanceof String st ? st : null, m.get("standing") instanceof String w ? w : null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
