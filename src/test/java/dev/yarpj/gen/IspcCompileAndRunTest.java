package dev.yarpj.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.yarpj.Commands.onPath;
import static dev.yarpj.Commands.run;

import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ISPC tests compiled by the real ispc (scripts/install-ispc.sh) and run: each target and
 * level prints the interpreter's checksum, and so does the C++ lowering of the same program
 * (func.cpp) with g++ and clang++, linked to the same driver: the cross-language oracle.
 * The C++ lowering also runs clean under UBSan and ASan.
 */
class IspcCompileAndRunTest {
    /**
     * Seeds built per check: one (seed 1's test has a gang loop); a second repeated the same builds on
     * another program, which scripts/check-seeds.sh does for hundreds.
     */
    private static final int SEEDS = 1;

    @TempDir
    Path dir;

    @BeforeAll
    static void needsIspc() {
        boolean found = onPath("ispc");
        if (!found) System.err.println("IspcCompileAndRunTest skipped: ispc is not on the PATH (run scripts/install-ispc.sh)");
        Assumptions.assumeTrue(found, "ispc is not on the PATH (run scripts/install-ispc.sh)");
    }

    @Test
    void ispcTargetsAndTheCppLoweringAllPrintThePrediction() throws Exception {
        Generator gen = new Generator(GenPolicy.defaults(), Language.ISPC, CheckMode.HASH);
        int gangs = 0;
        for (long s = 1; s <= SEEDS; s++) {
            GeneratedTest t = gen.generate(s, "test");
            String ispc = t.files().files().get("func.ispc");
            if (ispc.contains("foreach") || ispc.contains("programIndex")) gangs++;
            Path d = write(t, "hash-" + s);
            String want = t.prediction().expectedOutput();
            run(d, "ispc", "--pic", "--woff", "-O0", "--target=sse4-i32x4", "func.ispc", "-o", "header.o", "-h", "func_ispc.h");
            run(d, "g++", "-O0", "-w", "-DYARPJ_ISPC", "-c", "driver.cpp", "-o", "driver.o");
            for (String target : List.of("sse4-i32x4", "avx2-i32x8", "avx2-i64x4")) {
                for (String opt : List.of("-O0", "-O2")) {
                    run(d, "ispc", "--pic", "--woff", opt, "--target=" + target, "func.ispc", "-o", "func.o");
                    run(d, "g++", "driver.o", "func.o", "-o", "test.bin", "-lm");
                    assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(), "seed " + s + " ispc " + target + " " + opt);
                }
            }
            for (String cxx : List.of("g++", "clang++")) {
                run(d, cxx, "-O2", "-w", "-c", "func.cpp", "-o", "func.o");
                run(d, "g++", "driver.o", "func.o", "-o", "test.bin", "-lm");
                assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(), "seed " + s + " C++ lowering, " + cxx);
            }
        }
        assertTrue(gangs > 0, "no test had a gang loop");
    }

    /**
     * Helper functions, printed twice (all uniform, all varying): ispc picks the overload by
     * the arguments' variability, and the program prints the prediction either way; that
     * holds for elements passed by pointer (a gather in the varying one) and structs too. Arrays
     * of structs, defined by the C++ driver and declared by func.ispc, have one layout.
     */
    @Test
    void helperFunctionsCalledWithUniformAndVaryingArgumentsAndArraysOfStructsPrintThePrediction() throws Exception {
        GenPolicy calls = dev.yarpj.policy.PolicyLoader.parse("functions: {p_call: 0.3}\nstructs: {p_field: 0.8}\n", "calls.yaml", "calls");
        Generator gen = new Generator(calls, Language.ISPC, CheckMode.HASH);
        for (long s = 1; s <= 2; s++) {
            GeneratedTest t = gen.generate(s, "test");
            String ispc = t.files().files().get("func.ispc");
            // The first parameter is uniform or varying, a value or a pointer (const uniform T * uniform p), or a struct.
            assertTrue(ispc.matches("(?s).*static [a-z ]*uniform [^\n]* fn_0\\((const uniform [^,]*\\* )?uniform .*"
                    + "static [a-z ]*varying [^\n]* fn_0\\((const uniform [^,]*\\* )?varying .*"),
                    "no uniform and varying fn_0 in seed " + s);
            assertTrue(ispc.matches("(?s).*\nstruct rec_\\d+ \\{\n.*extern uniform rec_\\d+ recs_\\d+\\[.*recs_\\d+\\[[^\n]*\\]\\.\\w+.*"),
                    "no array of structs in seed " + s);
            Path d = write(t, "calls-" + s);
            String want = t.prediction().expectedOutput();
            run(d, "ispc", "--pic", "--woff", "-O0", "--target=avx2-i32x8", "func.ispc", "-o", "header.o", "-h", "func_ispc.h");
            run(d, "g++", "-O0", "-w", "-DYARPJ_ISPC", "-c", "driver.cpp", "-o", "driver.o");
            for (String opt : List.of("-O0", "-O2")) {
                run(d, "ispc", "--pic", "--woff", opt, "--target=avx2-i32x8", "func.ispc", "-o", "func.o");
                run(d, "g++", "driver.o", "func.o", "-o", "test.bin", "-lm");
                assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(), "seed " + s + " ispc " + opt);
            }
        }
    }

    /**
     * Floating point (floats: p_float) that never rounds: ispc at -O0, -O2 and -O2
     * --opt=fast-math, on 4- and 8-wide targets (the partial sums of a gang are added in
     * another order than the interpreter's), and the C++ lowering at -Ofast, all print the
     * prediction.
     */
    @Test
    void floatingPointPrintsThePredictionWithFastMath() throws Exception {
        GenPolicy floats = dev.yarpj.policy.PolicyLoader.parse("floats: {p_float: 0.5}\n", "floats.yaml", "floats");
        Generator gen = new Generator(floats, Language.ISPC, CheckMode.HASH);
        int partialSums = 0, absolutes = 0;
        // One program (seed 2, as seed 3: floating point, a sum over partials and abs), built at every target and level.
        for (long s = 2; s <= 2; s++) {
            GeneratedTest t = gen.generate(s, "test");
            String ispc = t.files().files().get("func.ispc");
            assertTrue(ispc.contains("float ") || ispc.contains("double "), "no floating point in seed " + s);
            if (ispc.matches("(?s).*varying (float|double) part_.*reduce_add.*")) partialSums++;
            if (ispc.contains("abs(")) absolutes++; // the math library's fabs (floats: p_library), ispc's abs
            printsThePrediction(t, "floats-" + s, List.of("sse4-i32x4", "avx2-i32x8"),
                    List.of(List.of("-O0"), List.of("-O2"), List.of("-O2", "--opt=fast-math")));
        }
        assertTrue(partialSums > 0, "no floating sum over a gang's partial results");
        assertTrue(absolutes > 0, "no call of abs");
    }

    /**
     * Half precision (floats: p_half): float16 in ispc at -O2 and -O2 --opt=fast-math on an
     * 8-wide target, and the C++ lowering's {@code _Float16} by g++ at -Ofast, print the
     * prediction.
     */
    @Test
    void halfPrecisionPrintsThePrediction() throws Exception {
        GenPolicy half = dev.yarpj.policy.PolicyLoader.parse("floats: {p_float: 0.5, p_double: 0, p_half: 1}\n", "half.yaml", "half");
        GeneratedTest t = new Generator(half, Language.ISPC, CheckMode.HASH).generate(1, "test");
        assertTrue(t.files().files().get("func.ispc").contains("float16 "), "no float16");
        printsThePrediction(t, "half", List.of("avx2-i32x8"), List.of(List.of("-O2"), List.of("-O2", "--opt=fast-math")));
    }

    /**
     * Writes {@code t} to {@code name} and checks that ispc for each of {@code targets} at each
     * of {@code levels}, and its C++ lowering by g++ at -Ofast, print its prediction.
     */
    private void printsThePrediction(GeneratedTest t, String name, List<String> targets, List<List<String>> levels) throws Exception {
        Path d = write(t, name);
        String want = t.prediction().expectedOutput();
        run(d, "ispc", "--pic", "--woff", "-O0", "--target=" + targets.get(0), "func.ispc", "-o", "header.o", "-h", "func_ispc.h");
        run(d, "g++", "-O0", "-w", "-DYARPJ_ISPC", "-c", "driver.cpp", "-o", "driver.o");
        for (String target : targets) {
            for (List<String> opts : levels) {
                run(d, dev.yarpj.Commands.cmd("ispc", "--pic", "--woff", opts, "--target=" + target, "func.ispc", "-o", "func.o"));
                run(d, "g++", "driver.o", "func.o", "-o", "test.bin", "-lm");
                assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(), name + " ispc " + target + " " + opts);
            }
        }
        run(d, "g++", "-Ofast", "-march=native", "-w", "-c", "func.cpp", "-o", "func.o");
        run(d, "g++", "-Ofast", "driver.o", "func.o", "-o", "test.bin", "-lm");
        assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(), name + " C++ lowering at -Ofast");
    }

    @Test
    void assertsDriverPassesWithIspc() throws Exception {
        Generator gen = new Generator(GenPolicy.defaults(), Language.ISPC, CheckMode.ASSERTS);
        for (long s = 1; s <= SEEDS; s++) {
            Path d = write(gen.generate(s, "test"), "asserts-" + s);
            run(d, "ispc", "--pic", "--woff", "-O2", "--target=avx2-i32x8", "func.ispc", "-o", "func.o", "-h", "func_ispc.h");
            run(d, "g++", "-O0", "-w", "-DYARPJ_ISPC", "driver.cpp", "func.o", "-o", "test.bin", "-lm");
            assertEquals("OK", run(d, d.resolve("test.bin").toString()).strip(), "seed " + s);
        }
    }

    @Test
    void theCppLoweringRunsCleanUnderSanitizers() throws Exception {
        Generator gen = new Generator(GenPolicy.defaults(), Language.ISPC, CheckMode.HASH);
        for (long s = 1; s <= SEEDS; s++) {
            GeneratedTest t = gen.generate(s, "test");
            Path d = write(t, "san-" + s);
            for (String cxx : List.of("g++", "clang++")) {
                run(d, cxx, "-O0", "-g", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-w",
                        "driver.cpp", "func.cpp", "-o", "san.bin", "-lm");
                assertEquals(t.prediction().expectedOutput(),
                        run(d, d.resolve("san.bin").toString()).strip(), "seed " + s + " " + cxx);
            }
        }
    }

    private Path write(GeneratedTest t, String name) throws IOException {
        Path d = Files.createDirectories(dir.resolve(name));
        for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
        return d;
    }
}
