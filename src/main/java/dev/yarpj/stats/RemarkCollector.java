package dev.yarpj.stats;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.harness.ProcessRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The remark mode: compiles each test's {@code func} (with init.h, the driver is not needed)
 * at -O3 with remarks and tallies them; a compile that fails or times out skips the seed.
 */
final class RemarkCollector implements SeedCollector<RemarkTally> {
    private final RemarkCompiler compiler;
    private final String cc;
    private final List<String> flags;
    private final double timeoutSeconds;

    RemarkCollector(RemarkCompiler compiler, String cc, List<String> flags, double timeoutSeconds) {
        this.compiler = compiler;
        this.cc = cc;
        this.flags = List.copyOf(flags);
        this.timeoutSeconds = timeoutSeconds;
    }

    @Override
    public boolean compiles() {
        return true;
    }

    @Override
    public String verb() {
        return "compiled";
    }

    @Override
    public double timeoutSeconds() {
        // The longest a compile may run: its CPU limit, on the wall clock (RemarkCompiler.compile).
        return timeoutSeconds * ProcessRunner.Limits.COMPILE_WALL_PER_CPU;
    }

    @Override
    public SeedResult<RemarkTally> measure(long seed, GeneratedTest test, Path dir) throws IOException {
        String func = test.funcFile();
        for (Map.Entry<String, String> f : test.files().files().entrySet()) {
            if (f.getKey().equals(func) || f.getKey().endsWith(".h")) {
                Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
            }
        }
        RemarkCompiler.CompileResult c = compiler.compile(cc, flags, dir, func, timeoutSeconds);
        TestFigures figures = TestFigures.of(test);
        return switch (c.status()) {
            case OK -> {
                c.tally().countEarlyExits(test.files().files().get(func));
                yield new SeedResult.Measured<>(seed, figures, c.tally());
            }
            case FAILED -> new SeedResult.Skipped<>(seed, figures, Skip.COMPILE, c.message());
            case TIMED_OUT -> new SeedResult.Skipped<>(seed, figures, Skip.TIMEOUT, c.message());
        };
    }
}
