package dev.yarpj.ir;

import java.util.List;

/**
 * Statements. Loop sequences and loop nests are first-class nodes, as in YARPGen.
 *
 * <p>A pass that does something for every kind of statement (runs it, prints it) implements
 * {@link Visitor}: it has one method per kind, so a new kind of statement does not compile
 * until every such pass says what it does with it.
 */
public sealed interface Stmt {

    /** Whether a {@code return} is among {@code stmts}, at any depth. */
    static boolean returns(List<? extends Stmt> stmts) {
        return RETURNS.any(stmts);
    }

    AnyStatement RETURNS = new AnyStatement() {
        @Override
        protected boolean leaf(Stmt s) {
            return s instanceof Exit e && e.kind() == Exit.Kind.RETURN;
        }
    };

    /** Calls the method of {@code v} for this kind of statement. */
    <R> R accept(Visitor<R> v);

    /** One method per kind of statement. */
    interface Visitor<R> {
        R assign(Assign s);

        R reduce(Reduce s);

        R localDecl(LocalDecl s);

        R ifStmt(If s);

        R switchStmt(Switch s);

        R deadBranch(DeadBranch s);

        R block(Block s);

        R loopNest(LoopNest s);

        R loopSeq(LoopSeq s);

        R exit(Exit s);
    }

    /**
     * A pass that looks for some kinds of statement (or expression) anywhere below: it visits
     * every statement nested in another, in program order, and hands every expression of a
     * statement (loop heads included) to {@link #expr}; a pass overrides the kinds it cares
     * about and calls {@code super} to go on below. Only this class must change when a kind of
     * statement is added; a pass that must decide for every kind implements {@link Visitor}.
     */
    abstract class Walker implements Visitor<Void> {
        /** Called with each expression of a statement; nothing by default. */
        protected void expr(Expr e) {}

        public final void all(List<Stmt> stmts) {
            for (Stmt s : stmts) s.accept(this);
        }

        @Override
        public Void assign(Assign s) {
            expr(s.target());
            expr(s.value());
            return null;
        }

        @Override
        public Void reduce(Reduce s) {
            expr(s.target());
            expr(s.value());
            return null;
        }

        @Override
        public Void localDecl(LocalDecl s) {
            expr(s.init());
            return null;
        }

        @Override
        public Void ifStmt(If s) {
            expr(s.cond());
            all(s.then().stmts());
            if (s.otherwise() != null) all(s.otherwise().stmts());
            return null;
        }

        @Override
        public Void switchStmt(Switch s) {
            expr(s.selector());
            for (Switch.Case c : s.cases()) all(c.body().stmts());
            if (s.otherwise() != null) all(s.otherwise().stmts());
            return null;
        }

        @Override
        public Void deadBranch(DeadBranch s) {
            expr(s.cond());
            all(s.body().stmts());
            return null;
        }

        @Override
        public Void block(Block s) {
            all(s.stmts());
            return null;
        }

        @Override
        public Void loopNest(LoopNest s) {
            for (LoopLevel lv : s.levels()) {
                expr(lv.head().start());
                expr(lv.head().cond());
                expr(lv.head().update());
                if (lv.head().guard() != null) expr(lv.head().guard());
            }
            all(s.blocksFrom(0));
            return null;
        }

        @Override
        public Void loopSeq(LoopSeq s) {
            for (LoopNest n : s.nests()) n.accept(this);
            return null;
        }

        @Override
        public Void exit(Exit s) {
            return null;
        }
    }

    /**
     * A pass that asks one yes/no question of statements: the statements nested in another
     * are asked in order until one says yes; a statement that holds no other (an assignment,
     * a fold, a declaration, an exit) answers {@link #leaf}, false unless overridden. A pass
     * overrides the kinds it decides itself.
     */
    abstract class AnyStatement implements Visitor<Boolean> {
        /** The answer for a statement that holds no other. */
        protected boolean leaf(Stmt s) {
            return false;
        }

        public final boolean any(List<? extends Stmt> stmts) {
            for (Stmt s : stmts) if (s.accept(this)) return true;
            return false;
        }

        @Override
        public Boolean assign(Assign s) {
            return leaf(s);
        }

        @Override
        public Boolean reduce(Reduce s) {
            return leaf(s);
        }

        @Override
        public Boolean localDecl(LocalDecl s) {
            return leaf(s);
        }

        @Override
        public Boolean exit(Exit s) {
            return leaf(s);
        }

        @Override
        public Boolean ifStmt(If s) {
            return s.then().accept(this) || (s.otherwise() != null && s.otherwise().accept(this));
        }

        @Override
        public Boolean switchStmt(Switch s) {
            for (Switch.Case c : s.cases()) if (c.body().accept(this)) return true;
            return s.otherwise() != null && s.otherwise().accept(this);
        }

        @Override
        public Boolean deadBranch(DeadBranch s) {
            return s.body().accept(this);
        }

        @Override
        public Boolean block(Block s) {
            return any(s.stmts());
        }

        @Override
        public Boolean loopNest(LoopNest s) {
            return any(s.blocksFrom(0));
        }

        @Override
        public Boolean loopSeq(LoopSeq s) {
            return any(s.nests());
        }
    }

    /**
     * {@code target = value} or, when {@code compound} is set, {@code target op= value}.
     * The target is a {@link Expr.ScalarRef} or a {@link Expr.Subscript}; for a plain
     * assignment {@code value} already carries the implicit conversion to the target type.
     */
    record Assign(Expr target, BinOp compound, Expr value) implements Stmt {
        public <R> R accept(Visitor<R> v) {
            return v.assign(this);
        }
    }

    /**
     * Folds {@code value} into an accumulator: {@code target = (T) (target op value)}, with
     * min and max as {@link Builtin} calls. The accumulator is written by nothing else, and
     * a signed sum is made only where no order of the additions overflows, so where
     * {@link #reorderable} the folds may run in any order: a parallel lowering keeps
     * partial results and combines them after the loop.
     */
    record Reduce(Expr target, ReductionOp op, Expr value) implements Stmt {
        public <R> R accept(Visitor<R> v) {
            return v.reduce(this);
        }

        /** The type the operator is applied in: both operands are converted to it. */
        public NumType opType() {
            return Arith.common(target.type(), value.type());
        }

        /**
         * Whether the folds may be reordered: min and max only when nothing is converted
         * back into a narrower accumulator between steps (a wrapped value would take part
         * in the next comparison); sums and bitwise operators always, as only the low bits
         * of the total count then, except into a bool: converting to bool keeps no low bits
         * ({@code b = (bool)(b + -1)} flips b each step, the sum of the steps does not), so
         * only and and or, whose bool results the total gives too, may be reordered there.
         */
        public boolean reorderable() {
            if (target.type() == NumType.BOOL) return op == ReductionOp.AND || op == ReductionOp.OR;
            return !(op == ReductionOp.MIN || op == ReductionOp.MAX) || target.type() == opType();
        }

        /**
         * The type a partial result of this fold is kept in, where a parallel lowering splits
         * it (ISPC's lanes, a SYCL reduction): the type the fold is done in; for a sum its
         * unsigned twin, since a narrow accumulator wraps at every step in C and only the
         * total modulo its width counts.
         */
        public NumType partialType() {
            NumType t = opType();
            return op == ReductionOp.SUM ? t.toUnsigned() : t;
        }

        /** The same fold as a plain or compound assignment: what it means, in C's terms. */
        public Assign asAssign() {
            return switch (op) {
                case MIN, MAX -> new Assign(target, null, Exprs.convertImplicitly(
                        Exprs.call(op == ReductionOp.MIN ? Builtin.MIN : Builtin.MAX, target, value), target.type()));
                case SUM -> new Assign(target, BinOp.ADD, value);
                case AND -> new Assign(target, BinOp.BAND, value);
                case OR -> new Assign(target, BinOp.BOR, value);
                case XOR -> new Assign(target, BinOp.BXOR, value);
            };
        }
    }

    /** Declares a local temporary in the enclosing block's scope. */
    record LocalDecl(ScalarVar var, Expr init) implements Stmt {
        public <R> R accept(Visitor<R> v) {
            return v.localDecl(this);
        }
    }

    record If(Expr cond, Block then, Block otherwise) implements Stmt {
        public <R> R accept(Visitor<R> v) {
            return v.ifStmt(this);
        }
    }

    /**
     * {@code switch (selector) { case l1: case l2: { body } break; ... default: { body } }}: the
     * selector is already of its promoted type, and every label is a value of that type, each
     * in one case only. A case whose {@link Case#fallsThrough} is set runs on into the next
     * case's body (the last one into {@code otherwise}, the default, which may be null). A
     * {@code break} or {@code continue} is never put in a case's body (outside a loop nested
     * there): in C a break there would leave the switch, not the loop, and in ISPC a continue
     * there is refused; the interpreter refuses both.
     */
    record Switch(Expr selector, List<Case> cases, Block otherwise) implements Stmt {
        public Switch {
            cases = List.copyOf(cases);
            java.util.Set<Long> seen = new java.util.HashSet<>();
            for (Case c : cases) {
                for (long l : c.labels()) {
                    if (!seen.add(l)) throw new IllegalArgumentException("case label " + l + " twice in one switch");
                    if (Arith.convert(l, selector.type()) != l) throw new IllegalArgumentException("case label " + l + " is no " + selector.type());
                }
            }
        }

        public <R> R accept(Visitor<R> v) {
            return v.switchStmt(this);
        }

        /** The index of the case whose labels hold {@code value}, or {@code cases().size()} for the default. */
        public int entry(long value) {
            for (int k = 0; k < cases.size(); k++) if (cases.get(k).labels().contains(value)) return k;
            return cases.size();
        }

        /** One case: its labels, its body and whether it falls through into the next (no break after it). */
        public record Case(List<Long> labels, Block body, boolean fallsThrough) {
            public Case {
                labels = List.copyOf(labels);
                if (labels.isEmpty()) throw new IllegalArgumentException("a case with no label");
            }
        }
    }

    /**
     * {@code if (cond) body} where {@code cond} is false on every execution, as the generator
     * proved: {@code body} may hold operations that would be undefined if they ran (division
     * by zero, overflow, an index out of bounds). A compiler must not let it change anything;
     * the interpreter refuses any program in which {@code cond} holds.
     */
    record DeadBranch(Expr cond, Block body) implements Stmt {
        public <R> R accept(Visitor<R> v) {
            return v.deadBranch(this);
        }
    }

    /** A braced scope. */
    record Block(List<Stmt> stmts) implements Stmt {
        public <R> R accept(Visitor<R> v) {
            return v.block(this);
        }
    }

    /**
     * Loops nested one inside the next; {@code levels.get(0)} is outermost. Each level may
     * carry statements before and after the next loop (an imperfect nest); the innermost
     * level's body is {@link #body}. A perfect nest has every prefix and suffix empty.
     * {@code pragma} applies to the innermost loop; {@code idiom} says what the nest was
     * built for (it changes nothing in its meaning).
     */
    record LoopNest(List<LoopLevel> levels, Block body, Pragma pragma, Idiom idiom) implements Stmt {
        public <R> R accept(Visitor<R> v) {
            return v.loopNest(this);
        }

        public LoopNest(List<LoopLevel> levels, Block body) {
            this(levels, body, Pragma.NONE, Idiom.PLAIN);
        }

        public LoopNest withPragma(Pragma p) {
            return new LoopNest(levels, body, p, idiom);
        }

        public LoopNest withIdiom(Idiom i) {
            return new LoopNest(levels, body, pragma, i);
        }

        /**
         * The statements inside level {@code from} and deeper, as blocks: each level's
         * prefix and suffix, outermost first, then the body.
         */
        public List<Stmt> blocksFrom(int from) {
            List<Stmt> all = new java.util.ArrayList<>();
            for (int l = from; l < levels.size(); l++) {
                all.add(levels.get(l).prefix());
                all.add(levels.get(l).suffix());
            }
            all.add(body);
            return all;
        }

        public int depth() {
            return levels.size();
        }

        /**
         * Whether the loop of level {@code level} may end before its planned trips: a {@code break} in its prefix,
         * suffix or (innermost level) the body, outside any loop nested there, or a {@code return} anywhere inside it.
         */
        public boolean breaksOut(int level) {
            return exits(level, Exit.Kind.BREAK) || returnsFrom(level);
        }

        /** Whether a {@code return} is inside level {@code level}, at any depth: it leaves that loop and every loop around it. */
        public boolean returnsFrom(int level) {
            return returns(blocksFrom(level));
        }

        /**
         * Whether a break or continue ({@code kind}, or either when null) belongs to the loop of level {@code level}: one
         * in its prefix, suffix or (innermost level) the body, outside any loop nested there; a header exit ({@link
         * LoopHead#guard}) leaves the loop as a break does. A {@code return} belongs to no loop ({@link #returnsFrom}).
         */
        public boolean exits(int level, Exit.Kind kind) {
            LoopLevel lv = levels.get(level);
            if (lv.head().guard() != null && kind != Exit.Kind.CONTINUE) return true;
            List<Stmt> own = new java.util.ArrayList<>(List.of(lv.prefix(), lv.suffix()));
            if (level == levels.size() - 1) own.add(body);
            return new AnyStatement() {
                @Override
                protected boolean leaf(Stmt s) {
                    return s instanceof Exit e && e.kind() != Exit.Kind.RETURN && (kind == null || e.kind() == kind);
                }

                @Override
                public Boolean loopNest(LoopNest n) {
                    return false; // an exit in there belongs to that loop
                }

                @Override
                public Boolean loopSeq(LoopSeq q) {
                    return false;
                }
            }.any(own);
        }
    }

    /** Adjacent loop nests; {@code sharedSpace} marks that they iterate over one space (fusible). */
    record LoopSeq(List<LoopNest> nests, boolean sharedSpace) implements Stmt {
        public <R> R accept(Visitor<R> v) {
            return v.loopSeq(this);
        }
    }

    record LoopLevel(LoopHead head, Block prefix, Block suffix) {}

    /**
     * {@code break} or {@code continue}: leaves the innermost loop around it, or its current
     * iteration, as in C; {@code return}: leaves {@code test()}, every loop around it included.
     * The generator puts one only inside a loop, under an {@link If} whose condition reads
     * data, and never a {@code break} or {@code return} out of a loop marked parallel. A
     * {@code return} is only in the last top-level statement of {@code test()} (the
     * interpreter refuses one elsewhere): a SYCL kernel can leave only itself, so the
     * kernel that holds it must be the last that {@code test()} runs.
     */
    record Exit(Kind kind) implements Stmt {
        public enum Kind { BREAK, CONTINUE, RETURN }

        public <R> R accept(Visitor<R> v) {
            return v.exit(this);
        }
    }
}
