package dev.yarpj.gen;

import static dev.yarpj.Commands.cmd;
import static dev.yarpj.Commands.object;
import static dev.yarpj.Commands.run;
import static dev.yarpj.Commands.sources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.interp.UndefinedBehaviorException;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generated programs compiled and run by real compilers: gcc and clang at -O0 and -O3 must
 * print the interpreter's checksum, the asserts driver must pass, and sanitizer builds must
 * run clean. A few seeds per language keep the suite fast; scripts/check-seeds.sh runs
 * hundreds.
 */
class CompileAndRunTest {
    /**
     * Seeds built by real compilers per check, and seeds run by the interpreter alone. A sample:
     * scripts/check-seeds.sh checks a thousand of each language the same way, in parallel (and
     * IdiomFleshingTest runs the default and swarm policies' C seeds through the interpreter too).
     * One seed per check built: a second (seed 2) repeated the same builds on another program, which
     * check-seeds.sh does a thousand times; the shipped and feature-heavy policies below build more.
     */
    private static final int SEEDS = 1, INTERPRETED = 12, SWARMED = 12;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Language.class)
    void everySeedIsUbFreeInTheInterpreter(Language lang) {
        Generator gen = new Generator(GenPolicy.defaults(), lang, CheckMode.HASH);
        List<Long> rejected = new ArrayList<>();
        for (long s = 1; s <= INTERPRETED; s++) {
            try {
                gen.generate(s, "test");
            } catch (UndefinedBehaviorException e) {
                rejected.add(s);
            }
        }
        assertEquals(List.of(), rejected, "seeds the interpreter rejected (generator bugs)");
    }

    @ParameterizedTest
    @EnumSource(Language.class)
    void swarmTestsAreUbFreeInTheInterpreter(Language lang) {
        GenPolicy base = GenPolicy.defaults();
        List<Long> rejected = new ArrayList<>();
        for (long s = 1; s <= SWARMED; s++) {
            try {
                new Generator(base.swarm(s), lang, CheckMode.HASH).generate(s, "test");
            } catch (UndefinedBehaviorException e) {
                rejected.add(s);
            }
        }
        assertEquals(List.of(), rejected, "swarm seeds the interpreter rejected (generator bugs)");
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"}) // ISPC: IspcCompileAndRunTest
    void gccAndClangAgreeWithThePredictionAtO0AndO3(Language lang) throws Exception {
        String[] ccs = compilers(lang);
        Generator gen = new Generator(GenPolicy.defaults(), lang, CheckMode.HASH);
        for (long s = 1; s <= SEEDS; s++) {
            GeneratedTest t = gen.generate(s, "test");
            Path d = write(t, "hash-" + s);
            String want = t.prediction().expectedOutput();
            String ext = lang.extension;
            run(d, ccs[0], "-O0", "-w", "-c", "driver." + ext, "-o", "driver.o");
            for (String cc : ccs) {
                for (String opt : List.of("-O0", "-O3")) {
                    run(d, cmd(cc, opt, "-w", object(d, ext), "-o", "func.o"));
                    run(d, ccs[0], "driver.o", "func.o", "-o", "test.bin", "-lm");
                    assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(),
                            "seed " + s + " " + cc + " " + opt);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"}) // ISPC: IspcCompileAndRunTest
    void assertsDriverPasses(Language lang) throws Exception {
        Generator gen = new Generator(GenPolicy.defaults(), lang, CheckMode.ASSERTS);
        for (long s = 1; s <= SEEDS; s++) {
            Path d = write(gen.generate(s, "test"), "asserts-" + s);
            run(d, cmd(compilers(lang)[0], "-O2", "-w", "driver." + lang.extension, sources(d, lang.extension), "-o", "test.bin", "-lm"));
            assertEquals("OK", run(d, d.resolve("test.bin").toString()).strip(), "seed " + s);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"}) // ISPC: IspcCompileAndRunTest
    void sanitizersFindNothing(Language lang) throws Exception {
        Generator gen = new Generator(GenPolicy.defaults(), lang, CheckMode.HASH);
        for (long s = 1; s <= SEEDS; s++) {
            GeneratedTest t = gen.generate(s, "test");
            Path d = write(t, "san-" + s);
            for (String cc : compilers(lang)) {
                run(d, cmd(cc, "-O0", "-g", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-w",
                        "driver." + lang.extension, sources(d, lang.extension), "-o", "san.bin", "-lm"));
                assertEquals(t.prediction().expectedOutput(),
                        run(d, d.resolve("san.bin").toString()).strip(), "seed " + s + " " + cc);
            }
        }
    }

    /**
     * Every shipped policy's idioms (stencils, reductions, byte loops, pragmas, guarded
     * divisions ...) through real compilers: gcc and clang at -O0 and -O3 print the
     * prediction, and UBSan+ASan builds run clean. scripts/check-seeds.sh runs hundreds.
     */
    @ParameterizedTest
    @ValueSource(strings = {"vectorize", "stencil", "scalar-only", "no-idioms", "globals-only"})
    void shippedPoliciesAgreeWithThePredictionAndRunCleanUnderSanitizers(String name) throws Exception {
        // One seed each: scripts/check-seeds.sh runs hundreds of every shipped policy.
        agreeAndRunClean(name, PolicyLoader.load(Path.of("policies", name + ".yaml")), 1);
    }

    /**
     * Policies that lean on one feature hard: every array behind a pointer and many updates
     * through two overlapping views (the prediction must include every dependence through the
     * overlap, at -O3 too, where the vectorizer's runtime checks decide); many dead
     * branches full of UB (sanitizers stay silent: dead code never runs); switches; helper
     * calls; arrays of structs (without floating point, whose draws would change the seed the
     * struct check was written on). One seed each, as for the shipped policies: each feature
     * shows in seed 1's test, and scripts/check-seeds.sh runs hundreds.
     */
    @ParameterizedTest
    @ValueSource(strings = {"p_array_param: 1.0\nstmt_weights: {aliased_update: 40}\n",
            "stmt_weights: {dead_code: 30}\n", "stmt_weights: {switch: 30}\nswitches: {p_fallthrough: 0.5}\n",
            "functions: {p_call: 0.3}\n", "structs: {p_field: 0.8, p_bitfield: 0.8, p_copy: 0.8}\nfloats: {p_float: 0}\n"})
    void featureHeavyPoliciesAgreeWithThePredictionAndRunCleanUnderSanitizers(String yaml) throws Exception {
        String name = yaml.contains("dead") ? "dead-code" : yaml.contains("switch") ? "switch" : yaml.contains("functions") ? "functions"
                : yaml.contains("structs") ? "structs" : "aliasing";
        List<GeneratedTest> tests = agreeAndRunClean(name, PolicyLoader.parse(yaml, "test.yaml", "heavy"), 1);
        // The feature is really there: dead branches in the skeleton, switches that fall through, views passed by the driver.
        assertTrue(tests.stream().anyMatch(t -> switch (name) {
            case "dead-code" -> t.skeleton().dump().contains("dead code");
            case "switch" -> t.files().files().get("func.c").matches("(?s).*switch \\(.*\\n( *)case [^\\n]*: \\{\\n(?:\\1    (?!break;)[^\\n]*\\n)*\\1}\\n\\1case.*")
                    && t.files().files().get("func.c").contains("default: {");
            // Helpers kept out of line, and a helper that calls another.
            case "functions" -> t.files().files().get("func.c").contains("static __attribute__((noinline))")
                    && t.files().files().get("func.c").matches("(?s).*\\) \\{ return [^\n]*fn_\\d+\\(.*");
            // A struct of several fields, two of them read or written in one statement of test(), and a bit-field.
            case "structs" -> t.files().files().get("init.h").matches("(?s).*struct rec_\\d+ \\{\n[^}]*;\n[^}]*;\n.*")
                    && t.files().files().get("init.h").matches("(?s).*\n    (un)?signed int arr_\\d+ : \\d+;\n.*")
                    && t.files().files().get("func.c").matches("(?s).*struct rec_\\d+ (t_\\d+) = recs_\\d+\\[.*\\1\\.arr_\\d+.*")
                    && t.files().files().get("func.c").matches("(?s).*(recs_\\d+)\\[[^\n]*\\]\\.(\\w+)[^\n]*\\1\\[[^\n]*\\]\\.(?!\\2\\b)\\w+.*");
            default -> t.files().files().get("driver.c").contains("buf_");
        }), "no test used the feature");
    }

    private List<GeneratedTest> agreeAndRunClean(String name, GenPolicy policy, int seeds) throws Exception {
        List<GeneratedTest> tests = new ArrayList<>();
        Generator gen = new Generator(policy, Language.C, CheckMode.HASH);
        String[] ccs = compilers(Language.C);
        for (long s = 1; s <= seeds; s++) {
            GeneratedTest t = gen.generate(s, "test");
            tests.add(t);
            Path d = write(t, name + "-" + s);
            String want = t.prediction().expectedOutput();
            run(d, ccs[0], "-O0", "-w", "-c", "driver.c", "-o", "driver.o");
            for (String cc : ccs) {
                for (String opt : List.of("-O0", "-O3")) {
                    run(d, cmd(cc, opt, "-w", object(d, "c"), "-o", "func.o"));
                    run(d, ccs[0], "driver.o", "func.o", "-o", "test.bin", "-lm");
                    assertEquals(want, run(d, d.resolve("test.bin").toString()).strip(), name + " seed " + s + " " + cc + " " + opt);
                }
                run(d, cmd(cc, "-O0", "-g", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-w",
                        "driver.c", sources(d, "c"), "-o", "san.bin", "-lm"));
                assertEquals(want, run(d, d.resolve("san.bin").toString()).strip(), name + " seed " + s + " " + cc + " sanitizers");
            }
        }
        return tests;
    }

    private static String[] compilers(Language lang) {
        return lang == Language.C ? new String[] {"gcc", "clang"} : new String[] {"g++", "clang++"};
    }

    private Path write(GeneratedTest t, String name) throws IOException {
        Path d = Files.createDirectories(dir.resolve(name));
        for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
        return d;
    }

    /** Runs a command in {@code d}; fails the test on a non-zero exit (a sanitizer report exits non-zero). */
}
