package dev.yarpj.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Program;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.PolicyLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The IR reducer's edit of an array of structs: a field taken out of its struct becomes an
 * array of its own, which computes the same values (the prediction does not change); only
 * then may its rows be cut, since a field's rows are its struct's.
 */
class StructEditsTest {
    @Test
    void takingEveryFieldOutOfItsStructKeepsThePredictionAndLeavesNoStruct() {
        Generator g = new Generator(PolicyLoader.parse("structs: {p_field: 0.8, p_copy: 0}\n", "structs.yaml", "structs"), Language.C, CheckMode.HASH);
        int programs = 0;
        for (long seed = 1; seed <= 4; seed++) {
            GeneratedTest t = g.generate(seed, "");
            Program p = t.program();
            if (p.structArrays().isEmpty()) continue;
            long before = t.recipe().interpret(p).checksum();
            // A helper that takes a struct keeps its fields in it: passed field by field first, as the reducer's last phase does.
            for (int k = 0; k < p.helpers().size(); k++) {
                Program q = Rewrite.apply(p, new Edit.Unstruct(k));
                if (q != null) p = q;
            }
            for (ArrayVar a : Rewrite.allArrays(p)) {
                if (a.field() == null) continue;
                int rows = a.dims().get(0);
                if (rows > 1) assertNull(Rewrite.apply(p, new Edit.ShrinkArray(a.slot(), 1)), "a field's rows are its struct's");
                assertTrue(IrReducer.shrinks(p).contains(new Edit.Unfield(a.slot())), "no unfield edit offered for " + a.name());
                p = Rewrite.apply(p, new Edit.Unfield(a.slot()));
                if (rows > 1) assertTrue(IrReducer.shrinks(p).contains(new Edit.ShrinkArray(a.slot(), 1)), a.name() + " cannot shrink once out");
            }
            assertEquals(List.of(), p.structArrays(), "seed " + seed);
            assertEquals(before, t.recipe().interpret(p).checksum(), "seed " + seed + ": taking fields out changed the prediction");
            programs++;
        }
        assertTrue(programs >= 3, "only " + programs + " programs with arrays of structs");
    }

    /**
     * A field stays in its struct while a local copies an element of it (the copy is of the
     * struct), and no expression edit turns the copied element into something else: every one
     * gives a program, whose prediction the interpreter makes.
     */
    @Test
    void aFieldStaysInItsStructWhileALocalCopiesItAndEveryExpressionEditGivesAProgram() {
        Generator g = new Generator(PolicyLoader.parse("structs: {p_field: 0.8, p_copy: 1.0}\n", "copying.yaml", "copying"), Language.C, CheckMode.HASH);
        int copied = 0, edits = 0;
        for (long seed = 1; seed <= 3; seed++) {
            GeneratedTest t = g.generate(seed, "");
            Program p = t.program();
            java.util.Set<String> types = new java.util.HashSet<>();
            new dev.yarpj.ir.Stmt.Walker() {
                @Override
                public Void localDecl(dev.yarpj.ir.Stmt.LocalDecl d) {
                    if (d.var().isCopyField()) types.add(((dev.yarpj.ir.Expr.Subscript) d.init()).array().field().type());
                    return super.localDecl(d);
                }
            }.all(p.body().stmts());
            for (ArrayVar a : Rewrite.allArrays(p)) {
                if (a.field() == null || !types.contains(a.field().type())) continue;
                assertNull(Rewrite.apply(p, new Edit.Unfield(a.slot())), a.name() + " taken out of a struct a local copies (seed " + seed + ")");
                copied++;
            }
            List<Edit> all = IrReducer.expressions(Rewrite.inventory(p));
            // All of them, or every third where there are many (each rewrites the whole program).
            for (int k = 0; k < all.size(); k += all.size() > 300 ? 3 : 1) {
                Edit e = all.get(k);
                Program q = Rewrite.apply(p, e); // throws if an edit made a copy's element something else
                if (q != null && edits % 25 == 0) {
                    try {
                        t.recipe().lower(q, t.recipe().interpret(q)); // a copy is still printed as one
                    } catch (dev.yarpj.interp.UndefinedBehaviorException ub) {
                        // an edit may make UB (the reducer's interpreter run refuses such a candidate)
                    }
                }
                edits++;
            }
        }
        assertTrue(copied >= 3, "only " + copied + " fields of copied structs");
        assertTrue(edits >= 50, "only " + edits + " edits tried");
    }
}
