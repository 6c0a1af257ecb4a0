package dev.yarpj.flesh;

import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.UnOp;
import dev.yarpj.policy.ExitPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.List;

/**
 * Spells some serial levels of a nest as while or do-while loops (policy {@code exits:
 * p_while, p_do_while}), and moves a while level's leading {@code if (c) break;} into its
 * condition ({@code p_header_exit}): {@code while (i < n && !c)}. A level marked parallel
 * keeps its form (a gang or parallel range spells it), a level a continue belongs to is a
 * for loop (a continue would skip the update at the end of a while body), and a do-while
 * goes only where the planned trip count says every entry runs at least one iteration (the
 * interpreter checks the plan, so a wrong one is refused, never printed).
 */
final class LoopForms {
    private LoopForms() {}

    static Stmt.LoopNest choose(Stmt.LoopNest n, ExitPolicy xp, Rng rng) {
        List<Stmt.LoopLevel> levels = new ArrayList<>(n.levels());
        Stmt.Block body = n.body();
        for (int l = 0; l < n.depth(); l++) {
            Stmt.LoopLevel lv = levels.get(l);
            LoopHead h = lv.head();
            if (h.parallel() || n.exits(l, Stmt.Exit.Kind.CONTINUE)) continue;
            if (xp.pDoWhile() > 0 && h.trip() >= 1 && rng.chance(xp.pDoWhile())) {
                levels.set(l, new Stmt.LoopLevel(h.withForm(LoopHead.Form.DO_WHILE, null), lv.prefix(), lv.suffix()));
            } else if (xp.pWhile() > 0 && rng.chance(xp.pWhile())) {
                boolean innermost = l == n.depth() - 1;
                // The level's first statement: its prefix's, or the body's where the innermost prefix is empty.
                Stmt.Block first = lv.prefix().stmts().isEmpty() && innermost ? body : lv.prefix();
                Expr exitTest = first.stmts().isEmpty() ? null : bareBreakTest(first.stmts().get(0));
                if (exitTest != null && xp.pHeaderExit() > 0 && rng.chance(xp.pHeaderExit())) {
                    Stmt.Block rest = new Stmt.Block(first.stmts().subList(1, first.stmts().size()));
                    Stmt.Block prefix = first == body ? lv.prefix() : rest;
                    if (first == body) body = rest;
                    levels.set(l, new Stmt.LoopLevel(h.withForm(LoopHead.Form.WHILE, negation(exitTest)), prefix, lv.suffix()));
                } else {
                    levels.set(l, new Stmt.LoopLevel(h.withForm(LoopHead.Form.WHILE, null), lv.prefix(), lv.suffix()));
                }
            }
        }
        return new Stmt.LoopNest(levels, body, n.pragma(), n.idiom());
    }

    /** The test of {@code if (c) break;} (no else, nothing else in the arm); null for any other statement. */
    private static Expr bareBreakTest(Stmt s) {
        if (s instanceof Stmt.If i && i.otherwise() == null && i.then().stmts().size() == 1
                && i.then().stmts().get(0) instanceof Stmt.Exit e && e.kind() == Stmt.Exit.Kind.BREAK) {
            return i.cond();
        }
        return null;
    }

    /** {@code !c}, spelt {@code a != b} where {@code c} is {@code a == b} (an exit's sentinel test). */
    private static Expr negation(Expr c) {
        if (c instanceof Expr.Binary b && b.op() == BinOp.EQ) return new Expr.Binary(BinOp.NE, b.type(), b.lhs(), b.rhs());
        return Exprs.unary(UnOp.LNOT, c);
    }
}
