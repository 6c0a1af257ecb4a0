package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.Generator;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.VarType;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every test stores to some output outside dead code: else its checksum is a constant and tests nothing. */
class OutputsTest {
    @Test
    void aBodyOfLocalsAndDeadBranchesWritesNoOutput() {
        ScalarVar tmp = new ScalarVar(0, "tmp", VarType.uniform(NumType.INT), ScalarVar.Role.LOCAL, 0, false);
        ScalarVar res = new ScalarVar(1, "res", VarType.uniform(NumType.INT), ScalarVar.Role.OUTPUT, 0, false);
        Stmt local = new Stmt.LocalDecl(tmp, new Expr.Const(NumType.INT, 1));
        Stmt dead = new Stmt.DeadBranch(new Expr.Const(NumType.INT, 0), new Stmt.Block(List.of(
                new Stmt.Assign(new Expr.ScalarRef(res), null, new Expr.Const(NumType.INT, 2)))));
        assertFalse(Flesher.writesOutput(List.of(local, dead)));
        assertTrue(Flesher.writesOutput(List.of(local, new Stmt.Block(List.of(
                new Stmt.Assign(new Expr.ScalarRef(res), null, new Expr.Const(NumType.INT, 2)))))));
    }

    @Test
    void everyGeneratedTestStoresToAnOutput() {
        List<Long> none = new ArrayList<>();
        for (Language lang : Language.values()) {
            Generator gen = new Generator(GenPolicy.defaults(), lang, CheckMode.HASH);
            for (long s = 1; s <= 15; s++) {
                if (!Flesher.writesOutput(gen.generate(s, "test").program().body().stmts())) none.add(s);
            }
        }
        assertEquals(List.of(), none, "seeds whose test stores to no output");
    }
}
