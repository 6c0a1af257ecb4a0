package dev.yarpj.reduce;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Helper;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Pragma;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
    /** What a program holds that edits can address, by number: blocks, statements, replaceable expressions, loop heads. */
    record Inventory(List<Integer> blockSizes, List<Stmt> stmts, List<Expr> exprs, List<LoopHead> loops) {
        Inventory(List<Integer> blockSizes, List<Stmt> stmts, List<Expr> exprs) {
            this(blockSizes, stmts, exprs, List.of());
        }
    }

    /**
     * A program an edit gave, and where the edit changed it: statements {@code from} to
     * {@code to} (exclusive) of block {@code block} became {@code replacedBy} statements; with
     * {@code seq}, nests {@code from} to {@code to} of the loop sequence numbered {@code block}
     * became {@code replacedBy} nests (block -1: nothing of the body changed, as when globals
     * are dropped).
     */
    record Applied(Program program, int block, int from, int to, int replacedBy, boolean seq) {}

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
    private final List<LoopHead> loopList = new ArrayList<>();
    private int loops;
    /** The block and index of each statement being rebuilt, innermost last. */
    private final Deque<int[]> where = new ArrayDeque<>();
    /** Where the edit applied: block, from, to, replacedBy. */
    private int[] site;
    /** For {@link #cut}: the block (or loop sequence) whose statements (nests) from {@code cutAt} on go, with everything after them. */
    private int cutBlock = -1;
    private int cutAt;
    private boolean cutSeq;
    /** For {@link #cut}: the level of the nest being rebuilt in whose prefix the cut fell (-1: none), and each such nest with that level. */
    private int cutLevel = -1;
    private final List<Stmt.LoopNest> cutNests = new ArrayList<>();
    private final List<Integer> cutLevels = new ArrayList<>();
    /** The loop sequence and the index of its nest whose heads are being rebuilt, if any. */
    private int[] seqNest;
    private boolean cutting;
    /** For {@link #swapped} (a shrunk array, a field taken out of its struct): the array replaced wherever it is named. */
    private ArrayVar arrayFrom;
    private ArrayVar arrayTo;
    /** For {@link #inlined}: a helper's parameters, each replaced by its argument. */
    private Map<ScalarVar, Expr> substParams = Map.of();
    /** For {@link #helperSwapped}: helpers replaced wherever they are called, and the argument a call of one drops. */
    private Map<Helper, Helper> helperTo = Map.of();
    private Map<Helper, Integer> argDropped = Map.of();
    /** For {@link #dropResult}: the field of the struct a helper returns that is gone, and calls after it read one before. */
    private Map<Helper, Integer> fieldDropped = Map.of();

    private Rewrite(Edit edit) {
        this.edit = edit;
    }

    static Inventory inventory(Program p) {
        Rewrite r = new Rewrite(null);
        r.body(p);
        return new Inventory(r.blockSizes, r.stmtList, r.exprList, r.loopList);
    }

    /** {@code p} with {@code edit} applied, or null when the result is refused (see above). */
    static Program apply(Program p, Edit edit) {
        Applied a = applied(p, edit);
        return a == null ? null : a.program();
    }

    /** {@code p} with {@code edit} applied and where it changed, or null when the result is refused (see above). */
    static Applied applied(Program p, Edit edit) {
        // Edits of the whole program (its globals, arrays, helpers) address nothing of the body.
        Program q;
        if (edit instanceof Edit.DropUnused) q = dropUnused(p);
        else if (edit instanceof Edit.KeepInputSet k) q = keepInputSet(p, k.set());
        else if (edit instanceof Edit.ShrinkArray s) q = shrink(p, s);
        else if (edit instanceof Edit.Unfield u) q = unfield(p, u);
        else if (edit instanceof Edit.Unpoint u) q = unpoint(p, u);
        else if (edit instanceof Edit.Unstruct u) q = unstruct(p, u);
        else if (edit instanceof Edit.DropParam d) q = dropParam(p, d);
        else if (edit instanceof Edit.DropResult d) q = dropResult(p, d);
        else return inBody(p, edit);
        return q == null ? null : new Applied(q, -1, 0, 0, 0, false);
    }

    /** {@code p} with the planned input set and set {@code k} (none more when 0); null when that is no change or there is no set {@code k}. */
    private static Program keepInputSet(Program p, int k) {
        List<dev.yarpj.ir.InputSet> sets = p.inputSets();
        if (k >= sets.size()) return null;
        List<dev.yarpj.ir.InputSet> kept = k == 0 ? List.of(sets.get(0)) : List.of(sets.get(0), sets.get(k));
        return kept.equals(sets) ? null : p.withInputSets(kept);
    }

    /** {@code p} with an edit of its body applied, and where; null when refused. */
    private static Applied inBody(Program p, Edit edit) {
        Rewrite r = new Rewrite(edit);
        Stmt.Block body = r.body(p);
        if (r.broken || r.site == null) return null;
        Program q = p.withBody(body, p.scalarSlots(), p.arraySlots());
        return new Applied(q, r.site[0], r.site[1], r.site[2], r.site[3], r.site.length > 4);
    }

    /**
     * {@code p} up to statement {@code at} of block {@code block}: that block's statements from
     * {@code at} on and everything after them in program order are gone, the loops and ifs
     * around them kept (their heads and conditions, what comes before). What a planner draws
     * for it is what it draws for {@code p} before that statement. Not a program to run.
     */
    static Cut cut(Program p, int block, int at, boolean seq) {
        Rewrite r = new Rewrite(null);
        r.cutBlock = block;
        r.cutAt = at;
        r.cutSeq = seq;
        Stmt.Block body = r.body(p);
        return new Cut(p.withBody(body, p.scalarSlots(), p.arraySlots()), List.copyOf(r.cutNests), List.copyOf(r.cutLevels));
    }

    /**
     * A program cut short ({@link #cut}), and the nests around the cut that it kept whole in
     * their heads: the cut fell in the prefix of level {@code levels.get(i)} of {@code
     * nests.get(i)}, so the loops of deeper levels, which come after it, are still there (a
     * planner that makes one of them a gang loop draws its form after the cut).
     */
    record Cut(Program program, List<Stmt.LoopNest> nests, List<Integer> levels) {}

    private Stmt.Block body(Program p) {
        return new Stmt.Block(list(p.body().stmts(), true));
    }

    /** A list of statements: a block of its own (numbered), optionally a scope of its own. */
    private List<Stmt> list(List<Stmt> in, boolean scope) {
        int id = blocks++;
        blockSizes.add(in.size());
        if (edit instanceof Edit.DeleteStmts d && d.block() == id) {
            if (d.to() > in.size() || d.from() >= d.to()) {
                broken = true;
                return in;
            }
            List<Stmt> kept = new ArrayList<>(in.subList(0, d.from()));
            kept.addAll(in.subList(d.to(), in.size()));
            in = kept;
            site = new int[] {id, d.from(), d.to(), 0};
        }
        if (!cutSeq && cutBlock == id) in = in.subList(0, Math.min(cutAt, in.size()));
        if (scope) scopes.push(new HashSet<>());
        List<Stmt> out = new ArrayList<>();
        int index = 0;
        for (Stmt s : in) {
            if (cutting) break;
            int n = stmts++;
            stmtList.add(s);
            where.push(new int[] {id, index++});
            int[] outerSeq = seqNest;
            seqNest = null;
            if (edit != null && edit.at() == n && (edit instanceof Edit.UnwrapIf || edit instanceof Edit.UnwrapSwitch
                    || edit instanceof Edit.DropCase || edit instanceof Edit.DropLevel
                    || edit instanceof Edit.DropInnermost)) here();
            if (edit instanceof Edit.Unblock u && u.stmt() == n && s instanceof Stmt.Block b) {
                // Its statements join the list around it, and their locals its scope (locals have unique names).
                here();
                site[3] = b.stmts().size();
                out.addAll(list(b.stmts(), false));
            } else if (edit instanceof Edit.UnwrapIf u && u.stmt() == n && s instanceof Stmt.If i) {
                Stmt.Block arm = u.then() ? i.then() : i.otherwise() != null ? i.otherwise() : new Stmt.Block(List.of());
                out.add(arm.accept(this));
            } else if (edit instanceof Edit.UnwrapSwitch u && u.stmt() == n && s instanceof Stmt.Switch w) {
                Stmt.Block arm = u.arm() < w.cases().size() ? w.cases().get(u.arm()).body()
                        : w.otherwise() != null ? w.otherwise() : new Stmt.Block(List.of());
                out.add(arm.accept(this));
            } else if (edit instanceof Edit.DropCase d && d.stmt() == n && s instanceof Stmt.Switch w && d.arm() < w.cases().size()) {
                // Its labels go to the default; the case before it, if it fell into it, now falls into the one after.
                List<Stmt.Switch.Case> cases = new ArrayList<>(w.cases());
                cases.remove(d.arm());
                out.add(new Stmt.Switch(w.selector(), cases, w.otherwise()).accept(this));
            } else if (edit instanceof Edit.DropInnermost d && d.stmt() == n && soleNest(s) != null && soleNest(s).depth() > 1) {
                Stmt.LoopNest nest = soleNest(s);
                int last = nest.depth() - 1;
                Stmt.LoopLevel inner = nest.levels().get(last);
                if (nest.exits(last, null)) {
                    broken = true;
                } else {
                    // The innermost loop's prefix, body and suffix are the body of the loop around it, run once per
                    // iteration of it at the inner iterator's first value.
                    List<Stmt> body = new ArrayList<>(inner.prefix().stmts());
                    body.addAll(nest.body().stmts());
                    body.addAll(inner.suffix().stmts());
                    List<Stmt.LoopLevel> outer = nest.levels().subList(0, last);
                    // ivdep promises the innermost loop carries no dependence: a promise about the loop that went.
                    Pragma pragma = nest.pragma() == Pragma.GCC_IVDEP && !outer.get(last - 1).head().dataParallel() ? Pragma.NONE : nest.pragma();
                    substIter = inner.head().iter();
                    substWith = Exprs.cast(inner.head().start(), substIter.type());
                    out.add(new Stmt.LoopNest(outer, new Stmt.Block(body), pragma, nest.idiom()).accept(this));
                    substIter = null;
                }
            } else if (edit instanceof Edit.DropLevel d && d.stmt() == n && soleNest(s) != null) {
                Stmt.LoopNest nest = soleNest(s);
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
            where.pop();
            seqNest = outerSeq;
        }
        if (!cutSeq && cutBlock == id) cutting = true;
        if (scope) scopes.pop();
        return out;
    }

    /** The nest a statement is: a nest, or a sequence of one nest; else null. */
    static Stmt.LoopNest soleNest(Stmt s) {
        if (s instanceof Stmt.LoopNest n) return n;
        return s instanceof Stmt.LoopSeq q && q.nests().size() == 1 ? q.nests().get(0) : null;
    }

    /** The edit applies to the statement being rebuilt, which it replaces by one statement. */
    private void here() {
        int[] w = where.peek();
        site = new int[] {w[0], w[1], w[1] + 1, 1};
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
        // A struct copy's init is the element it copies: its subscripts may change, never the element into a value.
        Expr init = s.var().isCopyField() ? indexed((Expr.Subscript) s.init()) : value(s.init());
        scopes.peek().add(s.var());
        return new Stmt.LocalDecl(s.var(), init);
    }

    @Override
    public Stmt ifStmt(Stmt.If s) {
        return new Stmt.If(value(s.cond()), scoped(s.then()), scoped(s.otherwise()));
    }

    @Override
    public Stmt switchStmt(Stmt.Switch s) {
        Expr selector = value(s.selector());
        // An edit may put a constant of another type in the selector's place: the labels stay the selector's.
        if (selector.type() != s.selector().type()) selector = Exprs.convertImplicitly(selector, s.selector().type());
        List<Stmt.Switch.Case> cases = new ArrayList<>();
        for (Stmt.Switch.Case c : s.cases()) cases.add(new Stmt.Switch.Case(c.labels(), scoped(c.body()), c.fallsThrough()));
        return new Stmt.Switch(selector, cases, scoped(s.otherwise()));
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
        int outerCutLevel = cutLevel;
        cutLevel = -1;
        List<Stmt.LoopLevel> levels = new ArrayList<>();
        List<List<Stmt>> suffixes = new ArrayList<>();
        // A level's prefix, the loops inside it and its suffix share the loop's braces: one scope.
        for (Stmt.LoopLevel lv : s.levels()) {
            LoopHead old = lv.head();
            int k = loops++;
            loopList.add(old);
            LoopHead h = new LoopHead(old.iter(), fixed(old.start()), (Expr.Binary) fixed(old.cond()), (Expr.Binary) fixed(old.update()),
                    old.trip(), old.parallelism(), old.form(), fixed(old.guard()), old.reach());
            if (edit instanceof Edit.ToFor f && f.loop() == k) {
                h = h.form() == LoopHead.Form.FOR ? null : h.withForm(LoopHead.Form.FOR, null);
            }
            if (edit instanceof Edit.LowerTrip t && t.loop() == k || edit instanceof Edit.ToFor f && f.loop() == k) {
                if (edit instanceof Edit.LowerTrip t) h = lowerTrip(h, t.trip());
                if (h == null) {
                    broken = true;
                    h = old;
                } else if (seqNest != null) {
                    site = new int[] {seqNest[0], seqNest[1], seqNest[1] + 1, 1, 1};
                } else {
                    here();
                }
            }
            loopDepth++;
            scopes.push(new HashSet<>());
            boolean open = !cutting;
            levels.add(new Stmt.LoopLevel(h, new Stmt.Block(list(lv.prefix().stmts(), false)), null));
            if (open && cutting) cutLevel = levels.size() - 1;
            suffixes.add(lv.suffix().stmts());
        }
        Stmt.Block body = new Stmt.Block(list(s.body().stmts(), false));
        for (int l = levels.size() - 1; l >= 0; l--) {
            Stmt.Block suffix = new Stmt.Block(list(suffixes.get(l), false));
            levels.set(l, new Stmt.LoopLevel(levels.get(l).head(), levels.get(l).prefix(), suffix));
            scopes.pop();
            loopDepth--;
        }
        Stmt.LoopNest out = new Stmt.LoopNest(levels, body, s.pragma(), s.idiom());
        if (cutLevel >= 0) {
            cutNests.add(out);
            cutLevels.add(cutLevel);
        }
        cutLevel = outerCutLevel;
        return out;
    }

    @Override
    public Stmt loopSeq(Stmt.LoopSeq s) {
        int n = stmts - 1; // this statement's number, given just before it was visited
        List<Stmt.LoopNest> nests = new ArrayList<>();
        for (int k = 0; k < s.nests().size(); k++) {
            if (cutting || (cutSeq && cutBlock == n && k >= cutAt)) {
                cutting = true;
                break;
            }
            if (edit instanceof Edit.DropNest d && d.stmt() == n && d.nest() == k) {
                site = new int[] {n, k, k + 1, 0, 1};
                continue;
            }
            seqNest = new int[] {n, k};
            nests.add((Stmt.LoopNest) loopNest(s.nests().get(k)));
            seqNest = null;
        }
        if (cutSeq && cutBlock == n) cutting = true;
        return new Stmt.LoopSeq(nests, s.sharedSpace());
    }

    @Override
    public Stmt exit(Stmt.Exit s) {
        // A break or continue needs a loop around it; a return leaves test() from anywhere.
        if (loopDepth == 0 && s.kind() != Stmt.Exit.Kind.RETURN) broken = true;
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

    /**
     * {@code h} made to run its first {@code trip} iterations (fewer than it plans, at least
     * one): its bound becomes the constant value that stops it there. Null when its start or
     * step is not known without running the program (constants, inputs, arithmetic on them)
     * or when no such constant stops it after exactly {@code trip} iterations. A loop of
     * unknown trip count stays unknown (the planner would plan it otherwise); a known one
     * plans {@code trip}, which the interpreter checks.
     */
    static LoopHead lowerTrip(LoopHead h, long trip) {
        if (trip < 1 || trip > 1 << 16 || (h.trip() >= 0 && trip >= h.trip())) return null;
        Iterator it = h.iter();
        Expr.Binary c = h.cond();
        if (c.lhs().type() != c.rhs().type() || !c.op().isComparison()) return null;
        Long v = known(h.start(), it, 0);
        if (v == null) return null;
        long[] values = new long[(int) trip + 1];
        values[0] = Arith.convert(v, it.type());
        for (int k = 1; k <= trip; k++) {
            Long next = known(h.update(), it, values[k - 1]);
            if (next == null) return null;
            values[k] = Arith.convert(next, it.type());
        }
        // iter < b and iter != b stop at the value after the last iteration; iter <= b at the last one's.
        boolean inclusive = c.op() == dev.yarpj.ir.BinOp.LE || c.op() == dev.yarpj.ir.BinOp.GE;
        Long bound = known(c.lhs(), it, values[(int) (inclusive ? trip - 1 : trip)]);
        if (bound == null) return null;
        Expr.Binary cond = new Expr.Binary(c.op(), c.type(), c.lhs(), new Expr.Const(c.rhs().type(), bound));
        for (int k = 0; k <= trip; k++) {
            Long holds = known(cond, it, values[k]);
            if (holds == null || (holds != 0) != (k < trip)) return null;
        }
        // The form and a header exit stay: a do-while still runs at least once, as trip >= 1.
        return new LoopHead(it, h.start(), cond, h.update(), h.trip() >= 0 ? trip : -1, h.parallelism(), h.form(), h.guard());
    }

    /** The value of {@code e} where iterator {@code it} holds {@code iv}, if it reads only constants, inputs and {@code it}; else null (also on UB). */
    static Long known(Expr e, Iterator it, long iv) {
        if (e instanceof Expr.Const c) return c.value();
        if (e instanceof Expr.IterRef r) return r.iter().equals(it) ? iv : null;
        if (e instanceof Expr.ScalarRef r) return r.var().role() == ScalarVar.Role.INPUT ? r.var().initValue() : null;
        if (e instanceof Expr.Cast c) {
            Long v = known(c.operand(), it, iv);
            return v == null ? null : Arith.convert(v, c.type());
        }
        if (e instanceof Expr.Binary b) {
            Long x = known(b.lhs(), it, iv);
            Long y = known(b.rhs(), it, iv);
            if (x == null || y == null || Arith.binaryUb(b.op(), b.lhs().type(), x, b.rhs().type(), y) != null) return null;
            return Arith.convert(Arith.binary(b.op(), b.lhs().type(), x, b.rhs().type(), y), b.type());
        }
        return null;
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
            here();
            // The number 0 or 1 in the expression's type (a floating one held as its bits).
            return new Expr.Const(e.type(), e.type().isFloat() ? dev.yarpj.ir.FloatArith.bits(c.value()) : c.value());
        }
        if (edit instanceof Edit.InlineCall ic && ic.expr() == n) {
            here();
            if (!(e instanceof Expr.HelperCall c)) {
                broken = true;
                return e;
            }
            Map<ScalarVar, Expr> args = new HashMap<>();
            for (int i = 0; i < c.args().size(); i++) args.put(c.helper().params().get(i), c.args().get(i).accept(this));
            // The conversions of the arguments to the parameters' types, and of the result to the
            // helper's, print as nothing in C where a call makes them: spelled out, once inlined.
            args.replaceAll((v, a) -> explicit(a));
            return explicit(inlined(c.helper().results().get(c.field()), args));
        }
        if (edit instanceof Edit.ToOperand o && o.expr() == n) {
            here();
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

    /**
     * A helper's body with its parameters replaced by {@code args}: what a call computes, as
     * an expression of the caller. A body reads its parameters and constants and calls other
     * helpers (those calls stay), so nothing else needs replacing. An argument read twice is
     * computed twice, which changes nothing: expressions have no side effects.
     */
    /** {@code e}, an implicit conversion at its top made a cast (which prints where an implicit one does not). */
    private static Expr explicit(Expr e) {
        return e instanceof Expr.Cast c && c.implicit() && c.type() != c.operand().type() ? new Expr.Cast(c.type(), c.operand(), false) : e;
    }

    static Expr inlined(Expr body, Map<ScalarVar, Expr> args) {
        Rewrite r = new Rewrite(null);
        r.substParams = args;
        return body.accept(r);
    }

    /** The operands an expression may be replaced by: those that compute values (not indices). */
    static List<Expr> operands(Expr e) {
        if (e instanceof Expr.Unary u) return List.of(u.operand());
        if (e instanceof Expr.Binary b) return List.of(b.lhs(), b.rhs());
        if (e instanceof Expr.Ternary t) return List.of(t.cond(), t.then(), t.otherwise());
        if (e instanceof Expr.Cast c) return List.of(c.operand());
        if (e instanceof Expr.Call c) return c.args();
        if (e instanceof Expr.HelperCall c) return c.args();
        if (e instanceof Expr.Stencil s) return List.copyOf(s.taps());
        return List.of();
    }

    private void scalarInScope(ScalarVar v) {
        if (v.role() != ScalarVar.Role.LOCAL && v.role() != ScalarVar.Role.COPY_FIELD) return;
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
            Expr arg = substParams.get(e.var());
            if (arg != null) return arg;
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
        return at(e, () -> new Expr.Call(e.fn(), e.type(), e.args().stream().map(a -> a.accept(this)).toList()));
    }

    @Override
    public Expr helperCall(Expr.HelperCall e) {
        return at(e, () -> {
            List<Expr> args = new ArrayList<>();
            int dropped = argDropped.getOrDefault(e.helper(), -1);
            for (int i = 0; i < e.args().size(); i++) {
                if (i == dropped) continue;
                Expr a = e.args().get(i);
                // An element passed by pointer (or a struct's field) stays an element: its address (struct) is what the call passes.
                ScalarVar p = e.helper().params().get(i);
                args.add(p.byPointer() || p.isField() ? indexed((Expr.Subscript) a) : a.accept(this));
            }
            int gone = fieldDropped.getOrDefault(e.helper(), -1);
            int field = gone >= 0 && e.field() > gone ? e.field() - 1 : e.field();
            return new Expr.HelperCall(helperTo.getOrDefault(e.helper(), e.helper()), args, field);
        });
    }

    @Override
    public Expr stencil(Expr.Stencil e) {
        return at(e, () -> new Expr.Stencil(e.combine(), e.type(), e.taps().stream().map(this::indexed).toList()));
    }

    private Expr.Subscript indexed(Expr.Subscript e) {
        ArrayVar a = arrayFrom != null && e.array().equals(arrayFrom) ? arrayTo : e.array();
        return new Expr.Subscript(a, e.indices().stream().map(this::fixed).toList());
    }

    // ---- arrays --------------------------------------------------------------------

    /**
     * {@code p} with the array in slot {@code s.slot()} cut to its first {@code s.rows()} rows,
     * everywhere it is named; null if it has no fewer rows, or is a view's storage or a view
     * (a view's rows are an offset into its storage's).
     */
    private static Program shrink(Program p, Edit.ShrinkArray s) {
        ArrayVar old = null;
        for (ArrayVar a : allArrays(p)) {
            if (a.passing() instanceof ArrayVar.Passing.View v && v.storage().slot() == s.slot()) return null;
            if (a.slot() == s.slot()) old = a;
        }
        // A field shares its dimensions with its struct's other fields: Unfield first.
        if (old == null || old.passing() instanceof ArrayVar.Passing.View || old.field() != null || s.rows() < 1
                || s.rows() >= old.dims().get(0)) return null;
        List<Integer> dims = new ArrayList<>(old.dims());
        dims.set(0, s.rows());
        return swapped(p, old, new ArrayVar(old.slot(), old.name(), old.elem(), List.copyOf(dims), old.isInput(), old.fill(), old.passing()));
    }

    /**
     * {@code p} with the field in slot {@code u.slot()} a global array of its own; null if it
     * is no field, a helper takes its struct (Unstruct first), or a local copies one.
     */
    private static Program unfield(Program p, Edit.Unfield u) {
        for (ArrayVar a : allArrays(p)) {
            if (a.slot() == u.slot() && a.field() != null) {
                for (Helper h : p.helpers()) {
                    for (Helper.StructParam g : h.structParams()) if (g.type().equals(a.field().type())) return null;
                }
                // Nor while a local copies an element of its struct (the copy is of the struct).
                String type = a.field().type();
                boolean[] copied = {false};
                new Stmt.Walker() {
                    @Override
                    public Void localDecl(Stmt.LocalDecl d) {
                        if (d.var().isCopyField() && ((Expr.Subscript) d.init()).array().field().type().equals(type)) copied[0] = true;
                        return super.localDecl(d);
                    }
                }.all(p.body().stmts());
                if (copied[0]) return null;
                return swapped(p, a, new ArrayVar(a.slot(), a.name(), a.elem(), a.dims(), a.isInput(), a.fill(), ArrayVar.Passing.GLOBAL));
            }
        }
        return null;
    }

    /** {@code p} with array {@code from} replaced by {@code to} everywhere it is named. */
    private static Program swapped(Program p, ArrayVar from, ArrayVar to) {
        Rewrite r = new Rewrite(null);
        r.arrayFrom = from;
        r.arrayTo = to;
        Stmt.Block body = r.body(p);
        java.util.function.UnaryOperator<ArrayVar> swap = a -> a.equals(from) ? to : a;
        return new Program(p.inputs(), p.outputs(), p.inputArrays().stream().map(swap).toList(),
                p.outputArrays().stream().map(swap).toList(), p.params(), p.arrayParams().stream().map(swap).toList(), body,
                p.scalarSlots(), p.arraySlots(), p.helpers(), p.inputSets());
    }

    // ---- helpers -------------------------------------------------------------------

    /** {@code p} with helper {@code u.helper()}'s pointer parameters passed by value; null if it has none. */
    private static Program unpoint(Program p, Edit.Unpoint u) {
        if (u.helper() >= p.helpers().size()) return null;
        Helper h = p.helpers().get(u.helper());
        return byValue(p, h, ScalarVar::byPointer, name -> name, h.structParams());
    }

    /** {@code p} with helper {@code u.helper()}'s struct parameters passed field by field, each a parameter of its own; null if it has none. */
    private static Program unstruct(Program p, Edit.Unstruct u) {
        if (u.helper() >= p.helpers().size()) return null;
        Helper h = p.helpers().get(u.helper());
        return byValue(p, h, ScalarVar::isField, name -> name.replace("->", "_").replace('.', '_'), List.of());
    }

    /**
     * {@code p} with the parameters of {@code h} that {@code which} picks plain parameters
     * passed by value (named by {@code rename}), read so in its body, and {@code structs} its
     * struct parameters; null if {@code which} picks none. Their arguments are the same, so
     * are their values.
     */
    private static Program byValue(Program p, Helper h, java.util.function.Predicate<ScalarVar> which,
                                   java.util.function.UnaryOperator<String> rename, List<Helper.StructParam> structs) {
        if (h.params().stream().noneMatch(which)) return null;
        List<ScalarVar> params = new ArrayList<>();
        Map<ScalarVar, Expr> plain = new HashMap<>();
        for (ScalarVar v : h.params()) {
            ScalarVar n = which.test(v) ? new ScalarVar(v.slot(), rename.apply(v.name()), v.type(), ScalarVar.Role.PARAMETER, 0, false) : v;
            if (n != v) plain.put(v, new Expr.ScalarRef(n));
            params.add(n);
        }
        Helper to = new Helper(h.name(), h.results().stream().map(r -> inlined(r, plain)).toList(), h.resultStruct(), params,
                h.linkage(), h.pure(), h.simd(), structs);
        return helperSwapped(p, h, to, -1, -1);
    }

    /** {@code p} without parameter {@code d.param()} of helper {@code d.helper()}; null if there is none or the body reads it. */
    private static Program dropParam(Program p, Edit.DropParam d) {
        if (d.helper() >= p.helpers().size()) return null;
        Helper h = p.helpers().get(d.helper());
        if (d.param() >= h.params().size()) return null;
        ScalarVar gone = h.params().get(d.param());
        if (gone.isField()) return null; // a struct's field: Unstruct first
        boolean[] read = {false};
        Expr.Walker reads = new Expr.Walker() {
            @Override
            public Void scalar(Expr.ScalarRef s) {
                if (s.var().equals(gone)) read[0] = true;
                return null;
            }
        };
        for (Expr r : h.results()) reads.walk(r);
        if (read[0]) return null;
        List<ScalarVar> params = new ArrayList<>(h.params());
        params.remove(d.param());
        return helperSwapped(p, h, new Helper(h.name(), h.results(), h.resultStruct(), params, h.linkage(), h.pure(), h.simd(),
                h.structParams()), d.param(), -1);
    }

    /**
     * {@code p} without field {@code d.field()} of the struct helper {@code d.helper()} returns,
     * which no call reads; with one field left the helper returns that value, no struct. Null if
     * there is no such field, or a call reads it.
     */
    private static Program dropResult(Program p, Edit.DropResult d) {
        if (d.helper() >= p.helpers().size()) return null;
        Helper h = p.helpers().get(d.helper());
        if (!h.returnsStruct() || d.field() >= h.results().size()) return null;
        boolean[] read = {false};
        Expr.Walker reads = new Expr.Walker() {
            @Override
            public Void helperCall(Expr.HelperCall c) {
                if (c.helper() == h && c.field() == d.field()) read[0] = true;
                return super.helperCall(c);
            }
        };
        for (Helper other : p.helpers()) for (Expr r : other.results()) reads.walk(r);
        new Stmt.Walker() {
            @Override
            protected void expr(Expr e) {
                if (e != null) reads.walk(e);
            }
        }.all(p.body().stmts());
        if (read[0]) return null;
        List<Expr> results = new ArrayList<>(h.results());
        results.remove(d.field());
        Helper to = new Helper(h.name(), results, results.size() > 1 ? h.resultStruct() : null, h.params(), h.linkage(), h.pure(),
                h.simd(), h.structParams());
        return helperSwapped(p, h, to, -1, d.field());
    }

    /**
     * {@code p} with helper {@code from} replaced by {@code to} in its list and in every call
     * (in the body and in the helpers after it, which are rebuilt in turn), each call dropping
     * argument {@code dropped} (-1: none) and reading the field it read before where {@code
     * to} no longer returns field {@code fieldGone} (-1: the same fields).
     */
    private static Program helperSwapped(Program p, Helper from, Helper to, int dropped, int fieldGone) {
        Map<Helper, Helper> map = new HashMap<>(Map.of(from, to));
        Map<Helper, Integer> drops = dropped < 0 ? Map.of() : Map.of(from, dropped);
        Map<Helper, Integer> fieldsGone = fieldGone < 0 ? Map.of() : Map.of(from, fieldGone);
        List<Helper> helpers = new ArrayList<>();
        for (Helper h : p.helpers()) {
            Helper n = map.getOrDefault(h, h);
            Rewrite r = new Rewrite(null);
            r.helperTo = map;
            r.argDropped = drops;
            r.fieldDropped = fieldsGone;
            List<Expr> results = n.results().stream().map(e -> e.accept(r)).toList();
            if (!results.equals(n.results())) {
                n = new Helper(n.name(), results, n.resultStruct(), n.params(), n.linkage(), n.pure(), n.simd(), n.structParams());
                map.put(h, n); // a call of it after this is of the rebuilt one
            }
            helpers.add(n);
        }
        Rewrite r = new Rewrite(null);
        r.helperTo = map;
        r.argDropped = drops;
        r.fieldDropped = fieldsGone;
        Stmt.Block body = r.body(p);
        return new Program(p.inputs(), p.outputs(), p.inputArrays(), p.outputArrays(), p.params(), p.arrayParams(), body,
                p.scalarSlots(), p.arraySlots(), List.copyOf(helpers), p.inputSets());
    }

    /** Every array a program declares or passes. */
    static List<ArrayVar> allArrays(Program p) {
        List<ArrayVar> all = new ArrayList<>(p.inputArrays());
        all.addAll(p.outputArrays());
        all.addAll(p.arrayParams());
        return all;
    }

    // ---- unused globals ------------------------------------------------------------

    /** {@code p} without the scalars and arrays its body no longer mentions (a view keeps its storage). */
    private static Program dropUnused(Program p) {
        Set<ScalarVar> scalars = new HashSet<>();
        Set<ArrayVar> arrays = new LinkedHashSet<>();
        Set<Helper> called = new HashSet<>();
        Expr.Walker uses = new Expr.Walker() {
            @Override
            public Void scalar(Expr.ScalarRef s) {
                scalars.add(s.var());
                return null;
            }

            @Override
            public Void helperCall(Expr.HelperCall c) {
                // A helper's body calls only helpers before it: walking it finds every helper it needs.
                if (called.add(c.helper())) for (Expr r : c.helper().results()) r.accept(this);
                return super.helperCall(c);
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
                p.scalarSlots(), p.arraySlots(), keep(p.helpers(), called), p.inputSets());
        return q.equals(p) ? null : q;
    }

    private static <T> List<T> keep(List<T> all, Set<T> used) {
        return all.stream().filter(used::contains).toList();
    }
}
