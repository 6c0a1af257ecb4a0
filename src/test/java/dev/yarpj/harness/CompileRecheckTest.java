package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a compile-time outlier's recheck compiles: every source its compile reads, the extern helpers' file included. */
class CompileRecheckTest {
    @Test
    void theRecheckGetsTheHelpersFileThatTheCompileBuildsWithFunc(@TempDir Path dir) throws Exception {
        Path example = Files.createDirectories(dir.resolve("example"));
        for (String f : List.of("func.c", "helpers.c", "driver.c", "init.h", "meta.json", "repro.sh", "expected.txt")) {
            Files.writeString(example.resolve(f), f);
        }
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        CompileRecheck.copySources(example, scratch);
        try (Stream<Path> s = Files.list(scratch)) {
            assertEquals(List.of("driver.c", "func.c", "helpers.c", "init.h"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }
}
