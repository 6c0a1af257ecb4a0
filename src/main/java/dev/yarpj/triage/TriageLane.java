package dev.yarpj.triage;

import dev.yarpj.harness.JsonFiles;
import dev.yarpj.harness.ProcessRunner;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Triage inside a campaign: a background lane that triages every finding the campaign saves
 * ({@code yarpj triage} in a child JVM at {@code nice} {@value #NICE}, one finding at a time)
 * and keeps the campaign's bugs ({@link BugBook}) up to date after each.
 *
 * <p>Its share of the campaign's CPU is bounded: it starts a triage only while the CPU its
 * triages took is under {@code share} of all the CPU the campaign's process and its children
 * took since the lane started (a triage under way may take it past that for a while).
 *
 * <p>It works from what is on disk: a finding is triaged when it has no
 * {@code triage/triage.json} and no {@value #REFUSED} (what triage said when it could not
 * triage it), so a lane killed with its campaign triages again, on {@code --resume}, only the
 * finding it was in the middle of. One lane works per results directory, whatever shards
 * run into it: the lane holds {@code bugs/.lane.lock}, and the shards that do not get it
 * leave triage to the one that does (its scan finds their findings too).
 */
public final class TriageLane {
    /** Where a finding keeps what triage said when it refused it (one line). */
    public static final String REFUSED = "triage/refused.txt";
    static final int NICE = 5;
    /** How long an idle lane waits before it looks for new findings again. */
    private static final long IDLE_MILLIS = 3000;

    /** What the lane did in this run. */
    public record Done(int triaged, int refused, double cpuSeconds, double campaignCpuSeconds, boolean active) {
        /** The lane's share of the campaign's CPU (the process and its children), 0 to 1. */
        public double share() {
            return campaignCpuSeconds <= 0 ? 0 : cpuSeconds / campaignCpuSeconds;
        }
    }

    private final Path results;
    private final double share;
    private final double compileTimeout;
    private final KnownBugs known;
    private Thread thread;
    private FileChannel lockFile;
    private FileLock lock;
    private volatile boolean draining;
    private volatile boolean stopping;
    private volatile double cpu;
    private volatile int triaged;
    private volatile int refused;
    private double startCpu;
    private volatile IOException failure;

    /**
     * @param share          the most of the campaign's CPU the lane takes, above 0 and at most 1
     * @param compileTimeout the CPU seconds triage gives one compile of one try
     * @param known          the known bugs, which the campaign's bugs are labelled with
     */
    public TriageLane(Path results, double share, double compileTimeout, KnownBugs known) {
        if (!(share > 0 && share <= 1)) throw new IllegalArgumentException("share " + share);
        this.results = results;
        this.share = share;
        this.compileTimeout = compileTimeout;
        this.known = known;
    }

    /** Starts the lane, unless another process's lane works in this results directory. */
    public void start() throws IOException {
        Path dir = Files.createDirectories(results.resolve("bugs"));
        lockFile = FileChannel.open(dir.resolve(".lane.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        lock = lockFile.tryLock();
        if (lock == null) {
            lockFile.close();
            return;
        }
        startCpu = processCpuSeconds();
        thread = new Thread(this::loop, "yarpj-triage-lane");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        try {
            while (!stopping) {
                Path next = nextFinding();
                if (next == null) {
                    if (draining) return;
                    idle();
                    continue;
                }
                while (!draining && !stopping && cpu > share * (processCpuSeconds() - startCpu)) idle();
                if (stopping) return;
                triage(next);
                BugBook.write(results, known);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            if (!stopping) failure = e; // stopping kills the triage under way: "interrupted"
        }
    }

    private final Object wake = new Object();

    /** Waits a while, or until {@link #finish} wakes the lane. */
    private void idle() throws InterruptedException {
        synchronized (wake) {
            if (!draining && !stopping) wake.wait(IDLE_MILLIS);
        }
    }

    /** The first finding not triaged yet whose compile-time recheck (if any) is over. */
    private Path nextFinding() throws IOException {
        for (Path f : BugBook.read(results, KnownBugs.NONE).untriaged()) {
            Map<String, Object> meta = JsonFiles.parseObject(Files.readString(f.resolve("meta.json")));
            if (!"pending".equals(meta.get("recheck"))) return f;
        }
        return null;
    }

    private void triage(Path finding) throws IOException {
        Path work = Files.createDirectories(finding.resolve("triage"));
        List<String> cmd = new ArrayList<>(List.of("nice", "-n", Integer.toString(NICE)));
        cmd.addAll(javaCommand());
        cmd.addAll(List.of("triage", "--ir-budget", "0", "--compile-timeout", JsonFiles.number(compileTimeout), finding.toAbsolutePath().toString()));
        // A triage's own compiles carry their limits; these only stop a triage that never ends.
        ProcessRunner.Result r = ProcessRunner.run(work, "lane", cmd, new ProcessRunner.Limits(4 * 3600, 3600, 1L << 20, 1L << 14));
        cpu += r.cpuSeconds();
        if (stopping && r.exitCode() != 0) return; // killed with the campaign: left for --resume
        if (Files.exists(finding.resolve("triage/triage.json"))) {
            triaged++;
        } else {
            String why = lastLine(r.stderr());
            if (why.isEmpty()) why = r.timedOut() ? "triage did not finish in " + 4 * 3600 + " s" : "triage exited with " + r.exitCode();
            Files.writeString(finding.resolve(REFUSED), why.replaceFirst("^yarpj: (error: )?", "") + "\n");
            refused++;
        }
    }

    private static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1].strip();
    }

    /** This JVM again, on the class path it runs from: a triage runs the code of the campaign that found the finding. */
    private static List<String> javaCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "dev.yarpj.cli.Main");
    }

    /**
     * Stops the lane. With {@code drain}, it first triages every finding left, whatever its
     * share; else it stops at once (a triage under way is killed and left for the next run).
     */
    public Done finish(boolean drain) throws IOException, InterruptedException {
        if (thread == null) return new Done(0, 0, 0, processCpuSeconds() - startCpu, false);
        if (drain) {
            // Out of an idle or share wait; a triage under way runs to its end.
            synchronized (wake) {
                draining = true;
                wake.notifyAll();
            }
        } else {
            stopping = true;
            thread.interrupt(); // kills the triage under way (ProcessRunner), which the next run does again
        }
        thread.join();
        if (failure != null) throw failure;
        Done d = new Done(triaged, refused, cpu, processCpuSeconds() - startCpu, true);
        BugBook.write(results, known);
        lock.release();
        lockFile.close();
        return d;
    }

    /** This process's CPU and its finished children's, in seconds (Linux: /proc/self/stat, 100 ticks a second). */
    static double processCpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // After the name: state(0) ... utime(11) stime(12) cutime(13) cstime(14)
            long ticks = 0;
            for (int i = 11; i <= 14; i++) ticks += Long.parseLong(f[i]);
            return ticks / 100.0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
