package dev.yarpj.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interestingness test keeps UB-free candidates only. Generated tests hold UB in dead
 * code on purpose; a reduction step that makes such code live (here: negating the dead
 * condition) must be refused, while an innocent step on the same test is kept. And a
 * candidate must read as clean C: no warning under -Wall -Wextra beyond harmless ones that
 * the original did not have.
 */
class InterestingnessScriptTest {
    private static final Path MISCOMPILE = Path.of("src/test/resources/fake-compilers/miscompile.sh").toAbsolutePath();

    /** A test whose dead branch would divide by zero; the fake compiler miscompiles {@code x + 3}. */
    private static String program(String deadCondition, String addend) {
        return program(deadCondition, addend, "res = x / zero;");
    }

    private static String program(String deadCondition, String addend, String dead) {
        return """
                #include <stdio.h>
                int zero = 0, one = 1, x = 5;
                int res;
                int arr[2] = {1, 2};
                void test(void) {
                    res = x + %s;
                    if (%s) {
                        %s
                    }
                }
                int main(void) {
                    test();
                    printf("%%d\\n", res);
                    return 0;
                }
                """.formatted(addend, deadCondition, dead);
    }

    private static int interesting(Path dir, String source) throws Exception {
        return interesting(dir, program("one == zero", "3"), source);
    }

    /** The script's verdict on {@code candidate}, its warning limits calibrated on {@code original} as the reducer does. */
    private static int interesting(Path dir, String original, String candidate) throws Exception {
        return interesting(dir, original, candidate, List.of());
    }

    private static int interesting(Path dir, String original, String candidate, List<String> emulator) throws Exception {
        String script = InterestingnessTest.script(dev.yarpj.harness.Outcome.WRONG_CODE, "c", "merged.c", List.of(MISCOMPILE.toString(), "-O2"), "gcc",
                null, 10, 120, dir.resolve("accepted.log"), dir.resolve("limits.txt"), emulator);
        Path sh = dir.resolve("test.sh");
        Files.writeString(sh, script);
        MISCOMPILE.toFile().setExecutable(true);
        Files.writeString(dir.resolve("merged.c"), original);
        assertEquals(0, run(dir, sh, "--calibrate"), "calibration");
        Files.writeString(dir.resolve("merged.c"), candidate);
        return run(dir, sh);
    }

    private static int run(Path dir, Path sh, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", sh.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "interestingness test timed out");
        return p.exitValue();
    }

    @Test
    void refusesACandidateWithAWarningTheOriginalDidNotHave(@TempDir Path dir) throws Exception {
        String clean = program("one == zero", "3");
        assertEquals(0, interesting(dir, clean, program("one == zero", "3", "int unused = 1;")), "an unused variable is harmless");
        assertNotEquals(0, interesting(dir, clean, program("one == zero", "3", "res = arr[5];")),
                "a subscript out of bounds in code that never runs");
        assertNotEquals(0, interesting(dir, clean, program("one == zero", "3", "res = (res = 1) + res;")), "unsequenced");
    }

    @Test
    void anOriginalsOwnWarningsMayStayButNotGrow(@TempDir Path dir) throws Exception {
        String original = program("one == zero", "3", "res = arr[5];");
        assertEquals(0, interesting(dir, original, program("one == zero", "3", "res = arr[5];")), "as many as the original");
        assertNotEquals(0, interesting(dir, original, program("one == zero", "3", "res = arr[5] + arr[6];")), "one more");
    }

    @Test
    void aFindingOnAnotherTargetRunsItsBuildsUnderItsEmulator(@TempDir Path dir) throws Exception {
        // A stand-in emulator that notes each program it runs, then runs it (past its two options).
        Path emu = dir.resolve("emu.sh");
        Files.writeString(emu, "#!/bin/sh\necho \"$@\" >> " + dir.resolve("emulated.txt") + "\nshift 2\nexec \"$@\"\n");
        emu.toFile().setExecutable(true);
        assertEquals(0, interesting(dir, program("one == zero", "3"), program("one == zero", "3"), List.of(emu.toString(), "-cpu", "max")));
        assertEquals(List.of("-cpu max ./ref.bin", "-cpu max ./bug.bin"), Files.readAllLines(dir.resolve("emulated.txt")));
    }

    @Test
    void refusesACandidateThatMakesDeadUbLive(@TempDir Path dir) throws Exception {
        assertEquals(0, interesting(dir, program("one == zero", "3")), "the test as generated is interesting");
        assertEquals(0, interesting(dir, program("one == zero", "2")), "an innocent change is kept");
        assertNotEquals(0, interesting(dir, program("one != zero", "3")), "dead code made live divides by zero");
    }
}
