package dev.yarpj.ir;

/**
 * {@code for (T iter = start; cond; iter = (T) update)}. {@code cond} compares the iterator
 * with the bound, {@code update} is {@code iter + step} or {@code iter - step} (lowered as
 * {@code +=} / {@code -=}); both are typed expressions built by {@link Exprs}, so C's
 * conversions in the header are explicit in the IR. Bounds and step are usually
 * constants, sometimes expressions over inputs that evaluate to the same values.
 * {@code trip} is the number of iterations every execution of the loop runs (the
 * interpreter checks it), or -1 where unknown; with the head's start and step it is the
 * loop's iteration space, which a data-parallel lowering maps an index range onto.
 *
 * <p>{@code form} says how the loop is spelt and, for a do-while, when its condition is
 * first tested (see {@link Form}). {@code guard}, only on a while loop and null elsewhere, is
 * a data-dependent exit carried in the header: the loop goes on while {@code cond} holds and
 * then {@code guard} holds ({@code while (i < n && s[i] != K)}); {@code guard} is evaluated
 * only where {@code cond} holds, as C and ISPC evaluate {@code &&}. A loop the guard stops
 * leaves early like one a break leaves, before the body of the iteration it stops.
 *
 * <p>{@code reach} is the most iterations the arrays the loop walks are sized for, at least
 * {@code trip}: an input set may move a bound that is an input up to it (see
 * {@code inputs.InputSets}). Every loop the generator sizes no further has {@code trip}.
 */
public record LoopHead(Iterator iter, Expr start, Expr.Binary cond, Expr.Binary update, long trip,
                       Parallelism parallelism, Form form, Expr guard, long reach) {
    /**
     * Whether the iterations may run in any order or at once. {@link #INDEPENDENT}: no
     * dependence crosses iterations. {@link #REDUCTION}: none but the folds of
     * {@link Stmt.Reduce} statements into accumulators the loop does not index, which a
     * parallel lowering computes as partial results combined after the loop.
     */
    public enum Parallelism { SERIAL, INDEPENDENT, REDUCTION }

    /**
     * How the loop is spelt. {@link #FOR}: {@code for (T i = s; cond; update)}.
     * {@link #WHILE}: {@code { T i = s; while (cond) { body; update; } }}.
     * {@link #DO_WHILE}: {@code { T i = s; do { body; update; } while (cond); }}, whose
     * first iteration runs before {@code cond} is tested: the generator gives it only to a
     * loop that runs at least once on every entry. In the last two a {@code continue} would
     * skip the update, so the generator gives them to no loop a continue belongs to. FOR is
     * first: a program file written before forms existed reads as FOR.
     */
    public enum Form { FOR, WHILE, DO_WHILE }

    public LoopHead {
        if (form == null) form = Form.FOR;
        // A file written before reach existed reads 0: the planned trip.
        if (reach < trip) reach = trip;
        if (guard != null && form != Form.WHILE) throw new IllegalArgumentException("a header exit on a " + form + " loop");
    }

    public LoopHead(Iterator iter, Expr start, Expr.Binary cond, Expr.Binary update, long trip, Parallelism parallelism, Form form, Expr guard) {
        this(iter, start, cond, update, trip, parallelism, form, guard, trip);
    }

    public LoopHead(Iterator iter, Expr start, Expr.Binary cond, Expr.Binary update, long trip, Parallelism parallelism) {
        this(iter, start, cond, update, trip, parallelism, Form.FOR, null);
    }

    /** A head of unknown trip count, data-parallel (independent) or not. */
    public LoopHead(Iterator iter, Expr start, Expr.Binary cond, Expr.Binary update, boolean dataParallel) {
        this(iter, start, cond, update, -1, dataParallel ? Parallelism.INDEPENDENT : Parallelism.SERIAL);
    }

    public boolean countsUp() {
        return update.op() == BinOp.ADD;
    }

    /** Whether no dependence at all crosses iterations (what ivdep promises). */
    public boolean dataParallel() {
        return parallelism == Parallelism.INDEPENDENT;
    }

    /** Whether the iterations may run as a gang or a parallel range, reductions included. */
    public boolean parallel() {
        return parallelism != Parallelism.SERIAL;
    }

    public LoopHead withParallelism(Parallelism p) {
        return new LoopHead(iter, start, cond, update, trip, p, form, guard, reach);
    }

    public LoopHead withForm(Form f, Expr g) {
        return new LoopHead(iter, start, cond, update, trip, parallelism, f, g, reach);
    }

    /**
     * The input this loop's bound is, when the condition compares the loop's own iterator with
     * that input, or with that input plus or minus a constant; else null. Such a bound is one an
     * input set may move.
     */
    public ScalarVar boundInput() {
        if (!(Exprs.stripImplicit(cond.lhs()) instanceof Expr.IterRef it) || !it.iter().equals(iter)) return null;
        Expr b = Exprs.stripImplicit(cond.rhs());
        if (b instanceof Expr.Binary bin && (bin.op() == BinOp.ADD || bin.op() == BinOp.SUB)
                && Exprs.stripImplicit(bin.rhs()) instanceof Expr.Const) {
            b = Exprs.stripImplicit(bin.lhs());
        }
        return b instanceof Expr.ScalarRef r && r.var().role() == ScalarVar.Role.INPUT ? r.var() : null;
    }

    /** The condition as a while header spells it: {@code cond}, or {@code cond && guard}. */
    public Expr.Binary headerCond() {
        return guard == null ? cond : Exprs.binary(BinOp.LAND, cond, guard);
    }
}
