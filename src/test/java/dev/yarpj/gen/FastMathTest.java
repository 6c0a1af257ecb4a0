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
        int floating = 0, locals = 0;
        for (long s = 2; s <= 3; s++) {
            GeneratedTest t = gen.generate(s, "test");
            // Reductions into floating locals declared before their nest (floats: p_local).
            for (String line : t.files().files().get("func." + ext).split("\n")) {
                if (line.matches(" +(float|double) tmp_\\d+ = .*")) locals++;
            }
            Path d = Files.createDirectories(dir.resolve(lang + "-" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            String func = t.files().files().get("func." + ext);
            if (func.contains("float ") || func.contains("double ")) floating++;
            String want = Long.toUnsignedString(t.prediction().checksum());
            for (String cc : lang == Language.C ? List.of("gcc", "clang") : List.of("g++", "clang++")) {
                for (List<String> opts : List.of(List.of("-O0"), List.of("-Ofast", "-march=native"))) {
                    run(d, cmd(cc, opts, "-w", "driver." + ext, sources(d, ext), "-o", "t.bin", "-lm"));
                    assertEquals(want, run(d, d.resolve("t.bin").toString()).strip(), "seed " + s + " " + cc + " " + opts);
                }
                run(d, cmd(cc, "-O0", "-g", "-fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero",
                        "-fno-sanitize-recover=all", "-w", "driver." + ext, sources(d, ext), "-o", "san.bin", "-lm"));
                assertEquals(want, run(d, d.resolve("san.bin").toString()).strip(), "seed " + s + " " + cc + " sanitized");
            }
        }
        assertTrue(floating == 2, "every seed has floating point: " + floating);
        assertTrue(locals > 0, "no floating local");
    }

    /**
     * The math library's calls (floats: p_library): fmin, fmax, fabs, fma and sqrt of a
     * square, found in the programs' IR, print the prediction with gcc and clang at -O0,
     * -O3 and -Ofast (-march=native: vector fma, min, max and sqrt), and run clean under
     * UBSan and ASan; the same programs open-coded (p_library 0) predict the same outputs.
     */
    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"})
    void mathLibraryCallsPrintThePredictionAtEveryLevel(Language lang) throws Exception {
        String ext = lang == Language.C ? "c" : "cpp";
        GenPolicy library = PolicyLoader.parse("floats: {p_float: 0.5, p_library: 1}\n", "library.yaml", "library");
        GenPolicy open = PolicyLoader.parse("floats: {p_float: 0.5, p_library: 0}\n", "open.yaml", "open");
        java.util.Set<dev.yarpj.ir.Builtin> called = java.util.EnumSet.noneOf(dev.yarpj.ir.Builtin.class);
        for (long s = 2; s <= 3; s++) {
            GeneratedTest t = new Generator(library, lang, CheckMode.HASH).generate(s, "test");
            new dev.yarpj.ir.Stmt.Walker() {
                @Override
                protected void expr(dev.yarpj.ir.Expr e) {
                    e.accept(new dev.yarpj.ir.Expr.Walker() {
                        @Override
                        public Void call(dev.yarpj.ir.Expr.Call c) {
                            if (c.fn().mathLibrary()) called.add(c.fn());
                            return super.call(c);
                        }
                    });
                }
            }.all(t.program().body().stmts());
            assertEquals(new Generator(open, lang, CheckMode.HASH).generate(s, "test").prediction().checksum(), t.prediction().checksum(),
                    "seed " + s + ": only the spelling changes with p_library");
            Path d = Files.createDirectories(dir.resolve("library-" + lang + "-" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            String want = Long.toUnsignedString(t.prediction().checksum());
            for (String cc : lang == Language.C ? List.of("gcc", "clang") : List.of("g++", "clang++")) {
                for (List<String> opts : List.of(List.of("-O0"), List.of("-O3", "-march=native"), List.of("-Ofast", "-march=native"))) {
                    run(d, cmd(cc, opts, "-w", "driver." + ext, sources(d, ext), "-o", "t.bin", "-lm"));
                    assertEquals(want, run(d, d.resolve("t.bin").toString()).strip(), "seed " + s + " " + cc + " " + opts);
                }
                run(d, cmd(cc, "-O0", "-g", "-fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero",
                        "-fno-sanitize-recover=all", "-w", "driver." + ext, sources(d, ext), "-o", "san.bin", "-lm"));
                assertEquals(want, run(d, d.resolve("san.bin").toString()).strip(), "seed " + s + " " + cc + " sanitized");
            }
        }
        assertEquals(java.util.EnumSet.of(dev.yarpj.ir.Builtin.FMIN, dev.yarpj.ir.Builtin.FMAX, dev.yarpj.ir.Builtin.FMA,
                dev.yarpj.ir.Builtin.SQRT, dev.yarpj.ir.Builtin.FABS), called, "every call of the math library is made");
    }

    /**
     * Integer code that reads floating point (floats: p_to_integer): a floating expression
     * converted to an integer type (in range, truncated) and floating comparisons, inside
     * integer expressions, print the prediction at -O0 and -Ofast, and UBSan's
     * float-cast-overflow finds no conversion out of range.
     */
    @org.junit.jupiter.api.Test
    void integersMadeFromFloatingPointPrintThePrediction() throws Exception {
        GenPolicy toInteger = PolicyLoader.parse("floats: {p_float: 0.3, p_to_integer: 0.5}\n", "to-integer.yaml", "to-integer");
        Generator gen = new Generator(toInteger, Language.C, CheckMode.HASH);
        int conversions = 0, comparisons = 0;
        for (long s = 1; s <= 2; s++) {
            GeneratedTest t = gen.generate(s, "test");
            int[] found = new int[2];
            new dev.yarpj.ir.Stmt.Walker() {
                @Override
                protected void expr(dev.yarpj.ir.Expr e) {
                    e.accept(new dev.yarpj.ir.Expr.Walker() {
                        @Override
                        public Void cast(dev.yarpj.ir.Expr.Cast c) {
                            if (c.operand().type().isFloat() && !c.type().isFloat()) found[0]++;
                            return super.cast(c);
                        }

                        @Override
                        public Void binary(dev.yarpj.ir.Expr.Binary b) {
                            if (b.op().isComparison() && b.lhs().type().isFloat()) found[1]++;
                            return super.binary(b);
                        }
                    });
                }
            }.all(t.program().body().stmts());
            conversions += found[0];
            comparisons += found[1];
            Path d = Files.createDirectories(dir.resolve("to-integer-" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            String want = Long.toUnsignedString(t.prediction().checksum());
            for (String cc : List.of("gcc", "clang")) {
                for (List<String> opts : List.of(List.of("-O0"), List.of("-Ofast", "-march=native"))) {
                    run(d, cmd(cc, opts, "-w", "driver.c", sources(d, "c"), "-o", "t.bin", "-lm"));
                    assertEquals(want, run(d, d.resolve("t.bin").toString()).strip(), "seed " + s + " " + cc + " " + opts);
                }
                run(d, cmd(cc, "-O0", "-fsanitize=undefined,float-cast-overflow,float-divide-by-zero", "-fno-sanitize-recover=all",
                        "-w", "driver.c", sources(d, "c"), "-o", "san.bin", "-lm"));
                assertEquals(want, run(d, d.resolve("san.bin").toString()).strip(), "seed " + s + " " + cc + " sanitized");
            }
        }
        assertTrue(conversions > 0 && comparisons > 0, "conversions " + conversions + ", comparisons " + comparisons);
    }
}
