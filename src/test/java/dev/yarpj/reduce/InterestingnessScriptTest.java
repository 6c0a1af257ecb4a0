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
 * condition) must be refused, while an innocent step on the same test is kept.
 */
class InterestingnessScriptTest {
    private static final Path MISCOMPILE = Path.of("src/test/resources/fake-compilers/miscompile.sh").toAbsolutePath();

    /** A test whose dead branch would divide by zero; the fake compiler miscompiles {@code x + 3}. */
    private static String program(String deadCondition, String addend) {
        return """
                #include <stdio.h>
                int zero = 0, one = 1, x = 5;
                int res;
                void test(void) {
                    res = x + %s;
                    if (%s) {
                        res = x / zero;
                    }
                }
                int main(void) {
                    test();
                    printf("%%d\\n", res);
                    return 0;
                }
                """.formatted(addend, deadCondition);
    }

    private static int interesting(Path dir, String source) throws Exception {
        Files.writeString(dir.resolve("merged.c"), source);
        String script = InterestingnessTest.script("wrong-code", "c", "merged.c", List.of(MISCOMPILE.toString(), "-O2"), "gcc",
                null, dir.resolve("accepted.log"));
        Path sh = dir.resolve("test.sh");
        Files.writeString(sh, script);
        MISCOMPILE.toFile().setExecutable(true);
        Process p = new ProcessBuilder("bash", sh.toString()).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "interestingness test timed out");
        return p.exitValue();
    }

    @Test
    void refusesACandidateThatMakesDeadUbLive(@TempDir Path dir) throws Exception {
        assertEquals(0, interesting(dir, program("one == zero", "3")), "the test as generated is interesting");
        assertEquals(0, interesting(dir, program("one == zero", "2")), "an innocent change is kept");
        assertNotEquals(0, interesting(dir, program("one != zero", "3")), "dead code made live divides by zero");
    }
}
