package dev.yarpj;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Logs each test class's CPU time to {@code target/test-cpu.tsv}: the test JVM's own and that
 * of the processes it waited for (compilers, C-Vise, the programs built), which is what a class
 * costs whatever else the machine is doing. Wall-clock times (surefire's reports) say how long
 * a class took on that machine at that moment; these say which classes to make cheaper.
 * Registered for every class through the service file and
 * {@code junit.jupiter.extensions.autodetection.enabled}; with classes run side by side the
 * children's share is only approximate, so measure with {@code -Djunit.jupiter.execution.parallel.enabled=false}.
 */
public final class TestCpuLog implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(TestCpuLog.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NS).put("start", new long[] {ownNanos(), childTicks(), System.nanoTime()});
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        long[] start = context.getStore(NS).get("start", long[].class);
        if (start == null) return;
        double own = (ownNanos() - start[0]) / 1e9;
        double children = (childTicks() - start[1]) / (double) TICKS_PER_SECOND;
        double wall = (System.nanoTime() - start[2]) / 1e9;
        Path log = Path.of("target", "test-cpu.tsv");
        Files.createDirectories(log.getParent());
        Files.writeString(log, String.format(Locale.ROOT, "%s\t%.1f\t%.1f\t%.1f\t%.1f%n", context.getRequiredTestClass().getName(),
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
