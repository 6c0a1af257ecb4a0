package dev.yarpj.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.UnOp;
import dev.yarpj.ir.VarType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Golden files: a small hand-built program using every node kind (arrays passed as a
 * restrict pointer and as two overlapping views, a dead branch with UB inside), lowered
 * to C and C++.
 * Run with -Dyarpj.updateGolden=true to rewrite the files after an intended change, and
 * read the diff.
 */
class CFamilyLowererTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    static Program sample() {
        VarType i32 = VarType.uniform(NumType.INT);
        ScalarVar n = new ScalarVar(0, "var_0", i32, ScalarVar.Role.INPUT, 3, true);
        ScalarVar zero = new ScalarVar(1, "var_1", i32, ScalarVar.Role.INPUT, 0, false);
        ScalarVar big = new ScalarVar(2, "var_2", VarType.uniform(NumType.LLONG), ScalarVar.Role.INPUT, Long.MIN_VALUE, false);
        ScalarVar res = new ScalarVar(3, "res_3", VarType.uniform(NumType.USHORT), ScalarVar.Role.OUTPUT, 0, false);
        ArrayVar in = new ArrayVar(0, "arr_4", VarType.uniform(NumType.SCHAR), List.of(4), true, new ArrayVar.Fill(-7, 5, 0),
                new ArrayVar.Passing.Pointer(true));
        ArrayVar out = new ArrayVar(1, "out_5", VarType.uniform(NumType.UINT), List.of(4, 2), false, ArrayVar.Fill.uniform(9));
        Iterator i = new Iterator(4, "i_6", NumType.INT);
        Iterator j = new Iterator(5, "i_7", NumType.UCHAR);
        ScalarVar tmp = new ScalarVar(6, "tmp_8", VarType.uniform(NumType.BOOL), ScalarVar.Role.LOCAL, 0, false);

        Expr iRef = new Expr.IterRef(i);
        Expr jRef = new Expr.IterRef(j);
        Expr elem = Exprs.subscript(in, List.of(iRef));
        LoopHead outer = new LoopHead(i, new Expr.Const(NumType.INT, 0),
                Exprs.binary(BinOp.LT, iRef, new Expr.ScalarRef(n)),
                Exprs.binary(BinOp.ADD, iRef, new Expr.Const(NumType.INT, 1)), true);
        LoopHead inner = new LoopHead(j, Exprs.convertImplicitly(new Expr.Const(NumType.INT, 1), NumType.UCHAR),
                Exprs.binary(BinOp.GT, jRef, new Expr.Const(NumType.INT, 0)),
                Exprs.binary(BinOp.SUB, jRef, new Expr.Const(NumType.INT, 1)), true);
        Expr parity = Exprs.binary(BinOp.EQ, Exprs.binary(BinOp.REM, iRef, new Expr.Const(NumType.INT, 2)), new Expr.ScalarRef(zero));
        Stmt store = new Stmt.Assign(Exprs.subscript(out, List.of(iRef, jRef)), null,
                Exprs.convertImplicitly(Exprs.ternary(parity,
                        Exprs.binary(BinOp.MUL, elem, new Expr.Const(NumType.INT, -3)),
                        Exprs.call(Builtin.MIN, elem, new Expr.ScalarRef(tmp))), NumType.UINT));
        Stmt decl = new Stmt.LocalDecl(tmp, Exprs.convertImplicitly(Exprs.unary(UnOp.LNOT, elem), NumType.BOOL));
        Stmt nest = new Stmt.LoopNest(List.of(
                new Stmt.LoopLevel(outer, new Stmt.Block(List.of(decl)), new Stmt.Block(List.of())),
                new Stmt.LoopLevel(inner, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                new Stmt.Block(List.of(store)));
        Stmt cond = new Stmt.If(Exprs.binary(BinOp.LT, new Expr.ScalarRef(big), new Expr.Const(NumType.LLONG, 0)),
                new Stmt.Block(List.of(new Stmt.Assign(new Expr.ScalarRef(res), BinOp.BXOR,
                        Exprs.cast(Exprs.binary(BinOp.SHR, new Expr.ScalarRef(big), new Expr.Const(NumType.INT, 60)), NumType.SHORT)))),
                new Stmt.Block(List.of(new Stmt.Assign(new Expr.ScalarRef(res), null,
                        Exprs.convertImplicitly(new Expr.Const(NumType.ULLONG, -1), NumType.USHORT)))));
        // buf_9[k + 2] = buf_9[k] * 3 + 1 through two views two elements apart: a dependence of distance 2.
        ArrayVar buf = new ArrayVar(2, "buf_9", i32, List.of(6), false, ArrayVar.Fill.uniform(2));
        ArrayVar ahead = new ArrayVar(3, "out_10", i32, List.of(4), false, ArrayVar.Fill.uniform(2), new ArrayVar.Passing.View(buf, 2));
        ArrayVar behind = new ArrayVar(4, "out_11", i32, List.of(4), false, ArrayVar.Fill.uniform(2), new ArrayVar.Passing.View(buf, 0));
        Iterator k = new Iterator(7, "i_12", NumType.INT);
        Expr kRef = new Expr.IterRef(k);
        LoopHead viewLoop = new LoopHead(k, new Expr.Const(NumType.INT, 0), Exprs.binary(BinOp.LT, kRef, new Expr.Const(NumType.INT, 4)),
                Exprs.binary(BinOp.ADD, kRef, new Expr.Const(NumType.INT, 1)), false);
        Stmt aliased = new Stmt.Assign(Exprs.subscript(ahead, List.of(kRef)), null, Exprs.convertImplicitly(
                Exprs.binary(BinOp.ADD, Exprs.binary(BinOp.MUL, Exprs.cast(Exprs.subscript(behind, List.of(kRef)), NumType.UINT),
                        new Expr.Const(NumType.UINT, 3)), new Expr.Const(NumType.UINT, 1)), NumType.INT));
        Stmt viewNest = new Stmt.LoopNest(List.of(new Stmt.LoopLevel(viewLoop, new Stmt.Block(List.of()), new Stmt.Block(List.of()))),
                new Stmt.Block(List.of(aliased)));
        // var_1 is 0: the branch never runs, and would divide by zero if it did.
        Stmt dead = new Stmt.DeadBranch(Exprs.binary(BinOp.NE, new Expr.ScalarRef(zero), new Expr.Const(NumType.INT, 0)),
                new Stmt.Block(List.of(new Stmt.Assign(new Expr.ScalarRef(res), null, Exprs.convertImplicitly(
                        Exprs.binary(BinOp.DIV, new Expr.ScalarRef(n), new Expr.ScalarRef(zero)), NumType.USHORT)))));
        return new Program(List.of(n, zero, big), List.of(res), List.of(in), List.of(out, buf), List.of(n),
                List.of(in, ahead, behind), new Stmt.Block(List.of(nest, cond, viewNest, dead)), 8, 5);
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"})
    void loweringMatchesGoldenFiles(Language lang) throws Exception {
        Program p = sample();
        Prediction expected = Interpreter.run(p, 1000);
        for (CheckMode check : CheckMode.values()) {
            LoweredTest t = CFamilyLowerer.lower(p, expected, lang, check, "golden test");
            for (Map.Entry<String, String> f : t.files().entrySet()) {
                Path golden = GOLDEN.resolve(lang.extension + "-" + check.name().toLowerCase() + "-" + f.getKey());
                if (Boolean.getBoolean("yarpj.updateGolden")) Files.writeString(golden, f.getValue());
                assertTrue(Files.exists(golden), "missing golden file " + golden + " (run with -Dyarpj.updateGolden=true)");
                assertEquals(Files.readString(golden), f.getValue(), golden.toString());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"})
    void goldenProgramPassesItsOwnAssertsWithGccAndClang(Language lang, @TempDir Path dir) throws Exception {
        Program p = sample();
        LoweredTest t = CFamilyLowerer.lower(p, Interpreter.run(p, 1000), lang, CheckMode.ASSERTS, "golden test");
        for (Map.Entry<String, String> f : t.files().entrySet()) Files.writeString(dir.resolve(f.getKey()), f.getValue());
        for (String cc : lang == Language.C ? List.of("gcc", "clang") : List.of("g++", "clang++")) {
            for (String opt : List.of("-O0", "-O3")) {
                Process build = new ProcessBuilder(cc, opt, "-w", "driver." + lang.extension, "func." + lang.extension, "-o", "t.bin", "-lm")
                        .directory(dir.toFile()).redirectErrorStream(true).start();
                String log = new String(build.getInputStream().readAllBytes());
                assertEquals(0, build.waitFor(), cc + " " + opt + ": " + log);
                Process run = new ProcessBuilder(dir.resolve("t.bin").toString()).redirectErrorStream(true).start();
                assertEquals("OK\n", new String(run.getInputStream().readAllBytes()), cc + " " + opt);
                assertEquals(0, run.waitFor());
            }
        }
    }

    @org.junit.jupiter.api.Test
    void overlappingViewsArePredictedThroughTheirSharedStorage() {
        Prediction p = Interpreter.run(sample(), 1000);
        // buf_9 starts all 2; buf[k + 2] = buf[k] * 3 + 1 for k = 0..3.
        org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {2, 2, 7, 7, 22, 22}, p.arrays().get(1));
    }

    @ParameterizedTest
    @EnumSource(value = NumType.class, names = {"INT", "LLONG"})
    void mostNegativeValuesAreWrittenAsSubtractions(NumType t) {
        String lit = CFamilyLowerer.literal(t, t.min());
        assertTrue(lit.startsWith("(-") && lit.contains(" - 1)"), lit);
    }
}
