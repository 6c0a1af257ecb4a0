package dev.yarpj.stats;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.gen.Version;
import dev.yarpj.interp.LoopTrips;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Generates the tests of a range of seeds for one or more policies, in-process, compiles
 * each test's {@code func} with remarks in a temporary directory, {@code jobs} at a time,
 * and gathers the tallies in seed order (so results do not depend on {@code jobs}), with
 * each generated program's shape and loop trip counts (from the interpreter's run during
 * generation). A seed whose generation throws, whose compile fails or times out is skipped
 * and counted. Made by {@link #generateOnly}, it compiles nothing: every generated seed
 * counts, with its shape and trip counts and no tally. Made by {@link #ispcMasks}, it
 * generates the measurement variant of each ISPC test, builds it with the real ispc and runs
 * it ({@link IspcMaskRunner}): a seed counts with the mask counts of its varying ifs; one
 * that fails to build or run, or prints a wrong checksum, is skipped and counted.
 */
public final class RemarkCollector {
    /** Why a seed was skipped. */
    public enum Skip {
        GENERATOR("generator failure"), COMPILE("compile failure"), TIMEOUT("compile timeout"),
        /** The test binary crashed, exited non-zero or printed something unexpected (ISPC masks only). */
        RUN("run failure"),
        /** The test binary ran out of time (ISPC masks only). */
        RUN_TIMEOUT("run timeout"),
        /** The test binary printed a checksum other than the prediction (ISPC masks only): a bug to look at. */
        MISMATCH("checksum mismatch");

        public final String label;

        Skip(String label) {
            this.label = label;
        }
    }

    /**
     * One seed's outcome: a tally (or, measuring ISPC masks, the {@code masks} of its varying
     * ifs), or why it was skipped. {@code shape} and {@code loops} are set whenever the test was
     * generated (also when its compile then failed), else null; so is {@code ispc} for an ISPC
     * test.
     */
    public record SeedResult(long seed, RemarkTally tally, ProgramShape shape, List<LoopTrips> loops, Skip skip,
                             String message, IspcLowering ispc, List<IspcMaskRunner.IfMask> masks, Map<String, Integer> choices,
                             TestSize size) {
        public SeedResult(long seed, RemarkTally tally, ProgramShape shape, List<LoopTrips> loops, Skip skip, String message) {
            this(seed, tally, shape, loops, skip, message, null, null, null, null);
        }

        public SeedResult(long seed, RemarkTally tally, ProgramShape shape, List<LoopTrips> loops, Skip skip,
                          String message, IspcLowering ispc, List<IspcMaskRunner.IfMask> masks) {
            this(seed, tally, shape, loops, skip, message, ispc, masks, null, null);
        }

        static SeedResult skipped(long seed, GeneratedTest test, Skip skip, String message) {
            return test == null ? new SeedResult(seed, null, null, null, skip, message)
                    : new SeedResult(seed, null, ProgramShape.of(test.program()), test.prediction().loops(), skip, message,
                    IspcLowering.of(test), null, test.files().choices(), TestSize.of(test));
        }

        static SeedResult counted(long seed, GeneratedTest test, RemarkTally tally) {
            return new SeedResult(seed, tally, ProgramShape.of(test.program()), test.prediction().loops(), null, "",
                    IspcLowering.of(test), null, test.files().choices(), TestSize.of(test));
        }

        static SeedResult measured(long seed, GeneratedTest test, List<IspcMaskRunner.IfMask> masks) {
            return new SeedResult(seed, null, ProgramShape.of(test.program()), test.prediction().loops(), null, "",
                    IspcLowering.of(test), List.copyOf(masks), null, TestSize.of(test));
        }
    }

    /** Everything one policy gave over the seed range, in seed order. */
    public record Collection(String policyName, List<SeedResult> seeds) {
        /** Tallies of the programs that compiled, in seed order. */
        public List<RemarkTally> tallies() {
            List<RemarkTally> t = new ArrayList<>();
            for (SeedResult r : seeds) if (r.tally() != null) t.add(r.tally());
            return t;
        }

        /** Shapes of the programs that were generated (compiled or not), in seed order. */
        public List<ProgramShape> shapes() {
            List<ProgramShape> l = new ArrayList<>();
            for (SeedResult r : seeds) if (r.shape() != null) l.add(r.shape());
            return l;
        }

        /** Loop trip counts of the programs that were generated (compiled or not), in seed order. */
        public List<List<LoopTrips>> loops() {
            List<List<LoopTrips>> l = new ArrayList<>();
            for (SeedResult r : seeds) if (r.loops() != null) l.add(r.loops());
            return l;
        }

        /** What the ISPC lowering made of the programs that were generated, in seed order; empty for other languages. */
        public List<IspcLowering> ispc() {
            List<IspcLowering> l = new ArrayList<>();
            for (SeedResult r : seeds) if (r.ispc() != null) l.add(r.ispc());
            return l;
        }

        /** The lowerer's choices for each program that was generated, in seed order (empty maps for C and C++). */
        public List<Map<String, Integer>> choices() {
            List<Map<String, Integer>> l = new ArrayList<>();
            for (SeedResult r : seeds) if (r.choices() != null) l.add(r.choices());
            return l;
        }

        /** The mask counts of the ISPC tests that were built and ran with the right checksum, in seed order. */
        public List<List<IspcMaskRunner.IfMask>> masks() {
            List<List<IspcMaskRunner.IfMask>> l = new ArrayList<>();
            for (SeedResult r : seeds) if (r.masks() != null) l.add(r.masks());
            return l;
        }

        /** Every seed skipped for this reason, in seed order. */
        public List<SeedResult> allSkipped(Skip kind) {
            List<SeedResult> l = new ArrayList<>();
            for (SeedResult r : seeds) if (r.skip() == kind) l.add(r);
            return l;
        }

        public int skipped(Skip kind) {
            int n = 0;
            for (SeedResult r : seeds) if (r.skip() == kind) n++;
            return n;
        }

        /** The first seed skipped for this reason, or null. */
        public SeedResult firstSkipped(Skip kind) {
            for (SeedResult r : seeds) if (r.skip() == kind) return r;
            return null;
        }
    }

    /** A problem with the machine (temporary files), not with a seed. */
    public static final class CollectException extends RuntimeException {
        CollectException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final RemarkCompiler compiler;
    private final String cc;
    private final IspcMaskRunner masks;
    private final Language lang;
    private final int jobs;
    private final double timeoutSeconds;
    private final PrintWriter progress;
    private final double progressSeconds;

    /**
     * @param progress where a progress line goes every {@code progressSeconds}, or null for none
     */
    public RemarkCollector(RemarkCompiler compiler, String cc, Language lang, int jobs, double timeoutSeconds,
                           PrintWriter progress, double progressSeconds) {
        this(compiler, cc, null, lang, jobs, timeoutSeconds, progress, progressSeconds);
    }

    private RemarkCollector(RemarkCompiler compiler, String cc, IspcMaskRunner masks, Language lang, int jobs,
                            double timeoutSeconds, PrintWriter progress, double progressSeconds) {
        if (jobs < 1) throw new IllegalArgumentException("jobs must be at least 1");
        if ((compiler == null) != (cc == null)) throw new IllegalArgumentException("compiler and cc go together");
        if (masks != null && (compiler != null || lang != Language.ISPC)) {
            throw new IllegalArgumentException("masks are measured on ISPC tests, without remarks");
        }
        this.compiler = compiler;
        this.cc = cc;
        this.masks = masks;
        this.lang = lang;
        this.jobs = jobs;
        this.timeoutSeconds = timeoutSeconds;
        this.progress = progress;
        this.progressSeconds = progressSeconds;
    }

    /** A collector that generates (and so interprets) the tests, {@code jobs} at a time, and compiles nothing. */
    public static RemarkCollector generateOnly(Language lang, int jobs, PrintWriter progress, double progressSeconds) {
        return new RemarkCollector(null, null, lang, jobs, 0, progress, progressSeconds);
    }

    /**
     * A collector that generates the measurement variant of each ISPC test, builds it with
     * {@code runner} and runs it, {@code jobs} at a time; {@code timeoutSeconds}: the longest a
     * seed's build and run may take together (for waiting on the workers at the end).
     */
    public static RemarkCollector ispcMasks(IspcMaskRunner runner, int jobs, double timeoutSeconds, PrintWriter progress,
                                            double progressSeconds) {
        return new RemarkCollector(null, null, runner, Language.ISPC, jobs, timeoutSeconds, progress, progressSeconds);
    }

    /** Whether the tests are compiled (else only generated): for remarks, or built and run for ISPC masks. */
    public boolean compiles() {
        return compiler != null || masks != null;
    }

    /** One collection per policy, each over seeds {@code first..last} (inclusive). */
    public List<Collection> collect(List<GenPolicy> policies, boolean swarm, long first, long last) {
        int n = Math.toIntExact(last - first + 1);
        int total = n * policies.size();
        SeedResult[][] results = new SeedResult[policies.size()][n];
        Path root;
        try {
            root = compiles() ? Files.createTempDirectory("yarpj-stats-") : null;
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
            String verb = masks != null ? "built and run" : compiles() ? "compiled" : "generated";
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
                        SeedResult r = one(policies.get(pi), pi, swarm, first + si, root);
                        results[pi][si] = r;
                        if (r.skip() != null) skipped.incrementAndGet();
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
                pool.awaitTermination((long) timeoutSeconds + 10, TimeUnit.SECONDS);
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
        List<Collection> out = new ArrayList<>();
        for (int p = 0; p < policies.size(); p++) {
            out.add(new Collection(policies.get(p).name() + (swarm ? "+swarm" : ""), List.of(results[p])));
        }
        return out;
    }

    private SeedResult one(GenPolicy policy, int policyIndex, boolean swarm, long seed, Path root) {
        GeneratedTest test;
        try {
            GenPolicy p = swarm ? policy.swarm(seed) : policy;
            test = new Generator(p, lang, CheckMode.HASH, masks != null).generate(seed, provenance(policy, swarm, seed));
        } catch (RuntimeException | StackOverflowError e) {
            return SeedResult.skipped(seed, null, Skip.GENERATOR, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        if (!compiles()) return SeedResult.counted(seed, test, null);
        Path dir = root.resolve(policyIndex + "-" + seed);
        try {
            Files.createDirectories(dir);
            if (masks != null) return measure(seed, test, dir);
            Map<String, String> files = test.files().files();
            String func = test.funcFile();
            for (Map.Entry<String, String> f : files.entrySet()) {
                // Only func is compiled; it needs the shared header, not the driver.
                if (f.getKey().equals(func) || f.getKey().endsWith(".h")) {
                    Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
                }
            }
            RemarkCompiler.CompileResult c = compiler.compile(cc, dir, func, timeoutSeconds);
            return switch (c.status()) {
                case OK -> SeedResult.counted(seed, test, c.tally());
                case FAILED -> SeedResult.skipped(seed, test, Skip.COMPILE, c.message());
                case TIMED_OUT -> SeedResult.skipped(seed, test, Skip.TIMEOUT, c.message());
            };
        } catch (IOException e) {
            if (Thread.currentThread().isInterrupted()) throw new CollectException("interrupted", e);
            throw new CollectException("cannot compile seed " + seed + " in " + dir + ": " + e.getMessage(), e);
        } finally {
            deleteTree(dir);
        }
    }

    private SeedResult measure(long seed, GeneratedTest test, Path dir) throws IOException {
        IspcLowering l = IspcLowering.of(test);
        IspcMaskRunner.Result r = masks.run(dir, test, l.varyingIfs());
        return switch (r.status()) {
            case OK -> SeedResult.measured(seed, test, r.masks());
            case COMPILE_FAILED -> SeedResult.skipped(seed, test, Skip.COMPILE, r.message());
            case COMPILE_TIMEOUT -> SeedResult.skipped(seed, test, Skip.TIMEOUT, r.message());
            case RUN_FAILED -> SeedResult.skipped(seed, test, Skip.RUN, r.message());
            case RUN_TIMEOUT -> SeedResult.skipped(seed, test, Skip.RUN_TIMEOUT, r.message());
            case MISMATCH -> SeedResult.skipped(seed, test, Skip.MISMATCH, r.message());
        };
    }

    private String provenance(GenPolicy policy, boolean swarm, long seed) {
        return "Generated by yarpj " + Version.VALUE + ": seed " + seed + ", policy " + policy.name()
                + (swarm ? "+swarm" : "") + ", lang " + lang.cliName() + ", check hash"
                + (masks != null ? ", measuring masks" : "") + " (for yarpj stats)";
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
