package dev.yarpj.reduce;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Applies one {@link Edit} to a program by rebuilding it, numbering blocks, statements and
 * replaceable expressions in preorder as it goes (with no edit, it only numbers: {@link
 * #inventory}). The result is refused (null) when the edit leaves a local read outside the
 * scope of its declaration, or a break or continue outside a loop: what the interpreter
 * cannot be asked about. Everything else (UB, a changed prediction) is the interpreter's
 * to judge.
 */
final class Rewrite implements Stmt.Visitor<Stmt>, Expr.Visitor<Expr> {
    /** What a program holds that edits can address, by number. */
    record Inventory(List<Integer> blockSizes, List<Stmt> stmts, List<Expr> exprs) {}

    private final Edit edit;
    private int blocks;
    private int stmts;
    private int exprs;
    /** Inside a replaceable expression (not a loop head, an index or a target). */
    private boolean replaceable;
    private final List<Integer> blockSizes = new ArrayList<>();
    private final List<Stmt> stmtList = new ArrayList<>();
    private final List<Expr> exprList = new ArrayList<>();
    /** Locals declared in each open scope, innermost last. */
    private final Deque<Set<ScalarVar>> scopes = new ArrayDeque<>();
    private int loopDepth;
    private boolean broken;
    /** While a dropped loop level's statements are rebuilt: its iterator, and the value that replaces it. */
    private Iterator substIter;
    private Expr substWith;

    private Rewrite(Edit edit) {
        this.edit = edit;
    }

    static Inventory inventory(Program p) {
        Rewrite r = new Rewrite(null);
        r.body(p);
        return new Inventory(r.blockSizes, r.stmtList, r.exprList);
    }

    /** {@code p} with {@code edit} applied, or null when the result is refused (see above). */
    static Program apply(Program p, Edit edit) {
        if (edit instanceof Edit.DropUnused) return dropUnused(p);
        Rewrite r = new Rewrite(edit);
        Stmt.Block body = r.body(p);
        if (r.broken) return null;
        return new Program(p.inputs(), p.outputs(), p.inputArrays(), p.outputArrays(), p.params(), p.arrayParams(), body,
                p.scalarSlots(), p.arraySlots());
    }

    private Stmt.Block body(Program p) {
        return new Stmt.Block(list(p.body().stmts(), true));
    }

    /** A list of statements: a block of its own (numbered), optionally a scope of its own. */
    private List<Stmt> list(List<Stmt> in, boolean scope) {
        int id = blocks++;
        blockSizes.add(in.size());
        if (edit instanceof Edit.DeleteStmts d && d.block() == id) {
            List<Stmt> kept = new ArrayList<>(in.subList(0, d.from()));
            kept.addAll(in.subList(d.to(), in.size()));
            in = kept;
        }
        if (scope) scopes.push(new HashSet<>());
        List<Stmt> out = new ArrayList<>();
        for (Stmt s : in) {
            int n = stmts++;
            stmtList.add(s);
            if (edit instanceof Edit.UnwrapIf u && u.stmt() == n && s instanceof Stmt.If i) {
                Stmt.Block arm = u.then() ? i.then() : i.otherwise() != null ? i.otherwise() : new Stmt.Block(List.of());
                out.add(arm.accept(this));
            } else if (edit instanceof Edit.DropLevel d && d.stmt() == n && s instanceof Stmt.LoopNest nest) {
                Stmt.LoopLevel outer = nest.levels().get(0);
                Stmt flat = dropOuterLevel(nest);
                if (flat == null) {
                    broken = true;
                } else {
                    // The outer iterator, wherever it is read (heads and indices too), is its first value.
                    substIter = outer.head().iter();
                    substWith = Exprs.cast(outer.head().start(), substIter.type());
                    out.add(flat.accept(this));
                    substIter = null;
                }
            } else {
                out.add(s.accept(this));
            }
        }
        if (scope) scopes.pop();
        return out;
    }

    private Stmt.Block scoped(Stmt.Block b) {
        return b == null ? null : new Stmt.Block(list(b.stmts(), true));
    }

    // ---- statements ----------------------------------------------------------------

    @Override
    public Stmt assign(Stmt.Assign s) {
        return new Stmt.Assign(fixed(s.target()), s.compound(), value(s.value()));
    }

    @Override
    public Stmt reduce(Stmt.Reduce s) {
        return new Stmt.Reduce(fixed(s.target()), s.op(), value(s.value()));
    }

    @Override
    public Stmt localDecl(Stmt.LocalDecl s) {
        Expr init = value(s.init());
        scopes.peek().add(s.var());
        return new Stmt.LocalDecl(s.var(), init);
    }

    @Override
    public Stmt ifStmt(Stmt.If s) {
        return new Stmt.If(value(s.cond()), scoped(s.then()), scoped(s.otherwise()));
    }

    @Override
    public Stmt deadBranch(Stmt.DeadBranch s) {
        return new Stmt.DeadBranch(value(s.cond()), scoped(s.body()));
    }

    @Override
    public Stmt block(Stmt.Block s) {
        return scoped(s);
    }

    @Override
    public Stmt loopNest(Stmt.LoopNest s) {
        List<Stmt.LoopLevel> levels = new ArrayList<>();
        List<List<Stmt>> suffixes = new ArrayList<>();
        // A level's prefix, the loops inside it and its suffix share the loop's braces: one scope.
        for (Stmt.LoopLevel lv : s.levels()) {
            LoopHead old = lv.head();
            LoopHead h = new LoopHead(old.iter(), fixed(old.start()), (Expr.Binary) fixed(old.cond()), (Expr.Binary) fixed(old.update()),
                    old.trip(), old.parallelism());
            loopDepth++;
            scopes.push(new HashSet<>());
            levels.add(new Stmt.LoopLevel(h, new Stmt.Block(list(lv.prefix().stmts(), false)), null));
            suffixes.add(lv.suffix().stmts());
        }
        Stmt.Block body = new Stmt.Block(list(s.body().stmts(), false));
        for (int l = levels.size() - 1; l >= 0; l--) {
            Stmt.Block suffix = new Stmt.Block(list(suffixes.get(l), false));
            levels.set(l, new Stmt.LoopLevel(levels.get(l).head(), levels.get(l).prefix(), suffix));
            scopes.pop();
            loopDepth--;
        }
        return new Stmt.LoopNest(levels, body, s.pragma(), s.idiom());
    }

    @Override
    public Stmt loopSeq(Stmt.LoopSeq s) {
        int n = stmts - 1; // this statement's number, given just before it was visited
        List<Stmt.LoopNest> nests = new ArrayList<>();
        for (int k = 0; k < s.nests().size(); k++) {
            if (edit instanceof Edit.DropNest d && d.stmt() == n && d.nest() == k) continue;
            nests.add((Stmt.LoopNest) loopNest(s.nests().get(k)));
        }
        return new Stmt.LoopSeq(nests, s.sharedSpace());
    }

    @Override
    public Stmt exit(Stmt.Exit s) {
        if (loopDepth == 0) broken = true;
        return s;
    }

    /**
     * The nest without its outermost loop: that level's prefix, the rest of the nest and its
     * suffix in one block, the outer iterator replaced by its first value. Null when a break or
     * continue belongs to the loop that goes.
     */
    private static Stmt dropOuterLevel(Stmt.LoopNest nest) {
        Stmt.LoopLevel outer = nest.levels().get(0);
        boolean exits = nest.exits(0, null);
        if (exits) return null;
        List<Stmt> flat = new ArrayList<>(outer.prefix().stmts());
        if (nest.depth() == 1) flat.addAll(nest.body().stmts());
        else flat.add(new Stmt.LoopNest(nest.levels().subList(1, nest.depth()), nest.body(), nest.pragma(), nest.idiom()));
        flat.addAll(outer.suffix().stmts());
        return new Stmt.Block(flat);
    }

    // ---- expressions ---------------------------------------------------------------

    /** An expression no edit replaces (a loop head, a target, an index): only its locals are checked. */
    private Expr fixed(Expr e) {
        if (e == null) return null;
        boolean was = replaceable;
        replaceable = false;
        Expr r = e.accept(this);
        replaceable = was;
        return r;
    }

    /** An expression that computes a value: it and its operands may be replaced. */
    private Expr value(Expr e) {
        if (e == null) return null;
        boolean was = replaceable;
        replaceable = true;
        Expr r = e.accept(this);
        replaceable = was;
        return r;
    }

    /** Numbers {@code e} if replaceable and applies an expression edit aimed at it; else rebuilds it from {@code rebuilt}. */
    private Expr at(Expr e, java.util.function.Supplier<Expr> rebuilt) {
        if (!replaceable) return rebuilt.get();
        int n = exprs++;
        exprList.add(e);
        if (edit instanceof Edit.ToConst c && c.expr() == n) {
            return new Expr.Const(e.type(), c.value());
        }
        if (edit instanceof Edit.ToOperand o && o.expr() == n) {
            List<Expr> ops = operands(e);
            if (o.operand() >= ops.size()) {
                broken = true;
                return e;
            }
            Expr op = ops.get(o.operand()).accept(this);
            return op.type() == e.type() ? op : Exprs.cast(op, e.type());
        }
        return rebuilt.get();
    }

    /** The operands an expression may be replaced by: those that compute values (not indices). */
    static List<Expr> operands(Expr e) {
        if (e instanceof Expr.Unary u) return List.of(u.operand());
        if (e instanceof Expr.Binary b) return List.of(b.lhs(), b.rhs());
        if (e instanceof Expr.Ternary t) return List.of(t.cond(), t.then(), t.otherwise());
        if (e instanceof Expr.Cast c) return List.of(c.operand());
        if (e instanceof Expr.Call c) return List.of(c.lhs(), c.rhs());
        if (e instanceof Expr.Stencil s) return List.copyOf(s.taps());
        return List.of();
    }

    private void scalarInScope(ScalarVar v) {
        if (v.role() != ScalarVar.Role.LOCAL) return;
        for (Set<ScalarVar> s : scopes) if (s.contains(v)) return;
        broken = true;
    }

    @Override
    public Expr constant(Expr.Const e) {
        return at(e, () -> e);
    }

    @Override
    public Expr scalar(Expr.ScalarRef e) {
        return at(e, () -> {
            scalarInScope(e.var());
            return e;
        });
    }

    @Override
    public Expr iter(Expr.IterRef e) {
        return at(e, () -> substIter != null && e.iter().equals(substIter) ? substWith : e);
    }

    @Override
    public Expr unary(Expr.Unary e) {
        return at(e, () -> new Expr.Unary(e.op(), e.type(), e.operand().accept(this)));
    }

    @Override
    public Expr binary(Expr.Binary e) {
        return at(e, () -> new Expr.Binary(e.op(), e.type(), e.lhs().accept(this), e.rhs().accept(this)));
    }

    @Override
    public Expr ternary(Expr.Ternary e) {
        return at(e, () -> new Expr.Ternary(e.type(), e.cond().accept(this), e.then().accept(this), e.otherwise().accept(this)));
    }

    @Override
    public Expr cast(Expr.Cast e) {
        return at(e, () -> new Expr.Cast(e.type(), e.operand().accept(this), e.implicit()));
    }

    @Override
    public Expr subscript(Expr.Subscript e) {
        return at(e, () -> indexed(e));
    }

    @Override
    public Expr call(Expr.Call e) {
        return at(e, () -> new Expr.Call(e.fn(), e.type(), e.lhs().accept(this), e.rhs().accept(this)));
    }

    @Override
    public Expr stencil(Expr.Stencil e) {
        return at(e, () -> new Expr.Stencil(e.combine(), e.type(), e.taps().stream().map(this::indexed).toList()));
    }

    private Expr.Subscript indexed(Expr.Subscript e) {
        return new Expr.Subscript(e.array(), e.indices().stream().map(this::fixed).toList());
    }

    // ---- unused globals ------------------------------------------------------------

    /** {@code p} without the scalars and arrays its body no longer mentions (a view keeps its storage). */
    private static Program dropUnused(Program p) {
        Set<ScalarVar> scalars = new HashSet<>();
        Set<ArrayVar> arrays = new LinkedHashSet<>();
        Expr.Walker uses = new Expr.Walker() {
            @Override
            public Void scalar(Expr.ScalarRef s) {
                scalars.add(s.var());
                return null;
            }

            @Override
            public Void subscript(Expr.Subscript s) {
                arrays.add(s.array());
                return super.subscript(s);
            }
        };
        new Stmt.Walker() {
            @Override
            protected void expr(Expr e) {
                if (e != null) uses.walk(e);
            }
        }.all(p.body().stmts());
        for (ArrayVar a : List.copyOf(arrays)) {
            if (a.passing() instanceof ArrayVar.Passing.View v) arrays.add(v.storage());
        }
        Program q = new Program(keep(p.inputs(), scalars), keep(p.outputs(), scalars), keep(p.inputArrays(), arrays),
                keep(p.outputArrays(), arrays), keep(p.params(), scalars), keep(p.arrayParams(), arrays), p.body(),
                p.scalarSlots(), p.arraySlots());
        return q.equals(p) ? null : q;
    }

    private static <T> List<T> keep(List<T> all, Set<T> used) {
        return all.stream().filter(used::contains).toList();
    }
}
