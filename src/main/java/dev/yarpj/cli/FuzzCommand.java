package dev.yarpj.cli;

import dev.yarpj.harness.Campaign;
import dev.yarpj.harness.CampaignConfig;
import dev.yarpj.harness.CampaignSettings;
import dev.yarpj.harness.HarnessException;
import dev.yarpj.harness.ProcessRunner;
import dev.yarpj.harness.CompilerVersion;
import dev.yarpj.harness.Testbed;
import dev.yarpj.harness.Testbeds;
import dev.yarpj.lower.Language;
import dev.yarpj.triage.BugBook;
import dev.yarpj.triage.KnownBugs;
import dev.yarpj.triage.TriageLane;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.source.TestSource;
import dev.yarpj.source.TestSources;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "fuzz", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {
            "Run a campaign: generate, build with every testbed, run, compare.",
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
            "bring your own) and func_ref.cpp, the C++ lowering, by those with 'sycl-cpp'.",
            "More in docs/guide.md (fuzz, testbeds, configuration spaces, other targets,",
            "shards and Slurm)."})
final class FuzzCommand implements Callable<Integer> {
    @Option(names = "--lang", defaultValue = "c", description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    GenCommand.Lang lang;

    @CommandLine.Mixin
    PolicyOption policy;

    @Option(names = "--swarm", description = "Swarm testing: each test switches a random subset of features off.")
    boolean swarm;

    @Option(names = "--generator", paramLabel = "NAME", defaultValue = "yarpj", description = "Where the tests come from: yarpj"
            + " (its generator, with a predicted output), csmith (Csmith's C programs; the csmith and libcsmith-dev packages) or yarpgen"
            + " (YARPGen v2's C and C++ programs, from --yarpgen PATH). Another generator's tests have no prediction: the reference's"
            + " build at -O0 says what they must print, and a test with a symptom must also print that when built by a compiler of the"
            + " other family at -O0, and be clean under ASan and UBSan, or it is dropped and counted, never a finding (default: ${DEFAULT-VALUE}).")
    String generator;

    @Option(names = "--yarpgen", paramLabel = "PATH", description = "The YARPGen v2 binary of --generator yarpgen, one you built.")
    Path yarpgen;

    @Option(names = "--testbeds", paramLabel = "FILE", description = "Testbed file (default: harness/testbeds.yaml of yarpj, where GCC trunk and the newest clang at -O1 and -Os"
            + " are joined by testbeds that draw a configuration per test from a space of options; harness/testbeds-<target>-space.yaml do that under qemu for riscv64-rvv, "
            + "aarch64-sve, powerpc64le, s390x and loongarch64; docs/guide.md, Testbeds).")
    Path testbedsFile;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Tests run at once (default: number of cores; with --resume: as many as the run it continues).")
    Integer jobs;

    @Option(names = "--duration", paramLabel = "TIME", description = "Run for TIME of wall-clock time in all, triage included, e.g. 90s,"
            + " 30m, 1h, 1h30m (with --resume: for this run): the tests stop at TIME, those still running stopped and left for --resume,"
            + " or in the last --triage-share of it when findings have waited a minute for triage, which then has the rest of TIME; findings it"
            + " leaves go to --resume or yarpj bugs DIR --triage. The run exits within about a minute of TIME.")
    String duration;

    @Option(names = "--count", paramLabel = "N", description = "Run N tests (seeds S..S+N-1).")
    Long count;

    @Option(names = "--seeds", paramLabel = "A..B", description = "Run the tests of seeds A to B.")
    String seeds;

    @Option(names = "--seed", paramLabel = "S", description = "First seed (default: picked at random and printed).")
    Long seed;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results", description = "Results directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--compile-timeout", paramLabel = "CPU-SECONDS", description = "Compile time limit in CPU seconds (default:"
            + " 60, and 180 for SYCL, whose compilers build host and device code: AdaptiveCpp takes 60 to 125 s at -O3 on the"
            + " largest tests), with 3 times that of wall-clock time as a backstop. A compile past the CPU limit is a slow compile,"
            + " counted apart and not a finding, unless the testbeds that finished the same test took a tenth of it or less"
            + " (median): then it is a compile-time outlier, a compile-hang finding. Once three builds of a test have finished,"
            + " the next is stopped at ten times their median (at least a twentieth of the limit), where it becomes an outlier."
            + " One that only waited past the wall-clock backstop is compiled again, and is never a finding (docs/guide.md, fuzz).")
    Double compileTimeout;

    @Option(names = "--recheck-timeout", paramLabel = "CPU-SECONDS", description = "CPU limit of the low-priority recheck"
            + " that tells whether a compile-time outlier finishes at all, which the triage lane runs once per new compile-time"
            + " bug and never for a known one (default: 4 times --compile-timeout).")
    Double recheckTimeout;

    /** The compile limit when --compile-timeout is not given. */
    static double defaultCompileTimeout(GenCommand.Lang lang) {
        return lang == GenCommand.Lang.sycl ? 180 : 60;
    }

    @Option(names = "--run-timeout", paramLabel = "SECONDS", defaultValue = "10", description = "Run time limit of a test binary (default: ${DEFAULT-VALUE}).")
    double runTimeout;

    @Option(names = "--run-share", paramLabel = "PERCENT", defaultValue = "25", description = "A build for any vector length"
            + " (SVE without -msve-vector-bits, RVV without -mrvv-vector-bits=zvl) runs at its drawn length, then at every other"
            + " length its configuration allows while running takes under PERCENT of the campaign's CPU (default: ${DEFAULT-VALUE});"
            + " 0 runs each build once.")
    double runSharePercent;

    @Option(names = "--triage-share", paramLabel = "PERCENT", defaultValue = "25", description = "Triage each finding in a"
            + " background lane (yarpj triage, niced, one finding at a time; one lane per shard, each finding claimed by one) and group the"
            + " findings into bugs: DIR/bugs.json and DIR/bugs/<id>/report.md. The lane starts a triage only while it has taken"
            + " under PERCENT of the campaign's CPU (default: ${DEFAULT-VALUE}); 0 turns it off. A campaign bounded by --count or"
            + " --seeds triages what is left before it exits, for at most a quarter of the tests' time (at least 3 minutes); one bounded"
            + " by --duration within it (see --duration); what is left"
            + " then, or when Ctrl-C or kill stops the campaign, --resume or yarpj bugs DIR --triage triages. A finding of a bug"
            + " already seen is labelled by a few builds, with the bug's blamed pass turned off and in the bug's configuration.")
    double triageSharePercent;

    @Option(names = "--reduce-budget", paramLabel = "TIME", defaultValue = "10m", description = "Time the triage lane gives the"
            + " reduction (yarpj reduce, one job) of each new bug's smallest finding, after every finding's quick triage; it then"
            + " triages the reduced test again, with its LLVM IR reproducer (default: ${DEFAULT-VALUE}; 0: no reduction).")
    String reduceBudget;

    @Option(names = "--reduce-candidates", paramLabel = "N", defaultValue = "0", description = "Candidates each phase of those"
            + " reductions may test (yarpj reduce --candidates), as well as --reduce-budget: the same reduction on a busy machine as"
            + " on an idle one, where the time budget alone buys less (default: no limit, the time budget alone).")
    int reduceCandidates;

    @Option(names = "--known-bugs", paramLabel = "DIR", description = "The record of known bugs (one directory per bug with its"
            + " bug.json) that the triage lane labels bugs with, showing the others as new (default: known-bugs of yarpj).")
    Path knownBugs;

    @Option(names = "--resume", description = "Continue the campaign in DIR (with --shard: that shard) with its saved "
            + "settings, skipping finished seeds. Settings given again must be the same.")
    boolean resume;

    @Option(names = "--shard", paramLabel = "K/N", description = "Run shard K (0 to N-1) of a campaign split N ways: seeds "
            + "first+K, first+K+N, ... Shards run at once, on one machine or many, into one DIR; the first to start saves "
            + "the settings (and a picked first seed) that the others must repeat. Each keeps its log in DIR/shards/K/"
            + " (docs/guide.md, Campaigns on a cluster: shards and Slurm).")
    String shard;

    @Option(names = "--quiet", description = "No progress line, only the summary.")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter outw = spec.commandLine().getOut();
        Path settings = CampaignSettings.file(out);
        Campaign.Shard shardOf = shard == null ? null : parseShard(shard);
        CampaignSettings saved = Files.exists(settings) ? readSettings(settings) : null;
        if (saved == null && resume) throw new Main.UsageError("nothing to resume: " + settings + " does not exist");
        if (saved != null && !resume && shardOf == null) {
            throw new Main.UsageError(out + " already holds a campaign: continue it with --resume, or choose another --out");
        }
        if (saved != null) {
            // A resumed campaign, or a shard joining one, keeps what it tests: settings given again must be the same.
            checkSameSettings(saved, shardOf);
            applySettings(saved);
            if (!resume && Files.exists(Campaign.home(out, shardOf).resolve("campaign.jsonl"))) {
                throw new Main.UsageError("shard " + shard + " already ran in " + out + ": continue it with --resume");
            }
        }
        if (compileTimeout == null) compileTimeout = defaultCompileTimeout(lang);
        if (jobs == null && resume) {
            try {
                jobs = Campaign.lastJobs(out, shardOf);
            } catch (IOException e) {
                throw new Main.UsageError("cannot read " + Campaign.home(out, shardOf).resolve("campaign.jsonl") + ": " + e.getClass().getSimpleName());
            }
        }
        if (jobs == null) jobs = Runtime.getRuntime().availableProcessors();
        if (jobs < 1) throw new Main.UsageError("-j must be at least 1");
        if (!(compileTimeout > 0 && compileTimeout < 1e6) || !(runTimeout > 0 && runTimeout < 1e6)
                || (recheckTimeout != null && !(recheckTimeout > 0 && recheckTimeout < 1e6))) {
            throw new Main.UsageError("timeouts must be positive numbers of seconds");
        }
        if (!(runSharePercent >= 0 && runSharePercent <= 100)) throw new Main.UsageError("--run-share must be a percentage from 0 to 100");
        if (!(triageSharePercent >= 0 && triageSharePercent <= 100)) throw new Main.UsageError("--triage-share must be a percentage from 0 to 100");
        Double seconds = duration == null ? null : parseDuration("--duration", duration);
        double reduceSeconds = reduceBudget.strip().equals("0") ? 0 : parseDuration("--reduce-budget", reduceBudget);
        if (reduceCandidates < 0) throw new Main.UsageError("--reduce-candidates must not be negative");
        long[] range = seedRange();
        boolean pickedSeed = range[0] < 0;
        seed = pickedSeed ? new SecureRandom().nextLong() & 0xFFFF_FFFFL : range[0];
        Long last = range[1] < 0 ? null : range[1];
        if (count != null && pickedSeed) last = seed + count - 1;
        GenPolicy genPolicy = policy.load();
        if (yarpgen != null && !generator.equals("yarpgen")) throw new Main.UsageError("--yarpgen is for --generator yarpgen");
        TestSource source = source(genPolicy); // refused here, before anything runs, when it cannot be used
        Path tbFile = testbedsFile != null ? testbedsFile : home().resolve("harness/testbeds.yaml");
        Testbeds tbs;
        try {
            tbs = Testbeds.load(tbFile);
        } catch (Testbeds.TestbedException e) {
            throw new Main.UsageError(e.getMessage());
        }
        List<Testbed> usable;
        try {
            usable = Testbeds.acceptingTheirFlags(tbs.usable(lang.language, w -> err.println("yarpj: warning: " + w)),
                    lang.language, w -> err.println("yarpj: warning: " + w));
        } catch (HarnessException e) {
            throw new Main.UsageError("campaign stopped: " + e.getMessage());
        }
        if (usable.isEmpty()) {
            throw new Main.UsageError("no usable testbed in " + tbFile + " for --lang=" + lang + ": install a compiler it names"
                    + (testbedsFile == null && lang.language != Language.SYCL && lang.language != Language.ISPC
                    ? " (scripts/install-compilers.sh installs GCC trunk and the newest clang), or use --testbeds harness/testbeds-system.yaml" : ""));
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
        versions.put(refCc, CompilerVersion.firstLine(refCc));
        if (lang.language == Language.ISPC) versions.putIfAbsent(refIspc, CompilerVersion.firstLine(refIspc));
        for (Testbed t : usable) versions.putIfAbsent(t.compiler(lang.language), CompilerVersion.firstLine(t.compiler(lang.language)));

        try {
            Files.createDirectories(out);
            if (!Files.isWritable(out)) throw new IOException("not writable");
            CampaignSettings mine = new CampaignSettings(lang.name(), CampaignSettings.absolute(policy.file), swarm,
                    CampaignSettings.absolute(tbFile), seed, last, seconds, compileTimeout, runTimeout,
                    shardOf == null ? null : shardOf.count(), generator, yarpgen == null ? null : yarpgen.toAbsolutePath().toString());
            if (saved == null && !mine.saveIfAbsent(settings)) {
                // Another shard started the campaign first: join it with its settings (its picked seed, for one).
                CampaignSettings theirs = readSettings(settings);
                if (pickedSeed) seed = null;
                checkSameSettings(theirs, shardOf);
                applySettings(theirs);
                last = theirs.lastSeed();
                pickedSeed = false;
                // What the campaign tests is theirs: its language, policy, swarm and generator.
                genPolicy = policy.load();
                source = source(genPolicy);
            }
        } catch (IOException e) {
            throw new Main.UsageError("cannot use results directory " + out + ": " + e.getClass().getSimpleName().replace("Exception", "")
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"));
        }
        CampaignConfig cfg = new CampaignConfig(lang.language, genPolicy, policy.file, swarm, tbs.reference(), usable,
                CampaignConfig.compileLimits(compileTimeout),
                CampaignConfig.compileLimits(recheckTimeout != null ? recheckTimeout : compileTimeout * CampaignConfig.RECHECK_FACTOR),
                CampaignConfig.runLimits(runTimeout), home().resolve("yarpj").toString(), versions, runSharePercent / 100, source);
        if (pickedSeed && !quiet) outw.println("first seed: " + seed);
        if (!quiet) {
            err.println("yarpj fuzz: " + usable.size() + " testbeds (" + String.join(", ", usable.stream()
                            .map(t -> t.space() == null ? t.name() : t.name() + ": " + t.space().size() + " configurations").toList())
                    + "), " + (generator.equals("yarpj") ? "" : source.version() + "'s programs, ") + jobs + " jobs, "
                    + (shardOf == null ? "" : "shard " + shardOf.index() + "/" + shardOf.count() + ", ") + "results in " + out + (ProcessRunner.isolatesNetwork() ? "" : " (warning: tests run with network access)"));
        }
        Map<String, Object> summary;
        KnownBugs known = knownBugs(knownBugs, true);
        TriageLane lane = triageSharePercent > 0 ? new TriageLane(out, triageSharePercent / 100, compileTimeout, known, reduceSeconds)
                .withRechecks(cfg.recheckLimits().cpuSeconds()).withReduceCandidates(reduceCandidates) : null;
        if (lane != null) lane.start();
        // --duration is the whole run's wall time: the tests end at it, or earlier when findings have waited a minute for the lane in the last
        // share of it, which then triages until it ends.
        long startNanos = System.nanoTime();
        double share = triageSharePercent / 100;
        Campaign campaign = new Campaign(cfg, out, new Campaign.Plan(seed, last, seconds, jobs, shardOf), err, quiet,
                lane == null ? null : lane::progress);
        if (lane != null && seconds != null) {
            double testsAtLeast = seconds * (1 - share);
            campaign.stoppingWhen(() -> (System.nanoTime() - startNanos) / 1e9 >= testsAtLeast && lane.behind());
        }
        try {
            summary = campaign.run();
        } catch (HarnessException e) {
            if (lane != null) lane.finish(false);
            throw new Main.UsageError(e.getMessage());
        }
        printSummary(outw, summary);
        printTargets(outw, usable);
        if (lane != null) {
            // Within --duration: what is left of it once the tests have ended. Bounded by --seeds or --count: a quarter of the
            // tests' time, at least a few minutes, so that a bounded campaign's end is foreseeable too.
            double tests = (System.nanoTime() - startNanos) / 1e9;
            double drain = seconds == null ? TriageLane.drainBound(tests) : Math.max(1, seconds - tests);
            if (!quiet) {
                err.println("triaging the findings left, at most " + Math.round(drain) + " s (Ctrl-C leaves them for --resume)");
                err.flush();
            }
            printBugs(outw, lane.finish(true, drain), BugBook.read(out, known), triageSharePercent);
        }
        return 0;
    }

    /** The source of this campaign's tests, or a one-line usage error. */
    private TestSource source(GenPolicy genPolicy) {
        try {
            return TestSources.of(generator, new TestSources.Setup(lang.language, genPolicy, policy.file, swarm,
                    home().resolve("yarpj").toString(), yarpgen == null ? null : yarpgen.toString()));
        } catch (TestSources.SourceException e) {
            throw new Main.UsageError(e.getMessage());
        }
    }

    /**
     * The record of known bugs in {@code dir} (null: the one yarpj ships), or a one-line error;
     * a directory given that does not exist is one too when it {@code mustExist}.
     */
    static KnownBugs knownBugs(Path dir, boolean mustExist) {
        if (dir != null && mustExist && !Files.isDirectory(dir)) throw new Main.UsageError("--known-bugs: not a directory: " + dir);
        try {
            return KnownBugs.load(dir != null ? dir : home().resolve("known-bugs"));
        } catch (IOException e) {
            throw new Main.UsageError("cannot read the known bugs: " + e.getMessage());
        }
    }

    /** The campaign's bugs, from its triaged findings, and what the lane took. */
    static void printBugs(PrintWriter w, TriageLane.Done lane, BugBook.Book book, double sharePercent) throws IOException {
        long open = book.bugs().stream().filter(b -> b.status().equals("open")).count();
        long known = book.known();
        w.printf("bugs: %d new, %d known (%d open on the newest compilers) from %d triaged finding(s)%s%s%n", book.bugs().size() - known,
                known, open, book.triaged(),
                book.refused().isEmpty() ? "" : "; " + book.refused().size() + " finding(s) triage refused",
                book.untriaged().isEmpty() ? "" : "; " + book.untriaged().size() + " not triaged yet (--resume, or yarpj bugs DIR --triage)");
        for (String line : BugBook.lines(book)) w.println("  " + line);
        for (String r : book.refused()) w.println("  refused: " + r);
        if (lane.active()) {
            String labelled = lane.labelled() == 0 ? "" : " (" + lane.labelled() + " of them labelled with a bug already seen by a few builds)";
            w.printf("triage lane: %d finding(s) triaged%s, %d refused and %d bug(s) reduced in this run, %.0f CPU-s, %.1f%% of the"
                    + " campaign's CPU (bound while tests ran: %.0f%%)%n", lane.triaged(), labelled, lane.refused(), lane.reduced(),
                    lane.cpuSeconds(), 100 * lane.share(), sharePercent);
        }
        w.flush();
    }

    /** Which target each testbed's programs ran on, and how, when any is not this machine. */
    private static void printTargets(PrintWriter w, List<Testbed> usable) {
        if (usable.stream().allMatch(t -> t.target().equals(Testbed.HOST) && !t.emulated())) return;
        Map<String, List<String>> byRun = new LinkedHashMap<>();
        for (Testbed t : usable) {
            String how = t.target() + (t.emulated() ? " (under " + String.join(" ", t.run()) + ")" : "");
            byRun.computeIfAbsent(how, k -> new java.util.ArrayList<>()).add(t.name());
        }
        byRun.forEach((how, names) -> w.println("target " + how + ": " + String.join(", ", names)));
        w.flush();
    }

    private static void printSummary(PrintWriter w, Map<String, Object> s) {
        w.printf("tests: %s in %.0f s (%.0f tests/hour)%s%n", s.get("tests"), (Double) s.get("seconds"), (Double) s.get("tests_per_hour"),
                "yarpj".equals(s.get("generator")) ? "" : ", programs by " + s.get("generator_version"));
        w.println("testbed runs: " + s.get("testbed_runs"));
        if (s.get("dropped") instanceof Map<?, ?> dropped) {
            w.println("dropped tests (no finding can come of them): " + dropped.values().stream().mapToLong(v -> ((Number) v).longValue()).sum()
                    + " " + dropped);
        }
        w.println("findings: " + s.get("findings") + ", distinct signatures: " + s.get("distinct_signatures"));
        @SuppressWarnings("unchecked")
        Map<String, Object> slow = (Map<String, Object>) s.get("slow_compiles");
        if (slow != null && ((Number) slow.get("runs")).longValue() > 0) {
            w.printf("slow compiles (past the limit, not findings): %s runs in %s tests, %.0f s, by testbed %s%n",
                    slow.get("runs"), slow.get("tests"), ((Number) slow.get("seconds")).doubleValue(), slow.get("by_testbed"));
        }
        if (s.get("configurations") instanceof Map<?, ?> spaces) {
            // Per axis value: runs, and runs that were findings (after the slash).
            spaces.forEach((tb, axes) -> {
                w.println("configurations drawn on " + tb + " (runs/findings):");
                ((Map<?, ?>) axes).forEach((axis, values) -> {
                    StringBuilder line = new StringBuilder("  " + axis + ":");
                    ((Map<?, ?>) values).forEach((v, n) -> line.append(' ').append(v).append(' ')
                            .append(((Map<?, ?>) n).get("runs")).append('/').append(((Map<?, ?>) n).get("findings")).append(';'));
                    w.println(line.substring(0, line.length() - 1));
                });
            });
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> cpu = (Map<String, Object>) s.get("cpu");
        w.printf("CPU: generation %.2f%%, compilation %.2f%%, execution %.2f%%, harness %.2f%%%n", cpu.get("generation_pct"),
                cpu.get("compilation_pct"), cpu.get("execution_pct"), cpu.get("harness_pct"));
        if (s.get("runs") instanceof Map<?, ?> runs && runs.get("builds") instanceof Number b && b.longValue() > 0) {
            w.printf("runs: %s of %s builds (%.2f per build, %.2f per compile CPU-second); calls of test(), one per input set: %.2f per build,"
                            + " %.2f per compile CPU-second%n", runs.get("runs"), b, ((Number) runs.get("runs_per_build")).doubleValue(),
                    ((Number) runs.get("runs_per_compile_cpu_s")).doubleValue(), ((Number) runs.get("calls_per_build")).doubleValue(),
                    ((Number) runs.get("calls_per_compile_cpu_s")).doubleValue());
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fresh = (Map<String, Object>) s.get("new_signatures");
        fresh.forEach((k, v) -> w.println("  " + k + "\n    " + v));
        w.flush();
    }

    /** Seconds in {@code d} (90s, 30m, 1h, 1h30m), or a one-line usage error naming {@code option}. */
    static double parseDuration(String option, String d) {
        Matcher m = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?").matcher(d.trim());
        if (d.isBlank() || !m.matches() || (m.group(1) == null && m.group(2) == null && m.group(3) == null)) {
            throw new Main.UsageError(option + " must look like 90s, 30m, 1h or 1h30m, got '" + d + "'");
        }
        if (d.replaceAll("\\D", "").length() > 12) throw new Main.UsageError(option + " is too long: '" + d + "'");
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

    /** "K/N" with 0 <= K < N: Slurm's $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT for an array 0..N-1. */
    static Campaign.Shard parseShard(String s) {
        Matcher m = Pattern.compile("(\\d{1,6})/(\\d{1,6})").matcher(s.trim());
        if (!m.matches() || Integer.parseInt(m.group(1)) >= Integer.parseInt(m.group(2))) {
            throw new Main.UsageError("--shard must be K/N with 0 <= K < N (shard K of N), got " + s);
        }
        return new Campaign.Shard(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** The first and last seed the options give, -1 for one they leave open (picked at random, or no end). */
    private long[] seedRange() {
        try {
            CampaignSettings.SeedRange r = CampaignSettings.SeedRange.of(seed, seeds, count);
            return new long[] {r.first(), r.last()};
        } catch (HarnessException e) {
            throw new Main.UsageError(e.getMessage());
        }
    }

    /**
     * Refuses a setting given on the command line that differs from the campaign's saved one.
     * Repeating the campaign's own command line (as a requeued Slurm job does, plus --resume)
     * is fine; -j and --duration belong to this run and may change.
     */
    private void checkSameSettings(CampaignSettings saved, Campaign.Shard shardOf) {
        var parsed = spec.commandLine().getParseResult();
        var given = new CampaignSettings.Given(
                parsed.hasMatchedOption("--lang") ? lang.name() : null,
                parsed.hasMatchedOption("--policy") ? CampaignSettings.absolute(policy.file) : null,
                parsed.hasMatchedOption("--swarm") ? swarm : null,
                parsed.hasMatchedOption("--testbeds") ? CampaignSettings.absolute(testbedsFile) : null,
                parsed.hasMatchedOption("--compile-timeout") ? compileTimeout : null,
                parsed.hasMatchedOption("--run-timeout") ? runTimeout : null,
                seed, seeds, count,
                parsed.hasMatchedOption("--generator") ? generator : null,
                parsed.hasMatchedOption("--yarpgen") ? yarpgen.toAbsolutePath().toString() : null);
        try {
            saved.check(given, shardOf == null ? null : shardOf.count(), out);
        } catch (HarnessException e) {
            throw new Main.UsageError(e.getMessage());
        }
    }

    private static CampaignSettings readSettings(Path file) {
        try {
            return CampaignSettings.read(file);
        } catch (CampaignSettings.Damaged e) {
            throw new Main.UsageError(e.getMessage());
        }
    }

    /**
     * Takes the saved campaign's settings. Finished seeds are skipped; the seed range is kept;
     * the duration applies to this run (in full, unless --duration gives another).
     */
    private void applySettings(CampaignSettings m) {
        try {
            lang = GenCommand.Lang.valueOf(m.lang());
        } catch (IllegalArgumentException e) {
            throw new Main.UsageError("cannot use " + CampaignSettings.file(out) + ": it is damaged (no language " + m.lang() + ")");
        }
        policy.file = m.policy() == null ? null : Path.of(m.policy());
        swarm = m.swarm();
        testbedsFile = Path.of(m.testbeds());
        seed = m.firstSeed();
        seeds = m.lastSeed() == null ? null : seed + ".." + m.lastSeed();
        count = null;
        if (duration == null && m.durationSeconds() != null) duration = m.durationSeconds().longValue() + "s";
        compileTimeout = m.compileTimeoutSeconds();
        runTimeout = m.runTimeoutSeconds();
        generator = m.generator();
        yarpgen = m.generatorTool() == null ? null : Path.of(m.generatorTool());
    }
}
