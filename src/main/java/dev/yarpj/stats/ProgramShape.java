package dev.yarpj.stats;

import dev.yarpj.ir.Program;
import dev.yarpj.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/**
 * Structural measures of one program, for judging the variety of what a policy generates:
 * deepest loop nesting (across nests inside nests), number of loops, and the number of
 * statements directly in each loop's body.
 */
public record ProgramShape(int maxLoopDepth, int loops, List<Integer> stmtsPerLoopBody) {

    public static ProgramShape of(Program p) {
        Walker w = new Walker();
        w.block(p.body(), 0);
        return new ProgramShape(w.maxDepth, w.loops, w.bodies);
    }

    private static final class Walker {
        int maxDepth;
        int loops;
        final List<Integer> bodies = new ArrayList<>();

        void block(Stmt.Block b, int depth) {
            for (Stmt s : b.stmts()) stmt(s, depth);
        }

        void stmt(Stmt s, int depth) {
            if (s instanceof Stmt.If i) {
                block(i.then(), depth);
                if (i.otherwise() != null) block(i.otherwise(), depth);
            } else if (s instanceof Stmt.Block b) {
                block(b, depth);
            } else if (s instanceof Stmt.LoopNest n) {
                nest(n, depth);
            } else if (s instanceof Stmt.LoopSeq q) {
                for (Stmt.LoopNest n : q.nests()) nest(n, depth);
            }
        }

        void nest(Stmt.LoopNest n, int depth) {
            for (int l = 0; l < n.depth(); l++) {
                Stmt.LoopLevel lv = n.levels().get(l);
                loops++;
                int d = depth + l + 1;
                maxDepth = Math.max(maxDepth, d);
                // A level's body is its prefix, the next loop (one statement) and its suffix.
                boolean innermost = l == n.depth() - 1;
                bodies.add(innermost ? n.body().stmts().size()
                        : lv.prefix().stmts().size() + 1 + lv.suffix().stmts().size());
                block(lv.prefix(), d);
                block(lv.suffix(), d);
            }
            block(n.body(), depth + n.depth());
        }
    }
}
