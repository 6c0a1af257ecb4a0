package dev.yarpj.harness;

import dev.yarpj.gen.GeneratedTest;

import dev.yarpj.lower.CFamilyLowerer;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.source.SourcedTest;
import dev.yarpj.source.TestSource;
import dev.yarpj.source.TestSources;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.stream.Stream;

/**
 * Runs one test through every testbed: generate in-process, build the driver once at -O0
 * with the reference compiler, compile func per testbed, link, run, and compare each output
 * with the prediction and with the other testbeds. Every finding is saved before the test's
 * log lines are written.
 *
 * <p>An ISPC test has a C++ driver and two lowerings of one program: {@code func.ispc} and
 * its C++ twin {@code func.cpp}, both defining the extern "C" function {@code test}. The
 * reference's ispc first writes {@code func_ispc.h}, the header the driver includes when
 * built with {@code -DYARPJ_ISPC}; that one driver object then links with each ispc
 * testbed's object and with the object of each testbed that compiles {@code func.cpp}.
 */
final class TestRunner {
    private final CampaignConfig cfg;
    private final FindingStore store;
    private final CampaignLog log;
    private final CampaignStats stats;
    private final boolean ispc;
    /** The compiler of the driver and of every link: the reference's for the driver's language. */
    private final String ref;
    /** ISPC only: the command that writes func_ispc.h, the header of the ISPC function for the driver; else null. */
    private final List<String> headerCmd;
    private final List<String> driverCmd;

    /** Where the tests come from: yarpj's generator, or another one ({@link TestSource}). */
    private final TestSource source;
    /** For another generator's tests, which have no prediction: what confirms a symptom before it is a finding. */
    private final ReferenceOracle oracle;

    TestRunner(CampaignConfig cfg, FindingStore store, CampaignLog log, CampaignStats stats) {
        this(cfg, store, log, stats, null);
    }

    /** With {@code generate} null, tests come from the campaign's source; tests of the harness may give their own. */
    TestRunner(CampaignConfig cfg, FindingStore store, CampaignLog log, CampaignStats stats, LongFunction<GeneratedTest> generate) {
        this.source = generate == null ? cfg.source() : TestSources.yarpj(
                new TestSources.Setup(cfg.lang(), cfg.policy(), cfg.policyFile(), cfg.swarm(), cfg.yarpj(), null), generate);
        this.oracle = new ReferenceOracle(cfg);
        this.cfg = cfg;
        this.store = store;
        this.log = log;
        this.stats = stats;
        Language lang = cfg.lang();
        ispc = lang == Language.ISPC;
        ref = cfg.reference().compiler(lang.driverLanguage());
        driverCmd = Testbed.driverCommand(lang, ref);
        if (ispc) {
            if (cfg.reference().ispcCompiler() == null) throw new HarnessException("the reference has no ispc to write func_ispc.h");
            List<String> h = new ArrayList<>(List.of(cfg.reference().ispcCompiler(), "--woff"));
            // The header does not depend on the target; a target this CPU runs keeps ispc on its usual paths.
            cfg.testbeds().stream().filter(t -> t.runsIspc(lang) && t.ispcTarget() != null).findFirst()
                    .ifPresent(t -> h.add("--target=" + t.ispcTarget()));
            h.addAll(List.of("func.ispc", "-h", "func_ispc.h"));
            headerCmd = List.copyOf(h);
        } else {
            headerCmd = null;
        }
    }

    private String ext() {
        return cfg.lang().extension;
    }

    /** The files of the test this thread runs that a finding keeps: the source's, the expected output and yarpj's program. */
    private List<String> testFiles() {
        List<String> f = new ArrayList<>(List.of("func." + ext(), CFamilyLowerer.HELPERS + ext()));
        if (ispc) f.add("func." + Language.CPP.extension);
        if (cfg.lang() == Language.SYCL) f.add("func_ref.cpp");
        f.addAll(List.of("driver." + cfg.lang().driverLanguage().extension, "init.h", "expected.txt", ProgramFile.NAME));
        SourcedTest t = currentTest.get();
        if (t != null) for (String name : t.files().keySet()) if (!f.contains(name)) f.add(f.size() - 2, name);
        return f;
    }

    /** The commands that build the driver object: for ISPC, the header first. */
    private List<List<String>> driverSteps() {
        return ispc ? List.of(headerCmd, driverCmd) : List.of(driverCmd);
    }

    /** The first line of a compile error: ispc says "Error", gcc and clang "error". */
    private String errorLine(String stderr) {
        return ispc ? Signature.firstError(stderr) : Signature.firstLine(stderr, "error");
    }

    /**
     * What the done line of the test this thread runs will say beyond its rows: the findings
     * saved (kind, signature id), generation time and the program's loop coverage. A worker
     * thread runs one test at a time.
     */
    private final ThreadLocal<Map<String, Object>> current = new ThreadLocal<>();
    /** The test this thread runs: a finding saves its IR and recipe ({@link ProgramFile}) for reduction. */
    private final ThreadLocal<SourcedTest> currentTest = new ThreadLocal<>();
    /** The testbeds of the test this thread runs: those with a configuration space as its seed drew them. */
    private final ThreadLocal<List<Testbed>> currentBeds = new ThreadLocal<>();

    private List<Testbed> beds() {
        List<Testbed> b = currentBeds.get();
        return b != null ? b : cfg.testbeds();
    }

    private Testbed bed(String name) {
        return beds().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * How a finding's signature names a testbed: by its name, and for a drawn configuration
     * with the options drawn too, so that findings of different configurations are told apart.
     */
    private String signed(String name) {
        String drawn = bed(name).drawnLabel();
        return drawn.isEmpty() ? name : name + " [" + drawn + "]";
    }

    private String signed(List<String> names) {
        return String.join(",", names.stream().map(this::signed).toList());
    }

    void run(long seed, Path scratch) throws IOException {
        clean(scratch);
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, Object> done = new LinkedHashMap<>();
        done.put("findings", new ArrayList<Map<String, Object>>());
        current.set(done);
        currentTest.remove();
        currentBeds.set(cfg.testbeds().stream().map(t -> t.drawn(seed)).toList());
        settingsOf.get().clear();
        stats.takeTestCpu(); // this test's CPU from here
        SourcedTest test;
        var threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        try {
            test = source.make(seed);
        } catch (TestSource.Unusable e) {
            // Another generator that gave no test for this seed: not the compilers' doing.
            stats.addGeneration(threads.getCurrentThreadCpuTime() - cpu0);
            drop(seed, "generator: " + e.getMessage(), rows);
            return;
        } catch (RuntimeException | StackOverflowError e) {
            stats.addGeneration(threads.getCurrentThreadCpuTime() - cpu0);
            if (!source.name().equals("yarpj")) {
                // Another generator's failure of any kind is not yarpj's bug, nor a compiler's.
                drop(seed, "generator: " + e.getClass().getSimpleName() + ": " + e.getMessage(), rows);
                return;
            }
            generatorFailure(seed, e, rows);
            finish(seed, rows);
            return;
        }
        long genNanos = threads.getCurrentThreadCpuTime() - cpu0 + (long) (test.childCpuSeconds() * 1e9);
        currentTest.set(test);
        stats.addGeneration(genNanos);
        done.put("gen_s", genNanos / 1e9);
        if (test.generated() != null) done.putAll(Coverage.of(test.generated().prediction()));
        for (Map.Entry<String, String> f : test.files().entrySet()) Files.writeString(scratch.resolve(f.getKey()), f.getValue());
        // A prediction is there before any build: a finding of the driver's build keeps it too.
        if (test.expected() != null) Files.writeString(scratch.resolve("expected.txt"), test.expected() + "\n");

        List<List<String>> steps = driverSteps();
        for (int i = 0; i < steps.size(); i++) {
            if (!referenceStep(seed, scratch, steps.subList(0, i + 1), rows)) {
                finish(seed, rows);
                return;
            }
        }
        String expected;
        if (test.expected() != null) {
            expected = test.expected();
        } else {
            // No prediction: the reference's build at -O0 decides what the test must print.
            ReferenceOracle.Reference r = oracle.reference(scratch);
            stats.addCompile(r.compileSeconds());
            stats.addRun(r.runSeconds());
            if (r.dropped() != null) {
                drop(seed, r.dropped(), rows);
                return;
            }
            expected = r.output();
            Files.writeString(scratch.resolve("expected.txt"), expected + "\n");
        }

        Map<String, String> outputs = new LinkedHashMap<>();
        Map<String, List<List<String>>> commands = new LinkedHashMap<>();
        Map<Outcome, Map<String, ProcessRunner.Result>> failedRuns = new LinkedHashMap<>();
        Map<String, Double> finished = new LinkedHashMap<>(); // CPU seconds of the compiles that ended within their limit
        Map<String, List<String>> slow = new LinkedHashMap<>(); // the compile commands of those past the time limit
        Map<String, Double> cut = new LinkedHashMap<>(); // those stopped at the bar of an outlier (CompileTimeRule.limit), with that bar
        String second = CFamilyLowerer.HELPERS + ext();
        if (!test.files().containsKey(second)) second = null;
        double ceiling = cfg.compileLimits().cpuSeconds();
        // Every testbed once, in order; then again those stopped at a bar before the builds after them had finished,
        // when the whole test's bar is higher, and those that waited past their wall-clock allowance under a bar.
        List<Testbed> order = new ArrayList<>(beds());
        for (int i = 0; i < order.size(); i++) {
            Testbed tb = order.get(i);
            boolean retry = i >= beds().size();
            double lim = CompileTimeRule.limit(ceiling, finished.values());
            if (retry && cut.containsKey(tb.name()) && cut.get(tb.name()) >= lim - 0.01) continue; // its bar is the test's
            if (retry) {
                cut.remove(tb.name());
                rows.removeIf(r -> tb.name().equals(r.get("testbed")));
            }
            String obj = "func-" + tb.name() + ".o";
            String bin = "test-" + tb.name();
            List<String> compile = tb.compileCommand(cfg.lang(), obj, second);
            List<String> link = tb.linkCommand(cfg.lang(), ref, obj, bin);
            List<String> exec = tb.execCommand("./" + bin);
            ProcessRunner.Limits runLimits = cfg.runLimitsOf(tb);
            List<List<String>> all = new ArrayList<>(steps);
            all.addAll(List.of(compile, link, exec));
            commands.put(tb.name(), List.copyOf(all));
            // A compile stopped at a bar keeps the wall-clock backstop of the limit: the bar is on CPU time, and a busy
            // machine's compile that waits for a core must not reach a backstop three times a bar of a few seconds.
            // A compile again (it waited past its backstop, or its bar rose) gets twice the backstop: the machine may be that busy.
            double wall = cfg.compileLimits().timeoutSeconds() * (retry ? 2 : 1);
            ProcessRunner.Limits limits = new ProcessRunner.Limits(wall, lim, cfg.compileLimits().memoryMiB(), cfg.compileLimits().fileSizeMiB());
            ProcessRunner.Result c = ProcessRunner.run(scratch, tb.name() + ".compile", compile, limits);
            stats.addCompile(c.cpuSeconds());
            cannotRun(c, compile);
            boolean pastTime = c.pastTimeLimit(lim);
            // "CPU time limit exceeded" is what the shell says of a compile killed at its CPU limit: past its time, not its memory.
            boolean exhausted = !pastTime && Signature.isResourceExhaustion(c.stderr());
            if (pastTime || exhausted) {
                // Judged by CPU time: one that only waited past its wall-clock allowance (a busy machine) is compiled
                // again after the others, and if it waits that long again it is a slow compile, never a finding.
                boolean byCpu = pastTime && c.reachedCpuLimit(lim);
                boolean waited = pastTime && !byCpu;
                boolean atBar = byCpu && lim < ceiling;
                // Past the bar of an outlier: a finding whatever else it would do, so stopped there; compiled again with
                // the whole test's bar when it was stopped before the builds after it had finished.
                if (atBar) cut.put(tb.name(), lim);
                if (!retry && (waited || (atBar && i < beds().size() - 1))) order.add(tb);
                if (byCpu && !atBar) slow.put(tb.name(), compile);
                if (!atBar && (retry || !waited)) stats.addSlowCompile(tb.name(), c.wallSeconds());
                // Not linked nor run; a retry's row replaces this one.
                Map<String, Object> row = row(seed, tb, atBar ? Outcome.COMPILE_HANG : Outcome.SLOW_COMPILE, c.cpuSeconds(), 0);
                row.put("wall_s", c.wallSeconds());
                row.put("limit", atBar ? "outlier bar" : exhausted ? "memory" : byCpu ? "time" : "wall-clock time");
                if (atBar) row.put("bar_cpu_s", Math.round(lim * 100) / 100.0);
                rows.add(row);
                continue;
            }
            finished.put(tb.name(), c.cpuSeconds());
            if (!c.ok()) {
                boolean crash = c.signalled() || Signature.isCompilerCrash(c.stderr());
                Outcome kind = crash ? Outcome.COMPILER_CRASH : Outcome.PROGRAM_REJECTED;
                String sig = crash ? tb.compiler(cfg.lang()) + ": " + crashCause(c) : tb.compiler(cfg.lang()) + " rejected: " + errorLine(c.stderr());
                save(kind, sig, seed, scratch, tb.name(), List.of(compile), Map.of("compile.stderr", c.stderr()),
                        repro(kind, tb, compile, null), Map.of("testbed", tb.name(),
                                "note", crash ? "compiler crash" : "a compile error on a generated program: a compiler bug or a generator bug"));
                rows.add(row(seed, tb, kind, c.cpuSeconds(), 0));
                continue;
            }
            ProcessRunner.Result l = ProcessRunner.run(scratch, tb.name() + ".link", link, cfg.compileLimits());
            stats.addCompile(l.cpuSeconds());
            cannotRun(l, link);
            // With -flto the link is where the optimizers run: past a limit it is a slow compile, killed or
            // failing with an internal error a compiler crash, as for the compile above; not a rejected program.
            if (l.pastTimeLimit(cfg.compileLimits().cpuSeconds()) || Signature.isResourceExhaustion(l.stderr())) {
                stats.addSlowCompile(tb.name(), c.wallSeconds() + l.wallSeconds());
                Map<String, Object> row = row(seed, tb, Outcome.SLOW_COMPILE, c.cpuSeconds() + l.cpuSeconds(), 0);
                row.put("wall_s", c.wallSeconds() + l.wallSeconds());
                row.put("limit", l.pastTimeLimit(cfg.compileLimits().cpuSeconds()) ? "time" : "memory");
                row.put("step", "link");
                rows.add(row);
                continue;
            }
            if (!l.ok()) {
                boolean crash = l.signalled() || Signature.isCompilerCrash(l.stderr());
                Outcome kind = crash ? Outcome.COMPILER_CRASH : Outcome.PROGRAM_REJECTED;
                String sig = crash ? tb.compiler(cfg.lang()) + " (link): " + crashCause(l) : "link failed: " + Signature.linkError(l.stderr());
                save(kind, sig, seed, scratch, tb.name(), List.of(compile, link), Map.of("link.stderr", l.stderr()), repro(kind, tb, compile, link),
                        Map.of("testbed", tb.name()));
                rows.add(row(seed, tb, kind, c.cpuSeconds() + l.cpuSeconds(), 0));
                continue;
            }
            // One build, one run per emulator setting it is valid under (every vector length of scalable code).
            BuildRuns br = runEverySetting(scratch, tb, bin, runLimits, expected);
            if (br.settingsRun() > 1 || br.settingsLeft() > 0) settingsOf.get().put(tb.name(), br);
            if (br.shown() != null && !br.shown().equals(tb.settings().get(0))) {
                // The finding is reproduced where it showed: its meta.json, commands and repro.sh name that setting.
                Testbed at = tb.runningUnder(br.shown());
                currentBeds.set(beds().stream().map(t -> t.name().equals(tb.name()) ? at : t).toList());
                List<List<String>> cmds = new ArrayList<>(all);
                cmds.set(cmds.size() - 1, at.execCommand("./" + bin));
                commands.put(tb.name(), List.copyOf(cmds));
            }
            Outcome kind;
            if (br.failed() != null) {
                kind = br.failed().timedOut() ? Outcome.RUNTIME_HANG : Outcome.RUNTIME_CRASH;
                failedRuns.computeIfAbsent(kind, k -> new LinkedHashMap<>()).put(tb.name(), br.failed());
            } else {
                outputs.put(tb.name(), br.output());
                kind = br.output().equals(expected) ? Outcome.PASS : Outcome.WRONG_CODE;
            }
            Map<String, Object> row = row(seed, tb, kind, c.cpuSeconds() + l.cpuSeconds(), br.cpuSeconds());
            row.put("runs", br.settingsRun());
            if (br.settingsRun() > 1 || br.settingsLeft() > 0) {
                row.put("run_at", br.order());
                if (!br.failing().isEmpty()) row.put("failing_at", br.failing());
            }
            if (br.settingsLeft() > 0) row.put("runs_left", br.settingsLeft());
            rows.add(row);
        }
        if (test.expected() == null && (!failedRuns.isEmpty() || outputs.values().stream().anyMatch(o -> !o.equals(expected)))) {
            // No prediction: a symptom is a finding only if a second compiler agrees with the reference and the sanitizers find nothing.
            // Every testbed printing one other output than the reference at -O0: UB that the sanitizers may not see, far
            // likelier than one bug in every compiler; else the second opinion and the sanitizers.
            boolean allAgainst = outputs.size() >= 2 && failedRuns.isEmpty() && new java.util.HashSet<>(outputs.values()).size() == 1;
            String why = allAgainst ? "every testbed agrees against the reference at -O0" : oracle.distrust(scratch, expected);
            double[] spent = oracle.takeDistrustCpu();
            stats.addCompile(spent[0]);
            stats.addRun(spent[1]);
            if (why != null) {
                for (Map<String, Object> r : rows) {
                    Object o = r.get("outcome");
                    if (Outcome.WRONG_CODE.dir.equals(o) || Outcome.RUNTIME_CRASH.dir.equals(o) || Outcome.RUNTIME_HANG.dir.equals(o)) {
                        r.put("outcome", DROPPED);
                        r.put("symptom", o);
                    }
                }
                failedRuns.clear();
                outputs.clear();
                current.get().put("dropped", why);
                stats.addDropped(why);
            }
        }
        for (Map.Entry<Outcome, Map<String, ProcessRunner.Result>> e : failedRuns.entrySet()) {
            runtimeFailure(seed, scratch, e.getKey(), e.getValue(), commands);
        }
        wrongCode(seed, scratch, expected, outputs, commands);
        compileTimeOutliers(seed, scratch, finished, slow, cut, commands);
        finish(seed, rows);
    }

    /**
     * The outcome of a testbed's row whose symptom was not trusted, in a test with no prediction
     * that the oracle dropped ({@link ReferenceOracle}); the row's {@code symptom} says what it showed.
     */
    static final String DROPPED = "dropped";

    /** Logs a test that is not run (or judged) any further, and why: another generator's test the oracle cannot trust. */
    private void drop(long seed, String why, List<Map<String, Object>> rows) throws IOException {
        current.get().put("dropped", why);
        stats.addDropped(why);
        finish(seed, rows);
    }

    /** Of the testbeds of the test this thread runs whose build ran under several settings: how those runs went. */
    private final ThreadLocal<Map<String, BuildRuns>> settingsOf = ThreadLocal.withInitial(LinkedHashMap::new);

    /**
     * How one build's runs went: its output (of the first run that printed something other
     * than {@code expected}, else {@code expected}), or the first run that crashed or hung;
     * the setting that showed the symptom (null when none did); the labels of the settings it
     * failed at, passed at and ran at (in the order they ran), and how many settings were left unrun
     * to keep the campaign's run share ({@link CampaignConfig#runShare}).
     */
    private record BuildRuns(String output, ProcessRunner.Result failed, Testbed.EmulatorSetting shown, List<String> failing,
                             List<String> passing, List<String> order, int settingsLeft, double cpuSeconds) {
        int settingsRun() {
            return order.size();
        }
    }

    /**
     * Runs the build {@code bin} of {@code tb} under each of the testbed's emulator settings, the
     * drawn one first, then the others while the campaign's runs take under
     * {@link CampaignConfig#runShare} of its CPU.
     */
    private BuildRuns runEverySetting(Path scratch, Testbed tb, String bin, ProcessRunner.Limits limits, String expected) throws IOException {
        String output = null;
        ProcessRunner.Result failed = null;
        Testbed.EmulatorSetting shown = null;
        List<String> failing = new ArrayList<>();
        List<String> passing = new ArrayList<>();
        List<String> order = new ArrayList<>();
        double cpu = 0;
        int done = 0;
        List<Testbed.EmulatorSetting> settings = tb.settings();
        for (Testbed.EmulatorSetting at : settings) {
            if (done > 0 && stats.runShare() >= cfg.runShare()) break;
            List<String> exec = tb.runningUnder(at).execCommand("./" + bin);
            String step = tb.name() + (done == 0 ? "" : "." + at.label().replaceAll("[^A-Za-z0-9_.=-]", "_")) + ".run";
            ProcessRunner.Result r = ProcessRunner.run(scratch, step, exec, limits);
            stats.addRun(r.cpuSeconds());
            cpu += r.cpuSeconds();
            if (r.timedOut()) {
                // Past its limit, a run gets one more try with six times the limit before it counts as a
                // hang: on a loaded machine, or on a first run that compiles its kernels just in time
                // (AdaptiveCpp's generic target), a test is slow, not hung.
                r = ProcessRunner.run(scratch, step.replace(".run", ".rerun"), exec,
                        new ProcessRunner.Limits(limits.timeoutSeconds() * 6, limits.memoryMiB(), limits.fileSizeMiB()));
                stats.addRun(r.cpuSeconds());
                cpu += r.cpuSeconds();
            }
            done++;
            order.add(at.label());
            boolean bad = r.timedOut() || !r.ok();
            String got = bad ? null : r.stdout().strip();
            boolean right = !bad && got.equals(expected);
            (right ? passing : failing).add(at.label());
            // A crash or hang is what the finding shows, else the first wrong output.
            if (failed == null && bad) {
                failed = r;
                shown = at;
            } else if (failed == null && output == null && !right) {
                output = got;
                shown = at;
            }
        }
        stats.addBuildRuns(done, (int) expected.lines().count());
        if (failed != null) output = null;
        else if (output == null) output = expected;
        return new BuildRuns(output, failed, shown, failing, passing, order, settings.size() - done, cpu);
    }

    /**
     * Saves one finding for the compiles of this test {@link CompileTimeRule} calls outliers:
     * past the limit, stopped at the bar of an outlier, or finished but many times slower than
     * the others. Whether one that did not finish ever does is asked once per bug, not here: the
     * triage lane asks it of a new compile-time bug ({@link #RECHECK_BY_LANE}).
     */
    private void compileTimeOutliers(long seed, Path scratch, Map<String, Double> finished, Map<String, List<String>> slow,
                                     Map<String, Double> cut, Map<String, List<List<String>>> commands) throws IOException {
        double limit = cfg.compileLimits().cpuSeconds();
        CompileTimeRule.Outliers o = CompileTimeRule.outliers(limit, finished, List.copyOf(slow.keySet()), cut);
        if (!o.any()) return;
        // Testbed order, those past the limit first, then those stopped at the bar: the finding's commands and repro.sh are the first one's.
        List<String> names = new ArrayList<>();
        for (Testbed t : beds()) if (o.testbeds().containsKey(t.name()) && slow.containsKey(t.name())) names.add(t.name());
        for (Testbed t : beds()) if (o.testbeds().containsKey(t.name()) && cut.containsKey(t.name())) names.add(t.name());
        for (Testbed t : beds()) if (o.testbeds().containsKey(t.name()) && !names.contains(t.name())) names.add(t.name());
        String first = names.get(0);
        Testbed tb = bed(first);
        List<String> compile = compileOf(commands.get(first));
        boolean hang = slow.containsKey(first);
        Map<String, Object> times = new LinkedHashMap<>();
        for (Testbed t : beds()) {
            if (slow.containsKey(t.name())) times.put(t.name(), String.format(java.util.Locale.ROOT, "> %.0f", limit));
            else if (cut.containsKey(t.name())) times.put(t.name(), String.format(java.util.Locale.ROOT, "> %.1f", cut.get(t.name())));
            else if (finished.containsKey(t.name())) times.put(t.name(), finished.get(t.name()));
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("testbed", first);
        Map<String, Object> outliers = new LinkedHashMap<>();
        for (String n : names) outliers.put(n, o.testbeds().get(n));
        meta.put("outliers", outliers);
        meta.put("rule", o.reason());
        meta.put("compile_cpu_s", times);
        double outlierFrom = Math.max(o.bar(), CompileTimeRule.FLOOR_OF_LIMIT * limit);
        meta.put(CompileRecheck.OUTLIER_FROM, Math.round(outlierFrom * 1000) / 1000.0);
        boolean stopped = hang || cut.containsKey(first);
        meta.put("recheck", !stopped ? "not needed: it finished in " + o.testbeds().get(first) : RECHECK_BY_LANE);
        // The symptom of one stopped at the bar, as of one that finished: at least the bar's CPU time.
        double slowerThan = hang ? 0 : cut.containsKey(first) ? cut.get(first) : o.bar();
        save(Outcome.COMPILE_HANG, "compile-time outlier on " + signed(names), seed, scratch, first,
                List.of(compile), Map.of(), repro(Outcome.COMPILE_HANG, tb, compile, null, slowerThan), meta);
    }

    /**
     * What the meta.json of an outlier that did not finish says of its recheck: the triage lane
     * asks whether it finishes at all once per new compile-time bug, and never for a known one.
     */
    public static final String RECHECK_BY_LANE = "once per new bug, by the triage lane";

    /**
     * Runs the last of {@code steps}, a step of the driver's build (the ISPC header, then the
     * driver object), and saves a finding if it fails; returns whether it succeeded.
     */
    private boolean referenceStep(long seed, Path scratch, List<List<String>> steps, List<Map<String, Object>> rows) throws IOException {
        List<String> cmd = steps.get(steps.size() - 1);
        boolean header = cmd == headerCmd;
        String step = header ? "header" : "driver";
        ProcessRunner.Result r = ProcessRunner.run(scratch, step, cmd, cfg.compileLimits());
        stats.addCompile(r.cpuSeconds());
        cannotRun(r, cmd);
        if (r.ok()) return true;
        if (currentTest.get() != null && currentTest.get().expected() == null) {
            // Another generator's driver that the reference cannot build at -O0 (YARPGen's biggest tests): no test to judge.
            current.get().put("dropped", "reference " + step + " at -O0 does not build");
            stats.addDropped("reference " + step + " at -O0 does not build");
            return false;
        }
        // The driver is plain code the generator wrote: its rejection is our bug or the reference compiler's.
        // The header is ispc's first look at func.ispc: a crash there is ispc's, signed like one on a testbed.
        boolean crashText = Signature.isCompilerCrash(r.stderr());
        Outcome kind = r.pastTimeLimit(cfg.compileLimits().cpuSeconds()) || Signature.isResourceExhaustion(r.stderr()) ? Outcome.COMPILE_HANG
                : r.signalled() || crashText ? Outcome.COMPILER_CRASH : Outcome.PROGRAM_REJECTED;
        String sig = header && kind == Outcome.COMPILER_CRASH
                ? cmd.get(0) + ": " + crashCause(r)
                : "reference " + step + " build: " + (header ? errorLine(r.stderr()) : Signature.firstLine(r.stderr(), "error"));
        save(kind, sig, seed, scratch, "reference", steps, Map.of(step + ".stderr", r.stderr()), repro(kind, null, cmd, null),
                Map.of("testbed", header ? "reference (ispc header func_ispc.h)" : "reference (driver at -O0)"));
        rows.add(row(seed, "reference", kind, r.cpuSeconds(), 0));
        return false;
    }

    /** Testbeds whose output differs from the prediction, with a majority vote as a second opinion. */
    private void wrongCode(long seed, Path scratch, String expected, Map<String, String> outputs,
                           Map<String, List<List<String>>> commands) throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, String> e : outputs.entrySet()) if (!e.getValue().equals(expected)) wrong.add(e.getKey());
        if (wrong.isEmpty()) return;
        Map<String, Integer> votes = new LinkedHashMap<>();
        for (String o : outputs.values()) votes.merge(o, 1, Integer::sum);
        int top = Collections.max(votes.values());
        List<String> leaders = votes.entrySet().stream().filter(e -> e.getValue() == top).map(Map.Entry::getKey).toList();
        String majority = leaders.size() == 1 ? leaders.get(0) : null; // a tie has no majority
        StringBuilder outText = new StringBuilder("prediction: " + expected + "\n");
        outputs.forEach((k, v) -> outText.append(k).append(": ").append(v).append('\n'));
        if (outputs.size() >= 2 && wrong.size() == outputs.size() && votes.size() == 1) {
            // Every compiler agrees and the interpreter does not: the prediction is what is wrong.
            Testbed any = bed(wrong.get(0));
            List<List<String>> cmds = commands.get(any.name());
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("expected", expected);
            meta.put("outputs", outputs);
            save(Outcome.GENERATOR_FAILURE, "prediction differs from every testbed", seed, scratch, "generator", cmds,
                    Map.of("outputs.txt", outText.toString()), repro(Outcome.WRONG_CODE, any, compileOf(cmds), linkOf(cmds)), meta);
            return;
        }
        Testbed first = bed(wrong.get(0));
        List<List<String>> cmds = commands.get(first.name());
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("testbeds", wrong);
        meta.put("expected", expected);
        // With several input sets the driver prints a checksum per set: which sets each wrong testbed got wrong.
        if (expected.contains("\n")) {
            Map<String, Object> sets = new LinkedHashMap<>();
            for (String t : wrong) sets.put(t, dev.yarpj.interp.Prediction.differingSets(expected, outputs.get(t)));
            meta.put("input_sets_failing", sets);
        }
        meta.put("outputs", outputs);
        meta.put("majority", majority);
        meta.put("majority_agrees_with_prediction", majority == null ? null : majority.equals(expected));
        save(Outcome.WRONG_CODE, "wrong code on " + signed(wrong), seed, scratch, first.name(), cmds,
                Map.of("outputs.txt", outText.toString()), repro(Outcome.WRONG_CODE, first, compileOf(cmds), linkOf(cmds)), meta);
    }

    /** Runtime crashes or hangs of one test, as one finding whose signature names the testbeds affected. */
    private void runtimeFailure(long seed, Path scratch, Outcome kind, Map<String, ProcessRunner.Result> byTestbed,
                                Map<String, List<List<String>>> commands) throws IOException {
        String first = byTestbed.keySet().iterator().next();
        ProcessRunner.Result r = byTestbed.get(first);
        String how = kind == Outcome.RUNTIME_HANG ? "runtime hang"
                : r.signalled() ? "killed by signal " + (r.exitCode() - 128) : "exit code " + r.exitCode();
        Testbed tb = bed(first);
        List<List<String>> cmds = commands.get(first);
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("testbeds", new ArrayList<>(byTestbed.keySet()));
        meta.put("exit_code", r.exitCode());
        save(kind, how + " on " + signed(new ArrayList<>(byTestbed.keySet())), seed, scratch, first, cmds,
                Map.of("run.stdout", r.stdout(), "run.stderr", r.stderr()), repro(kind, tb, compileOf(cmds), linkOf(cmds)), meta);
    }

    /** A testbed's commands end with compile, link and run. */
    private static List<String> compileOf(List<List<String>> cmds) {
        return cmds.get(cmds.size() - 3);
    }

    private static List<String> linkOf(List<List<String>> cmds) {
        return cmds.get(cmds.size() - 2);
    }

    /**
     * A command the shell could not run (126: not executable, 127: not found) means the
     * harness or the testbed file is broken, not the compiler: stop rather than file every
     * test as a finding.
     */
    static void cannotRun(ProcessRunner.Result r, List<String> cmd) {
        if (!r.timedOut() && (r.exitCode() == 126 || r.exitCode() == 127)) {
            throw new HarnessException("cannot run " + cmd.get(0) + " (exit " + r.exitCode() + "): "
                    + r.stderr().lines().findFirst().orElse(""));
        }
    }

    private void generatorFailure(long seed, Throwable e, List<Map<String, Object>> rows) throws IOException {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        String sig = e.getClass().getSimpleName() + ": " + Signature.mask(String.valueOf(e.getMessage()));
        List<String> regen = regenerateCommand(seed);
        save(Outcome.GENERATOR_FAILURE, sig, seed, null, "generator", List.of(regen), Map.of("stack.txt", trace.toString()),
                "#!/usr/bin/env bash\n# Reproduces: generator failure for seed " + seed + "\nset -u\nwork=$(mktemp -d); trap 'rm -rf \"$work\"' EXIT\n"
                        + shell(regen) + " --out \"$work\" --quiet; rc=$?\n"
                        + "if [ $rc -eq 1 ]; then echo \"reproduced: generator rejects seed " + seed + "\"; exit 0; fi\n"
                        + "echo \"not reproduced (exit $rc)\"; exit 1\n",
                Map.of("testbed", "generator", "error", String.valueOf(e.getMessage())));
        rows.add(row(seed, "generator", Outcome.GENERATOR_FAILURE, 0, 0));
    }

    private List<String> regenerateCommand(long seed) {
        return source.regenerate(seed);
    }

    /** Saves a finding; returns its example directory, or null when its signature has enough examples. */
    private Path save(Outcome kind, String signature, long seed, Path scratch, String testbed, List<List<String>> cmds,
                      Map<String, String> outputs, String repro, Map<String, Object> extraMeta) throws IOException {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("kind", kind.dir);
        meta.put("signature", signature);
        meta.put("seed", seed);
        meta.put("lang", cfg.lang().cliName());
        meta.put("generator", source.name());
        meta.put("generator_version", source.version());
        if (currentTest.get() != null && currentTest.get().generated() == null) {
            // Another generator's test: how to write it again, and that the reference's build at -O0 is its oracle.
            meta.put("regenerate", source.regenerate(seed));
            boolean judged = kind == Outcome.WRONG_CODE || kind == Outcome.RUNTIME_CRASH || kind == Outcome.RUNTIME_HANG;
            List<String> second = oracle.secondOpinion();
            meta.put("oracle", !judged ? "none needed: a " + kind.dir + " does not depend on the output"
                    : "reference at -O0" + (second == null ? " (no compiler of the other family here)" : ", " + String.join(" ", second)
                    + " at -O0 agreeing") + ", clean under ASan and UBSan");
        } else {
            meta.put("policy", cfg.policy().name() + (cfg.swarm() ? "+swarm" : ""));
            if (cfg.policyFile() != null) meta.put("policy_file", cfg.policyFile().toAbsolutePath().toString());
        }
        meta.put("testbed", testbed);
        meta.putAll(extraMeta);
        meta.put("reference", ref);
        Testbed where = beds().stream().filter(t -> t.name().equals(testbed)).findFirst().orElse(cfg.reference());
        if (!where.target().equals(Testbed.HOST)) meta.put("target", where.target());
        if (!where.drawn().isEmpty()) meta.put("options", where.drawn()); // the configuration its seed drew, axis by axis
        if (where.emulated()) meta.put("run", where.run()); // how its programs run: the emulator and its options
        // A build run under several emulator settings (vector lengths): which of them show the symptom.
        List<String> named = extraMeta.get("testbeds") instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of(testbed);
        Map<String, Object> settings = new LinkedHashMap<>();
        for (String n : named) {
            BuildRuns br = settingsOf.get().get(n);
            if (br == null) continue;
            Map<String, Object> at = new LinkedHashMap<>();
            at.put("failing", br.failing());
            at.put("passing", br.passing());
            if (br.settingsLeft() > 0) at.put("not_run", br.settingsLeft());
            settings.put(n, at);
        }
        if (!settings.isEmpty()) meta.put("settings", settings);
        if (ispc) meta.put("header", headerCmd.get(0));
        meta.put("commands", cmds);
        meta.put("compilers", cfg.compilerVersions());
        Map<String, String> files = new LinkedHashMap<>(outputs);
        StringBuilder c = new StringBuilder();
        for (List<String> cmd : cmds) c.append(shell(cmd)).append('\n');
        files.put("commands.txt", c.toString());
        files.put("repro.sh", repro);
        files.put("meta.json", JsonFiles.write(meta) + "\n");
        // Written only for a finding (most tests have none), and only once per test.
        GeneratedTest test = currentTest.get() == null ? null : currentTest.get().generated();
        if (scratch != null && test != null && test.recipe() != null && !Files.exists(scratch.resolve(ProgramFile.NAME))) {
            new ProgramFile(test.program(), test.recipe()).write(scratch.resolve(ProgramFile.NAME));
        }
        Path example = store.save(kind, signature, seed, files, scratch, scratch == null ? List.of() : testFiles());
        stats.addFinding(kind, signature, example);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("kind", kind.dir);
        f.put("signature", Signature.id(signature));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> found = (List<Map<String, Object>>) current.get().get("findings");
        found.add(f);
        return example;
    }

    /** What a compiler crash's signature says of it: its crash message, or the signal that killed it. */
    private static String crashCause(ProcessRunner.Result r) {
        return Signature.isCompilerCrash(r.stderr()) ? Signature.ofCrash(r.stderr()) : "killed by signal " + (r.exitCode() - 128);
    }

    /**
     * A script that rebuilds what is needed in a temporary directory and checks the symptom:
     * exit 0 and "reproduced: ..." when it shows, exit 1 when it does not.
     */
    private String repro(Outcome kind, Testbed tb, List<String> compile, List<String> link) {
        return repro(kind, tb, compile, link, 0);
    }

    /**
     * @param slowerThan for a compile-time outlier that finished: the seconds its compile must
     *                   take for the symptom to show (0: the symptom is not finishing within the limit)
     */
    private String repro(Outcome kind, Testbed tb, List<String> compile, List<String> link, double slowerThan) {
        String ref = shell(List.of(this.ref));
        StringBuilder s = new StringBuilder("#!/usr/bin/env bash\n");
        s.append("# Reproduces: ").append(kind.dir).append(tb == null ? " (reference compiler)" : " on testbed " + tb.name()).append('\n');
        s.append("set -u\ncd \"$(dirname \"$0\")\"\nwork=$(mktemp -d); trap 'rm -rf \"$work\"' EXIT\n");
        // Compilers named without a path may be yarpj's private ones, which its launcher puts first on the PATH.
        Path tools = Path.of(cfg.yarpj()).toAbsolutePath().getParent().resolve(".tools");
        s.append("# yarpj's private compilers (scripts/install-compilers.sh, install-ispc.sh), found first as its launcher finds them\n")
                .append("PATH=").append(shell(List.of(tools.resolve("compilers/bin") + ":" + tools.resolve("ispc/bin")))).append(":\"$PATH\"\n");
        if (cfg.lang() == Language.SYCL) s.append("export ACPP_DEBUG_LEVEL=0   # AdaptiveCpp's notes go to stdout\n");
        // Objects (and the ISPC header) go to the temporary directory, never beside the finding.
        String header = ispc ? shell(redirect(headerCmd, "-h", "$work/func_ispc.h")) : null;
        List<String> drv = redirect(driverCmd, "-o", "$work/driver.o");
        if (ispc) drv.addAll(1, List.of("-I", "$work")); // init.h includes func_ispc.h
        String driverOnly = shell(drv);
        String cc = shell(compile == headerCmd ? redirect(compile, "-h", "$work/func_ispc.h")
                : compile == driverCmd ? drv : redirect(compile, "-o", "$work/func.o"));
        // A reference driver failure needs the header first, like everything that links.
        if (ispc && compile == driverCmd) s.append(header).append(" || { echo 'header does not build'; exit 2; }\n");
        String driver = (ispc ? header + " || { echo 'header does not build'; exit 2; }\n" : "")
                + driverOnly + " || { echo 'driver does not build'; exit 2; }\n";
        String linker = shell(tb == null ? List.of(this.ref) : tb.linker(cfg.lang(), this.ref));
        Testbed runs = tb == null ? cfg.reference() : tb;
        String test = shell(runs.execCommand("$work/test")); // under the target's emulator, if any
        int runLimit = (int) Math.ceil(cfg.runLimitsOf(runs).timeoutSeconds());
        String linkOnly = linker + " \"$work/driver.o\" \"$work/func.o\" -o \"$work/test\" " + Testbed.MATH_LIBRARY;
        String linkCmd = linkOnly + " || { echo 'link failed'; exit 2; }\n";
        // Run alone, as a repro is, a compile's wall-clock time is its CPU time.
        int limit = (int) Math.ceil(cfg.compileLimits().cpuSeconds());
        switch (kind) {
            case WRONG_CODE -> s.append(driver).append(cc).append(" || { echo 'func does not build'; exit 2; }\n").append(linkCmd)
                    .append("got=$(timeout ").append(runLimit).append(' ').append(test).append("); rc=$?\n")
                    .append("[ $rc -eq 0 ] || { echo \"not reproduced: the test exits with $rc\"; exit 1; }\n")
                    .append("got=$(echo $got); want=$(echo $(cat expected.txt))\n")
                    .append("if [ \"$got\" != \"$want\" ]; then echo \"reproduced: wrong code: got $got, expected $want\"; exit 0; fi\n");
            // A crash at an -flto link: the func is built, then the link is what crashes.
            case COMPILER_CRASH -> s.append(link == null ? "" : driver + cc + " || { echo 'func does not build'; exit 2; }\n")
                    .append(link == null ? cc : linkOnly).append(" 2> \"$work/err\"; rc=$?\n")
                    .append("if [ $rc -gt 128 ] || grep -Eq '").append(ispc ? Signature.CRASH_TEXT_ISPC : Signature.CRASH_TEXT).append("' \"$work/err\"; then\n")
                    .append("  echo \"reproduced: compiler crash: $(grep -Em1 '")
                    .append(ispc ? "FATAL ERROR|Assertion|LLVM ERROR|[Ii]nternal|error|Error" : "internal compiler error|Assertion|UNREACHABLE|LLVM ERROR|error")
                    .append("' \"$work/err\")\"; exit 0\nfi\n");
            case COMPILE_HANG -> {
                if (slowerThan > 0) {
                    // It finished, many times slower than the other testbeds: the symptom is its time.
                    String bar = String.format(java.util.Locale.ROOT, "%.1f", slowerThan);
                    // By CPU time, as the campaign judged it: a busy machine makes a compile wait, not work.
                    // At most a little more CPU than the bar: a compile stopped there by the campaign may never finish.
                    int cpuCap = (int) Math.ceil(slowerThan) + 2;
                    s.append("TIMEFORMAT='%3U %3S'\n")
                            .append("( ulimit -t ").append(cpuCap).append("; time timeout ")
                            .append((int) Math.ceil(cpuCap * ProcessRunner.Limits.COMPILE_WALL_PER_CPU)).append(' ')
                            .append(cc).append(" ) 2> \"$work/cpu\"; rc=$?\n")
                            .append("secs=$(tail -n 1 \"$work/cpu\" | awk '{ printf \"%.1f\", $1 + $2 }')\n")
                            .append("if [ $rc -eq 124 ] || awk -v s=\"$secs\" 'BEGIN { exit !(s >= ").append(bar).append(") }'; then ")
                            .append("echo \"reproduced: compile took $secs CPU-s (the other testbeds' median times ")
                            .append((int) CompileTimeRule.FACTOR).append(": ").append(bar).append(" CPU-s)\"; exit 0; fi\n");
                } else {
                    s.append("timeout ").append(limit).append(' ').append(cc).append("; rc=$?\n")
                            .append("if [ $rc -eq 124 ]; then echo 'reproduced: compile still running after ").append(limit).append(" s'; exit 0; fi\n");
                }
            }
            case PROGRAM_REJECTED -> s.append(cc).append(" 2> \"$work/err\"; rc=$?\n")
                    .append(link == null ? "" : "[ $rc -eq 0 ] && { " + (ispc ? header + " && " : "") + driverOnly + " && "
                            + linkOnly + " 2>> \"$work/err\"; rc=$?; }\n")
                    .append("if [ $rc -ne 0 ] && [ $rc -le 128 ] && [ $rc -ne 126 ] && [ $rc -ne 127 ]; then echo \"reproduced: rejected: $(grep -m1 ")
                    .append(ispc ? "-i " : "").append("error \"$work/err\")\"; exit 0; fi\n");
            case RUNTIME_CRASH -> s.append(driver).append(cc).append(" || { echo 'func does not build'; exit 2; }\n").append(linkCmd)
                    .append("timeout ").append(runLimit).append(' ').append(test).append(" > /dev/null; rc=$?\n")
                    .append("if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 126 ] && [ $rc -ne 127 ]; then echo \"reproduced: test exits with $rc\"; exit 0; fi\n");
            case RUNTIME_HANG -> s.append(driver).append(cc).append(" || { echo 'func does not build'; exit 2; }\n").append(linkCmd)
                    .append("timeout ").append(runLimit).append(' ').append(test).append(" > /dev/null; rc=$?\n")
                    .append("if [ $rc -eq 124 ]; then echo 'reproduced: test still running at the time limit'; exit 0; fi\n");
            default -> { }
        }
        s.append("echo 'not reproduced'; exit 1\n");
        return s.toString();
    }

    /** The command with the file after {@code option} (-o, or ispc's -h) replaced by {@code file}. */
    private static List<String> redirect(List<String> cmd, String option, String file) {
        List<String> c = new ArrayList<>(cmd);
        int o = c.indexOf(option);
        if (o >= 0 && o + 1 < c.size()) c.set(o + 1, file);
        return c;
    }

    static String shell(List<String> cmd) {
        StringBuilder sb = new StringBuilder();
        for (String a : cmd) {
            if (sb.length() > 0) sb.append(' ');
            boolean work = a.equals("$work") || a.startsWith("$work/");
            if (work || a.matches("[A-Za-z0-9_./=+,:@-]+")) {
                sb.append(work ? "\"" + a + "\"" : a);
            } else {
                sb.append('\'').append(a.replace("'", "'\\''")).append('\'');
            }
        }
        return sb.toString();
    }

    private static Map<String, Object> row(long seed, Testbed tb, Outcome o, double compileS, double runS) {
        Map<String, Object> r = row(seed, tb.name(), o, compileS, runS);
        if (!tb.drawn().isEmpty()) r.put("options", tb.drawn());
        return r;
    }

    /**
     * One testbed's line of campaign.jsonl. {@code compileS} and {@code runS} are CPU seconds of
     * the children (compile plus link; the run), so that a busy machine does not inflate them.
     */
    private static Map<String, Object> row(long seed, String testbed, Outcome o, double compileS, double runS) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("seed", seed);
        r.put("testbed", testbed);
        r.put("outcome", o.dir);
        r.put("compile_s", compileS);
        r.put("run_s", runS);
        return r;
    }

    /** Logs the test: its rows, then its done line with the time, the findings saved and what {@link #current} gathered. */
    private void finish(long seed, List<Map<String, Object>> rows) throws IOException {
        Map<String, Object> done = new LinkedHashMap<>();
        done.put("event", "done");
        done.put("seed", seed);
        done.put("t", System.currentTimeMillis() / 1000.0);
        done.putAll(current.get());
        done.put("cpu_s", Math.round(stats.takeTestCpu() * 1000) / 1000.0);
        current.remove();
        List<Map<String, Object>> all = new ArrayList<>(rows);
        all.add(done);
        log.append(all);
        stats.addTest(rows);
        currentBeds.remove();
    }

    /** Creates {@code dir} if need be and empties it (its files; scratch directories hold no subdirectories). */
    static void clean(Path dir) throws IOException {
        Files.createDirectories(dir);
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) Files.deleteIfExists(p);
        }
    }
}
