package dev.yarpj.bench;

import dev.yarpj.harness.Campaign;
import dev.yarpj.harness.CampaignConfig;
import dev.yarpj.harness.CompilerVersion;
import dev.yarpj.harness.JsonFiles;
import dev.yarpj.harness.Testbed;
import dev.yarpj.harness.Testbeds;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.source.TestSource;
import dev.yarpj.source.TestSources;
import dev.yarpj.triage.BugBook;
import dev.yarpj.triage.KnownBugs;
import dev.yarpj.triage.TriageLane;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A benchmark of known bugs: which generator's programs expose the bugs of the record sooner,
 * per CPU-hour. For each open bug whose smallest configuration runs here, every generator asked
 * for gets the same seeds, built at that configuration alone (one testbed, the bug's compiler
 * and options, run as the record says: under its emulator, at its vector length and freedoms)
 * against the reference of its target. The generators take turns, a few seeds each, on the same
 * cores, so that a busy machine slows all of them alike. Each finding is labelled by the triage
 * lane, as in a campaign: the bug itself, another bug, or not labelled. It works from what is on
 * disk ({@code OUT/<bug>/<generator>/}, a campaign's results directory each): run again, it goes
 * on where it stopped.
 */
public final class KnownBugBench {
    /**
     * @param out      where the campaigns and the table go
     * @param home     where yarpj is installed (its harness/ testbeds files and launcher)
     * @param bugs     the bugs asked for by id, or null: every open one
     * @param tests    the seeds per bug and generator
     * @param chunk    the seeds a generator runs in its turn
     * @param seconds  the wall-clock time after which no turn starts (null: none); run again to go on
     */
    public record Options(Path out, Path home, KnownBugs known, Set<String> bugs, List<String> generators, String yarpgen, GenPolicy policy,
                          Path policyFile, int tests, long firstSeed, int jobs, int chunk, Double seconds, double compileTimeout, double runTimeout) {}

    /**
     * A bug the bench runs: its record's configuration as one testbed, and the reference of its
     * target; {@code skipped} says why it is not run here (then the rest may be null).
     */
    public record Subject(String id, String title, Language lang, Testbed testbed, Testbed reference, String skipped) {}

    /** What one generator did on one bug. {@code firstExposureCpu} is null when it exposed nothing. */
    public record Cell(String bug, String generator, String version, long tests, long dropped, double cpuSeconds, int exposures,
                       int otherBugs, int unlabelled, Double firstExposureCpu, double triageCpuSeconds) {
        public double exposuresPerCpuHour() {
            return cpuSeconds <= 0 ? 0 : exposures / (cpuSeconds / 3600);
        }
    }

    private final Options o;

    public KnownBugBench(Options o) {
        this.o = o;
    }

    /** The bugs of the record this bench would run, each with its configuration or why it cannot run here. */
    public List<Subject> subjects() throws IOException {
        List<Subject> out = new ArrayList<>();
        for (KnownBugs.Known k : o.known().bugs()) {
            if (o.bugs() != null && !o.bugs().contains(k.id())) continue;
            if (o.bugs() == null && !"open".equals(k.status())) continue;
            out.add(subject(k));
        }
        if (o.bugs() != null) {
            for (String id : o.bugs()) {
                if (out.stream().noneMatch(s -> s.id().equals(id))) throw new BenchException("no bug " + id + " in the record");
            }
        }
        return out;
    }

    private Subject subject(KnownBugs.Known k) throws IOException {
        Map<String, Object> b = JsonFiles.parseObject(Files.readString(k.dir().resolve("bug.json")));
        String smallest = b.get("smallest_configuration") instanceof String s ? s : null;
        if (smallest == null) return skipped(k, "its record has no smallest configuration");
        String test = b.get("test") instanceof String t ? t : "";
        Language lang = test.endsWith(".c") ? Language.C : test.endsWith(".cpp") ? Language.CPP : null;
        if (lang == null) return skipped(k, "no other generator writes its language (" + (test.isEmpty() ? "no test" : test) + ")");
        List<String> words = List.of(smallest.trim().split("\\s+"));
        String cc = compilerFor(words.get(0), lang);
        if (!Testbeds.onPath(cc)) return skipped(k, cc + " is not installed here");
        List<String> run = b.get("run") instanceof List<?> r ? r.stream().map(String::valueOf).toList() : List.of();
        if (!run.isEmpty() && !Testbeds.onPath(run.get(0))) return skipped(k, run.get(0) + " is not installed here");
        Testbed ref = referenceFor(run);
        if (ref == null) return skipped(k, "no testbeds file of yarpj's runs its programs under " + run.get(0));
        if (!Testbeds.onPath(ref.compiler(lang))) return skipped(k, "its reference " + ref.compiler(lang) + " is not installed here");
        Testbed tb = new Testbed("bug-" + k.id(), lang == Language.C ? cc : null, lang == Language.CPP ? cc : null, null, null, null, null,
                words.subList(1, words.size()), ref.target(), run);
        return new Subject(k.id(), k.title(), lang, tb, ref, null);
    }

    private static Subject skipped(KnownBugs.Known k, String why) {
        return new Subject(k.id(), k.title(), null, null, null, why);
    }

    /** The record names the C compiler of a configuration; a C++ test needs its C++ twin (clang++, g++). */
    static String compilerFor(String cc, Language lang) {
        if (lang != Language.CPP || cc.contains("++")) return cc;
        if (cc.contains("clang")) return cc.replaceFirst("clang", "clang++");
        int g = cc.lastIndexOf("gcc");
        return g < 0 ? cc : cc.substring(0, g) + "g++" + cc.substring(g + 3);
    }

    /**
     * The reference of the target a record's run names: that of the testbeds file whose emulator
     * is the same program ({@code qemu-aarch64}, ...), or for a record run on this machine that of
     * {@code harness/testbeds.yaml}.
     */
    private Testbed referenceFor(List<String> run) throws IOException {
        Path harness = o.home().resolve("harness");
        if (run.isEmpty()) return Testbeds.load(harness.resolve("testbeds.yaml")).reference();
        try (Stream<Path> files = Files.list(harness)) {
            for (Path f : files.sorted().toList()) {
                if (!f.getFileName().toString().endsWith(".yaml")) continue;
                Testbed ref = Testbeds.load(f).reference();
                if (!ref.run().isEmpty() && ref.run().get(0).equals(run.get(0))) return ref;
            }
        }
        return null;
    }

    /**
     * Runs the turns left, then returns the table's cells. On each bug in turn, the generator
     * that has had the least CPU on it so far runs its next {@code chunk} seeds, and the lane
     * labels what they found; a generator stops at {@code tests} seeds. Every generator walks
     * the same seeds from the first, and the CPU each gets on a bug stays within a turn of the
     * others': a Csmith test under qemu costs ten times a yarpj test's CPU, and equal numbers
     * of tests would give one generator a tenth of the other's CPU.
     */
    public List<Cell> run(PrintWriter err) throws IOException, InterruptedException {
        List<Subject> subjects = subjects().stream().filter(s -> s.skipped() == null).toList();
        keepSettings();
        long start = System.nanoTime();
        Map<String, Double> triageCpu = readTriageCpu();
        // Findings a stopped bench left unlabelled (killed between a turn and its lane) are labelled first.
        for (Subject s : subjects) {
            for (String g : o.generators()) {
                Path dir = o.out().resolve(s.id()).resolve(g);
                if (Files.isDirectory(dir)) label(s, g, dir, triageCpu);
            }
        }
        long last = o.firstSeed() + o.tests() - 1;
        int turns = 0;
        for (boolean any = true; any; ) {
            any = false;
            for (Subject s : subjects) {
                String pick = null;
                double least = Double.POSITIVE_INFINITY;
                long from = 0;
                double cappedCpu = -1; // the most CPU of a generator that has run its --tests on this bug, or -1
                for (String g : o.generators()) {
                    if (source(g, s.lang()) == null) continue;
                    Path dir = o.out().resolve(s.id()).resolve(g);
                    Tests t = tests(dir);
                    long next = o.firstSeed();
                    while (t.done().containsKey(next)) next++;
                    if (next > last) {
                        cappedCpu = Math.max(cappedCpu, t.cpuSeconds());
                        continue;
                    }
                    if (t.cpuSeconds() < least) {
                        least = t.cpuSeconds();
                        pick = g;
                        from = next;
                    }
                }
                // Once a generator has run its --tests, the others go on only until they have had as much CPU: not alone beyond.
                if (pick == null || (cappedCpu >= 0 && least >= cappedCpu)) continue;
                any = true;
                if (o.seconds() != null && (System.nanoTime() - start) / 1e9 >= o.seconds()) {
                    err.println("yarpj bench: --duration reached; run the same command again to go on");
                    return cells(subjects, triageCpu);
                }
                Path dir = Files.createDirectories(o.out().resolve(s.id()).resolve(pick));
                long to = Math.min(from + o.chunk() - 1, last);
                new Campaign(config(s, source(pick, s.lang())), dir, new Campaign.Plan(from, to, null, o.jobs()), err, true)
                        .keepingEveryFinding().run();
                label(s, pick, dir, triageCpu);
                if (++turns % 20 == 0) {
                    err.printf("yarpj bench: %d turns, %.0f s%n", turns, (System.nanoTime() - start) / 1e9);
                    err.flush();
                }
            }
        }
        return cells(subjects, triageCpu);
    }

    /** A bench directory's finished tests by seed (each done line; a test run again counts once, as last logged) and their CPU. */
    record Tests(TreeMap<Long, Map<String, Object>> done, double cpuSeconds) {}

    static Tests tests(Path dir) throws IOException {
        TreeMap<Long, Map<String, Object>> done = new TreeMap<>();
        Path log = dir.resolve("campaign.jsonl");
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log)) {
                Map<String, Object> m = JsonFiles.parseObject(line);
                if (m != null && "done".equals(m.get("event")) && m.get("seed") instanceof Number n) done.put(n.longValue(), m);
            }
        }
        double cpu = 0;
        for (Map<String, Object> m : done.values()) cpu += m.get("cpu_s") instanceof Number n ? n.doubleValue() : 0;
        return new Tests(done, cpu);
    }

    /** Labels every finding in {@code dir} not labelled yet, as a campaign's lane does: the bug's own key or test, a few builds; else a quick triage. */
    private void label(Subject s, String g, Path dir, Map<String, Double> triageCpu) throws IOException, InterruptedException {
        TriageLane lane = new TriageLane(dir, 1, o.compileTimeout(), o.known(), 0);
        lane.start();
        TriageLane.Done d = lane.finish(true);
        if (d.cpuSeconds() > 0) {
            triageCpu.merge(s.id() + "/" + g, d.cpuSeconds(), Double::sum);
            writeTriageCpu(triageCpu);
        }
    }

    /** The sources, by generator and language: made once (each asks its generator's version). */
    private final Map<String, java.util.Optional<TestSource>> sources = new java.util.HashMap<>();

    /** The source of generator {@code g} for {@code lang} tests, or null when it writes none. */
    private TestSource source(String g, Language lang) {
        java.util.function.Function<Language, TestSources.Setup> setup = l -> new TestSources.Setup(l, o.policy(), o.policyFile(), false,
                o.home().resolve("yarpj").toString(), g.equals("yarpgen") ? o.yarpgen() : null);
        return sources.computeIfAbsent(g + "/" + lang.cliName(), k -> {
            try {
                if (!TestSources.of(g, setup.apply(Language.C)).writes(lang)) return java.util.Optional.empty();
                return java.util.Optional.of(TestSources.of(g, setup.apply(lang)));
            } catch (TestSources.SourceException e) {
                throw new BenchException(e.getMessage());
            }
        }).orElse(null);
    }

    /**
     * Saves what this bench measures in {@code OUT/bench.json}, or refuses to go on with other
     * settings than those it started with: results of two settings would mix in one table.
     * {@code --tests} may grow, {@code --bugs} choose among the bugs, and {@code --generators}
     * take in another generator: it walks the same seeds from the first, and as the one with the
     * least CPU it takes the turns until it has had as much as the others.
     */
    private void keepSettings() throws IOException {
        Path f = o.out().resolve("bench.json");
        Files.createDirectories(o.out());
        Map<String, Object> saved = Files.exists(f) ? JsonFiles.parseObject(Files.readString(f)) : null;
        List<String> all = new ArrayList<>();
        String yarpgen = o.yarpgen();
        if (saved != null) {
            if (saved.get("generators") instanceof List<?> l) l.forEach(g -> all.add(String.valueOf(g)));
            String theirs = saved.get("yarpgen") == null ? null : String.valueOf(saved.get("yarpgen"));
            if (theirs != null && o.generators().contains("yarpgen") && !theirs.equals(o.yarpgen())) {
                throw new BenchException(o.out() + " holds a bench of the YARPGen at " + theirs + ": use another --out, or that --yarpgen");
            }
            // With its own generators and YARPGen, the saved bench must have this one's settings.
            if (!JsonFiles.parseObject(JsonFiles.write(settings(all, theirs))).equals(saved)) {
                throw new BenchException(o.out() + " holds a bench with other settings (" + f + "): use another --out, or its settings");
            }
            if (theirs != null) yarpgen = theirs;
        }
        o.generators().stream().filter(g -> !all.contains(g)).forEach(all::add);
        Map<String, Object> mine = settings(all, all.contains("yarpgen") ? yarpgen : null);
        if (saved != null && JsonFiles.parseObject(JsonFiles.write(mine)).equals(saved)) return;
        Path tmp = f.resolveSibling("bench.json.tmp");
        Files.writeString(tmp, JsonFiles.write(mine) + "\n");
        Files.move(tmp, f, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The settings a bench keeps in {@code OUT/bench.json}, with these generators. */
    private Map<String, Object> settings(List<String> generators, String yarpgen) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("first_seed", o.firstSeed());
        m.put("chunk", o.chunk());
        m.put("generators", generators);
        m.put("yarpgen", yarpgen);
        m.put("policy", o.policyFile() == null ? null : o.policyFile().toAbsolutePath().toString());
        m.put("compile_timeout_s", o.compileTimeout());
        m.put("run_timeout_s", o.runTimeout());
        return m;
    }

    private CampaignConfig config(Subject s, TestSource source) {
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put(s.reference().compiler(s.lang()), CompilerVersion.firstLine(s.reference().compiler(s.lang())));
        versions.putIfAbsent(s.testbed().compiler(s.lang()), CompilerVersion.firstLine(s.testbed().compiler(s.lang())));
        return new CampaignConfig(s.lang(), o.policy(), o.policyFile(), false, s.reference(), List.of(s.testbed()),
                CampaignConfig.compileLimits(o.compileTimeout()), CampaignConfig.compileLimits(o.compileTimeout() * CampaignConfig.RECHECK_FACTOR),
                CampaignConfig.runLimits(o.runTimeout()), o.home().resolve("yarpj").toString(), versions, CampaignConfig.RUN_SHARE, source);
    }

    /** The cells of the table, from what is on disk. */
    public List<Cell> cells(List<Subject> subjects, Map<String, Double> triageCpu) throws IOException {
        List<Cell> out = new ArrayList<>();
        for (Subject s : subjects) {
            for (String g : o.generators()) {
                Path dir = o.out().resolve(s.id()).resolve(g);
                if (!Files.isDirectory(dir)) continue;
                out.add(cell(s.id(), g, dir, triageCpu.getOrDefault(s.id() + "/" + g, 0.0)));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private Cell cell(String bug, String generator, Path dir, double triageCpu) throws IOException {
        TreeMap<Long, Map<String, Object>> done = tests(dir).done();
        BugBook.Book book = BugBook.read(dir, o.known());
        java.util.Set<Long> exposing = new java.util.TreeSet<>();
        java.util.Set<Long> other = new java.util.TreeSet<>();
        for (BugBook.Bug b : book.bugs()) {
            boolean it = b.known() != null && b.known().id().equals(bug);
            for (BugBook.Triaged t : b.findings()) (it ? exposing : other).add(t.seed());
        }
        other.removeAll(exposing);
        int unlabelled = book.refused().size() + book.untriaged().size();
        double cpu = 0;
        Double first = null;
        long dropped = 0;
        for (Map.Entry<Long, Map<String, Object>> e : done.entrySet()) {
            cpu += e.getValue().get("cpu_s") instanceof Number n ? n.doubleValue() : 0;
            if (e.getValue().containsKey("dropped")) dropped++;
            if (first == null && exposing.contains(e.getKey())) first = cpu;
        }
        String version = "";
        Path summary = dir.resolve("summary.json");
        if (Files.exists(summary)) {
            Map<String, Object> m = JsonFiles.parseObject(Files.readString(summary));
            if (m != null && m.get("generator_version") instanceof String v) version = v;
        }
        return new Cell(bug, generator, version, done.size(), dropped, cpu, exposing.size(), other.size(), unlabelled, first, triageCpu);
    }

    private Path triageCpuFile() {
        return o.out().resolve("triage-cpu.json");
    }

    /** The triage lane's CPU so far, by bug and generator ({@code id/generator}). */
    public Map<String, Double> triageCpu() throws IOException {
        return readTriageCpu();
    }

    private Map<String, Double> readTriageCpu() throws IOException {
        Map<String, Double> m = new TreeMap<>();
        if (Files.exists(triageCpuFile())) {
            Map<String, Object> saved = JsonFiles.parseObject(Files.readString(triageCpuFile()));
            if (saved != null) saved.forEach((k, v) -> { if (v instanceof Number n) m.put(k, n.doubleValue()); });
        }
        return m;
    }

    private void writeTriageCpu(Map<String, Double> m) throws IOException {
        Files.createDirectories(o.out());
        Path tmp = triageCpuFile().resolveSibling("triage-cpu.json.tmp");
        Files.writeString(tmp, JsonFiles.write(new TreeMap<String, Object>(m)) + "\n");
        Files.move(tmp, triageCpuFile(), java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The table: a line per bug and generator. */
    public static List<String> table(List<Cell> cells) {
        List<String> lines = new ArrayList<>();
        int w = Math.max(3, cells.stream().mapToInt(c -> c.bug().length()).max().orElse(3));
        lines.add(String.format(Locale.ROOT, "%-" + w + "s %-9s %6s %7s %9s %9s %6s %10s %9s %12s %12s", "bug", "generator", "tests", "dropped",
                "CPU-s", "exposures", "other", "unlabelled", "per CPU-h", "CPU-s to 1st", "triage CPU-s"));
        for (Cell c : cells) {
            lines.add(String.format(Locale.ROOT, "%-" + w + "s %-9s %6d %7d %9.0f %9d %6d %10d %9.1f %12s %12.0f", c.bug(),
                    c.generator(), c.tests(), c.dropped(), c.cpuSeconds(), c.exposures(), c.otherBugs(), c.unlabelled(), c.exposuresPerCpuHour(),
                    c.firstExposureCpu() == null ? "-" : String.format(Locale.ROOT, "%.0f", c.firstExposureCpu()), c.triageCpuSeconds()));
        }
        cells.stream().map(c -> c.generator() + ": " + c.version()).distinct().filter(v -> !v.endsWith(": ")).forEach(v -> lines.add("  " + v));
        return lines;
    }

    /** A bench that cannot run; the message is one line. */
    public static final class BenchException extends RuntimeException {
        public BenchException(String m) {
            super(m, null, false, false);
        }
    }
}
