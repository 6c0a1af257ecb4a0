package dev.yarpj.triage;

import dev.yarpj.harness.CompileRecheck;
import dev.yarpj.harness.FindingLock;
import dev.yarpj.harness.JsonFiles;
import dev.yarpj.harness.ProcessRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Triage inside a campaign: a background lane that triages every finding the campaign saves
 * ({@code yarpj triage} in a child JVM at {@code nice} {@value #NICE}, one finding at a time)
 * and keeps the campaign's bugs ({@link BugBook}) up to date after each.
 *
 * <p>The cheap step comes first: every finding gets a quick triage (its smallest
 * configuration, blamed pass and standing, on the unreduced test), which is its bug key.
 * Only then, and only for a bug that is new (not a known bug, and none of its findings
 * reduced yet), is the bug's smallest finding reduced ({@code yarpj reduce}) and triaged again
 * on the reduced test, with its LLVM IR reproducer: its report is then the reduced one. The
 * quick triage is kept as {@value #QUICK}, and keys the finding still, so that reducing one
 * finding of a bug never moves it out of its group.
 *
 * <p>A known bug the campaign meets is checked once on the campaign's compilers: its reduced
 * test in the record is built at its smallest configuration with the compiler of its smallest
 * finding, and with every other installed version ({@link Recheck}), so that its entry says
 * whether the bug the record holds is still open, or fixed on trunk.
 *
 * <p>Its share of the campaign's CPU is bounded: it starts a triage only while the CPU its
 * triages took is under {@code share} of all the CPU the campaign's process and its children
 * took since the lane started (a triage under way may take it past that for a while).
 *
 * <p>It works from what is on disk: a finding is triaged when it has no
 * {@code triage/triage.json} and no {@value #REFUSED} (what triage said when it could not
 * triage it), so a lane killed with its campaign triages again, on {@code --resume}, only the
 * finding it was in the middle of.
 *
 * <p>Every shard that runs into a results directory has its lane, on one machine or many, so
 * that triage grows with the cluster: a lane claims each piece of work (a finding to triage,
 * reduce or recheck) under a lock in the finding's directory ({@value #CLAIM}), skips what
 * another lane has claimed, and once it holds a claim looks again whether the work is still
 * to do, so that nothing is triaged twice.
 */
public final class TriageLane {
    /** Where a finding keeps what triage said when it refused it (one line). */
    public static final String REFUSED = "triage/refused.txt";
    /** Where a finding reduced by the lane keeps its quick triage, which its bug key comes from. */
    public static final String QUICK = "triage/quick.json";
    /** What the lane says when a reduction or the triage of the reduced test failed: the bug keeps its quick triage. */
    static final String REDUCE_FAILED = "triage/reduce-failed.txt";
    static final int NICE = 5;
    /** How long an idle lane waits before it looks for new findings again. */
    private static final long IDLE_MILLIS = 3000;

    /**
     * What the lane did in this run; {@code labelled} of the triaged were labelled with a bug
     * already seen by one timed build ({@link KnownOutlier}) or a few builds ({@link KnownSymptom}).
     */
    public record Done(int triaged, int refused, int reduced, double cpuSeconds, double campaignCpuSeconds, boolean active, int labelled) {
        /** The lane's share of the campaign's CPU (the process and its children), 0 to 1. */
        public double share() {
            return campaignCpuSeconds <= 0 ? 0 : cpuSeconds / campaignCpuSeconds;
        }
    }

    private final Path results;
    private final double share;
    private final double compileTimeout;
    private final KnownBugs known;
    private final double reduceSeconds;
    /** The candidates each phase of a reduction may test (yarpj reduce --candidates), 0 for no limit. */
    private int reduceCandidates;
    /** The CPU limit of the recheck that tells whether a new compile-time bug's outlier finishes at all. */
    private double recheckSeconds;
    private volatile int labelled;
    private volatile int reduced;
    private Thread thread;
    private volatile boolean draining;
    private volatile boolean stopping;
    private volatile double cpu;
    private volatile int triaged;
    private volatile int refused;
    private double startCpu;
    private volatile IOException failure;
    private volatile String progress = "";

    /**
     * @param share          the most of the campaign's CPU the lane takes, above 0 and at most 1
     * @param compileTimeout the CPU seconds triage gives one compile of one try
     * @param known          the known bugs, which the campaign's bugs are labelled with
     * @param reduceSeconds  the wall-clock budget of the reduction of each new bug; 0: no reduction
     */
    public TriageLane(Path results, double share, double compileTimeout, KnownBugs known, double reduceSeconds) {
        if (!(share > 0 && share <= 1)) throw new IllegalArgumentException("share " + share);
        this.results = results;
        this.share = share;
        this.compileTimeout = compileTimeout;
        this.known = known;
        this.reduceSeconds = reduceSeconds;
    }

    /** The lock a lane holds in a finding's directory while it works on it. */
    static final String CLAIM = ".lane-claim.lock";

    /** The finding this lane holds the claim of, or null. */
    private Path mine;
    private int idleLooks;

    /** Whether another lane works on {@code finding} now. */
    private boolean claimedByAnother(Path finding) throws IOException {
        return !finding.equals(mine) && FindingLock.held(finding, CLAIM);
    }

    /** Starts the lane. */
    public void start() throws IOException {
        Files.createDirectories(results.resolve("bugs"));
        startCpu = processCpuSeconds();
        thread = new Thread(this::loop, "yarpj-triage-lane");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (!stopping) {
                // A known bug's recheck first: a few builds, where a quick triage of a compile hang can take many minutes.
                BugBook.Book now = BugBook.read(results, known); // one scan of the findings tells what is next
                boolean waiting = now.untriaged().size() > heldByOrphans(now);
                behindSince = !waiting ? 0 : behindSince != 0 ? behindSince : System.nanoTime();
                BugBook.Bug knownToRecheck = nextKnownRecheck(now);
                Path next = knownToRecheck == null ? nextFinding(now) : null;
                Path toFinish = next == null && knownToRecheck == null ? nextFinishRecheck(now) : null;
                Path toReduce = next == null && knownToRecheck == null && toFinish == null && reduceSeconds > 0 ? nextReduction(now) : null;
                if (next == null && knownToRecheck == null && toFinish == null && toReduce == null) {
                    if (draining) return;
                    idle();
                    continue;
                }
                while (!draining && !stopping && cpu > share * (processCpuSeconds() - startCpu)) idle();
                if (stopping) return;
                Path claimed = next != null ? next : knownToRecheck != null ? knownToRecheck.findings().get(0).dir() : toFinish != null ? toFinish : toReduce;
                try (FindingLock claim = FindingLock.tryTake(claimed, CLAIM)) {
                    if (claim == null) {
                        wait(claimed); // another lane took it between our scan and now: look again in a while
                        continue;
                    }
                    // Under the claim, the work may have been done by the lane that held it a moment ago (our own claim
                    // does not hide it from the look).
                    mine = claimed;
                    BugBook.Book fresh = BugBook.read(results, known);
                    if (next != null && fresh.untriaged().contains(next)) triage(next, fresh);
                    else if (knownToRecheck != null && stillFirst(nextKnownRecheck(fresh), knownToRecheck)) recheckKnown(knownToRecheck);
                    else if (toFinish != null && toFinish.equals(nextFinishRecheck(fresh))) finishRecheck(toFinish);
                    else if (toReduce != null && toReduce.equals(nextReduction(fresh))) reduce(toReduce);
                    else if (++idleLooks % 10 == 0) wait(claimed); // done by another lane: never spin, should that keep happening
                } finally {
                    mine = null;
                }
                BugBook.Book book = BugBook.write(results, known);
                long old = book.known();
                progress = "bugs: " + (book.bugs().size() - old) + " new, " + old + " known";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            if (!stopping) failure = e; // stopping kills the triage under way: "interrupted"
        }
    }

    /** Whether a look under the claim gives the same known bug to recheck as the look before it. */
    private static boolean stillFirst(BugBook.Bug now, BugBook.Bug before) {
        return now != null && now.id().equals(before.id());
    }

    private final Object wake = new Object();

    /** Waits a while, or until {@link #finish} wakes the lane. */
    private void idle() throws InterruptedException {
        synchronized (wake) {
            if (!draining && !stopping) wake.wait(IDLE_MILLIS);
        }
    }

    /**
     * Asks once per new compile-time bug whether its outlier finishes at all: its smallest
     * finding compiled again with {@code cpuSeconds} of CPU ({@link CompileRecheck#once}); 0:
     * never asked (the default).
     */
    public TriageLane withRechecks(double cpuSeconds) {
        recheckSeconds = cpuSeconds;
        return this;
    }

    /**
     * Bounds each phase of the lane's reductions by {@code n} candidates tested as well as by
     * the time budget ({@code yarpj reduce --candidates}): the same reduction on a busy machine
     * as on an idle one. 0, the default: the time budget alone.
     */
    public TriageLane withReduceCandidates(int n) {
        if (n < 0) throw new IllegalArgumentException("reduce candidates " + n);
        reduceCandidates = n;
        return this;
    }

    /** Since when findings have waited for their first triage without a break (System.nanoTime), or 0. */
    private volatile long behindSince;

    /** How long a finding may wait before the lane counts as behind: a known bug's is labelled in seconds. */
    static final double BEHIND_SECONDS = 60;

    /**
     * Whether findings have waited for their first triage for {@link #BEHIND_SECONDS} or more,
     * as of the lane's last look (a triage under way keeps it behind): a campaign bounded by
     * {@code --duration} then gives the lane the last of its time.
     */
    public boolean behind() {
        long since = behindSince;
        return since != 0 && (System.nanoTime() - since) / 1e9 >= BEHIND_SECONDS;
    }

    /** Untriaged findings the lane cannot take now: those an orphan of a killed run holds. */
    private static int heldByOrphans(BugBook.Book book) throws IOException {
        int held = 0;
        for (Path f : book.untriaged()) if (FindingLock.held(f, FindingLock.TRIAGE)) held++;
        return held;
    }

    /** The bug counts for a progress line: "bugs: N new, M known", or empty before the first triage. */
    public String progress() {
        return progress;
    }

    /** The first finding not triaged yet. */
    private Path nextFinding(BugBook.Book book) throws IOException {
        for (Path f : book.untriaged()) {
            if (FindingLock.held(f, FindingLock.TRIAGE)) continue; // an orphan of a killed run is at it
            if (claimedByAnother(f)) continue; // another lane is at it
            return f;
        }
        return null;
    }

    /**
     * The smallest finding of the first new compile-time bug none of whose findings was
     * rechecked, when it waits for one ({@link CompileRecheck#needed}); or null.
     */
    private Path nextFinishRecheck(BugBook.Book book) throws IOException {
        if (recheckSeconds <= 0) return null;
        for (BugBook.Bug b : book.bugs()) {
            if (b.known() != null || !b.key().kind().equals("compile-hang")) continue;
            boolean all = true;
            for (BugBook.Triaged t : b.findings()) all &= CompileRecheck.needed(t.dir());
            if (all && !claimedByAnother(b.findings().get(0).dir())) return b.findings().get(0).dir();
        }
        return null;
    }

    /** Whether the new compile-time bug of {@code finding} finishes at all: one niced compile, its verdict in meta.json. */
    private void finishRecheck(Path finding) throws IOException {
        CompileRecheck.Done d = CompileRecheck.once(finding, Files.createDirectories(finding.resolve("triage").resolve("recheck")), recheckSeconds);
        cpu += d.cpuSeconds();
    }

    /** The first known bug met whose record has a reduced test that no finding has rechecked yet, or null. */
    private BugBook.Bug nextKnownRecheck(BugBook.Book book) throws IOException {
        for (BugBook.Bug b : book.bugs()) {
            if (b.known() != null && b.known().hasTest() && b.recheck() == null && !claimedByAnother(b.findings().get(0).dir())) return b;
        }
        return null;
    }

    /**
     * Builds the known bug's reduced test with the compilers of its smallest finding ({@link
     * Recheck}), in a child like a triage; a recheck that fails says so in its file, so that it
     * is made once.
     */
    private void recheckKnown(BugBook.Bug b) throws IOException {
        Path finding = b.findings().get(0).dir();
        List<String> cmd = yarpj("triage", "--recheck-known", b.known().dir().toString(), "--compile-timeout", JsonFiles.number(compileTimeout),
                finding.toAbsolutePath().toString());
        ProcessRunner.Result r = counted(() -> ProcessRunner.run(Files.createDirectories(finding.resolve("triage")), "lane-recheck", cmd,
                new ProcessRunner.Limits(3600, 1800, ProcessRunner.Limits.NO_MEMORY_LIMIT, 1L << 14)));
        cpu += r.cpuSeconds();
        if (stopping && r.exitCode() != 0) return;
        Path file = Recheck.file(finding, b.known().id());
        if (!Files.exists(file)) BugBook.atomicWrite(file, JsonFiles.writePretty(Map.of("known", b.known().id(), "result", "not rechecked: " + oneLine(r))) + "\n");
    }

    /**
     * The smallest finding of the first new bug none of whose findings is reduced yet (nor
     * failed to reduce), or null.
     */
    private Path nextReduction(BugBook.Book book) throws IOException {
        for (BugBook.Bug b : book.bugs()) {
            if (b.known() != null) continue;
            boolean done = b.findings().stream().anyMatch(t -> Files.exists(t.dir().resolve(QUICK)) || Files.exists(t.dir().resolve(REDUCE_FAILED)));
            if (!done && !claimedByAnother(b.findings().get(0).dir())) return b.findings().get(0).dir();
        }
        return null;
    }

    /**
     * Reduces {@code finding} (unless an earlier run did: reduced/reduce.json, or the IR
     * phase's ir-reduce.json), then triages it again on the reduced test, its quick triage kept.
     */
    private void reduce(Path finding) throws IOException {
        Path work = finding.resolve("triage");
        if (FindingLock.held(finding, FindingLock.REDUCE) || FindingLock.held(finding, FindingLock.TRIAGE)) {
            wait(finding); // an orphan of a run killed with kill -9 is at it: its reduce.json will say when it is done
            return;
        }
        boolean done = Files.exists(finding.resolve("reduced/reduce.json")) || Files.exists(finding.resolve("reduced/ir/ir-reduce.json"));
        if (!done) {
            List<String> cmd = yarpj("reduce", "-j", "1", "--budget", Math.max(1, Math.round(reduceSeconds)) + "s");
            if (reduceCandidates > 0) cmd.addAll(List.of("--candidates", Integer.toString(reduceCandidates)));
            cmd.add(finding.toAbsolutePath().toString());
            ProcessRunner.Result r = counted(() -> ProcessRunner.run(work, "lane-reduce", cmd,
                    new ProcessRunner.Limits(reduceSeconds * 2 + 600, reduceSeconds * 4 + 600, ProcessRunner.Limits.NO_MEMORY_LIMIT, 1L << 14)));
            cpu += r.cpuSeconds();
            if (stopping && r.exitCode() != 0) return;
            if (r.exitCode() != 0) {
                Files.writeString(finding.resolve(REDUCE_FAILED), "reduction: " + oneLine(r) + "\n");
                return;
            }
        }
        Files.move(work.resolve("triage.json"), finding.resolve(QUICK), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        ProcessRunner.Result r = runTriage(finding, Math.max(60, reduceSeconds / 2));
        if (stopping && r.exitCode() != 0) {
            Files.move(finding.resolve(QUICK), work.resolve("triage.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        if (Files.exists(work.resolve("triage.json"))) {
            reduced++;
        } else {
            // The reduced test lost the symptom triage looks for: the finding keeps its quick triage.
            Files.move(finding.resolve(QUICK), work.resolve("triage.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(finding.resolve(REDUCE_FAILED), "triage of the reduced test: " + oneLine(r) + "\n");
        }
    }

    /** The keys of the bugs seen so far, which the triage of a finding labels it with when it fits one. */
    static final String KEYS = "keys-seen.json";

    private ProcessRunner.Result runTriage(Path finding, double irSeconds) throws IOException {
        return runTriage(finding, irSeconds, null);
    }

    /** Triages {@code finding} in a child; with {@code labelWith}, one that fits a key there is labelled instead ({@link KnownSymptom}). */
    private ProcessRunner.Result runTriage(Path finding, double irSeconds, Path labelWith) throws IOException {
        Path work = Files.createDirectories(finding.resolve("triage"));
        List<String> cmd = yarpj("triage", "--ir-budget", irSeconds <= 0 ? "0" : Math.round(irSeconds) + "s", "--compile-timeout",
                JsonFiles.number(compileTimeout), finding.toAbsolutePath().toString());
        if (labelWith != null) cmd.addAll(cmd.size() - 1, List.of("--label-with", labelWith.toAbsolutePath().toString()));
        // A triage's own compiles carry their limits; these only stop a triage that never ends.
        ProcessRunner.Result r = counted(() -> ProcessRunner.run(work, "lane", cmd, new ProcessRunner.Limits(4 * 3600, 3600,
                ProcessRunner.Limits.NO_MEMORY_LIMIT, 1L << 14)));
        cpu += r.cpuSeconds();
        return r;
    }

    /** A child of the lane's. */
    private interface Child {
        ProcessRunner.Result run() throws IOException;
    }

    /** Runs {@code child}; one killed when the lane stops still counts the CPU it took. */
    private ProcessRunner.Result counted(Child child) throws IOException {
        try {
            return child.run();
        } catch (ProcessRunner.Interrupted e) {
            cpu += e.cpuSeconds();
            throw e;
        }
    }

    private static String oneLine(ProcessRunner.Result r) {
        String why = lastLine(r.stderr()).replaceFirst("^yarpj: (error: )?", "");
        return !why.isEmpty() ? why : r.timedOut() ? "did not finish in time" : "exited with " + r.exitCode();
    }

    /** Waits a while for another process that works on {@code finding} (even when draining: it is not a wait for work). */
    private void wait(Path finding) throws IOException {
        try {
            Thread.sleep(IDLE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    private void triage(Path finding, BugBook.Book book) throws IOException {
        if (FindingLock.held(finding, FindingLock.TRIAGE)) {
            wait(finding); // an orphan of a killed run triages it: its triage.json will say when it is done
            return;
        }
        // A compile-time outlier of a bug already seen: one timed build labels it, where a quick triage takes minutes.
        double[] spent = {0};
        KnownOutlier.Label label = KnownOutlier.label(finding, keysSeen(book), spent);
        cpu += spent[0];
        if (label != null) {
            triaged++;
            labelled++;
            return;
        }
        // Any other finding of a bug already seen: a few builds label it, in the triage child, which triages it when it fits no key.
        Path keys = Files.createDirectories(finding.resolve("triage")).resolve(KEYS);
        KnownBugs.writeKeys(keysSeen(book), testsSeen(book, finding), keys);
        ProcessRunner.Result r = runTriage(finding, 0, keys);
        if (stopping && r.exitCode() != 0) return; // killed with the campaign: left for --resume
        Path json = finding.resolve("triage/triage.json");
        if (Files.exists(json)) {
            triaged++;
            if (Files.readString(json).contains("\"labelled_by_builds\"")) labelled++;
        } else {
            if (stoppedWith(r)) return; // left for the next run, which triages it
            Files.writeString(finding.resolve(REFUSED), oneLine(r) + "\n");
            refused++;
        }
    }

    /**
     * Whether a triage child that failed was stopped with the campaign rather than refused its
     * finding: killed by a signal, or failing as this process is being stopped. A signal to the
     * whole job (Slurm's scancel, Ctrl-C) reaches the child and its compilers too, and the child
     * may fail a moment before this JVM goes; a refusal written then would keep the finding from
     * the resumed run's triage for good, as SlurmArrayTest's cancelled task once did.
     */
    private boolean stoppedWith(ProcessRunner.Result r) {
        if (r.exitCode() >= 128) return true;
        try {
            Thread.sleep(2000); // a JVM that got the signal is gone by then
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
        return stopping;
    }

    /** The keys of the bugs seen so far: this campaign's, then the record's. */
    private List<BugKey> keysSeen(BugBook.Book book) {
        List<BugKey> keys = new ArrayList<>();
        for (BugBook.Bug b : book.bugs()) keys.add(b.key());
        for (KnownBugs.Known k : known.bugs()) for (BugKey key : k.keys()) if (!keys.contains(key)) keys.add(key);
        return keys;
    }

    /**
     * The reduced tests of the bugs seen so far, each with its key: of this campaign's bugs, the
     * first finding's with a reduced test (C-Vise's, else the IR phase's), not {@code finding}'s
     * own; then the record's.
     */
    private List<KnownSymptom.SeenTest> testsSeen(BugBook.Book book, Path finding) throws IOException {
        List<KnownSymptom.SeenTest> tests = new ArrayList<>();
        for (BugBook.Bug b : book.bugs()) {
            for (BugBook.Triaged t : b.findings()) {
                if (t.dir().toAbsolutePath().equals(finding.toAbsolutePath())) continue;
                Path test = Triage.reducedTest(t.dir());
                if (test != null) {
                    tests.add(new KnownSymptom.SeenTest(b.key(), test));
                    break;
                }
            }
        }
        // A record with no key yet labels nothing, whatever its test.
        for (KnownBugs.Known k : known.bugs()) if (k.hasTest() && !k.keys().isEmpty()) tests.add(new KnownSymptom.SeenTest(k.keys().get(0), k.test()));
        return tests;
    }

    private static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1].strip();
    }

    /**
     * The yarpj command {@code args} at the lane's low priority, in this JVM again on the class
     * path it runs from: a triage runs the code of the campaign that found the finding.
     */
    private static List<String> yarpj(String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of("nice", "-n", Integer.toString(NICE), java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", classPath(), "dev.yarpj.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * This JVM's class path, each entry made absolute: the children start in the findings'
     * directories, where {@code java -jar target/yarpj.jar} run from yarpj's directory would
     * leave them no class to run.
     */
    static String classPath() {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            entries.add(e.isEmpty() ? e : Path.of(e).toAbsolutePath().toString());
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    /** The shortest drain {@link #drainBound} gives, in seconds: a new bug's first triage and reduction take minutes. */
    static final double MIN_DRAIN_SECONDS = 180;

    /** How long a campaign bounded by its seeds drains, after tests of {@code testSeconds}: a quarter of that, at least {@link #MIN_DRAIN_SECONDS}. */
    public static double drainBound(double testSeconds) {
        return Math.max(MIN_DRAIN_SECONDS, testSeconds / 4);
    }

    /**
     * Stops the lane. With {@code drain}, it first triages every finding left, whatever its
     * share; else it stops at once (a triage under way is killed and left for the next run).
     */
    public Done finish(boolean drain) throws IOException, InterruptedException {
        return finish(drain, Double.POSITIVE_INFINITY);
    }

    /**
     * As {@link #finish(boolean)}; a drain stops after {@code drainSeconds} of wall-clock time,
     * the triage under way killed and what is left kept for the next run.
     */
    public Done finish(boolean drain, double drainSeconds) throws IOException, InterruptedException {
        if (thread == null) return new Done(0, 0, 0, 0, processCpuSeconds() - startCpu, false, 0);
        if (drain) {
            // Out of an idle or share wait; a triage under way runs to its end.
            synchronized (wake) {
                draining = true;
                wake.notifyAll();
            }
            if (drainSeconds < Double.POSITIVE_INFINITY) thread.join(Math.max(1, (long) (drainSeconds * 1000)));
            else thread.join();
        }
        if (thread.isAlive()) {
            stopping = true;
            thread.interrupt(); // kills the triage under way (ProcessRunner), which the next run does again
        }
        thread.join();
        if (failure != null) throw failure;
        Done d = new Done(triaged, refused, reduced, cpu, processCpuSeconds() - startCpu, true, labelled);
        BugBook.write(results, known);
        return d;
    }

    /** This process's CPU and its finished children's, in seconds. */
    static double processCpuSeconds() {
        double[] cpu = ProcessRunner.procCpu("self");
        return cpu[0] + cpu[1];
    }
}
