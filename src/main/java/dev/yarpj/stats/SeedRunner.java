package dev.yarpj.stats;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.gen.Version;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Generates the tests of a range of seeds for one or more policies, in-process, and hands
 * each to the collector of the mode ({@link SeedCollector}), {@code jobs} at a time, in a
 * temporary directory of its own when the collector compiles; gathers the results in seed
 * order, so that they do not depend on {@code jobs}. A seed whose generation throws is
 * skipped and counted; the collector skips the seeds it cannot measure.
 */
final class SeedRunner {
    /** A problem with the machine (temporary files), not with a seed. */
    static final class CollectException extends RuntimeException {
        CollectException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Language lang;
    private final int jobs;
    private final PrintWriter progress;
    private final double progressSeconds;

    /** @param progress where a progress line goes every {@code progressSeconds}, or null for none */
    SeedRunner(Language lang, int jobs, PrintWriter progress, double progressSeconds) {
        if (jobs < 1) throw new IllegalArgumentException("jobs must be at least 1");
        this.lang = lang;
        this.jobs = jobs;
        this.progress = progress;
        this.progressSeconds = progressSeconds;
    }

    /** One result list per policy, each over seeds {@code first..last} (inclusive), in seed order. */
    <R> List<PolicyResults<R>> run(SeedCollector<R> collector, List<GenPolicy> policies, boolean swarm, long first, long last) {
        int n = Math.toIntExact(last - first + 1);
        int total = n * policies.size();
        @SuppressWarnings("unchecked")
        SeedResult<R>[][] results = new SeedResult[policies.size()][n];
        Path root;
        try {
            root = collector.compiles() ? Files.createTempDirectory("yarpj-stats-") : null;
        } catch (IOException e) {
            throw new CollectException("cannot create a temporary directory: " + e.getMessage(), e);
        }
        Thread cleanup = new Thread(() -> deleteTree(root));
        if (root != null) Runtime.getRuntime().addShutdownHook(cleanup);
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread t = new Thread(r, "yarpj-stats");
            t.setDaemon(true);
            return t;
        });
        AtomicInteger done = new AtomicInteger();
        AtomicInteger skipped = new AtomicInteger();
        long start = System.nanoTime();
        ScheduledExecutorService ticker = null;
        if (progress != null) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "yarpj-stats-progress");
                t.setDaemon(true);
                return t;
            });
            long ms = (long) (progressSeconds * 1000);
            String verb = collector.verb();
            ticker.scheduleAtFixedRate(() -> {
                progress.printf("stats: %d/%d %s, %d skipped, %.0f s%n", done.get(), total, verb, skipped.get(),
                        (System.nanoTime() - start) / 1e9);
                progress.flush();
            }, ms, ms, TimeUnit.MILLISECONDS);
        }
        try {
            // Seed-major order, so that with --compare both policies advance together.
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                for (int p = 0; p < policies.size(); p++) {
                    final int pi = p;
                    final int si = i;
                    futures.add(pool.submit(() -> {
                        SeedResult<R> r = one(collector, policies.get(pi), pi, swarm, first + si, root);
                        results[pi][si] = r;
                        if (r instanceof SeedResult.Skipped<R>) skipped.incrementAndGet();
                        done.incrementAndGet();
                    }));
                }
            }
            for (Future<?> f : futures) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof CollectException ce) throw ce;
                    if (c instanceof RuntimeException re) throw re;
                    throw new CollectException(String.valueOf(c), c);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new CollectException("interrupted", e);
                }
            }
        } finally {
            pool.shutdownNow();
            if (ticker != null) ticker.shutdownNow();
            try {
                pool.awaitTermination((long) collector.timeoutSeconds() + 10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (root != null) {
                deleteTree(root);
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException e) {
                    // shutting down already: the hook does the cleaning
                }
            }
        }
        List<PolicyResults<R>> out = new ArrayList<>();
        for (int p = 0; p < policies.size(); p++) {
            out.add(new PolicyResults<>(policies.get(p).name() + (swarm ? "+swarm" : ""), List.of(results[p])));
        }
        return out;
    }

    private <R> SeedResult<R> one(SeedCollector<R> collector, GenPolicy policy, int policyIndex, boolean swarm, long seed,
                                  Path root) {
        GeneratedTest test;
        try {
            GenPolicy p = swarm ? policy.swarm(seed) : policy;
            test = new Generator(p, lang, CheckMode.HASH, collector.measurementVariant())
                    .generate(seed, provenance(policy, swarm, seed, collector));
        } catch (RuntimeException | StackOverflowError e) {
            return new SeedResult.Skipped<>(seed, null, Skip.GENERATOR, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        if (!collector.compiles()) {
            try {
                return collector.measure(seed, test, null);
            } catch (IOException e) {
                throw new CollectException("cannot measure seed " + seed + ": " + e.getMessage(), e);
            }
        }
        Path dir = root.resolve(policyIndex + "-" + seed);
        try {
            Files.createDirectories(dir);
            return collector.measure(seed, test, dir);
        } catch (IOException e) {
            if (Thread.currentThread().isInterrupted()) throw new CollectException("interrupted", e);
            throw new CollectException("cannot compile seed " + seed + " in " + dir + ": " + e.getMessage(), e);
        } finally {
            deleteTree(dir);
        }
    }

    private String provenance(GenPolicy policy, boolean swarm, long seed, SeedCollector<?> collector) {
        return "Generated by yarpj " + Version.VALUE + ": seed " + seed + ", policy " + policy.name()
                + (swarm ? "+swarm" : "") + ", lang " + lang.cliName() + ", check hash"
                + (collector.measurementVariant() ? ", measuring masks" : "") + " (for yarpj stats)";
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException | UncheckedIOException e) {
            // best effort: a temporary directory left behind is harmless
        }
    }
}
