package dev.yarpj.flesh;

import dev.yarpj.ir.Arith;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.UnOp;
import dev.yarpj.policy.DeadCodePolicy;
import dev.yarpj.policy.Rng;
import java.util.ArrayList;
import java.util.List;

/**
 * Code under a condition that is false on every run, holding operations that would be
 * undefined if they ran (YARPGen's UB in dead code): division by zero, INT_MIN / -1, signed
 * overflow, a shift by the width or more, an index past the end of an array. A compiler may
 * reason from them only that the branch never runs, which is true; anything else it lets them
 * change is a bug. Every operand that makes an operation undefined is an input, opaque to
 * the compiler, so no warning gives the game away (and a reducer, which refuses candidates
 * with UB warnings, can still start from the test). The interpreter refuses a test in which
 * the condition holds ({@link Stmt.DeadBranch}).
 */
final class DeadCode implements StatementForm {
    private final Fleshing f;
    private final Rng rng;
    private final Globals globals;
    private final ExprBuilder exprs;
    private final UbGuard ub;
    private final double pParam;
    /** The policy's dead_code: section, and its weight maps ready to draw from. */
    private final DeadCodePolicy dp;
    private final Rng.Odds<String> kinds;
    private final Rng.Odds<String> overflows;
    private final Rng.Odds<BinOp> combineOps;

    DeadCode(Fleshing f) {
        this.f = f;
        this.rng = f.rng;
        this.globals = f.globals;
        this.exprs = f.exprs;
        this.ub = f.ub;
        this.pParam = f.policy.pParam();
        this.dp = f.policy.deadCode();
        this.kinds = new Rng.Odds<>(dp.kindWeights(), k -> k);
        this.overflows = new Rng.Odds<>(dp.overflowWeights(), k -> k);
        this.combineOps = new Rng.Odds<>(dp.combineOpWeights(), Fleshing::op);
    }

    /**
     * A dead branch at this point, storing undefined values to outputs. None in an eager
     * (ISPC) program, which may evaluate a branch no lane takes: a plain assignment instead.
     */
    @Override
    public Stmt flesh(Env env) {
        return ub.eager() ? f.assign(env) : branch(env);
    }

    private Stmt.DeadBranch branch(Env env) {
        Expr cond = falseCondition(env);
        List<Stmt> body = new ArrayList<>();
        int n = rng.between(dp.minStores(), dp.maxStores());
        for (int i = 0; i < n; i++) {
            Expr t = f.target(env);
            Expr bad = undefined(env);
            Expr value = rng.chance(dp.pBare()) ? bad : Exprs.binary(combineOps.pick(rng),
                    exprs.expr(env).expr(), bad);
            body.add(new Stmt.Assign(t, null, Exprs.convertImplicitly(value, t.type())));
        }
        return new Stmt.DeadBranch(cond, new Stmt.Block(body));
    }

    /** A condition false in every active context: a random one or its negation, else an input against a value it does not hold. */
    private Expr falseCondition(Env env) {
        Valued c = exprs.expr(env);
        if (c.truthMask(env.mask()) == 0) return c.expr();
        Valued not = ub.unary(UnOp.LNOT, c, env.mask());
        if (not.truthMask(env.mask()) == 0) return not.expr();
        ScalarVar x = input(NumType.INT, exprs.interestingValue(NumType.INT));
        return Exprs.binary(BinOp.EQ, new Expr.ScalarRef(x), new Expr.Const(NumType.INT, x.initValue() ^ 1));
    }

    private ScalarVar input(NumType t, long v) {
        return globals.newInput(t, v, rng.chance(pParam));
    }

    private Expr ref(ScalarVar v) {
        return new Expr.ScalarRef(v);
    }

    /** One operation that is undefined for the values its inputs hold. */
    private Expr undefined(Env env) {
        NumType wide = rng.chance(dp.pInt()) ? NumType.INT : NumType.LLONG;
        switch (kinds.roll(rng)) {
            case "div_by_zero": {
                BinOp op = rng.chance(dp.pDiv()) ? BinOp.DIV : BinOp.REM;
                return Exprs.binary(op, exprs.expr(env).expr(), ref(input(rng.pick(List.of(NumType.INT, NumType.UINT,
                        NumType.LLONG, NumType.SHORT)), 0)));
            }
            case "div_overflow":
                return Exprs.binary(rng.chance(dp.pDiv()) ? BinOp.DIV : BinOp.REM, ref(input(wide, wide.min())), ref(input(wide, -1)));
            case "overflow": {
                // max + k, min - k, or a product past the range.
                String form = overflows.roll(rng);
                long k = rng.between(1, 1000);
                if (form.equals("max_plus")) return Exprs.binary(BinOp.ADD, ref(input(wide, wide.max() - rng.between(0, 3))), ref(input(wide, k)));
                if (form.equals("min_minus")) return Exprs.binary(BinOp.SUB, ref(input(wide, wide.min() + rng.between(0, 3))), ref(input(wide, k)));
                long big = wide.max() / 2 + rng.between(1, 1000);
                return Exprs.binary(BinOp.MUL, ref(input(wide, big)), ref(input(wide, rng.between(3, 9))));
            }
            case "bad_shift": {
                Expr x = exprs.expr(env).expr();
                int width = Arith.promote(x.type()).bits;
                long amount = rng.chance(dp.pShiftPastWidth()) ? width + rng.between(0, 8) : -rng.between(1, 4);
                return Exprs.binary(rng.chance(dp.pShl()) ? BinOp.SHL : BinOp.SHR, x, ref(input(NumType.INT, amount)));
            }
            default: {
                // Past the end of a global array, whose bounds -fsanitize=bounds knows.
                List<ArrayVar> globalArrays = new ArrayList<>();
                for (ArrayVar a : globals.inputArrays) if (!a.isParam()) globalArrays.add(a);
                if (globalArrays.isEmpty()) {
                    return Exprs.binary(BinOp.DIV, exprs.expr(env).expr(), ref(input(NumType.INT, 0)));
                }
                ArrayVar a = rng.pick(globalArrays);
                int bad = rng.between(0, a.rank() - 1);
                List<Expr> idx = new ArrayList<>();
                for (int d = 0; d < a.rank(); d++) {
                    int size = a.dims().get(d);
                    idx.add(d == bad ? ref(input(NumType.INT, size + rng.between(0, 3)))
                            : new Expr.Const(NumType.INT, rng.between(0, size - 1)));
                }
                return Exprs.subscript(a, idx);
            }
        }
    }
}
