package dev.yarpj.harness;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Counts and CPU time of a campaign, shared by its workers. */
final class CampaignStats {
    private final long startNanos = System.nanoTime();
    private final long startCpuNanos = processCpuNanos();
    private long tests;
    private final Map<Outcome, Long> runs = new EnumMap<>(Outcome.class);
    private final Map<Outcome, Long> findings = new EnumMap<>(Outcome.class);
    /** Each signature's findings in this run, by kind and signature: a withdrawn finding may leave none. */
    private final Map<String, Long> signatures = new java.util.HashMap<>();
    private final Map<String, String> newFindings = new LinkedHashMap<>();
    private long generationNanos;
    private double compileSeconds;
    private double runSeconds;
    private long slowTests;
    private double slowSeconds;
    private final Map<String, Long> slowByTestbed = new java.util.TreeMap<>();

    /** Of testbeds with a configuration space: the runs and findings of each alternative drawn. */
    private final OptionCounts byOption = new OptionCounts();

    synchronized void addTest(List<Map<String, Object>> rows) {
        tests++;
        if (rows.stream().anyMatch(r -> Outcome.SLOW_COMPILE.dir.equals(r.get("outcome")))) slowTests++;
        for (Map<String, Object> r : rows) {
            for (Outcome o : Outcome.values()) if (o.dir.equals(r.get("outcome"))) runs.merge(o, 1L, Long::sum);
            if (TestRunner.DROPPED.equals(r.get("outcome"))) droppedRuns++;
            if (r.get("options") instanceof Map<?, ?> options) byOption.add(String.valueOf(r.get("testbed")), options, String.valueOf(r.get("outcome")));
        }
    }

    /** Tests dropped, by why: another generator's tests that no compiler can be judged on (see {@link TestRunner}). */
    private final Map<String, Long> dropped = new java.util.TreeMap<>();

    /** Testbed rows of dropped tests (their outcome {@link TestRunner#DROPPED}). */
    private long droppedRuns;

    synchronized void addDropped(String why) {
        dropped.merge(why, 1L, Long::sum);
    }

    synchronized void addFinding(Outcome kind, String signature, Path example) {
        findings.merge(kind, 1L, Long::sum);
        if (signatures.merge(kind.dir + "/" + signature, 1L, Long::sum) == 1 && example != null) {
            newFindings.put(kind.dir + ": " + signature, example.toString());
        }
    }

    /** The CPU seconds of the test each worker thread runs (generation, builds, runs): its done line's {@code cpu_s}. */
    private final ThreadLocal<double[]> testCpu = ThreadLocal.withInitial(() -> new double[1]);

    /** The CPU seconds counted for this thread's test since the last call, and starts again from 0. */
    double takeTestCpu() {
        double[] c = testCpu.get();
        double s = c[0];
        c[0] = 0;
        return s;
    }

    synchronized void addGeneration(long nanos) {
        generationNanos += nanos;
        testCpu.get()[0] += nanos / 1e9;
    }

    synchronized void addCompile(double s) {
        compileSeconds += s;
        testCpu.get()[0] += s;
    }

    /** A compile past its limit: the seconds it held a job (it counts in the compile CPU too). */
    synchronized void addSlowCompile(String testbed, double seconds) {
        slowSeconds += seconds;
        slowByTestbed.merge(testbed, 1L, Long::sum);
    }

    synchronized void addRun(double s) {
        runSeconds += s;
        testCpu.get()[0] += s;
    }

    private long builds;
    private long buildRuns;
    private long calls;

    /**
     * A build that ran: {@code runs} times, once per emulator setting it was run under, each
     * run calling {@code test()} once per input set ({@code sets}).
     */
    synchronized void addBuildRuns(int runs, int sets) {
        builds++;
        buildRuns += runs;
        calls += (long) runs * sets;
    }

    /** The share of the children's CPU (compiles, links and runs) spent running tests so far. */
    synchronized double runShare() {
        double total = compileSeconds + runSeconds;
        return total <= 0 ? 0 : runSeconds / total;
    }

    synchronized long tests() {
        return tests;
    }

    double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    synchronized String progress(Double secondsLeft) {
        double mins = Math.max(elapsedSeconds() / 60, 1e-9);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("tests %d (%.1f/min)", tests, tests / mins));
        for (Outcome o : Outcome.values()) {
            Long n = runs.get(o);
            if (n != null && n > 0) sb.append(' ').append(o.dir).append(' ').append(n);
        }
        if (secondsLeft != null) sb.append(String.format(" | left %d:%02d", (long) (secondsLeft / 60), (long) (secondsLeft % 60)));
        return sb.toString();
    }

    /** The end-of-campaign report; also the content of summary.json. */
    synchronized Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        double secs = elapsedSeconds();
        m.put("tests", tests);
        if (!dropped.isEmpty()) m.put("dropped", new LinkedHashMap<>(dropped));
        m.put("seconds", secs);
        m.put("tests_per_hour", tests / Math.max(secs, 1e-9) * 3600);
        Map<String, Object> r = new LinkedHashMap<>();
        runs.forEach((k, v) -> r.put(k.dir, v));
        if (droppedRuns > 0) r.put(TestRunner.DROPPED, droppedRuns);
        m.put("testbed_runs", r);
        Map<String, Object> f = new LinkedHashMap<>();
        findings.forEach((k, v) -> f.put(k.dir, v));
        m.put("findings", f);
        m.put("distinct_signatures", signatures.size());
        Map<String, Object> slow = new LinkedHashMap<>();
        slow.put("runs", slowByTestbed.values().stream().mapToLong(Long::longValue).sum());
        slow.put("tests", slowTests);
        slow.put("seconds", slowSeconds);
        slow.put("by_testbed", new LinkedHashMap<>(slowByTestbed));
        m.put("slow_compiles", slow);
        if (!byOption.isEmpty()) {
            // Which parts of each configuration space the campaign exercised, and where its findings were.
            Map<String, Object> spaces = new LinkedHashMap<>();
            byOption.counts().forEach((tb, axes) -> {
                Map<String, Object> a = new LinkedHashMap<>();
                axes.forEach((axis, values) -> {
                    Map<String, Object> v = new LinkedHashMap<>();
                    values.forEach((value, n) -> {
                        Map<String, Object> c = new LinkedHashMap<>();
                        c.put("runs", n.runs());
                        c.put("findings", n.findings());
                        v.put(value, c);
                    });
                    a.put(axis, v);
                });
                spaces.put(tb, a);
            });
            m.put("configurations", spaces);
        }
        double gen = generationNanos / 1e9;
        double jvm = Math.max(0, (processCpuNanos() - startCpuNanos) / 1e9);
        double harness = Math.max(0, jvm - gen);
        double total = gen + compileSeconds + runSeconds + harness;
        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("generation_s", gen);
        cpu.put("compilation_s", compileSeconds);
        cpu.put("execution_s", runSeconds);
        cpu.put("harness_s", harness);
        cpu.put("generation_pct", 100 * gen / Math.max(total, 1e-9));
        cpu.put("compilation_pct", 100 * compileSeconds / Math.max(total, 1e-9));
        cpu.put("execution_pct", 100 * runSeconds / Math.max(total, 1e-9));
        cpu.put("harness_pct", 100 * harness / Math.max(total, 1e-9));
        m.put("cpu", cpu);
        // A build runs once per emulator setting it is valid under (every vector length of scalable code).
        Map<String, Object> execs = new LinkedHashMap<>();
        execs.put("builds", builds);
        execs.put("runs", buildRuns);
        execs.put("runs_per_build", builds == 0 ? 0.0 : buildRuns / (double) builds);
        execs.put("runs_per_compile_cpu_s", buildRuns / Math.max(compileSeconds, 1e-9));
        // Each run calls test() once per input set: the checks one compile buys.
        execs.put("calls_of_test", calls);
        execs.put("calls_per_build", builds == 0 ? 0.0 : calls / (double) builds);
        execs.put("calls_per_compile_cpu_s", calls / Math.max(compileSeconds, 1e-9));
        m.put("runs", execs);
        m.put("new_signatures", new LinkedHashMap<>(newFindings));
        return m;
    }

    private static long processCpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) return sun.getProcessCpuTime();
        return 0;
    }
}
