package dev.yarpj.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs compilers and test binaries under limits: wall-clock timeout (the whole process
 * tree is killed), CPU seconds, virtual memory and file size through the shell's ulimit,
 * and no network (a fresh network namespace) where the machine allows it. Each child's
 * own CPU time is read back from the shell's {@code times}.
 */
public final class ProcessRunner {
    /** What a child did. {@code exitCode} is 128 + signal for a child killed by a signal. */
    public record Result(int exitCode, boolean timedOut, String stdout, String stderr, double wallSeconds, double cpuSeconds) {
        public boolean ok() {
            return !timedOut && exitCode == 0;
        }

        public boolean signalled() {
            return !timedOut && exitCode > 128;
        }
    }

    /**
     * Wall-clock seconds, CPU seconds (per process, through ulimit), virtual memory and file size.
     * The three-argument form gives the CPU limit the wall-clock one: a child that runs alone
     * cannot use more CPU than wall time. A child that runs at low priority beside others gets
     * a longer wall-clock limit than CPU limit, so that waiting is not taken for working.
     */
    public record Limits(double timeoutSeconds, double cpuSeconds, long memoryMiB, long fileSizeMiB) {
        public Limits(double timeoutSeconds, long memoryMiB, long fileSizeMiB) {
            this(timeoutSeconds, timeoutSeconds, memoryMiB, fileSizeMiB);
        }
    }

    private static final String WRAPPER =
            "ulimit -c 0 -t \"$YARPJ_CPU\" -v \"$YARPJ_MEM\" -f \"$YARPJ_FSIZE\" 2>/dev/null; "
                    + "\"$@\"; rc=$?; times > \"$YARPJ_TIMES\"; exit $rc";

    private static final boolean NO_NETWORK = probeUnshare();

    private ProcessRunner() {}

    private static boolean probeUnshare() {
        try {
            Process p = new ProcessBuilder("unshare", "-n", "true").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Whether children run without network access on this machine. */
    public static boolean isolatesNetwork() {
        return NO_NETWORK;
    }

    /** Runs {@code cmd} in {@code dir}; its output goes to {@code name}.stdout / .stderr there. */
    public static Result run(Path dir, String name, List<String> cmd, Limits limits) throws IOException {
        List<String> full = new ArrayList<>();
        if (NO_NETWORK) full.addAll(List.of("unshare", "-n"));
        full.addAll(List.of("bash", "-c", WRAPPER, "yarpj-child"));
        full.addAll(cmd);
        Path out = dir.resolve(name + ".stdout");
        Path err = dir.resolve(name + ".stderr");
        Path times = dir.resolve(name + ".times");
        Files.deleteIfExists(times);
        ProcessBuilder pb = new ProcessBuilder(full).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(devNull()));
        pb.environment().put("YARPJ_CPU", Long.toString((long) Math.ceil(limits.cpuSeconds()) + 1));
        pb.environment().put("YARPJ_MEM", Long.toString(limits.memoryMiB() * 1024));
        pb.environment().put("YARPJ_FSIZE", Long.toString(limits.fileSizeMiB() * 1024));
        pb.environment().put("YARPJ_TIMES", times.toString());
        pb.environment().put("LC_ALL", "C");
        // AdaptiveCpp's runtime prints notes (its kernel cache) on stdout, where the checksum goes.
        pb.environment().putIfAbsent("ACPP_DEBUG_LEVEL", "0");
        long start = System.nanoTime();
        Process p = pb.start();
        boolean done;
        try {
            done = p.waitFor((long) (limits.timeoutSeconds() * 1000), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        if (!done) kill(p);
        double wall = (System.nanoTime() - start) / 1e9;
        int code = done ? p.exitValue() : -1;
        double cpu = done ? childCpu(times, wall) : wall;
        return new Result(code, !done, read(out), read(err), wall, cpu);
    }

    private static java.io.File devNull() {
        return new java.io.File("/dev/null");
    }

    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The children's user + system time from bash's {@code times} (its second line). */
    private static double childCpu(Path times, double fallback) {
        try {
            List<String> lines = Files.readAllLines(times);
            if (lines.size() < 2) return fallback;
            double sum = 0;
            for (String part : lines.get(1).trim().split("\\s+")) {
                int m = part.indexOf('m');
                sum += Double.parseDouble(part.substring(0, m)) * 60 + Double.parseDouble(part.substring(m + 1, part.length() - 1));
            }
            return sum;
        } catch (IOException | RuntimeException e) {
            return fallback;
        }
    }

    private static String read(Path f) throws IOException {
        // Keep what a person needs to see; a runaway program's output is not worth megabytes.
        try (var in = Files.newInputStream(f)) {
            return new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8);
        }
    }
}
