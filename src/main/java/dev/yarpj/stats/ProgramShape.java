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

    /**
     * Counts loops and their bodies at each depth. A dead branch is not entered: its body
     * never runs, so its loops are not part of the program's shape (as before the visitor).
     */
    private static final class Walker {
        int maxDepth;
        int loops;
        final List<Integer> bodies = new ArrayList<>();

        void block(Stmt.Block b, int depth) {
            Stmt.Visitor<Void> at = new AtDepth(depth);
            for (Stmt s : b.stmts()) s.accept(at);
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

        /** The statements of one block, {@code depth} loops deep. */
        private final class AtDepth implements Stmt.Visitor<Void> {
            private final int depth;

            AtDepth(int depth) {
                this.depth = depth;
            }

            @Override
            public Void assign(Stmt.Assign s) {
                return null;
            }

            @Override
            public Void reduce(Stmt.Reduce s) {
                return null;
            }

            @Override
            public Void localDecl(Stmt.LocalDecl s) {
                return null;
            }

            @Override
            public Void ifStmt(Stmt.If s) {
                Walker.this.block(s.then(), depth);
                if (s.otherwise() != null) Walker.this.block(s.otherwise(), depth);
                return null;
            }

            @Override
            public Void deadBranch(Stmt.DeadBranch s) {
                return null;
            }

            @Override
            public Void block(Stmt.Block s) {
                Walker.this.block(s, depth);
                return null;
            }

            @Override
            public Void loopNest(Stmt.LoopNest s) {
                nest(s, depth);
                return null;
            }

            @Override
            public Void loopSeq(Stmt.LoopSeq s) {
                for (Stmt.LoopNest n : s.nests()) nest(n, depth);
                return null;
            }
        }
    }
}
