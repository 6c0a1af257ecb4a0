package dev.yarpj.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Program;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.PolicyLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The IR reducer's edit of a helper call: the call becomes the helper's body over its
 * arguments, which computes the same values (the prediction does not change); once no call
 * of a helper is left, dropping the unused globals drops the helper too. An element passed by
 * pointer, or a struct's field, is never replaced on its own (the call passes its address, or
 * the struct): every expression edit of a program with such calls gives a program. Passing
 * structs field by field, pointers by value, and dropping parameters a body does not read
 * or fields of a struct result no call reads keep the prediction, and give programs gcc builds
 * that print it.
 */
class HelperEditsTest {
    @Test
    void inliningEveryCallKeepsThePredictionAndLeavesNoHelper() {
        Generator g = new Generator(PolicyLoader.parse("functions: {p_call: 0.3, p_pointer: 0.4}\n", "calling.yaml", "calling"), Language.C, CheckMode.HASH);
        int programs = 0, byPointer = 0;
        for (long seed = 1; seed <= 8; seed++) {
            GeneratedTest t = g.generate(seed, "");
            Program p = t.program();
            if (p.helpers().isEmpty()) continue;
            Prediction before = t.recipe().interpret(p);
            int inlined = 0;
            while (true) {
                List<Expr> exprs = Rewrite.inventory(p).exprs();
                int call = -1;
                for (int n = 0; n < exprs.size() && call < 0; n++) if (exprs.get(n) instanceof Expr.HelperCall) call = n;
                if (call < 0) break;
                if (((Expr.HelperCall) exprs.get(call)).helper().readsMemory()) byPointer++;
                assertTrue(IrReducer.expressions(Rewrite.inventory(p)).contains(new Edit.InlineCall(call)), "no inline edit offered");
                p = Rewrite.apply(p, new Edit.InlineCall(call));
                inlined++;
            }
            assertTrue(inlined > 0);
            assertEquals(before.checksum(), t.recipe().interpret(p).checksum(), "seed " + seed + ": inlining changed the prediction");
            Program dropped = Rewrite.apply(p, new Edit.DropUnused());
            assertEquals(List.of(), dropped.helpers(), "seed " + seed + ": helpers left with no call");
            programs++;
        }
        assertTrue(programs >= 5, "only " + programs + " programs with helpers");
        assertTrue(byPointer >= 3, "only " + byPointer + " calls with an element passed by pointer inlined");
    }

    @Test
    void passingStructsFieldByFieldPointersByValueAndDroppingUnreadParametersKeepsThePredictionAndTheProgramBuilds(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Generator g = new Generator(PolicyLoader.parse("functions: {p_call: 0.3, p_pointer: 0.5, p_struct: 0.3}\nstructs: {p_field: 0.6}\n",
                "pointing.yaml", "pointing"), Language.C, CheckMode.ASSERTS);
        int unpointed = 0, dropped = 0, unstructed = 0;
        for (long seed = 1; seed <= 6; seed++) {
            GeneratedTest t = g.generate(seed, "");
            Program p = t.program();
            Prediction before = t.recipe().interpret(p);
            for (int k = 0; k < p.helpers().size(); k++) {
                Program q = Rewrite.apply(p, new Edit.Unstruct(k));
                if (q == null) {
                    assertEquals(List.of(), p.helpers().get(k).structParams(), "seed " + seed + ": helper " + k + " takes a struct, and was not edited");
                    continue;
                }
                for (var a : Rewrite.allArrays(p)) {
                    // While a helper takes its struct, a field stays in it.
                    if (a.field() != null && p.helpers().get(k).structParams().stream().anyMatch(s -> s.type().equals(a.field().type()))) {
                        assertEquals(null, Rewrite.apply(p, new Edit.Unfield(a.slot())), "seed " + seed + ": " + a.name() + " taken out of a struct a helper takes");
                    }
                }
                assertEquals(List.of(), q.helpers().get(k).structParams());
                p = q;
                unstructed++;
            }
            for (int k = 0; k < p.helpers().size(); k++) {
                Program q = Rewrite.apply(p, new Edit.Unpoint(k));
                if (q == null) {
                    assertTrue(!p.helpers().get(k).readsMemory(), "seed " + seed + ": helper " + k + " takes a pointer, and was not edited");
                    continue;
                }
                assertTrue(!q.helpers().get(k).readsMemory());
                p = q;
                unpointed++;
            }
            for (int k = 0; k < p.helpers().size(); k++) {
                for (int i = p.helpers().get(k).params().size() - 1; i >= 0; i--) {
                    Program q = Rewrite.apply(p, new Edit.DropParam(k, i));
                    if (q == null) continue;
                    assertEquals(p.helpers().get(k).params().size() - 1, q.helpers().get(k).params().size());
                    p = q;
                    dropped++;
                }
            }
            Prediction after = t.recipe().interpret(p);
            assertEquals(before.checksum(), after.checksum(), "seed " + seed + ": the edits changed the prediction");
            if (seed > 2) continue;
            // What the edits leave is a program gcc takes, and that computes the prediction (the asserts driver says OK).
            java.nio.file.Path d = java.nio.file.Files.createDirectories(dir.resolve("s" + seed));
            for (var f : t.recipe().lower(p, after).files().entrySet()) java.nio.file.Files.writeString(d.resolve(f.getKey()), f.getValue());
            assertEquals("", dev.yarpj.Commands.run(d, dev.yarpj.Commands.cmd("gcc", "-O2", "-w", "-o", "t", dev.yarpj.Commands.sources(d, "c"), "driver.c", "-lm")));
            assertEquals("OK", dev.yarpj.Commands.run(d, "./t").strip(), "seed " + seed);
        }
        assertTrue(unpointed >= 5, "only " + unpointed + " helpers' pointers passed by value");
        assertTrue(unstructed >= 2, "only " + unstructed + " helpers' structs passed field by field");
        assertTrue(dropped >= 3, "only " + dropped + " unread parameters dropped");
    }

    /**
     * Dropping a field of a struct a helper returns is refused while a call reads it; after the
     * calls that read other fields than the first are inlined, every other field goes, the last
     * one left is returned as a plain value, and the program keeps its prediction and builds.
     */
    @Test
    void droppingTheFieldsOfAStructResultThatNoCallReadsKeepsThePredictionAndTheProgramBuilds(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Generator g = new Generator(PolicyLoader.parse("functions: {p_call: 0.3, p_struct_result: 0.7}\n", "returning.yaml", "returning"),
                Language.C, CheckMode.ASSERTS);
        int refused = 0, droppedFields = 0, unstructed = 0, built = 0;
        for (long seed = 1; seed <= 6; seed++) {
            GeneratedTest t = g.generate(seed, "");
            Program p = t.program();
            if (p.helpers().stream().noneMatch(dev.yarpj.ir.Helper::returnsStruct)) continue;
            Prediction before = t.recipe().interpret(p);
            // Inline every call that reads a field other than 0: then no call reads those.
            while (true) {
                List<Expr> exprs = Rewrite.inventory(p).exprs();
                int call = -1;
                for (int n = 0; n < exprs.size() && call < 0; n++) if (exprs.get(n) instanceof Expr.HelperCall c && c.field() > 0) call = n;
                if (call < 0) break;
                Program q = Rewrite.apply(p, new Edit.InlineCall(call));
                if (q == null) break; // a call in a helper's body is not an edit of test()'s
                p = q;
            }
            for (int k = 0; k < p.helpers().size(); k++) {
                dev.yarpj.ir.Helper h = p.helpers().get(k);
                if (!h.returnsStruct()) continue;
                for (Edit e : IrReducer.helperEdits(p)) {
                    if (!(e instanceof Edit.DropResult d) || d.helper() != k) continue;
                    Program q = Rewrite.apply(p, e);
                    if (q == null) {
                        refused++;
                        continue;
                    }
                    droppedFields++;
                    assertEquals(p.helpers().get(k).results().size() - 1, q.helpers().get(k).results().size());
                    p = q;
                }
                if (!p.helpers().get(k).returnsStruct()) unstructed++;
            }
            Prediction after = t.recipe().interpret(p);
            assertEquals(before.checksum(), after.checksum(), "seed " + seed + ": dropping result fields changed the prediction");
            if (built >= 2) continue;
            java.nio.file.Path d = java.nio.file.Files.createDirectories(dir.resolve("s" + seed));
            for (var f : t.recipe().lower(p, after).files().entrySet()) java.nio.file.Files.writeString(d.resolve(f.getKey()), f.getValue());
            assertEquals("", dev.yarpj.Commands.run(d, dev.yarpj.Commands.cmd("gcc", "-O2", "-w", "-o", "t", dev.yarpj.Commands.sources(d, "c"), "driver.c", "-lm")));
            assertEquals("OK", dev.yarpj.Commands.run(d, "./t").strip(), "seed " + seed);
            built++;
        }
        assertTrue(droppedFields >= 4, "only " + droppedFields + " result fields dropped");
        assertTrue(unstructed >= 2, "only " + unstructed + " helpers left returning one value");
        assertTrue(refused >= 2, "only " + refused + " drops of a field a call reads refused");
        assertEquals(2, built);
    }

    @Test
    void everyExpressionEditOfAProgramThatPassesElementsByPointerGivesAProgram() {
        Generator g = new Generator(PolicyLoader.parse("functions: {p_call: 0.3, p_pointer: 0.6, p_struct: 0.3}\nstructs: {p_field: 0.6}\n",
                "pointing.yaml", "pointing"), Language.C, CheckMode.HASH);
        int edits = 0;
        for (long seed = 1; seed <= 3; seed++) {
            Program p = g.generate(seed, "").program();
            if (p.helpers().stream().noneMatch(dev.yarpj.ir.Helper::takesElements)) continue;
            for (Edit e : IrReducer.expressions(Rewrite.inventory(p))) {
                Rewrite.apply(p, e); // throws if an edit made a call pass something else than an element by pointer
                edits++;
            }
        }
        assertTrue(edits >= 50, "only " + edits + " edits tried");
    }
}
