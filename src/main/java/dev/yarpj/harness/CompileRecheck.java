package dev.yarpj.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;

/**
 * Tells a compile-time outlier that finishes from one that never does, without holding a
 * campaign's job: the outlier's finding is saved at once with {@code "recheck": "pending"}
 * in its meta.json, and one low-priority thread ({@code nice -n 19}) compiles it again with
 * a longer limit and writes the verdict there. A niced compile gets little CPU while the
 * jobs are busy, so its limit is on CPU time; its wall-clock limit is a multiple of that.
 *
 * <p>A recheck that finishes in less CPU time than made the compile an outlier withdraws
 * the finding ({@link FindingStore#withdraw}): the first compile was slow only because it
 * shared the machine (a niced campaign beside other work reaches the wall-clock backstop
 * long before its CPU limit).
 *
 * <p>When the campaign ends, it waits for the rechecks still queued or running, at most one
 * recheck's CPU limit in all; what is left stays pending, and {@code yarpj fuzz --resume}
 * rechecks it.
 */
final class CompileRecheck {
    /** What meta.json says before the verdict. */
    static final String PENDING = "pending";
    /** The wall-clock limit of a niced recheck, in multiples of its CPU limit. */
    static final double WALL_PER_CPU = 4;

    /** What meta.json holds: the least CPU time a recompile must take to stay an outlier. */
    static final String OUTLIER_FROM = "outlier_from_cpu_s";

    /** @param outlierFrom the CPU seconds from which the compile is an outlier; NaN: not known (a finding of an older version) */
    private record Job(Path example, List<String> compile, double outlierFrom) {}

    private final Path scratch;
    private final ProcessRunner.Limits limits;
    /** Where a withdrawn finding goes; null: verdicts only (nothing is withdrawn). */
    private final FindingStore store;
    private final CampaignStats stats;
    private final LinkedBlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closing;

    /**
     * @param scratch where rechecks compile (their own directory)
     * @param cpuSeconds the CPU limit of a recheck (by default four times the compile limit)
     */
    CompileRecheck(Path scratch, double cpuSeconds, long memoryMiB, long fileSizeMiB, FindingStore store, CampaignStats stats) {
        this.scratch = scratch;
        this.store = store;
        this.stats = stats;
        this.limits = new ProcessRunner.Limits(cpuSeconds * WALL_PER_CPU, cpuSeconds, memoryMiB, fileSizeMiB);
        thread = new Thread(this::loop, "yarpj-recheck");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Rechecks the compile of the finding in {@code example} (its meta.json says pending).
     *
     * @param outlierFrom the CPU seconds from which that compile is an outlier: a recheck that
     *                    finishes in less withdraws the finding
     */
    void submit(Path example, List<String> compile, double outlierFrom) {
        outstanding.incrementAndGet();
        queue.add(new Job(example, List.copyOf(compile), outlierFrom));
    }

    /** Queues the rechecks a killed or ended run left pending in {@code results}; returns how many. */
    int resumePending(Path results) throws IOException {
        Path kind = results.resolve(Outcome.COMPILE_HANG.dir);
        if (!Files.isDirectory(kind)) return 0;
        List<Path> metas;
        try (Stream<Path> s = Files.walk(kind, 3)) {
            metas = s.filter(p -> p.getFileName().toString().equals("meta.json")).sorted().toList();
        }
        int n = 0;
        for (Path meta : metas) {
            Map<String, Object> m = read(meta);
            if (!PENDING.equals(m.get("recheck")) || !(m.get("commands") instanceof List<?> cmds) || cmds.isEmpty()) continue;
            List<String> compile = new ArrayList<>();
            for (Object a : (List<?>) cmds.get(cmds.size() - 1)) compile.add(String.valueOf(a));
            submit(meta.getParent(), compile, m.get(OUTLIER_FROM) instanceof Number b ? b.doubleValue() : Double.NaN);
            n++;
        }
        return n;
    }

    /** How many rechecks are queued or running: after {@link #finish}, how many findings stay pending. */
    int pending() {
        return outstanding.get();
    }

    private final java.util.concurrent.atomic.AtomicInteger outstanding = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * Stops taking new rechecks and waits for those queued, at most one recheck's CPU limit
     * in all (with the jobs done, a niced recheck runs at full speed, so one whole recheck
     * fits): a campaign's end is not held up for long. What is left stays pending.
     */
    void finish() throws InterruptedException {
        closing = true;
        queue.add(new Job(null, List.of(), Double.NaN)); // wakes the thread when the queue is empty
        thread.join((long) (maxWaitSeconds() * 1000));
        if (thread.isAlive()) {
            thread.interrupt();
            thread.join(10_000);
        }
    }

    /** The most a campaign's end waits for its rechecks, in seconds. */
    double maxWaitSeconds() {
        return limits.cpuSeconds() + 10;
    }


    private void loop() {
        while (true) {
            Job job;
            try {
                job = closing ? queue.poll() : queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (job == null || job.example() == null) {
                if (closing && queue.isEmpty()) return;
                continue;
            }
            try {
                recheck(job);
            } catch (IOException e) {
                if (Thread.currentThread().isInterrupted()) return; // the campaign ended: the finding stays pending
                try {
                    setVerdict(job.example(), "not done: " + e.getMessage());
                } catch (IOException ignored) {
                    // The finding itself is saved; only its recheck verdict is missing.
                }
            }
            outstanding.decrementAndGet();
        }
    }

    /**
     * Copies what the compile of a finding's test reads into {@code scratch}: its func and
     * driver files, headers, and the second file of its extern helpers, which the compile
     * builds with func (without it the recheck failed, "no such file": a verdict of nothing).
     */
    static void copySources(Path example, Path scratch) throws IOException {
        try (Stream<Path> s = Files.list(example)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                String n = p.getFileName().toString();
                if (n.startsWith("func") || n.startsWith("driver") || n.endsWith(".h") || n.startsWith(dev.yarpj.lower.CFamilyLowerer.HELPERS)) {
                    Files.copy(p, scratch.resolve(n), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private void recheck(Job job) throws IOException {
        TestRunner.clean(scratch);
        copySources(job.example(), scratch);
        List<String> cmd = new ArrayList<>(List.of("nice", "-n", "19"));
        cmd.addAll(job.compile());
        ProcessRunner.Result r = ProcessRunner.run(scratch, "recheck", cmd, limits);
        String verdict = verdict(r, limits);
        if (store != null && withdraws(r, job.outlierFrom())) {
            // The first compile was slow only because it waited for a core (past the wall-clock backstop at
            // low CPU) or was crowded out of its caches: no finding, but kept under withdrawn/ to be looked at.
            setVerdict(job.example(), String.format(Locale.ROOT, "withdrawn: %s, under the %.1f CPU-s that make an outlier",
                    verdict, job.outlierFrom()));
            String signature = Files.readString(job.example().resolveSibling("signature.txt")).strip();
            store.withdraw(job.example());
            if (stats != null) stats.withdrawFinding(Outcome.COMPILE_HANG, signature, job.example());
            return;
        }
        setVerdict(job.example(), verdict);
    }

    /** Whether a recheck shows the compile is no outlier: it finished, in less CPU time than makes one. */
    static boolean withdraws(ProcessRunner.Result r, double outlierFrom) {
        return r.ok() && !r.timedOut() && !r.overCpuLimit() && !Double.isNaN(outlierFrom) && r.cpuSeconds() < outlierFrom;
    }

    /** The verdict of a recheck: finished (in how long), a hang, or a failure. */
    static String verdict(ProcessRunner.Result r, ProcessRunner.Limits limits) {
        boolean cpuLimit = r.overCpuLimit();
        if (r.timedOut() || cpuLimit) {
            return String.format(Locale.ROOT, "hang: still compiling after %s", cpuLimit
                    ? String.format(Locale.ROOT, "%.0f CPU-s", limits.cpuSeconds())
                    : String.format(Locale.ROOT, "%.0f s", limits.timeoutSeconds()));
        }
        if (Signature.isResourceExhaustion(r.stderr())) return "resource hog: " + Signature.firstLine(r.stderr(), "error");
        if (r.ok()) return String.format(Locale.ROOT, "finished in %.1f CPU-s (%.1f s wall at low priority)", r.cpuSeconds(), r.wallSeconds());
        return "failed: " + Signature.firstLine(r.stderr(), "error");
    }

    static void setVerdict(Path example, String verdict) throws IOException {
        Path meta = example.resolve("meta.json");
        Map<String, Object> m = read(meta);
        m.put("recheck", verdict);
        FindingStore.atomicWrite(meta, JsonFiles.write(m) + "\n");
    }

    private static Map<String, Object> read(Path meta) throws IOException {
        Map<String, Object> m = JsonFiles.parseObject(Files.readString(meta));
        return m == null ? new LinkedHashMap<>() : m;
    }
}
