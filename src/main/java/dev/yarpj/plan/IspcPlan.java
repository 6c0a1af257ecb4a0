package dev.yarpj.plan;

import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.UnOp;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the ISPC lowering runs one program in gangs, decided before anything is printed. In
 * each loop nest outside a gang loop, one data-parallel level with a planned trip count may
 * become the gang loop, spelt {@code foreach}, {@code foreach_tiled} or a {@code for} over
 * {@code programIndex} and {@code programCount} (ISPC forbids a gang loop inside another).
 * Variability follows: the gang loop's iterator and every local computed from a varying value
 * are varying, all else uniform. Two spellings inside gang loops are chosen here too: a
 * {@code ?:} with a varying condition as {@code select()}, and a uniform if condition asked
 * of the lanes with {@code any()}, {@code all()} or {@code none()}. The odds are the
 * policy's {@code emit: ispc:}.
 */
public final class IspcPlan {
    /** How a gang loop is spelt. */
    public enum GangForm { FOREACH, FOREACH_TILED, PROGRAM_INDEX }

    /** A gang loop: its level, how it is spelt, and the folds that keep varying partial results. */
    public record Gang(ParallelLevels level, GangForm form) {}

    /** How a uniform condition inside a gang loop is asked of the lanes (all agree on it). */
    public enum LaneQuery { ANY, ALL, NOT_NONE }

    private final Map<Stmt.LoopNest, Gang> gangs = new IdentityHashMap<>();
    /** Slots (scalars and iterators share one numbering, unique in a program) of the varying values. */
    private final Set<Integer> varying = new HashSet<>();
    private final Set<Expr.Ternary> selects = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Expr, LaneQuery> laneQueries = new IdentityHashMap<>();
    /** Data-parallel loops that stay ordinary loops: not chosen, or inside a gang loop's body. */
    private int serialParallel;

    private IspcPlan() {}

    /** The plan of {@code p}, its choices drawn from {@code rng} with the odds of {@code emit}. */
    public static IspcPlan of(Program p, EmitPolicy.Ispc emit, Rng rng) {
        IspcPlan plan = new IspcPlan();
        new Planner(plan, emit, rng).stmts(p.body().stmts());
        return plan;
    }

    /** The gang loop of nest {@code n}, or null when it runs serially. */
    public Gang gang(Stmt.LoopNest n) {
        return gangs.get(n);
    }

    /** Whether {@code e} reads a varying value: a gang loop's iterator, or a local computed from one. */
    public boolean isVarying(Expr e) {
        return !varying.isEmpty() && e.accept(readsVarying);
    }

    private final Expr.AnyOperand readsVarying = new Expr.AnyOperand() {
        @Override
        protected boolean leaf(Expr leaf) {
            if (leaf instanceof Expr.ScalarRef r) return varying.contains(r.var().slot());
            return leaf instanceof Expr.IterRef r && varying.contains(r.iter().slot());
        }
    };

    /** Whether a {@code ?:} (with a varying condition) is printed as {@code select()}. */
    public boolean select(Expr.Ternary t) {
        return selects.contains(t);
    }

    /** How a uniform if condition inside a gang loop is asked of the lanes; null: as it is. */
    public LaneQuery laneQuery(Expr cond) {
        return laneQueries.get(cond);
    }

    /** Data-parallel loops printed as ordinary loops: not chosen, or inside a gang loop's body. */
    public int serialParallelLoops() {
        return serialParallel;
    }

    /**
     * Walks the program as the ISPC printer prints it (statements in order; within an
     * expression, the operands in the order the printer prints them), so each choice is drawn
     * where the lowerer drew it before there was a plan and a seed keeps its files.
     */
    private static final class Planner {
        private final IspcPlan plan;
        private final EmitPolicy.Ispc emit;
        private final Rng rng;
        private final List<GangForm> forms = new ArrayList<>();
        /** Gang loops around the statement being planned (0 or 1). */
        private int gangDepth;

        Planner(IspcPlan plan, EmitPolicy.Ispc emit, Rng rng) {
            this.plan = plan;
            this.emit = emit;
            this.rng = rng;
            for (String f : emit.gangForms()) forms.add(GangForm.valueOf(f.toUpperCase()));
        }

        void stmts(List<Stmt> ss) {
            for (Stmt s : ss) stmt(s);
        }

        void stmt(Stmt s) {
            s.accept(new Stmt.Visitor<Void>() {
                @Override
                public Void assign(Stmt.Assign a) {
                    expr(a.target());
                    expr(a.compound() == null ? a.value()
                            : Exprs.convertImplicitly(Exprs.binary(a.compound(), a.target(), a.value()), a.target().type()));
                    return null;
                }

                @Override
                public Void reduce(Stmt.Reduce r) {
                    if (partialHere(r)) expr(r.value());
                    else stmt(r.asAssign());
                    return null;
                }

                @Override
                public Void localDecl(Stmt.LocalDecl d) {
                    if (plan.isVarying(d.init())) plan.varying.add(d.var().slot());
                    expr(d.init());
                    return null;
                }

                @Override
                public Void ifStmt(Stmt.If i) {
                    condition(i.cond());
                    stmts(i.then().stmts());
                    if (i.otherwise() != null) stmts(i.otherwise().stmts());
                    return null;
                }

                @Override
                public Void switchStmt(Stmt.Switch s) {
                    expr(s.selector());
                    for (Stmt.Switch.Case c : s.cases()) stmts(c.body().stmts());
                    if (s.otherwise() != null) stmts(s.otherwise().stmts());
                    return null;
                }

                @Override
                public Void deadBranch(Stmt.DeadBranch d) {
                    condition(d.cond());
                    stmts(d.body().stmts());
                    return null;
                }

                @Override
                public Void block(Stmt.Block b) {
                    stmts(b.stmts());
                    return null;
                }

                @Override
                public Void loopNest(Stmt.LoopNest n) {
                    nest(n);
                    return null;
                }

                @Override
                public Void loopSeq(Stmt.LoopSeq q) {
                    for (Stmt.LoopNest n : q.nests()) nest(n);
                    return null;
                }

                @Override
                public Void exit(Stmt.Exit e) {
                    return null;
                }
            });
        }

        /** The folds that keep partial results under the gang loop being planned. */
        private final Set<Stmt.Reduce> partials = Collections.newSetFromMap(new IdentityHashMap<>());

        private boolean partialHere(Stmt.Reduce r) {
            return partials.contains(r);
        }

        private void condition(Expr cond) {
            truth(cond);
            if (gangDepth == 0 || plan.isVarying(cond) || !rng.chance(emit.pLaneQuery())) return;
            plan.laneQueries.put(cond, LaneQuery.values()[rng.between(0, 2)]);
        }

        private void nest(Stmt.LoopNest n) {
            List<Integer> candidates = new ArrayList<>();
            for (int l = 0; l < n.depth(); l++) {
                LoopHead h = n.levels().get(l).head();
                if (h.parallel() && h.trip() >= 0) candidates.add(l);
            }
            int gang = -1;
            if (gangDepth == 0 && !candidates.isEmpty() && rng.chance(emit.pGang())) gang = rng.pick(candidates);
            plan.serialParallel += candidates.size() - (gang >= 0 ? 1 : 0);
            level(n, 0, gang);
        }

        private void level(Stmt.LoopNest n, int level, int gang) {
            if (level == n.depth()) {
                stmts(n.body().stmts());
                return;
            }
            Stmt.LoopLevel lv = n.levels().get(level);
            LoopHead h = lv.head();
            if (level == gang) {
                gangLoop(n, level);
                return;
            }
            expr(h.start());
            truth(h.form() == LoopHead.Form.FOR ? h.cond() : h.headerCond());
            expr(Exprs.convertImplicitly(h.update(), h.iter().type()));
            stmts(lv.prefix().stmts());
            level(n, level + 1, gang);
            stmts(lv.suffix().stmts());
        }

        private void gangLoop(Stmt.LoopNest n, int level) {
            Stmt.LoopLevel lv = n.levels().get(level);
            LoopHead h = lv.head();
            GangForm form = rng.pick(forms);
            ParallelLevels levels = ParallelLevels.one(n, level);
            plan.gangs.put(n, new Gang(levels, form));
            partials.addAll(levels.partialFolds());
            expr(h.start());
            if (IspcPlan.countsByOne(h, form)) expr(h.cond().rhs());
            else expr(Exprs.stripImplicit(h.update().rhs()));
            plan.varying.add(h.iter().slot());
            gangDepth++;
            stmts(lv.prefix().stmts());
            level(n, level + 1, -1);
            stmts(lv.suffix().stmts());
            gangDepth--;
            partials.removeAll(levels.partialFolds());
            for (Stmt.Reduce r : levels.partialFolds()) expr(r.target());
        }

        // The ISPC printer's order: a non-logical binary operator's right operand first; a
        // truth value's operands left to right.

        private void expr(Expr e) {
            e.accept(new Expr.Visitor<Void>() {
                @Override
                public Void constant(Expr.Const c) {
                    return null;
                }

                @Override
                public Void scalar(Expr.ScalarRef r) {
                    return null;
                }

                @Override
                public Void iter(Expr.IterRef r) {
                    return null;
                }

                @Override
                public Void unary(Expr.Unary u) {
                    if (u.op() == UnOp.LNOT) truth(u.operand());
                    else expr(u.operand());
                    return null;
                }

                @Override
                public Void binary(Expr.Binary b) {
                    if (b.op().isLogical()) {
                        truth(b.lhs());
                        truth(b.rhs());
                    } else {
                        expr(b.rhs());
                        expr(b.lhs());
                    }
                    return null;
                }

                @Override
                public Void ternary(Expr.Ternary t) {
                    if (plan.isVarying(t.cond()) && rng.chance(emit.pSelect())) plan.selects.add(t);
                    truth(t.cond());
                    expr(t.then());
                    expr(t.otherwise());
                    return null;
                }

                @Override
                public Void cast(Expr.Cast c) {
                    expr(c.operand());
                    return null;
                }

                @Override
                public Void subscript(Expr.Subscript s) {
                    for (Expr i : s.indices()) expr(i);
                    return null;
                }

                @Override
                public Void call(Expr.Call c) {
                    for (Expr a : c.args()) expr(a);
                    return null;
                }

                @Override
                public Void helperCall(Expr.HelperCall c) {
                    for (Expr a : c.args()) expr(a);
                    return null;
                }

                @Override
                public Void stencil(Expr.Stencil st) {
                    for (Expr t : st.taps()) expr(t);
                    return null;
                }
            });
        }

        private void truth(Expr e) {
            if (Exprs.stripImplicit(e) != e || !Exprs.isTruthValue(e)) {
                expr(e);
            } else if (e instanceof Expr.Unary u) {
                truth(u.operand());
            } else {
                Expr.Binary b = (Expr.Binary) e;
                if (b.op().isLogical()) {
                    truth(b.lhs());
                    truth(b.rhs());
                } else {
                    expr(b.lhs());
                    expr(b.rhs());
                }
            }
        }
    }

    /**
     * Whether a gang loop over {@code h} runs over the iterator's own range (counting up by
     * one, with a {@code foreach}), rather than over an index {@code k} in {@code 0 .. trip-1}
     * mapped onto {@code start ± k*step}.
     */
    public static boolean countsByOne(LoopHead h, GangForm form) {
        Expr step = Exprs.stripImplicit(h.update().rhs());
        BinOp op = h.cond().op();
        return h.countsUp() && step instanceof Expr.Const c && c.value() == 1
                && (op == BinOp.LT || op == BinOp.NE || op == BinOp.LE)
                && form != GangForm.PROGRAM_INDEX;
    }
}
