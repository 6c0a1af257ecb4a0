package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.BinOp;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.policy.ExitPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * Loops that leave early (policy {@code exits:}): a {@code break}, {@code continue}, search
 * or {@code return} under {@code if (s[i] == K)}, where {@code s} is an input array of the
 * exit's own that holds {@code K} at the element of one planned iteration only (or nowhere).
 * The trip count then depends on data the compiler cannot see, yet the interpreter knows it.
 * Added to a whole fleshed nest, not to a slot: the walk decides which nests get one.
 */
final class EarlyExits {
    private final Fleshing f;
    private final ExitPolicy xp;

    EarlyExits(Fleshing f) {
        this.f = f;
        this.xp = f.policy.exits();
    }

    /**
     * {@code n} with an early exit in one level: {@code if (s[i] == K)} then {@code break},
     * {@code continue}, or {@code found = i; break} (a search), over a new input array {@code
     * s} indexed by the level's iterator that holds {@code K} at the element of the planned
     * iteration only (or nowhere: the exit never fires). {@code n} as it is when no array fits.
     * With {@code carries} (the body holds a carried-scalar statement) a search, which would
     * replace the body, is a find instead.
     */
    Stmt.LoopNest withExit(Stmt.LoopNest n, List<LoopBounds.Bounds> bounds, boolean carries) {
        int l = f.rng.chance(xp.pInnermost()) ? n.depth() - 1 : f.rng.between(0, n.depth() - 1);
        String kind = f.rng.weighted(xp.kindWeights());
        // A search is the innermost loop's only statement: a loop that only loads and leaves.
        // A body that carries a scalar is kept: a search there becomes a find.
        if (kind.equals("search") && carries) kind = "find";
        boolean search = kind.equals("search");
        if (search) l = n.depth() - 1;
        Iterator it = n.levels().get(l).head().iter();
        Expr iter = new Expr.IterRef(it);
        Expr cond = sentinelTest(bounds.get(l).space(), iter);
        if (cond == null) return n;
        List<Stmt> then = new ArrayList<>();
        if (kind.equals("find") || search) {
            // The index found, in the iterator's type; the output keeps its start value when nothing is found.
            ScalarVar found = f.globals.newAccumulator(it.type(), f.exprs.interestingValue(it.type()));
            then.add(new Stmt.Assign(new Expr.ScalarRef(found), null, iter));
        }
        then.add(new Stmt.Exit(kind.equals("continue") ? Stmt.Exit.Kind.CONTINUE : Stmt.Exit.Kind.BREAK));
        Stmt exit = new Stmt.If(cond, new Stmt.Block(then), null);
        boolean before = kind.equals("continue") || f.rng.chance(xp.pBefore());

        if (search) return new Stmt.LoopNest(n.levels(), new Stmt.Block(List.of(exit)), n.pragma(), n.idiom());
        return placed(n, l, exit, before);
    }

    /**
     * {@code n} with {@code if (s[j] == K) return;} in level {@code l}'s prefix, suffix or
     * (innermost) body, where {@code j} is the iterator of level {@code l} or of a level around
     * it, and {@code s} an input array of its own that holds {@code K} at the element of the
     * planned iteration of that level only (or nowhere). The return leaves {@code test()} the
     * first time it is reached there: indexed by an outer level, after that level's earlier
     * iterations have run whole. Only the test's last statement gets one ({@link Stmt.Exit}); every
     * level it leaves is then serial ({@link Stmt.LoopNest#breaksOut}). {@code n} as it is
     * when no array fits.
     */
    Stmt.LoopNest withReturn(Stmt.LoopNest n, List<LoopBounds.Bounds> bounds) {
        int l = f.rng.chance(xp.pInnermost()) ? n.depth() - 1 : f.rng.between(0, n.depth() - 1);
        int by = f.rng.between(0, l);
        Expr cond = sentinelTest(bounds.get(by).space(), new Expr.IterRef(n.levels().get(by).head().iter()));
        if (cond == null) return n;
        Stmt exit = new Stmt.If(cond, new Stmt.Block(List.of(new Stmt.Exit(Stmt.Exit.Kind.RETURN))), null);
        return placed(n, l, exit, f.rng.chance(xp.pBefore()));
    }

    /**
     * {@code n} with {@code exit} in level {@code l}: first or last in the innermost body, or in
     * an outer level's prefix ({@code before}) or suffix.
     */
    private static Stmt.LoopNest placed(Stmt.LoopNest n, int l, Stmt exit, boolean before) {
        List<Stmt.LoopLevel> levels = new ArrayList<>(n.levels());
        Stmt.Block body = n.body();
        Stmt.LoopLevel lv = levels.get(l);
        if (l == n.depth() - 1) {
            body = with(body, exit, before);
        } else if (before) {
            levels.set(l, new Stmt.LoopLevel(lv.head(), with(lv.prefix(), exit, true), lv.suffix()));
        } else {
            levels.set(l, new Stmt.LoopLevel(lv.head(), lv.prefix(), with(lv.suffix(), exit, false)));
        }
        return new Stmt.LoopNest(levels, body, n.pragma(), n.idiom());
    }

    /**
     * {@code s[iter] == K} over a new input array {@code s} of the exit's own, one value
     * everywhere but {@code K} at the element of the iteration of {@code space} that the
     * policy's position draws (first, one in the middle, last, or none); null when the space
     * cannot index such an array or no array fits.
     */
    private Expr sentinelTest(IterationSpace space, Expr iter) {
        if (space.trip() <= 0 || space.min() < 0 || space.max() >= Integer.MAX_VALUE) return null;
        String position = f.rng.weighted(xp.positionWeights());
        int t = switch (position) {
            case "first" -> 0;
            case "middle" -> space.trip() < 3 ? 0 : f.rng.between(1, space.trip() - 2);
            case "last" -> space.trip() - 1;
            default -> -1;
        };
        long fill = f.rng.between(-100, 100);
        long sentinel = fill + f.rng.between(1, 100);
        ArrayVar s = f.globals.newSentinelArray(NumType.INT, List.of((int) space.max() + 1),
                t < 0 ? ArrayVar.Fill.uniform(fill) : ArrayVar.Fill.planted(fill, space.at(t), sentinel));
        if (s == null) return null;
        return Exprs.binary(BinOp.EQ, Exprs.subscript(s, List.of(iter)), new Expr.Const(NumType.INT, sentinel));
    }

    /** {@code b} with {@code s} first or last. */
    private static Stmt.Block with(Stmt.Block b, Stmt s, boolean first) {
        List<Stmt> ss = new ArrayList<>(b.stmts());
        ss.add(first ? 0 : ss.size(), s);
        return new Stmt.Block(ss);
    }
}
