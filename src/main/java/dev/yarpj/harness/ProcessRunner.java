package dev.yarpj.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * yarpj's one way to start a child process. {@link #run} runs compilers and test binaries under limits: wall-clock timeout (the whole process
 * tree is killed), CPU seconds, virtual memory and file size through the shell's ulimit,
 * and no network (a fresh network namespace) where the machine allows it. Each child's
 * own CPU time is read back from the shell's {@code times}. {@link #capture} runs the other
 * children (version queries, C-Vise, reduction's and triage's builds) with a timeout alone.
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

        /**
         * Killed by its CPU limit: SIGXCPU (24) at the soft limit, or SIGKILL (9) past the hard
         * one; or a driver whose compiler proper was (gcc and clang outlive their cc1 and say so).
         */
        public boolean overCpuLimit() {
            return !timedOut && (exitCode == 128 + 24 || exitCode == 128 + 9 || CPU_KILLED_CHILD.matcher(stderr).find());
        }

        /**
         * Killed at a CPU limit of {@code cpuSeconds}: {@link #overCpuLimit}, or a failed run
         * that used that much CPU, as a driver does whose compiler proper was killed and that
         * says so in its own words (a Python driver, clang with -fno-integrated-cc1).
         */
        public boolean reachedCpuLimit(double cpuSeconds) {
            return overCpuLimit() || (!timedOut && exitCode != 0 && this.cpuSeconds >= cpuSeconds);
        }

        /**
         * Past its time: it reached the CPU limit of {@code cpuSeconds} ({@link #reachedCpuLimit})
         * or ran out its wall-clock limit, which catches a child that sleeps or is blocked.
         */
        public boolean pastTimeLimit(double cpuSeconds) {
            return timedOut || reachedCpuLimit(cpuSeconds);
        }

        /**
         * What a driver prints when a program it ran was killed at the CPU limit: gcc's (cc1,
         * cc1plus, lto1) and clang's (its cc1 out of process, after which the driver itself may
         * abort while it writes its crash reproducer: a killed compile, not a crash).
         */
        public static final java.util.regex.Pattern CPU_KILLED_CHILD = java.util.regex.Pattern.compile(
                "(Killed|CPU time limit exceeded) signal terminated program|unable to execute command: (Killed|CPU time limit exceeded)");
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

        /**
         * A compile's wall-clock allowance in multiples of its CPU limit: on a loaded machine a
         * compile waits for a core, and waiting is not compiling.
         */
        public static final double COMPILE_WALL_PER_CPU = 3;

        /** {@code memoryMiB} of a child with no limit on its virtual memory. */
        public static final long NO_MEMORY_LIMIT = -1;

        /** A compile's limits: {@code cpuSeconds} of CPU, {@link #COMPILE_WALL_PER_CPU} times that on the wall clock. */
        public static Limits compile(double cpuSeconds, long memoryMiB, long fileSizeMiB) {
            return new Limits(cpuSeconds * COMPILE_WALL_PER_CPU, cpuSeconds, memoryMiB, fileSizeMiB);
        }

        /**
         * The limits of a compile that asks whether the compiler hangs, which only its CPU can
         * tell ({@link Result#reachedCpuLimit}): the wall clock is a backstop for a child that
         * waits, ten times the CPU limit and a minute more. Triage's builds run niced beside a
         * campaign; on 2026-12-07, with the machine's load at 10 on 2 cores, a clang compile of
         * 0.9 CPU-s ran past three times a 3.25 CPU-s limit on the wall clock, and triage took
         * it for the hang and dropped every option the hang needed.
         */
        public static Limits hangCheck(double cpuSeconds, long memoryMiB, long fileSizeMiB) {
            return new Limits(cpuSeconds * 10 + 60, cpuSeconds, memoryMiB, fileSizeMiB);
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

    /** What {@link #run} throws when its thread is interrupted: the child was killed, after the CPU seconds it had taken. */
    public static final class Interrupted extends IOException {
        private final double cpuSeconds;

        Interrupted(double cpuSeconds) {
            super("interrupted");
            this.cpuSeconds = cpuSeconds;
        }

        /** The CPU the child and its descendants had taken when it was killed. */
        public double cpuSeconds() {
            return cpuSeconds;
        }
    }

    /**
     * The CPU seconds a running child and its living descendants have taken, with the children
     * they have reaped (Linux: /proc/PID/stat, 100 ticks a second); 0 where it cannot be read.
     */
    static double treeCpuSeconds(Process p) {
        double sum = 0;
        for (ProcessHandle h : java.util.stream.Stream.concat(java.util.stream.Stream.of(p.toHandle()), p.descendants()).toList()) {
            double[] cpu = procCpu(Long.toString(h.pid()));
            sum += cpu[0] + cpu[1];
        }
        return sum;
    }

    /**
     * The CPU seconds of process {@code pid} ("self": this one): its own and its reaped
     * children's (Linux: /proc/PID/stat, 100 ticks a second); zeros where it cannot be read.
     */
    public static double[] procCpu(String pid) {
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // After the name: state(0) ... utime(11) stime(12) cutime(13) cstime(14)
            return new double[] {(Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0, (Long.parseLong(f[13]) + Long.parseLong(f[14])) / 100.0};
        } catch (IOException | RuntimeException e) {
            return new double[] {0, 0};
        }
    }

    /** What a child of a thread {@link #stop} stopped throws: it did not end by itself, so nothing is known of it. */
    public static final class Stopped extends IOException {
        Stopped() {
            super("stopped", null);
        }
    }

    private static final Map<Thread, Process> RUNNING = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.Set<Thread> STOPPED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Kills the child {@code thread} runs (its whole tree) and every child it would start, which
     * throw {@link Stopped} instead: how a campaign stops its tests at its deadline without
     * interrupting a thread, which would close the files it writes with it. {@link #release}
     * lets the thread run children again.
     */
    public static void stop(Thread thread) {
        STOPPED.add(thread);
        Process p = RUNNING.get(thread);
        if (p != null) kill(p);
    }

    /** Undoes {@link #stop} for {@code thread}. */
    public static void release(Thread thread) {
        STOPPED.remove(thread);
    }

    /** Runs {@code cmd} in {@code dir}; its output goes to {@code name}.stdout / .stderr there. */
    public static Result run(Path dir, String name, List<String> cmd, Limits limits) throws IOException {
        Thread me = Thread.currentThread();
        if (STOPPED.contains(me)) throw new Stopped();
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
        // ulimit -t takes whole seconds: the limit rounded up, never a second more (a compile stopped at an outlier's bar
        // of 3 CPU-s ran to 4 with one more, a third again of what the bar needs).
        pb.environment().put("YARPJ_CPU", Long.toString(Math.max(1, (long) Math.ceil(limits.cpuSeconds()))));
        // No memory limit for a child that runs sanitized builds of its own (ASan reserves terabytes of address space).
        pb.environment().put("YARPJ_MEM", limits.memoryMiB() == Limits.NO_MEMORY_LIMIT ? "unlimited" : Long.toString(limits.memoryMiB() * 1024));
        pb.environment().put("YARPJ_FSIZE", Long.toString(limits.fileSizeMiB() * 1024));
        // Absolute: the child runs in dir, where a path relative to ours would not lead back.
        pb.environment().put("YARPJ_TIMES", times.toAbsolutePath().toString());
        pb.environment().put("LC_ALL", "C");
        // AdaptiveCpp's runtime prints notes (its kernel cache) on stdout, where the checksum goes.
        pb.environment().putIfAbsent("ACPP_DEBUG_LEVEL", "0");
        long start = System.nanoTime();
        Process p = pb.start();
        RUNNING.put(me, p);
        boolean done;
        try {
            if (STOPPED.contains(me)) kill(p); // stopped while it started
            done = p.waitFor((long) (limits.timeoutSeconds() * 1000), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            double spent = treeCpuSeconds(p);
            kill(p);
            Thread.currentThread().interrupt();
            throw new Interrupted(spent);
        } finally {
            RUNNING.remove(me);
        }
        if (STOPPED.contains(me)) throw new Stopped();
        if (!done) kill(p);
        double wall = (System.nanoTime() - start) / 1e9;
        int code = done ? p.exitValue() : -1;
        double cpu = done ? childCpu(times, wall) : wall;
        return new Result(code, !done, read(out), read(err), wall, cpu);
    }

    /**
     * What {@link #capture} saw: the exit code (-1 after its timeout, 127 when the program
     * could not be started, {@code started} false then) and its output, stdout and stderr
     * merged (empty when it went to a log; why it could not start when it did not).
     */
    public record Captured(int exitCode, boolean timedOut, String output, boolean started) {
        public boolean ok() {
            return !timedOut && exitCode == 0;
        }
    }

    /**
     * Runs {@code cmd} in {@code dir} with a wall-clock timeout (the whole process tree is
     * killed at it), {@code env} added to the environment and no input; stdout and stderr go,
     * merged, to {@code log} when it is given, else into memory (the first MiB is kept). For
     * the children that are not a test's compiles and runs, so need no CPU, memory or network
     * limits: a compiler's {@code --version}, C-Vise, and the builds and runs of reduction and
     * triage (whose scripts and commands carry their own limits).
     */
    public static Captured capture(Path dir, List<String> cmd, Map<String, String> env, double timeoutSeconds, Path log)
            throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir == null ? null : dir.toFile()).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(devNull()));
        pb.environment().putAll(env);
        if (log != null) pb.redirectOutput(log.toFile());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new Captured(127, false, e.getMessage() == null ? "" : e.getMessage(), false);
        }
        var out = new java.io.ByteArrayOutputStream();
        Thread reader = new Thread(() -> {
            try (var in = p.getInputStream()) {
                byte[] buf = new byte[8192];
                for (int n; (n = in.read(buf)) > 0; ) if (out.size() < (1 << 20)) out.write(buf, 0, Math.min(n, (1 << 20) - out.size()));
            } catch (IOException ignored) {
                // the process went away: what was read is kept
            }
        });
        reader.start();
        boolean done;
        try {
            done = p.waitFor((long) (timeoutSeconds * 1000), TimeUnit.MILLISECONDS);
            if (!done) kill(p);
            reader.join();
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        return new Captured(done ? p.exitValue() : -1, !done, out.toString(StandardCharsets.UTF_8), true);
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
