package dev.yarpj.stats;

import dev.yarpj.gen.GeneratedTest;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What one mode of {@code yarpj stats} does with each generated test ({@link SeedRunner}
 * generates them): compile it for remarks, build and run it for ISPC masks, or nothing.
 */
interface SeedCollector<R> {
    /** Whether tests are compiled (each gets a temporary directory); else they are only generated. */
    boolean compiles();

    /** Whether the tests are generated in their measurement variant (counting the masks of varying ifs). */
    default boolean measurementVariant() {
        return false;
    }

    /** What the progress line says was done to the tests: "compiled". */
    String verb();

    /** The longest one seed may take (for waiting on the workers at the end). */
    double timeoutSeconds();

    /** Measures {@code test} in {@code dir} (null when nothing compiles); throws only for a problem of the machine. */
    SeedResult<R> measure(long seed, GeneratedTest test, Path dir) throws IOException;
}
