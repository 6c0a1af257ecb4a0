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
import java.util.stream.Stream;

/**
 * Tells a compile-time outlier that finishes from one that never does. A campaign stops an
 * outlier at the bar that makes it one ({@link CompileTimeRule#limit}): past that it is a
 * finding, and what it would still cost is a fact about the bug, not about the finding. So
 * the question is asked once per bug, of a new compile-time bug only, by the triage lane
 * ({@link #once}); a finding of a known bug is never compiled again to answer it.
 *
 * <p>The recheck runs at {@code nice -n 19} with a CPU limit (by default four times the
 * compile limit) and {@link #WALL_PER_CPU} times that on the wall clock, and writes its
 * verdict into the finding's meta.json. One that finishes in less CPU time than made the
 * compile an outlier withdraws the finding ({@link FindingStore#withdraw}).
 */
public final class CompileRecheck {
    /** What meta.json said before the verdict, in runs of yarpj older than the lane's rechecks. */
    static final String PENDING = "pending";
    /** The wall-clock limit of a niced recheck, in multiples of its CPU limit. */
    static final double WALL_PER_CPU = 4;

    /** What meta.json holds: the least CPU time a recompile must take to stay an outlier. */
    static final String OUTLIER_FROM = "outlier_from_cpu_s";

    private CompileRecheck() {}

    /** Whether the finding in {@code example} waits for the recheck of its bug: it did not finish, and nothing rechecked it yet. */
    public static boolean needed(Path example) throws IOException {
        Object r = read(example.resolve("meta.json")).get("recheck");
        return TestRunner.RECHECK_BY_LANE.equals(r) || PENDING.equals(r);
    }

    /**
     * Compiles the finding in {@code example} again with its own command, at most
     * {@code cpuSeconds} of CPU, in {@code scratch}; writes the verdict into its meta.json and
     * returns it with the CPU seconds it took. A recheck that shows no outlier moves the
     * finding under {@code withdrawn/} of its results directory.
     */
    public static Done once(Path example, Path scratch, double cpuSeconds) throws IOException {
        Map<String, Object> m = read(example.resolve("meta.json"));
        if (!(m.get("commands") instanceof List<?> cmds) || cmds.isEmpty()) throw new IOException("no compile command in " + example);
        List<String> compile = new ArrayList<>();
        for (Object a : (List<?>) cmds.get(cmds.size() - 1)) compile.add(String.valueOf(a));
        double outlierFrom = m.get(OUTLIER_FROM) instanceof Number b ? b.doubleValue() : Double.NaN;
        prepare(example, scratch);
        List<String> cmd = new ArrayList<>(List.of("nice", "-n", "19"));
        cmd.addAll(compile);
        ProcessRunner.Limits limits = new ProcessRunner.Limits(cpuSeconds * WALL_PER_CPU, cpuSeconds, 4096, 256);
        ProcessRunner.Result r = ProcessRunner.run(scratch, "recheck", cmd, limits);
        String verdict = verdict(r, limits);
        if (withdraws(r, outlierFrom)) {
            setVerdict(example, String.format(Locale.ROOT, "withdrawn: %s, under the %.1f CPU-s that make an outlier", verdict, outlierFrom));
            Path results = example.getParent().getParent().getParent();
            new FindingStore(results, scratch.resolve(".staging"), "recheck").withdraw(example);
            return new Done(verdict, r.cpuSeconds(), true);
        }
        setVerdict(example, verdict);
        return new Done(verdict, r.cpuSeconds(), false);
    }

    /** What a recheck said, its CPU seconds, and whether it withdrew the finding. */
    public record Done(String verdict, double cpuSeconds, boolean withdrawn) {}

    /** Empties {@code scratch} (creating it if need be) and copies the sources of the finding in {@code example} there ({@link #copySources}). */
    public static void prepare(Path example, Path scratch) throws IOException {
        TestRunner.clean(scratch);
        copySources(example, scratch);
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
