package dev.yarpj.ir;

import java.util.List;

/** Statements. Loop sequences and loop nests are first-class nodes, as in YARPGen. */
public sealed interface Stmt {

    /**
     * {@code target = value} or, when {@code compound} is set, {@code target op= value}.
     * The target is a {@link Expr.ScalarRef} or a {@link Expr.Subscript}; for a plain
     * assignment {@code value} already carries the implicit conversion to the target type.
     */
    record Assign(Expr target, BinOp compound, Expr value) implements Stmt {}

    /** Declares a local temporary in the enclosing block's scope. */
    record LocalDecl(ScalarVar var, Expr init) implements Stmt {}

    record If(Expr cond, Block then, Block otherwise) implements Stmt {}

    /** A braced scope. */
    record Block(List<Stmt> stmts) implements Stmt {}

    /**
     * Loops nested one inside the next; {@code levels.get(0)} is outermost. Each level may
     * carry statements before and after the next loop (an imperfect nest); the innermost
     * level's body is {@link #body}. A perfect nest has every prefix and suffix empty.
     * {@code pragma} applies to the innermost loop.
     */
    record LoopNest(List<LoopLevel> levels, Block body, Pragma pragma) implements Stmt {
        public LoopNest(List<LoopLevel> levels, Block body) {
            this(levels, body, Pragma.NONE);
        }

        public LoopNest withPragma(Pragma p) {
            return new LoopNest(levels, body, p);
        }

        public int depth() {
            return levels.size();
        }
    }

    /** Adjacent loop nests; {@code sharedSpace} marks that they iterate over one space (fusible). */
    record LoopSeq(List<LoopNest> nests, boolean sharedSpace) implements Stmt {}

    record LoopLevel(LoopHead head, Block prefix, Block suffix) {}
}
