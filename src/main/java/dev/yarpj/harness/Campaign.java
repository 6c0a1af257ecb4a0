package dev.yarpj.harness;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fuzzing campaign: workers take consecutive seeds, run each test through the testbeds
 * and save what they find under the results directory. A campaign killed at any point
 * can be resumed: finished seeds (those with a done line in the log) are skipped, an
 * unfinished one is run again, and saving a finding twice changes nothing.
 *
 * <p>A campaign may be split into shards that run at once, on one machine or many, into
 * one results directory: shard K of N takes every N-th seed from the first seed plus K,
 * and keeps its log, summary, lock and scratch space under {@code shards/K/}. Shards share
 * only the finding directories, which {@link FindingStore} writes without locks.
 */
public final class Campaign {
    /** Shard {@code index} (0 to {@code count}-1) of {@code count}. */
    public record Shard(int index, int count) {
        public Shard {
            if (count < 1 || index < 0 || index >= count) throw new IllegalArgumentException("shard " + index + "/" + count);
        }

        /** The seed of the {@code n}-th test (from 0) of this shard, or -1 past the end of the seed space. */
        long seed(long first, long n) {
            try {
                return Math.addExact(first + index, Math.multiplyExact(n, count));
            } catch (ArithmeticException e) {
                return -1;
            }
        }
    }

    /**
     * How many tests to run and when to stop. {@code lastSeed} null and {@code seconds} null: run until killed.
     * {@code shard} null: the whole campaign in one process.
     */
    public record Plan(long firstSeed, Long lastSeed, Double seconds, int jobs, Shard shard) {
        public Plan(long firstSeed, Long lastSeed, Double seconds, int jobs) {
            this(firstSeed, lastSeed, seconds, jobs, null);
        }
    }

    /** Where a campaign (or one of its shards) keeps its own files: the results directory, or shards/K under it. */
    public static Path home(Path results, Shard shard) {
        return shard == null ? results : results.resolve("shards").resolve(Integer.toString(shard.index()));
    }

    /**
     * The jobs of the last run logged in this campaign (or shard), or null when none is: a
     * resumed run keeps them unless told otherwise, so that a campaign measured on one core
     * per side is not continued on all of them.
     */
    public static Integer lastJobs(Path results, Shard shard) throws IOException {
        return CampaignLog.lastJobs(home(results, shard).resolve("campaign.jsonl"));
    }

    private final CampaignConfig cfg;
    private final Path results;
    private final Plan plan;
    private final PrintWriter err;
    private final boolean quiet;
    /** What the progress line adds at its end (the triage lane's bug counts, say), or null. */
    private final java.util.function.Supplier<String> progressExtra;

    public Campaign(CampaignConfig cfg, Path results, Plan plan, PrintWriter err, boolean quiet) {
        this(cfg, results, plan, err, quiet, null);
    }

    public Campaign(CampaignConfig cfg, Path results, Plan plan, PrintWriter err, boolean quiet, java.util.function.Supplier<String> progressExtra) {
        this.cfg = cfg;
        this.results = results;
        this.plan = plan;
        this.err = err;
        this.quiet = quiet;
        this.progressExtra = progressExtra;
    }

    /** Whether every finding is kept, not only a few examples of each signature. */
    private boolean everyFinding;

    /** Keeps every finding, not a few per signature: a benchmark labels each one with its bug ({@code yarpj bench --bugs}). */
    public Campaign keepingEveryFinding() {
        everyFinding = true;
        return this;
    }

    /** When to stop the tests before their deadline (checked every second), or null. */
    private java.util.function.BooleanSupplier stopWhen;

    /**
     * Stops the tests, those running too, as soon as {@code when} holds: a campaign bounded by
     * {@code --duration} gives its triage lane the end of the duration when findings wait.
     */
    public Campaign stoppingWhen(java.util.function.BooleanSupplier when) {
        stopWhen = when;
        return this;
    }

    /** Runs the campaign and returns its summary (also written to summary.json). */
    public Map<String, Object> run() throws IOException, InterruptedException {
        Shard shard = plan.shard() != null ? plan.shard() : new Shard(0, 1);
        Path home = Files.createDirectories(home(results, plan.shard()));
        try (FileChannel lockFile = FileChannel.open(home.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = lockFile.tryLock()) {
            if (lock == null) {
                throw new HarnessException("another campaign is running in " + home
                        + (plan.shard() == null ? "" : " (shard " + shard.index() + "/" + shard.count() + ")"));
            }
            FindingStore store = new FindingStore(results, home.resolve(".tmp"), plan.shard() == null ? "main" : "shard-" + shard.index(),
                    everyFinding ? Integer.MAX_VALUE : FindingStore.EXAMPLES);
            store.cleanStaging();
            Path logFile = home.resolve("campaign.jsonl");
            Set<Long> finished = CampaignLog.finishedSeeds(logFile);
            CampaignStats stats = new CampaignStats();
            AtomicLong next = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            ending.set(false);
            // Scratch directories are fresh for each run: processes orphaned by a killed run may still write to old ones.
            Path work = home.resolve(".work");
            ScratchDir.delete(work);
            Path runScratch = work.resolve(Long.toString(ProcessHandle.current().pid()));
            long deadline = plan.seconds() == null ? Long.MAX_VALUE : System.nanoTime() + (long) (plan.seconds() * 1e9);
            try (CampaignLog log = new CampaignLog(logFile)) {
                log.start(plan.jobs(), plan.shard());
                TestRunner runner = new TestRunner(cfg, store, log, stats);
                List<Thread> workers = new ArrayList<>();
                List<Throwable> failures = new ArrayList<>();
                for (int w = 0; w < plan.jobs(); w++) {
                    Path scratch = runScratch.resolve("w" + w);
                    Thread t = new Thread(() -> {
                        try {
                            while (!stop.get() && !ending.get() && System.nanoTime() < deadline) {
                                long seed = shard.seed(plan.firstSeed(), next.getAndIncrement());
                                if (seed < 0 || (plan.lastSeed() != null && seed > plan.lastSeed())) break;
                                if (finished.contains(seed)) continue;
                                runner.run(seed, scratch);
                            }
                        } catch (ProcessRunner.Stopped e) {
                            // Stopped at the deadline: the test has no done line, so --resume runs it again; nothing is lost.
                        } catch (IOException | RuntimeException | Error e) {
                            if (ending.get()) return; // what stopping a test at the deadline broke on its way out

                            // One worker's failure (a full disk, a compiler that cannot run) stops them all.
                            stop.set(true);
                            synchronized (failures) {
                                failures.add(e);
                            }
                        }
                    }, "yarpj-worker-" + w);
                    workers.add(t);
                    t.start();
                }
                progressUntilDone(workers, stats, deadline);
                for (Thread t : workers) ProcessRunner.release(t);
                if (!failures.isEmpty()) {
                    Throwable f = failures.get(0);
                    throw new HarnessException("campaign stopped: " + (f.getMessage() != null ? f.getMessage() : f.toString()));
                }
            }
            Map<String, Object> summary = stats.summary();
            summary.put("skipped_finished_seeds", finished.size());
            summary.put("generator", cfg.source().name());
            summary.put("generator_version", cfg.source().version());
            FindingStore.atomicWrite(home.resolve("summary.json"), JsonFiles.write(summary) + "\n");
            ScratchDir.delete(runScratch);
            return summary;
        }
    }


    /** Set when the tests stop at the deadline (or when {@link #stopWhen} holds): a test stopped then is no failure. */
    private final AtomicBoolean ending = new AtomicBoolean();

    private void progressUntilDone(List<Thread> workers, CampaignStats stats, long deadline) throws InterruptedException {
        boolean tty = System.console() != null;
        long lastPrint = 0;
        for (Thread t : workers) {
            while (t.isAlive()) {
                t.join(1000);
                long now = System.nanoTime();
                if (!ending.get() && (now >= deadline || (stopWhen != null && stopWhen.getAsBoolean()))) {
                    // A run ends on time: the tests still running are stopped, their compiles and runs killed.
                    ending.set(true);
                    for (Thread w : workers) ProcessRunner.stop(w);
                }
                if (quiet || (!tty && now - lastPrint < 30_000_000_000L)) continue;
                lastPrint = now;
                Double left = deadline == Long.MAX_VALUE ? null : Math.max(0, (deadline - now) / 1e9);
                String extra = progressExtra == null ? null : progressExtra.get();
                String line = stats.progress(left) + (extra == null || extra.isEmpty() ? "" : ", " + extra);
                if (tty) err.print("\r" + line + "   ");
                else err.println(line);
                err.flush();
            }
        }
        if (tty && !quiet) err.println();
    }
}
