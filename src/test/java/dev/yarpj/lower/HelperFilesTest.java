package dev.yarpj.lower;

import static dev.yarpj.Commands.cmd;
import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.ir.Helper;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extern helpers ({@link Helper.Linkage#EXTERN}) are defined in a second file, helpers.c,
 * and only declared in func.c, so that a compiler sees their bodies from the loop only
 * with link-time optimization; the two files build into one object that prints the
 * prediction. ISPC and SYCL tests, which the harness builds from one file, keep them there.
 */
class HelperFilesTest {
    /** Helpers in most programs, half of them extern (no floating point: the seeds were chosen before it). */
    static final GenPolicy EXTERN = PolicyLoader.parse(small() + "functions: {p_call: 0.2, linkage_weights: {static: 1, inline: 0, noinline: 1, "
            + "always_inline: 0, extern: 2}}\nfloats: {p_float: 0}\n", "extern.yaml", "extern");

    /** The default policy sized down (test resources, policies/small.yaml): the files, not the programs, are under test. */
    private static String small() {
        try {
            return Files.readString(Path.of("src/test/resources/policies/small.yaml")) + "\n";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @TempDir
    Path dir;

    private static boolean defines(String file, Helper h) {
        return Pattern.compile("(?m)^[^\\n]*\\b" + h.name() + "\\([^\\n]*\\) \\{ ").matcher(file).find();
    }

    private static boolean declares(String file, Helper h) {
        // A prototype at the start of a line: attributes, type, name, parameters without parentheses.
        return Pattern.compile("(?m)^[^\\s=][^=\\n]*\\b" + h.name() + "\\([^()\\n]*\\);$").matcher(file).find();
    }

    @Test
    void externHelpersAreDefinedInTheSecondFileAndTheTwoBuildIntoOneObjectThatPrintsThePrediction() throws Exception {
        int withSecond = 0;
        for (Language lang : List.of(Language.C, Language.CPP)) {
            Generator gen = new Generator(EXTERN, lang, CheckMode.HASH);
            String ext = lang.extension;
            for (long seed = 1; seed <= 3; seed++) {
                GeneratedTest t = gen.generate(seed, "second file");
                Map<String, String> files = t.files().files();
                List<Helper> extern = t.program().helpers().stream().filter(h -> h.linkage() == Helper.Linkage.EXTERN).toList();
                String func = files.get("func." + ext);
                String second = files.get("helpers." + ext);
                assertEquals(!extern.isEmpty(), second != null, "seed " + seed + ": a second file exactly when there are extern helpers");
                if (second == null) continue;
                withSecond++;
                for (Helper h : t.program().helpers()) {
                    boolean e = h.linkage() == Helper.Linkage.EXTERN;
                    assertEquals(e, defines(second, h), h.name() + " in helpers." + ext + "\n" + second);
                    assertEquals(!e, defines(func, h), h.name() + " defined in func." + ext + "\n" + func);
                    assertEquals(e, declares(func, h), h.name() + " declared in func." + ext + "\n" + func);
                }
                Path d = Files.createDirectories(dir.resolve(lang + "-" + seed));
                for (Map.Entry<String, String> f : files.entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
                String want = t.prediction().expectedOutput();
                String[] ccs = lang == Language.C ? new String[] {"gcc", "clang"} : new String[] {"g++", "clang++"};
                run(d, ccs[0], "-O0", "-w", "-c", "driver." + ext, "-o", "driver.o");
                for (String cc : ccs) {
                    run(d, cc, "-O2", "-w", "-r", "func." + ext, "helpers." + ext, "-o", "func.o");
                    run(d, ccs[0], "driver.o", "func.o", "-o", "test.bin", "-lm");
                    assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(), lang + " seed " + seed + " " + cc);
                }
            }
        }
        assertTrue(withSecond >= 3, "only " + withSecond + " of 6 programs have a second file");
    }

    @Test
    void ispcAndSyclTestsKeepExternHelpersOutOfLineInTheirOneFile() {
        int extern = 0;
        for (Language lang : List.of(Language.ISPC, Language.SYCL)) {
            Generator gen = new Generator(EXTERN, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 4; seed++) {
                GeneratedTest t = gen.generate(seed, "one file");
                Map<String, String> files = t.files().files();
                assertFalse(files.keySet().stream().anyMatch(f -> f.startsWith("helpers.")), lang + " seed " + seed + ": " + files.keySet());
                String func = files.get(lang == Language.ISPC ? "func.ispc" : "func.cpp");
                String cpp = files.get(lang == Language.ISPC ? "func.cpp" : "func_ref.cpp");
                for (Helper h : t.program().helpers()) {
                    if (h.linkage() != Helper.Linkage.EXTERN) continue;
                    extern++;
                    assertTrue(defines(func, h), h.name() + "\n" + func);
                    assertTrue(Pattern.compile("(?m)^static __attribute__\\(\\(noinline\\)\\) [^\\n]*\\b" + h.name() + "\\(").matcher(cpp).find(),
                            h.name() + " out of line in the C++ lowering\n" + cpp);
                    if (lang == Language.ISPC) {
                        assertTrue(Pattern.compile("(?m)^static noinline uniform [^\\n]*\\b" + h.name() + "\\(").matcher(func).find(), h.name() + "\n" + func);
                    }
                }
            }
        }
        assertTrue(extern >= 4, "only " + extern + " extern helpers in 8 programs");
    }
}
