package dev.yarpj.stats;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.stats.ispc.IfMask;
import dev.yarpj.stats.ispc.IspcMaskBuild;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The ISPC mask mode: builds and runs each test's measurement variant ({@link IspcMaskBuild})
 * and keeps the masks of its varying ifs; a test that fails to build or run, or prints a
 * wrong checksum, skips the seed.
 */
final class MaskCollector implements SeedCollector<List<IfMask>> {
    private final IspcMaskBuild build;
    private final double timeoutSeconds;

    /** {@code timeoutSeconds}: the longest a seed's build and run may take together. */
    MaskCollector(IspcMaskBuild build, double timeoutSeconds) {
        this.build = build;
        this.timeoutSeconds = timeoutSeconds;
    }

    @Override
    public boolean compiles() {
        return true;
    }

    @Override
    public boolean measurementVariant() {
        return true;
    }

    @Override
    public String verb() {
        return "built and run";
    }

    @Override
    public double timeoutSeconds() {
        return timeoutSeconds;
    }

    @Override
    public SeedResult<List<IfMask>> measure(long seed, GeneratedTest test, Path dir) throws IOException {
        TestFigures figures = TestFigures.of(test);
        IspcMaskBuild.Result r = build.run(dir, test, figures.ispc().varyingIfs());
        return switch (r.status()) {
            case OK -> new SeedResult.Measured<>(seed, figures, List.copyOf(r.masks()));
            case COMPILE_FAILED -> new SeedResult.Skipped<>(seed, figures, Skip.COMPILE, r.message());
            case COMPILE_TIMEOUT -> new SeedResult.Skipped<>(seed, figures, Skip.TIMEOUT, r.message());
            case RUN_FAILED -> new SeedResult.Skipped<>(seed, figures, Skip.RUN, r.message());
            case RUN_TIMEOUT -> new SeedResult.Skipped<>(seed, figures, Skip.RUN_TIMEOUT, r.message());
            case MISMATCH -> new SeedResult.Skipped<>(seed, figures, Skip.MISMATCH, r.message());
        };
    }
}
