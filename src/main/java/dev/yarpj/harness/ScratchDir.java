package dev.yarpj.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A scratch directory of builds and runs: removed, with everything in it, once its work is done. */
public final class ScratchDir {
    private ScratchDir() {}

    /** Removes {@code dir} and everything under it; nothing when it does not exist. A file that will not go stays. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
