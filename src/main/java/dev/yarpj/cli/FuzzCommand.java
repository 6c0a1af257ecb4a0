package dev.yarpj.cli;

import dev.yarpj.harness.Campaign;
import dev.yarpj.harness.CampaignConfig;
import dev.yarpj.harness.HarnessException;
import dev.yarpj.harness.ProcessRunner;
import dev.yarpj.harness.Testbed;
import dev.yarpj.harness.Testbeds;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "fuzz", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {
            "Differential testing: generate tests, compile each with every testbed, run,",
            "and compare with the prediction and across testbeds. Findings (wrong code,",
            "compiler crashes, compile hangs, rejected programs, runtime crashes and",
            "hangs, generator failures) are saved under DIR/<kind>/<signature>/<seed>/",
            "with a repro.sh; every test and testbed gets a line in DIR/campaign.jsonl.",
            "Stop with Ctrl-C or kill at any time and continue with --resume.",
            "With --lang=ispc, func.ispc is compiled by every ispc testbed (optimization",
            "levels and targets; targets this CPU cannot run are skipped) and its C++",
            "twin func.cpp by the testbeds with an ispc-cpp compiler, all linked to one",
            "C++ driver and compared. With --lang=sycl, func.cpp is compiled and linked by",
            "every testbed with a 'sycl' compiler (AdaptiveCpp's acpp in the shipped file;",
            "bring your own) and func_ref.cpp, the C++ lowering, by those with 'sycl-cpp'."})
final class FuzzCommand implements Callable<Integer> {
    @Option(names = "--lang", defaultValue = "c", description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    GenCommand.Lang lang;

    @CommandLine.Mixin
    PolicyOption policy;

    @Option(names = "--swarm", description = "Swarm testing: each test switches a random subset of features off.")
    boolean swarm;

    @Option(names = "--testbeds", paramLabel = "FILE", description = "Testbed file (default: harness/testbeds.yaml of yarpj).")
    Path testbedsFile;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Tests run at once (default: number of cores).")
    Integer jobs;

    @Option(names = "--duration", paramLabel = "TIME", description = "Stop starting tests after TIME, e.g. 90s, 30m, 1h, 1h30m (with --resume: for this run).")
    String duration;

    @Option(names = "--count", paramLabel = "N", description = "Run N tests (seeds S..S+N-1).")
    Long count;

    @Option(names = "--seeds", paramLabel = "A..B", description = "Run the tests of seeds A to B.")
    String seeds;

    @Option(names = "--seed", paramLabel = "S", description = "First seed (default: picked at random and printed).")
    Long seed;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results", description = "Results directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--compile-timeout", paramLabel = "SECONDS", defaultValue = "60", description = "Compile time limit (default: ${DEFAULT-VALUE}); a compile past it is rechecked with 4 times the limit.")
    double compileTimeout;

    @Option(names = "--run-timeout", paramLabel = "SECONDS", defaultValue = "10", description = "Run time limit of a test binary (default: ${DEFAULT-VALUE}).")
    double runTimeout;

    @Option(names = "--resume", description = "Continue the campaign in DIR with its saved settings, skipping finished seeds.")
    boolean resume;

    @Option(names = "--quiet", description = "No progress line, only the summary.")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter outw = spec.commandLine().getOut();
        Path settings = out.resolve("campaign.json");
        if (resume) {
            if (!Files.exists(settings)) throw new Main.UsageError("nothing to resume: " + settings + " does not exist");
            // A resumed campaign keeps what it tests; only how long this run lasts may be given anew.
            var parsed = spec.commandLine().getParseResult();
            for (String o : List.of("--lang", "--policy", "--swarm", "--testbeds", "--count", "--seeds", "--seed",
                    "--compile-timeout", "--run-timeout")) {
                if (parsed.hasMatchedOption(o)) throw new Main.UsageError(o + " cannot be changed on --resume: the campaign keeps its settings");
            }
            loadSettings(settings);
        } else if (Files.exists(settings)) {
            throw new Main.UsageError(out + " already holds a campaign: continue it with --resume, or choose another --out");
        }
        if (jobs == null) jobs = Runtime.getRuntime().availableProcessors();
        if (jobs < 1) throw new Main.UsageError("-j must be at least 1");
        if (!(compileTimeout > 0 && compileTimeout < 1e6) || !(runTimeout > 0 && runTimeout < 1e6)) {
            throw new Main.UsageError("timeouts must be positive numbers of seconds");
        }
        Double seconds = duration == null ? null : parseDuration(duration);
        Long last = null;
        if (seeds != null) {
            Matcher m = Pattern.compile("(\\d{1,18})\\.\\.(\\d{1,18})").matcher(seeds);
            if (!m.matches() || Long.parseLong(m.group(1)) > Long.parseLong(m.group(2))) {
                throw new Main.UsageError("--seeds must be A..B with 0 <= A <= B, got " + seeds);
            }
            if (seed != null && seed != Long.parseLong(m.group(1))) throw new Main.UsageError("--seed and --seeds disagree");
            seed = Long.parseLong(m.group(1));
            last = Long.parseLong(m.group(2));
        }
        boolean pickedSeed = seed == null;
        if (pickedSeed) seed = new SecureRandom().nextLong() & 0xFFFF_FFFFL;
        if (seed < 0) throw new Main.UsageError("--seed must be 0 or more");
        if (count != null) {
            if (count < 1) throw new Main.UsageError("--count must be at least 1");
            last = last == null ? seed + count - 1 : Math.min(last, seed + count - 1);
        }
        GenPolicy genPolicy = policy.load();
        Path tbFile = testbedsFile != null ? testbedsFile : home().resolve("harness/testbeds.yaml");
        Testbeds tbs;
        try {
            tbs = Testbeds.load(tbFile);
        } catch (Testbeds.TestbedException e) {
            throw new Main.UsageError(e.getMessage());
        }
        List<Testbed> usable = tbs.usable(lang.language, w -> err.println("yarpj: warning: " + w));
        if (usable.isEmpty()) {
            throw new Main.UsageError("no usable testbed in " + tbFile + " for --lang=" + lang + ": install a compiler it names");
        }
        if (lang.language == Language.SYCL && usable.stream().noneMatch(t -> t.runsSycl(Language.SYCL))) {
            throw new Main.UsageError("no usable SYCL compiler in " + tbFile + " for --lang=sycl: install one (AdaptiveCpp's acpp,"
                    + " icpx -fsycl, clang++ -fsycl) and name it in a testbed's 'sycl' key, or put acpp on the PATH");
        }
        // The driver is in C or C++ (for ISPC tests, C++); for ISPC, the reference's ispc also writes the driver's header.
        String refCc = tbs.reference().compiler(lang.language.driverLanguage());
        if (!Testbeds.onPath(refCc)) throw new Main.UsageError("the reference compiler " + refCc + " is not installed");
        String refIspc = tbs.reference().ispcCompiler();
        if (lang.language == Language.ISPC) {
            if (refIspc == null) throw new Main.UsageError(tbFile + ": the reference needs 'ispc' (the ispc that writes func_ispc.h) for --lang=ispc");
            if (!Testbeds.onPath(refIspc)) throw new Main.UsageError("the reference ispc " + refIspc + " is not installed");
        }
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put(refCc, version(refCc));
        if (lang.language == Language.ISPC) versions.putIfAbsent(refIspc, version(refIspc));
        for (Testbed t : usable) versions.putIfAbsent(t.compiler(lang.language), version(t.compiler(lang.language)));

        try {
            Files.createDirectories(out);
            if (!Files.isWritable(out)) throw new IOException("not writable");
            if (!resume) saveSettings(settings, tbFile, last, seconds);
        } catch (IOException e) {
            throw new Main.UsageError("cannot use results directory " + out + ": " + e.getClass().getSimpleName().replace("Exception", "")
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
        }
        CampaignConfig cfg = new CampaignConfig(lang.language, genPolicy, policy.file, swarm, tbs.reference(), usable,
                new ProcessRunner.Limits(compileTimeout, 4096, 256), new ProcessRunner.Limits(compileTimeout * 4, 4096, 256),
                new ProcessRunner.Limits(runTimeout, 2048, 64), home().resolve("yarpj").toString(), versions);
        if (pickedSeed && !quiet) outw.println("first seed: " + seed);
        if (!quiet) {
            err.println("yarpj fuzz: " + usable.size() + " testbeds (" + String.join(", ", usable.stream().map(Testbed::name).toList())
                    + "), " + jobs + " jobs, results in " + out + (ProcessRunner.isolatesNetwork() ? "" : " (warning: tests run with network access)"));
        }
        Map<String, Object> summary;
        try {
            summary = new Campaign(cfg, out, new Campaign.Plan(seed, last, seconds, jobs), err, quiet).run();
        } catch (HarnessException e) {
            throw new Main.UsageError(e.getMessage());
        }
        printSummary(outw, summary);
        return 0;
    }

    private static void printSummary(PrintWriter w, Map<String, Object> s) {
        w.printf("tests: %s in %.0f s (%.0f tests/hour)%n", s.get("tests"), (Double) s.get("seconds"), (Double) s.get("tests_per_hour"));
        w.println("testbed runs: " + s.get("testbed_runs"));
        w.println("findings: " + s.get("findings") + ", distinct signatures: " + s.get("distinct_signatures"));
        @SuppressWarnings("unchecked")
        Map<String, Object> cpu = (Map<String, Object>) s.get("cpu");
        w.printf("CPU: generation %.2f%%, compilation %.2f%%, execution %.2f%%, harness %.2f%%%n", cpu.get("generation_pct"),
                cpu.get("compilation_pct"), cpu.get("execution_pct"), cpu.get("harness_pct"));
        @SuppressWarnings("unchecked")
        Map<String, Object> fresh = (Map<String, Object>) s.get("new_signatures");
        fresh.forEach((k, v) -> w.println("  " + k + "\n    " + v));
        w.flush();
    }

    static double parseDuration(String d) {
        Matcher m = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?").matcher(d.trim());
        if (d.isBlank() || !m.matches() || (m.group(1) == null && m.group(2) == null && m.group(3) == null)) {
            throw new Main.UsageError("--duration must look like 90s, 30m, 1h or 1h30m, got '" + d + "'");
        }
        if (d.replaceAll("\\D", "").length() > 12) throw new Main.UsageError("--duration is too long: '" + d + "'");
        long s = 0;
        if (m.group(1) != null) s += Long.parseLong(m.group(1)) * 3600;
        if (m.group(2) != null) s += Long.parseLong(m.group(2)) * 60;
        if (m.group(3) != null) s += Long.parseLong(m.group(3));
        return s;
    }

    /** Where yarpj is installed: the launcher says so; else the working directory. */
    static Path home() {
        String h = System.getenv("YARPJ_HOME");
        return Path.of(h != null ? h : ".").toAbsolutePath().normalize();
    }

    private static String version(String cc) {
        try {
            Process p = new ProcessBuilder(cc, "--version").redirectErrorStream(true).start();
            String first = new String(p.getInputStream().readAllBytes()).lines().findFirst().orElse("?");
            p.waitFor(10, TimeUnit.SECONDS);
            return first;
        } catch (IOException | InterruptedException e) {
            return "?";
        }
    }

    private void saveSettings(Path file, Path tbFile, Long last, Double seconds) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lang", lang.name());
        m.put("policy", policy.file == null ? null : policy.file.toAbsolutePath().toString());
        m.put("swarm", swarm);
        m.put("testbeds", tbFile.toAbsolutePath().toString());
        m.put("first_seed", seed);
        m.put("last_seed", last);
        m.put("duration_s", seconds);
        m.put("compile_timeout_s", compileTimeout);
        m.put("run_timeout_s", runTimeout);
        Path tmp = file.resolveSibling(".campaign.json.tmp");
        Files.writeString(tmp, new Yaml().dumpAs(m, null, org.yaml.snakeyaml.DumperOptions.FlowStyle.FLOW));
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Restores a campaign's settings. Finished seeds are skipped; the seed range is kept;
     * the duration applies to this run (in full, unless --duration gives another).
     */
    private void loadSettings(Path file) throws IOException {
        try {
            loadSettingsOrFail(file);
        } catch (RuntimeException e) {
            throw new Main.UsageError("cannot resume: " + file + " is damaged (" + e.getClass().getSimpleName() + ")");
        }
    }

    private void loadSettingsOrFail(Path file) throws IOException {
        Map<?, ?> m = new Yaml().load(Files.readString(file));
        lang = GenCommand.Lang.valueOf((String) m.get("lang"));
        policy.file = m.get("policy") == null ? null : Path.of((String) m.get("policy"));
        swarm = Boolean.TRUE.equals(m.get("swarm"));
        testbedsFile = Path.of((String) m.get("testbeds"));
        seed = ((Number) m.get("first_seed")).longValue();
        if (m.get("last_seed") != null) seeds = seed + ".." + ((Number) m.get("last_seed")).longValue();
        if (duration == null && m.get("duration_s") != null) duration = ((Number) m.get("duration_s")).longValue() + "s";
        compileTimeout = ((Number) m.get("compile_timeout_s")).doubleValue();
        runTimeout = ((Number) m.get("run_timeout_s")).doubleValue();
    }
}
