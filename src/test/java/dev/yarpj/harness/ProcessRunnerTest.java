package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limits children run under: a child killed at its CPU limit is told from one that
 * failed or ran out of wall-clock time, also when it is gcc's cc1 and the driver outlives it.
 */
class ProcessRunnerTest {
    /** One CPU-second, and a wall clock long enough that the CPU limit comes first. */
    private static final ProcessRunner.Limits ONE_CPU_SECOND = new ProcessRunner.Limits(60, 1, 4096, 1024);

    @Test
    void aChildThatSpinsIsKilledAtItsCpuLimit(@TempDir Path dir) throws Exception {
        ProcessRunner.Result r = ProcessRunner.run(dir, "spin", List.of("perl", "-e", "1 while 1"), ONE_CPU_SECOND);
        assertTrue(r.overCpuLimit() && !r.timedOut() && !r.ok(), r.toString());
    }

    @Test
    void gccWhoseCc1IsKilledAtTheCpuLimitSaysSo(@TempDir Path dir) throws Exception {
        assumeTrue(Testbeds.onPath("gcc"), "gcc is not on the PATH");
        // A thousand copies of a loop: far more than a CPU-second of gcc -O3.
        StringBuilder loops = new StringBuilder("int f(int *a, int n) {\n  int s = 0;\n");
        for (int k = 0; k < 1000; k++) loops.append("  for (int i = 0; i < n; i++) s += a[i] * (i ^ n ^ ").append(k).append(");\n");
        Files.writeString(dir.resolve("heavy.c"), loops.append("  return s;\n}\n").toString());
        ProcessRunner.Result r = ProcessRunner.run(dir, "cc", List.of("gcc", "-O3", "-w", "-c", "heavy.c", "-o", "heavy.o"), ONE_CPU_SECOND);
        assertTrue(r.overCpuLimit(), r.exitCode() + ": " + r.stderr());
        assertTrue(r.exitCode() < 128, "the driver itself exits: " + r.exitCode());
    }

    @Test
    void theRecheckOfAGccHogKilledAtItsCpuLimitSaysHang() {
        ProcessRunner.Result r = new ProcessRunner.Result(1, false, "", "gcc: fatal error: Killed signal terminated program cc1\n", 30, 0.1);
        String verdict = CompileRecheck.verdict(r, new ProcessRunner.Limits(60, 20, 4096, 1024));
        assertTrue(verdict.equals("hang: still compiling after 20 CPU-s"), verdict);
    }

    @Test
    void aClangWhoseFrontEndWasKilledAtTheCpuLimitIsOverItEvenIfItsDriverAborts() {
        // clang 23 for AArch64, seed 415 of the SVE space: cc1 killed at the limit, then the driver aborted (134).
        String err = "clang-23: error: unable to execute command: Killed\n"
                + "clang-23: error: clang frontend command failed with exit code -2 (use -v to see invocation)\n"
                + "PLEASE ATTACH THE FOLLOWING CRASH REPRODUCER FILES TO THE BUG REPORT:\n";
        ProcessRunner.Result r = new ProcessRunner.Result(134, false, "", err, 60, 58.7);
        assertTrue(r.overCpuLimit() && r.pastTimeLimit(60), r.toString());
        assertTrue(Signature.isResourceExhaustion(err), err);
        assertFalse(new ProcessRunner.Result(134, false, "", "clang-23: error: clang frontend command failed due to signal\n", 2, 1).overCpuLimit());
    }

    @Test
    void aChildThatWaitsIsStoppedByTheWallClockNotItsCpuLimit(@TempDir Path dir) throws Exception {
        ProcessRunner.Result r = ProcessRunner.run(dir, "wait", List.of("sleep", "30"), new ProcessRunner.Limits(1, 1, 4096, 1024));
        assertTrue(r.timedOut(), r.toString());
        assertFalse(r.overCpuLimit(), r.toString());
        ProcessRunner.Result failed = ProcessRunner.run(dir, "fail", List.of("sh", "-c", "echo nope >&2; exit 1"), ONE_CPU_SECOND);
        assertFalse(failed.overCpuLimit() || failed.ok(), failed.toString());
    }

    @Test
    void aChildInADirectoryGivenRelativeToTheWorkingDirectoryIsTimedByItsCpuNotItsWall() throws Exception {
        // yarpj fuzz --out results gives its children relative directories: their CPU times must
        // still be read (they decide compile hangs), not replaced by the wall clock.
        Path relative = Files.createTempDirectory(Path.of("target"), "relative-");
        try {
            ProcessRunner.Result r = ProcessRunner.run(relative, "sleep", List.of("sleep", "1"), new ProcessRunner.Limits(30, 30, 4096, 1024));
            assertTrue(r.ok() && r.wallSeconds() >= 1, r.toString());
            assertTrue(r.cpuSeconds() < 0.5, "a sleep's CPU time, not its wall time: " + r);
            assertFalse(r.stderr().contains("No such file"), r.stderr());
        } finally {
            try (var files = Files.list(relative)) {
                for (Path f : files.toList()) Files.delete(f);
            }
            Files.delete(relative);
        }
    }
}
