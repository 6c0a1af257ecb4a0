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
        w.all(p.body().stmts());
        return new ProgramShape(w.maxDepth, w.loops, w.bodies);
    }

    /**
     * Counts loops and their bodies at each depth. A dead branch is not entered: its body
     * never runs, so its loops are not part of the program's shape.
     */
    private static final class Walker extends Stmt.Walker {
        int maxDepth;
        int loops;
        final List<Integer> bodies = new ArrayList<>();
        /** Loops around the statements being walked. */
        private int depth;

        @Override
        public Void deadBranch(Stmt.DeadBranch s) {
            return null;
        }

        @Override
        public Void loopNest(Stmt.LoopNest n) {
            int outside = depth;
            for (int l = 0; l < n.depth(); l++) {
                Stmt.LoopLevel lv = n.levels().get(l);
                loops++;
                depth = outside + l + 1;
                maxDepth = Math.max(maxDepth, depth);
                // A level's body is its prefix, the next loop (one statement) and its suffix.
                boolean innermost = l == n.depth() - 1;
                bodies.add(innermost ? n.body().stmts().size()
                        : lv.prefix().stmts().size() + 1 + lv.suffix().stmts().size());
                all(lv.prefix().stmts());
                all(lv.suffix().stmts());
            }
            depth = outside + n.depth();
            all(n.body().stmts());
            depth = outside;
            return null;
        }
    }
}
