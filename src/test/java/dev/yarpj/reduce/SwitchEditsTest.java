package dev.yarpj.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.PolicyLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The IR reducer's edits of a switch: it is replaced by the body of one case (or its default),
 * or loses one case, whose values then go to the default; the interpreter runs what is left.
 */
class SwitchEditsTest {
    @Test
    void aSwitchGivesWayToOneCasesBodyOrLosesACase() {
        Generator g = new Generator(PolicyLoader.parse("stmt_weights: {switch: 30}\n", "switching.yaml", "switching"), Language.C, CheckMode.HASH);
        int unwrapped = 0, dropped = 0;
        for (long seed = 1; seed <= 10; seed++) {
            GeneratedTest t = g.generate(seed, "");
            Program p = t.program();
            List<Stmt> stmts = Rewrite.inventory(p).stmts();
            for (int n = 0; n < stmts.size(); n++) {
                if (!(stmts.get(n) instanceof Stmt.Switch s) || s.cases().size() < 2) continue;
                List<Edit> edits = IrReducer.structural(Rewrite.inventory(p));
                for (int k = 0; k <= s.cases().size(); k++) assertTrue(edits.contains(new Edit.UnwrapSwitch(n, k)), "unwrap arm " + k);
                for (int k = 0; k < s.cases().size(); k++) assertTrue(edits.contains(new Edit.DropCase(n, k)), "drop case " + k);

                Program arm = Rewrite.apply(p, new Edit.UnwrapSwitch(n, 1));
                Stmt now = Rewrite.inventory(arm).stmts().get(n);
                assertEquals(s.cases().get(1).body(), now, "the switch became its second case's body");
                if (defined(t, arm)) unwrapped++;

                Program fewer = Rewrite.apply(p, new Edit.DropCase(n, 0));
                Stmt.Switch left = (Stmt.Switch) Rewrite.inventory(fewer).stmts().get(n);
                assertEquals(s.cases().subList(1, s.cases().size()), left.cases());
                assertEquals(s.otherwise(), left.otherwise());
                if (defined(t, fewer)) dropped++;
                break;
            }
        }
        assertTrue(unwrapped >= 5 && dropped >= 5, unwrapped + " switches unwrapped, " + dropped + " lost a case");
    }

    /** Whether the interpreter runs an edited program without undefined behaviour: another arm may compute what its own guards did not plan for, and the reducer refuses such an edit. */
    private static boolean defined(GeneratedTest t, Program p) {
        try {
            t.recipe().interpret(p);
            return true;
        } catch (dev.yarpj.interp.UndefinedBehaviorException e) {
            return false;
        }
    }
}
