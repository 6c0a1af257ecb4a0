package dev.yarpj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compile-time outlier is reduced against the bar that made it one: an outlier stopped at
 * 3.5 CPU-s that finishes in 7 never reached the old fixed 10 s, and its reduction kept nothing.
 */
class ReduceCommandTest {
    private static Path finding(Path dir, String extra) throws Exception {
        Path f = Files.createDirectories(dir.resolve("compile-hang/abc/1"));
        Files.writeString(f.resolve("meta.json"), "{\"kind\": \"compile-hang\", \"lang\": \"c\", \"seed\": 1, \"testbed\": \"t\", \"reference\": \"gcc\","
                + " \"commands\": [[\"gcc\", \"-O2\", \"-w\", \"-c\", \"func.c\", \"-o\", \"f.o\"]]" + extra + "}\n");
        return f;
    }

    @Test
    void aCompileHangIsReducedAgainstItsOwnBarRoundedUp(@TempDir Path dir) throws Exception {
        assertEquals(4, ReduceCommand.defaultSlowAfter(finding(dir.resolve("a"), ", \"outlier_from_cpu_s\": 3.5")));
        assertEquals(10, ReduceCommand.defaultSlowAfter(finding(dir.resolve("b"), "")), "a finding that does not say keeps 10 s");
    }
}
