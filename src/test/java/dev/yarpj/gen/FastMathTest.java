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
    /** Tests under a tenth of the default compile budget at most: floating point, not big programs, is under test. */
    private static final String SIZE = "min_compile_s: 0.1\nmax_compile_s: 0.5\n";
    private static final GenPolicy FLOATS = PolicyLoader.parse(SIZE + "floats: {p_float: 0.5}\n", "floats.yaml", "floats");

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"})
    void floatingPointPrintsThePredictionAtEveryLevelAndUnderTheSanitizers(Language lang) throws Exception {
        String ext = lang == Language.C ? "c" : "cpp";
        Generator gen = new Generator(FLOATS, lang, CheckMode.HASH);
        int floating = 0, locals = 0;
        // One program per language: seed 2's has floating point and a floating local in C and C++ (seed 3, also built
        // here once, added the same checks on another program; scripts/check-seeds.sh runs hundreds).
        for (long s = 2; s <= 2; s++) {
            GeneratedTest t = gen.generate(s, "test");
            // Reductions into floating locals declared before their nest (floats: p_local).
            for (String line : t.files().files().get("func." + ext).split("\n")) {
                if (line.matches(" +(float|double) tmp_\\d+ = .*")) locals++;
            }
            String func = t.files().files().get("func." + ext);
            if (func.contains("float ") || func.contains("double ")) floating++;
            printsThePrediction(t, lang, lang + "-" + s, List.of(List.of("-O0"), List.of("-Ofast", "-march=native")));
        }
        assertTrue(floating == 1, "every seed has floating point: " + floating);
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
        GenPolicy library = PolicyLoader.parse(SIZE + "floats: {p_float: 0.5, p_library: 1}\n", "library.yaml", "library");
        GenPolicy open = PolicyLoader.parse(SIZE + "floats: {p_float: 0.5, p_library: 0}\n", "open.yaml", "open");
        java.util.Set<dev.yarpj.ir.Builtin> called = java.util.EnumSet.noneOf(dev.yarpj.ir.Builtin.class);
        java.util.Set<dev.yarpj.ir.Builtin> every = java.util.EnumSet.of(dev.yarpj.ir.Builtin.FMIN, dev.yarpj.ir.Builtin.FMAX,
                dev.yarpj.ir.Builtin.FMA, dev.yarpj.ir.Builtin.SQRT, dev.yarpj.ir.Builtin.FABS);
        // Small programs, seeds until every call has been made (at most 30); each program that makes a call none before it
        // made is built and run (a program that makes no new call adds nothing here: floatingPointPrintsThePrediction...
        // builds floating point without calls). From seed 34, whose program of 47 lines makes all five calls in C and C++
        // (from seed 2, two programs were built: seed 2's made all but sqrt).
        for (long s = 34; s <= 63 && !called.containsAll(every); s++) {
            GeneratedTest t = new Generator(library, lang, CheckMode.HASH).generate(s, "test");
            int before = called.size();
            everyExpression(t, new dev.yarpj.ir.Expr.Walker() {
                @Override
                public Void call(dev.yarpj.ir.Expr.Call c) {
                    if (c.fn().mathLibrary()) called.add(c.fn());
                    return super.call(c);
                }
            });
            if (called.size() == before) continue;
            assertEquals(new Generator(open, lang, CheckMode.HASH).generate(s, "test").prediction().checksum(), t.prediction().checksum(),
                    "seed " + s + ": only the spelling changes with p_library");
            printsThePrediction(t, lang, "library-" + lang + "-" + s,
                    List.of(List.of("-O0"), List.of("-O3", "-march=native"), List.of("-Ofast", "-march=native")));
        }
        assertEquals(every, called, "every call of the math library is made");
    }

    /**
     * Integer code that reads floating point (floats: p_to_integer): a floating expression
     * converted to an integer type (in range, truncated) and floating comparisons, inside
     * integer expressions, print the prediction at -O0 and -Ofast, and UBSan's
     * float-cast-overflow (with ASan) finds no conversion out of range.
     */
    @org.junit.jupiter.api.Test
    void integersMadeFromFloatingPointPrintThePrediction() throws Exception {
        GenPolicy toInteger = PolicyLoader.parse(SIZE + "floats: {p_float: 0.3, p_to_integer: 0.5}\n", "to-integer.yaml", "to-integer");
        Generator gen = new Generator(toInteger, Language.C, CheckMode.HASH);
        int conversions = 0, comparisons = 0;
        // One program: seed 1's has many of each (9 conversions and 21 comparisons when this was written).
        for (long s = 1; s <= 1; s++) {
            GeneratedTest t = gen.generate(s, "test");
            int[] found = new int[2];
            everyExpression(t, new dev.yarpj.ir.Expr.Walker() {
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
            conversions += found[0];
            comparisons += found[1];
            printsThePrediction(t, Language.C, "to-integer-" + s, List.of(List.of("-O0"), List.of("-Ofast", "-march=native")));
        }
        assertTrue(conversions > 0 && comparisons > 0, "conversions " + conversions + ", comparisons " + comparisons);
    }

    /**
     * Scalars the loops carry in floating point (floats: p_carried): an induction {@code x +=
     * step}, and find-last, min or max with its index, conditional assignments and first-order
     * recurrences over floating data, found in the IR, print the prediction at -O0 and -Ofast
     * (where the vectorizers take a floating induction) with gcc and clang, and run clean under
     * UBSan and ASan.
     */
    @org.junit.jupiter.api.Test
    void floatingScalarsTheLoopsCarryPrintThePrediction() throws Exception {
        GenPolicy carried = PolicyLoader.parse(SIZE + "floats: {p_float: 0.5, p_carried: 1}\ncarried: {p_carried: 0.8}\n", "carried.yaml", "carried");
        Generator gen = new Generator(carried, Language.C, CheckMode.HASH);
        int[] inductions = {0};
        int floatingData = 0;
        for (long s = 1; s <= 2; s++) {
            GeneratedTest t = gen.generate(s, "test");
            new dev.yarpj.ir.Stmt.Walker() {
                @Override
                public Void assign(dev.yarpj.ir.Stmt.Assign a) {
                    if (a.compound() == dev.yarpj.ir.BinOp.ADD && a.target() instanceof dev.yarpj.ir.Expr.ScalarRef
                            && a.target().type().isFloat()) inductions[0]++;
                    return super.assign(a);
                }
            }.all(t.program().body().stmts());
            floatingData += (int) t.program().inputArrays().stream().filter(a -> a.base().isFloat() && a.fill().varies()).count();
            printsThePrediction(t, Language.C, "carried-" + s, List.of(List.of("-O0"), List.of("-Ofast", "-march=native")));
        }
        assertTrue(inductions[0] > 0, "no floating induction");
        assertTrue(floatingData >= 4, "floating data arrays: " + floatingData);
    }

    /**
     * Half precision (floats: p_half): {@code _Float16} statements, reductions and carried
     * scalars, found in the IR, print the prediction with gcc and the newest clang (clang 14
     * refuses {@code _Float16} on x86-64) at -O0 and -Ofast with -march=native, and run
     * clean under gcc's UBSan and ASan (the newest clang has no sanitizer runtime here).
     */
    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"})
    void halfPrecisionPrintsThePrediction(Language lang) throws Exception {
        GenPolicy half = PolicyLoader.parse("floats: {p_float: 0.5, p_half: 1, p_carried: 0.5}\ncarried: {p_carried: 0.6}\n",
                "half.yaml", "half");
        Path clang = Path.of(".tools/compilers/bin", lang == Language.C ? "clang-newest" : "clang++-newest").toAbsolutePath();
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(clang), "the newest clang is not installed (scripts/setup.sh)");
        String gcc = lang == Language.C ? "gcc" : "g++";
        int[] halves = {0};
        for (long s = 1; s <= 1; s++) {
            GeneratedTest t = new Generator(half, lang, CheckMode.HASH).generate(s, "test");
            everyExpression(t, new dev.yarpj.ir.Expr.Walker() {
                @Override
                public Void binary(dev.yarpj.ir.Expr.Binary b) {
                    if (b.type() == dev.yarpj.ir.NumType.HALF) halves[0]++;
                    return super.binary(b);
                }
            });
            List<List<String>> levels = List.of(List.of("-O0"), List.of("-Ofast", "-march=native"));
            printsThePrediction(t, lang, "half-" + lang + "-" + s, levels, List.of(gcc, clang.toString()), List.of(gcc));
        }
        assertTrue(halves[0] >= 5, "half-precision operations: " + halves[0]);
    }

    /** Hands every expression of {@code t}'s test function to {@code w}. */
    private static void everyExpression(GeneratedTest t, dev.yarpj.ir.Expr.Walker w) {
        new dev.yarpj.ir.Stmt.Walker() {
            @Override
            protected void expr(dev.yarpj.ir.Expr e) {
                w.walk(e);
            }
        }.all(t.program().body().stmts());
    }

    /**
     * Writes {@code t} to {@code name} and checks that gcc and clang (g++ and clang++ for C++)
     * print its prediction at each of {@code levels}, and at -O0 under UBSan (with
     * float-cast-overflow and float-divide-by-zero) and ASan.
     */
    private void printsThePrediction(GeneratedTest t, Language lang, String name, List<List<String>> levels) throws Exception {
        List<String> compilers = lang == Language.C ? List.of("gcc", "clang") : List.of("g++", "clang++");
        printsThePrediction(t, lang, name, levels, compilers, compilers);
    }

    /** As above, with {@code compilers} at each level and {@code sanitizing} of them under the sanitizers. */
    private void printsThePrediction(GeneratedTest t, Language lang, String name, List<List<String>> levels,
                                     List<String> compilers, List<String> sanitizing) throws Exception {
        String ext = lang == Language.C ? "c" : "cpp";
        Path d = Files.createDirectories(dir.resolve(name));
        for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
        String want = t.prediction().expectedOutput();
        for (String cc : compilers) {
            for (List<String> opts : levels) {
                run(d, cmd(cc, opts, "-w", "driver." + ext, sources(d, ext), "-o", "t.bin", "-lm"));
                assertEquals(want, run(d, d.resolve("t.bin").toString()).strip(), name + " " + cc + " " + opts);
            }
        }
        for (String cc : sanitizing) {
            run(d, cmd(cc, "-O0", "-g", "-fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero",
                    "-fno-sanitize-recover=all", "-w", "driver." + ext, sources(d, ext), "-o", "san.bin", "-lm"));
            assertEquals(want, run(d, d.resolve("san.bin").toString()).strip(), name + " " + cc + " sanitized");
        }
    }
}
