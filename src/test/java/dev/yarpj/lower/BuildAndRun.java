package dev.yarpj.lower;

import static dev.yarpj.Commands.onPath;
import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Lowered tests written out, built by real compilers and run, for the lowering tests: a
 * test built with {@link CheckMode#ASSERTS} prints OK when every output meets the
 * interpreter's prediction.
 */
final class BuildAndRun {
    private BuildAndRun() {}

    /** The files of {@code t} in a new directory {@code name} under {@code dir}. */
    static Path write(Path dir, LoweredTest t, String name) throws IOException {
        Path d = Files.createDirectories(dir.resolve(name));
        for (Map.Entry<String, String> f : t.files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
        return d;
    }

    /**
     * The C or C++ test in {@code d} built by gcc and clang (g++ and clang++), those on the
     * PATH, at each of {@code levels}: every binary prints OK. {@code shown} goes with a failure.
     */
    static void withGccAndClang(Path d, Language lang, List<String> levels, String shown) throws Exception {
        List<String> compilers = lang == Language.C ? List.of("gcc", "clang") : List.of("g++", "clang++");
        assertTrue(compilers.stream().anyMatch(dev.yarpj.Commands::onPath), "none of " + compilers + " is on the PATH (see .ci/run)");
        for (String cc : compilers) {
            if (!onPath(cc)) continue;
            for (String opt : levels) {
                run(d, dev.yarpj.Commands.cmd(cc, opt, "-w", "driver." + lang.extension, dev.yarpj.Commands.sources(d, lang.extension), "-o", "t.bin", "-lm"));
                assertEquals("OK", run(d, d.resolve("t.bin").toString()).strip(), cc + " " + opt + "\n" + shown);
            }
        }
    }

    /** The ISPC test in {@code d}: func.ispc built by ispc for {@code target} at {@code opt}, linked by g++ with the driver, prints OK. */
    static void withIspc(Path d, String target, String opt, String shown) throws Exception {
        assertEquals("OK", ispcOutput(d, target, opt), target + " " + opt + "\n" + shown);
    }

    /** What the ISPC test in {@code d} prints, stripped: func.ispc built by ispc for {@code target} at {@code opt}, linked by g++ with the driver. */
    static String ispcOutput(Path d, String target, String opt) throws Exception {
        run(d, "ispc", "--pic", "--woff", opt, "--target=" + target, "func.ispc", "-o", "func.o", "-h", "func_ispc.h");
        run(d, "g++", "-O0", "-w", "-DYARPJ_ISPC", "driver.cpp", "func.o", "-o", "t.bin", "-lm");
        return run(d, d.resolve("t.bin").toString()).strip();
    }

    /** The SYCL test's func.cpp in {@code d} passes g++'s syntax check against the host SYCL of the test resources. */
    static void syclSyntax(Path d) throws Exception {
        run(d, "g++", "-std=c++17", "-fsyntax-only", "-I" + Path.of("src/test/resources/sycl-host").toAbsolutePath(), "func.cpp");
    }
}
