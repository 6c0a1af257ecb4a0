package dev.yarpj.gen;

import static dev.yarpj.Commands.cmd;
import static dev.yarpj.Commands.run;
import static dev.yarpj.Commands.sources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Programs with floating point (floats: p_float) print the prediction however the compilers
 * may reorder it: gcc and clang at -O0 and at -Ofast with -march=native (fast-math:
 * reassociation, reciprocals, contraction into FMA, vectorized reductions in any order), and
 * they run clean under UBSan (with float-cast-overflow and float-divide-by-zero) and ASan.
 */
class FastMathTest {
    private static final GenPolicy FLOATS = PolicyLoader.parse("floats: {p_float: 0.5}\n", "floats.yaml", "floats");

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"})
    void floatingPointPrintsThePredictionAtEveryLevelAndUnderTheSanitizers(Language lang) throws Exception {
        String ext = lang == Language.C ? "c" : "cpp";
        Generator gen = new Generator(FLOATS, lang, CheckMode.HASH);
        int floating = 0;
        for (long s = 2; s <= 3; s++) {
            GeneratedTest t = gen.generate(s, "test");
            Path d = Files.createDirectories(dir.resolve(lang + "-" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            String func = t.files().files().get("func." + ext);
            if (func.contains("float ") || func.contains("double ")) floating++;
            String want = Long.toUnsignedString(t.prediction().checksum());
            for (String cc : lang == Language.C ? List.of("gcc", "clang") : List.of("g++", "clang++")) {
                for (List<String> opts : List.of(List.of("-O0"), List.of("-Ofast", "-march=native"))) {
                    run(d, cmd(cc, opts, "-w", "driver." + ext, sources(d, ext), "-o", "t.bin"));
                    assertEquals(want, run(d, d.resolve("t.bin").toString()).strip(), "seed " + s + " " + cc + " " + opts);
                }
                run(d, cmd(cc, "-O0", "-g", "-fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero",
                        "-fno-sanitize-recover=all", "-w", "driver." + ext, sources(d, ext), "-o", "san.bin"));
                assertEquals(want, run(d, d.resolve("san.bin").toString()).strip(), "seed " + s + " " + cc + " sanitized");
            }
        }
        assertTrue(floating == 2, "every seed has floating point: " + floating);
    }
}
