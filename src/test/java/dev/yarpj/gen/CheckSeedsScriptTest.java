package dev.yarpj.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/check-seeds.sh, the check that thousands of seeds are run through before a
 * generator change lands: it passes a seed that real gcc and clang agree on, and fails, naming
 * the build, a seed that a compiler gets wrong, and runs a SYCL seed without a SYCL compiler.
 * One tiny seed each.
 */
class CheckSeedsScriptTest {
    private static final String TINY = Path.of("src/test/resources/policies/tiny.yaml").toAbsolutePath().toString();

    /** Runs the script with yarpj from this build's classes (not the launcher, which would build a jar). */
    private static Run checkSeeds(Path dir, Map<String, String> env, String... args) throws Exception {
        Path yarpj = dir.resolve("yarpj");
        Files.writeString(yarpj, "#!/bin/sh\nexec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp '"
                + System.getProperty("java.class.path") + "' dev.yarpj.cli.Main \"$@\"\n");
        yarpj.toFile().setExecutable(true);
        ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of("scripts/check-seeds.sh"))).redirectErrorStream(true);
        pb.command().addAll(List.of(args));
        pb.environment().putAll(Map.of("YARPJ", yarpj.toString(), "YARPJ_GEN_FLAGS", "--policy " + TINY, "CHECK_JOBS", "1",
                "TMPDIR", dir.toString()));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "check-seeds.sh did not end: " + out);
        return new Run(p.exitValue(), out);
    }

    private record Run(int code, String out) {}

    @Test
    void aSeedThatGccAndClangAgreeOnPasses(@TempDir Path dir) throws Exception {
        Run r = checkSeeds(dir, Map.of(), "c", "2", "2", "agree");
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("1 passed, 0 failed"), r.out());
    }

    /** Without a SYCL compiler, func.cpp itself still runs: on the host SYCL of the tests, in the asserts driver and under the sanitizers. */
    @Test
    void aSyclSeedWithoutASyclCompilerRunsItsKernelsOnTheHostSycl(@TempDir Path dir) throws Exception {
        Run r = checkSeeds(dir, Map.of("SYCL_TARGETS", "none"), "sycl", "2", "2", "asserts", "sanitize");
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("1 passed, 0 failed"), r.out());
    }

    @Test
    void aSeedThatACompilerGetsWrongFailsAndNamesTheBuild(@TempDir Path dir) throws Exception {
        Path fake = Path.of("src/test/resources/fake-compilers/miscompile.sh").toAbsolutePath();
        fake.toFile().setExecutable(true);
        // The fake stands in for gcc: it builds the driver as gcc does and miscompiles func.c.
        Run r = checkSeeds(dir, Map.of("CHECK_GCC", fake.toString()), "c", "5", "5", "agree");
        assertEquals(1, r.code(), r.out());
        // It fails for the right reason: the build ran and printed another checksum.
        assertTrue(r.out().contains("FAIL seed 5:"), r.out());
        assertTrue(r.out().contains(fake + "-O3:got["), "the failing build is named with what it printed: " + r.out());
        assertTrue(r.out().contains("0 passed, 1 failed"), r.out());
    }
}
