package dev.yarpj.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.UndefinedBehaviorException;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.VarType;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * allow_impl_defined: false gives programs that never convert an out-of-range value to a
 * signed type and never shift a negative value right, for compilers that define those
 * otherwise than gcc, clang and ispc. The interpreter refuses both in that mode, so every
 * generated program is checked on its real execution.
 */
class PortablePolicyTest {
    private static final GenPolicy PORTABLE = PolicyLoader.parse("allow_impl_defined: false\n", "portable.yaml", "portable");
    private static final long BUDGET = 2 * GenPolicy.defaults().maxIterations();

    private static Program program(Stmt s, ScalarVar in, ScalarVar out) {
        return new Program(List.of(in), List.of(out), List.of(), List.of(), List.of(), new Stmt.Block(List.of(s)), 2, 0);
    }

    @Test
    void thePortableInterpreterRefusesWrappingConversionsAndNegativeRightShifts() {
        ScalarVar big = new ScalarVar(0, "big", VarType.uniform(NumType.INT), ScalarVar.Role.INPUT, 200, false);
        ScalarVar neg = new ScalarVar(0, "neg", VarType.uniform(NumType.INT), ScalarVar.Role.INPUT, -8, false);
        ScalarVar res = new ScalarVar(1, "res", VarType.uniform(NumType.SCHAR), ScalarVar.Role.OUTPUT, 0, false);
        ScalarVar wide = new ScalarVar(1, "wide", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
        Program wrap = program(new Stmt.Assign(new Expr.ScalarRef(res), null,
                Exprs.convertImplicitly(new Expr.ScalarRef(big), NumType.SCHAR)), big, res);
        Program shift = program(new Stmt.Assign(new Expr.ScalarRef(wide), null,
                Exprs.binary(BinOp.SHR, new Expr.ScalarRef(neg), new Expr.Const(NumType.INT, 1))), neg, wide);
        // gcc, clang and ispc wrap and shift arithmetically: -56 and -4.
        assertEquals(-56L, Interpreter.run(wrap, 100).scalars().get(0));
        assertEquals(-4L, Interpreter.run(shift, 100).scalars().get(0));
        assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(wrap, 100, true));
        assertThrows(UndefinedBehaviorException.class, () -> Interpreter.run(shift, 100, true));
    }

    @Test
    void portableProgramsPassThePortableInterpreterWhileDefaultOnesOftenWouldNot() {
        Generator portable = new Generator(PORTABLE, Language.C, CheckMode.HASH);
        Generator usual = new Generator(GenPolicy.defaults(), Language.C, CheckMode.HASH);
        int relying = 0;
        final int seeds = 25;
        for (long s = 1; s <= seeds; s++) {
            portable.generate(s, "test"); // throws if the portable interpreter refuses it
            try {
                Interpreter.run(usual.generate(s, "test").program(), BUDGET, true);
            } catch (UndefinedBehaviorException e) {
                relying++;
            }
        }
        // The check has teeth: most default programs rely on one of the two (24 of 25, 48 of 50 when this was written).
        assertTrue(relying > seeds / 2, relying + " of " + seeds + " default programs rely on implementation-defined behaviour");
    }

    /**
     * Portable programs built by gcc and clang at -O3 print the prediction and run clean under
     * UBSan. (No sanitizer checks only conversions to signed types: clang's
     * implicit-conversion checks also flag well-defined truncations to unsigned types; the
     * portable interpreter is the check.)
     */
    @Test
    void portableProgramsAgreeWithThePrediction(@TempDir Path dir) throws Exception {
        Generator gen = new Generator(PORTABLE, Language.C, CheckMode.HASH);
        for (long s = 1; s <= 2; s++) {
            GeneratedTest t = gen.generate(s, "test");
            Path d = Files.createDirectories(dir.resolve("p" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            for (List<String> build : List.of(List.of("gcc", "-O3"), List.of("clang", "-O3"),
                    List.of("clang", "-O0", "-fsanitize=undefined", "-fno-sanitize-recover=all"))) {
                String[] cmd = dev.yarpj.Commands.cmd(build, "-w", "driver.c", dev.yarpj.Commands.sources(d, "c"), "-o", "t.bin", "-lm");
                assertEquals(0, run(d, cmd), String.join(" ", cmd));
                Process p = new ProcessBuilder(d.resolve("t.bin").toString()).directory(d.toFile()).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes());
                assertTrue(p.waitFor(60, TimeUnit.SECONDS));
                assertEquals(t.prediction().expectedOutput(), out.strip(), "seed " + s + " " + build);
                assertEquals(0, p.exitValue());
            }
        }
    }

    private static int run(Path d, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(d.toFile()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return p.exitValue();
    }
}
