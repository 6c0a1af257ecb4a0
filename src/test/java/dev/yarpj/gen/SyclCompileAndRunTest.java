package dev.yarpj.gen;

import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SYCL tests built by a real SYCL compiler and run on the CPU: each prints the interpreter's
 * checksum, as does the C++ lowering of the same program (func_ref.cpp) linked to the same
 * driver. Needs AdaptiveCpp's {@code acpp} on the PATH or named by YARPJ_SYCL; without one
 * the test says it was skipped, and why (no SYCL implementation is packaged for Debian).
 */
class SyclCompileAndRunTest {
    private static String acpp;

    @TempDir
    Path dir;

    private static boolean found;
    private static String why;

    @BeforeAll
    static void lookForASyclCompiler() {
        String given = System.getenv("YARPJ_SYCL");
        acpp = given != null && !given.isBlank() ? given : "acpp";
        found = dev.yarpj.Commands.onPath(acpp);
        why = "no SYCL compiler: '" + acpp + "' does not run (install AdaptiveCpp and put acpp on the PATH, or set YARPJ_SYCL)";
        if (!found) System.err.println("SyclCompileAndRunTest skipped: " + why);
    }

    /** In each test, not in @BeforeAll: Surefire counts a test whose assumption fails as skipped, a class's as nothing. */
    @BeforeEach
    void needsASyclCompiler() {
        Assumptions.assumeTrue(found, why);
    }

    @Test
    void everyTargetAndLevelAndTheCppLoweringPrintThePrediction() throws Exception {
        // Two seeds of the default policy, and one whose helpers take elements and structs of
        // arrays of structs (buffers or USM of structs) by value and by pointer.
        GenPolicy structs = PolicyLoader.parse("structs: {p_field: 0.8}\nfunctions: {p_call: 0.5, p_struct: 0.6, p_pointer: 0.5}\n",
                "structs.yaml", "structs");
        // And one with floating point that never rounds, also built with -ffast-math.
        GenPolicy floats = PolicyLoader.parse("floats: {p_float: 0.5}\n", "floats.yaml", "floats");
        for (long s = 1; s <= 4; s++) {
            GenPolicy policy = s <= 2 ? GenPolicy.defaults() : s == 3 ? structs : floats;
            GeneratedTest t = new Generator(policy, Language.SYCL, CheckMode.HASH).generate(s, "test");
            Path d = Files.createDirectories(dir.resolve("s" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            String want = t.prediction().expectedOutput();
            run(d, "g++", "-O0", "-w", "-c", "driver.cpp", "-o", "driver.o");
            for (String target : List.of("omp", "generic")) {
                for (String opt : s == 4 ? List.of("-O0", "-O3", "-O3 -ffast-math") : List.of("-O0", "-O3")) {
                    run(d, dev.yarpj.Commands.cmd(acpp, List.of(opt.split(" ")), "--acpp-targets=" + target, "-w", "-c", "func.cpp", "-o", "func.o"));
                    run(d, acpp, "--acpp-targets=" + target, "driver.o", "func.o", "-o", "test.bin", "-lm");
                    assertEquals(want, runQuietly(d).strip(), "seed " + s + " " + target + " " + opt);
                }
            }
            run(d, "g++", "-O2", "-w", "-c", "func_ref.cpp", "-o", "ref.o");
            run(d, "g++", "driver.o", "ref.o", "-o", "ref.bin", "-lm");
            assertEquals(want, run(d, d.resolve("ref.bin").toString()).strip(), "seed " + s + " C++ lowering");
        }
    }

    /** Runs test.bin with AdaptiveCpp's notes off (its JIT cache note goes to stdout). */
    private static String runQuietly(Path d) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(d.resolve("test.bin").toString()).directory(d.toFile());
        pb.environment().put("ACPP_DEBUG_LEVEL", "0");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), "test.bin: " + out);
        return out;
    }
}
