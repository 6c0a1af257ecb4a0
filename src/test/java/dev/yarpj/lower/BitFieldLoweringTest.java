package dev.yarpj.lower;

import dev.yarpj.interp.Interpreter;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.UnOp;
import dev.yarpj.ir.VarType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A bit-field read as an arm of {@code ?:} has the promoted type the IR gives it (int) with
 * every compiler: g++ gives {@code c ? s.f : k}, {@code f} an {@code unsigned int} bit-field,
 * the type {@code unsigned int} (and {@code c ? s.f : s.f} with clang++ too), where C and
 * clang++ promote it, so the C++ lowering prints the promotion, or the bit-field's IR type
 * where that is int (C++ seeds 170 and 382 of the default policy met them: {@code -(c ? f :
 * INT_MIN)}, {@code k > (c ? f : K)}).
 */
class BitFieldLoweringTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Language.class, names = {"C", "CPP"})
    void aBitFieldArmOfAConditionalIsPromotedToIntWithGccAndClang(Language lang) throws Exception {
        ArrayVar.Passing.Field field = new ArrayVar.Passing.Field("recs_0", "rec_0", 0, 5, false);
        ArrayVar f = new ArrayVar(0, "arr_1", VarType.uniform(NumType.UCHAR), List.of(4), true, ArrayVar.Fill.uniform(16), field);
        ScalarVar n = new ScalarVar(0, "var_2", VarType.uniform(NumType.LLONG), ScalarVar.Role.INPUT, 1, false);
        ScalarVar negated = new ScalarVar(1, "res_3", VarType.uniform(NumType.ULLONG), ScalarVar.Role.OUTPUT, 0, false);
        ScalarVar below = new ScalarVar(2, "res_4", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
        // An unsigned int : 1 bit-field of IR type int (C++ seed 382): its arm has no cast to print.
        ArrayVar g = new ArrayVar(1, "arr_5", VarType.uniform(NumType.INT), List.of(4), true, ArrayVar.Fill.uniform(1),
                new ArrayVar.Passing.Field("recs_0", "rec_0", 1, 1, false));
        ScalarVar zero = new ScalarVar(3, "var_6", VarType.uniform(NumType.INT), ScalarVar.Role.INPUT, 0, false);
        ScalarVar negative = new ScalarVar(4, "res_7", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
        Expr cond = new Expr.ScalarRef(n);
        Expr elem = Exprs.subscript(f, List.of(new Expr.Const(NumType.INT, 1)));
        // res_3 = -(n ? f[1] : INT_MIN): -16 as an int, converted; res_4 = (n ? f[1] : f[1]) - 17 < 0: 1 as an int.
        Expr neg = Exprs.unary(UnOp.NEG, Exprs.ternary(cond, elem, new Expr.Const(NumType.INT, Integer.MIN_VALUE)));
        Expr less = Exprs.binary(BinOp.LT, Exprs.binary(BinOp.SUB, Exprs.ternary(cond, elem, elem), new Expr.Const(NumType.INT, 17)),
                new Expr.Const(NumType.INT, 0));
        Stmt.Block body = new Stmt.Block(List.of(
                new Stmt.Assign(new Expr.ScalarRef(negated), null, Exprs.convertImplicitly(neg, NumType.ULLONG)),
                new Stmt.Assign(new Expr.ScalarRef(below), null, less),
                // res_7 = (zero ? g[1] : -1) < 0: 1 as an int.
                new Stmt.Assign(new Expr.ScalarRef(negative), null, Exprs.binary(BinOp.LT,
                        Exprs.ternary(new Expr.ScalarRef(zero), Exprs.subscript(g, List.of(new Expr.Const(NumType.INT, 1))),
                                new Expr.Const(NumType.INT, -1)), new Expr.Const(NumType.INT, 0)))));
        Program p = new Program(List.of(n, zero), List.of(negated, below, negative), List.of(f, g), List.of(), List.of(), body, 5, 2);
        LoweredTest t = CFamilyLowerer.lower(p, Interpreter.run(p, 1000), lang, CheckMode.ASSERTS, "bit-field arms");
        BuildAndRun.withGccAndClang(BuildAndRun.write(dir, t, "t"), lang, List.of("-O0", "-O2"), t.files().get("func." + lang.extension));
    }
}
