package dev.yarpj;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Logs each test class's CPU time to {@code target/test-cpu.tsv}, and each test method's to
 * {@code target/test-cpu-methods.tsv}: the test JVM's own and that
 * of the processes it waited for (compilers, C-Vise, the programs built), which is what a class
 * costs whatever else the machine is doing. Wall-clock times (surefire's reports) say how long
 * a class took on that machine at that moment; these say which classes to make cheaper.
 * Registered for every class through the service file and
 * {@code junit.jupiter.extensions.autodetection.enabled}. Each test JVM runs its classes one
 * at a time (surefire's forks), so a class's figures are its own; the JVMs append to one file.
 */
public final class TestCpuLog implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(TestCpuLog.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NS).put("start", new long[] {ownNanos(), childTicks(), System.nanoTime()});
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        beforeAll(context);
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        log(context, "test-cpu-methods.tsv", context.getRequiredTestClass().getName() + "#" + context.getDisplayName());
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        log(context, "test-cpu.tsv", context.getRequiredTestClass().getName());
    }

    /** One line of {@code file}: name, CPU-s in all, the JVM's own, its children's, wall-clock seconds. */
    private static void log(ExtensionContext context, String file, String name) throws IOException {
        long[] start = context.getStore(NS).get("start", long[].class);
        if (start == null) return;
        double own = (ownNanos() - start[0]) / 1e9;
        double children = (childTicks() - start[1]) / (double) TICKS_PER_SECOND;
        double wall = (System.nanoTime() - start[2]) / 1e9;
        Path log = Path.of("target", file);
        Files.createDirectories(log.getParent());
        Files.writeString(log, String.format(Locale.ROOT, "%s\t%.1f\t%.1f\t%.1f\t%.1f%n", name,
                own + children, own, children, wall), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** Linux's clock ticks per second (USER_HZ), which /proc reports CPU times in. */
    private static final int TICKS_PER_SECOND = 100;

    private static long ownNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    /** cutime + cstime of /proc/self/stat: the CPU of every child this JVM waited for, and of theirs. */
    private static long childTicks() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // After the command name: state is field 3 of the full line, cutime 16, cstime 17.
            return Long.parseLong(f[16 - 3]) + Long.parseLong(f[17 - 3]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
