package dev.yarpj.stats;

import dev.yarpj.gen.GeneratedTest;
import java.nio.file.Path;

/** --no-compile: every generated test counts with its figures; nothing more is measured. */
final class NoCompileCollector implements SeedCollector<NoCompileCollector.Generated> {
    /** A test that was generated (and so interpreted). */
    enum Generated { GENERATED }

    @Override
    public boolean compiles() {
        return false;
    }

    @Override
    public String verb() {
        return "generated";
    }

    @Override
    public double timeoutSeconds() {
        return 0;
    }

    @Override
    public SeedResult<Generated> measure(long seed, GeneratedTest test, Path dir) {
        return new SeedResult.Measured<>(seed, TestFigures.of(test), Generated.GENERATED);
    }
}
