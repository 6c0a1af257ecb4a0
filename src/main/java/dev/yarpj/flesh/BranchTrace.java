package dev.yarpj.flesh;

import dev.yarpj.ir.Expr;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ReductionOp;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import java.util.ArrayList;
import java.util.List;

/**
 * The control-path oracle (policy {@code exits: trace_branches}): every arm of every
 * {@code if}, the arm that leaves a loop early included, starts by counting how often it
 * ran, {@code path_k += 1u}, into an output of its own. The checksum covers the counters, so
 * a miscompiled branch or exit shows as a wrong count even where the values it guards
 * happen to agree (the SPIR-V fuzzers' path traces, kept order-free here so that a counter
 * is a sum reduction that vectorizers and gangs take, not a serial hash). A dead branch is
 * not counted: it never runs, and the interpreter already refuses a program in which it
 * would.
 *
 * <p>Counting is a fold into an accumulator nothing else touches, so the loops around a
 * counter are marked again ({@link DataParallelism}): a loop that was independent now
 * reduces, and loses an {@code ivdep} it no longer deserves. No random choice is made, so a
 * seed gives the same program with and without counters, apart from them.
 */
final class BranchTrace implements Stmt.Visitor<Stmt> {
    private final Globals globals;

    private BranchTrace(Globals globals) {
        this.globals = globals;
    }

    /** {@code body} with its arms counted; the counters become outputs of {@code globals}. */
    static Stmt.Block count(Stmt.Block body, Globals globals) {
        return new BranchTrace(globals).block(body);
    }

    private Stmt.Block counted(Stmt.Block arm) {
        ScalarVar counter = globals.newPathCounter();
        List<Stmt> stmts = new ArrayList<>();
        stmts.add(new Stmt.Reduce(new Expr.ScalarRef(counter), ReductionOp.SUM, new Expr.Const(NumType.UINT, 1)));
        stmts.addAll(block(arm).stmts());
        return new Stmt.Block(stmts);
    }

    @Override
    public Stmt ifStmt(Stmt.If s) {
        Stmt.Block then = counted(s.then());
        return new Stmt.If(s.cond(), then, s.otherwise() == null ? null : counted(s.otherwise()));
    }

    @Override
    public Stmt switchStmt(Stmt.Switch s) {
        // Each case counts its runs, those it fell into from the case before included.
        List<Stmt.Switch.Case> cases = new ArrayList<>();
        for (Stmt.Switch.Case c : s.cases()) cases.add(new Stmt.Switch.Case(c.labels(), counted(c.body()), c.fallsThrough()));
        return new Stmt.Switch(s.selector(), cases, s.otherwise() == null ? null : counted(s.otherwise()));
    }

    @Override
    public Stmt.Block block(Stmt.Block b) {
        List<Stmt> out = new ArrayList<>(b.stmts().size());
        for (Stmt s : b.stmts()) out.add(s.accept(this));
        return new Stmt.Block(out);
    }

    @Override
    public Stmt.LoopNest loopNest(Stmt.LoopNest n) {
        List<Stmt.LoopLevel> levels = new ArrayList<>();
        for (Stmt.LoopLevel lv : n.levels()) levels.add(new Stmt.LoopLevel(lv.head(), block(lv.prefix()), block(lv.suffix())));
        return DataParallelism.markKeepingPromises(new Stmt.LoopNest(levels, block(n.body()), n.pragma(), n.idiom()));
    }

    @Override
    public Stmt loopSeq(Stmt.LoopSeq q) {
        List<Stmt.LoopNest> nests = new ArrayList<>();
        for (Stmt.LoopNest n : q.nests()) nests.add(loopNest(n));
        return new Stmt.LoopSeq(nests, q.sharedSpace());
    }

    @Override
    public Stmt assign(Stmt.Assign s) {
        return s;
    }

    @Override
    public Stmt reduce(Stmt.Reduce s) {
        return s;
    }

    @Override
    public Stmt localDecl(Stmt.LocalDecl s) {
        return s;
    }

    @Override
    public Stmt deadBranch(Stmt.DeadBranch s) {
        return s;
    }

    @Override
    public Stmt exit(Stmt.Exit s) {
        return s;
    }
}
