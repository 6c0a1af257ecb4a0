package dev.yarpj.lower;

import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Exprs;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Pragma;
import dev.yarpj.ir.Stmt;

/**
 * Prints statements as C and C++: the bodies of C and C++ tests and of SYCL kernels, which
 * are C++. Expressions go through the {@link ExprPrinter} given; a language that spells a
 * reduction or a declaration its own way (a SYCL reducer, a local kept in device memory)
 * overrides {@link #reduce} or {@link #localDecl}.
 */
class CStatements {
    private final ExprPrinter printer;

    CStatements(ExprPrinter printer) {
        this.printer = printer;
    }

    final void stmts(CodeWriter w, Iterable<Stmt> stmts) {
        for (Stmt s : stmts) stmt(w, s);
    }

    /** Loops printed around the statement being printed (a SYCL kernel's parallel levels are not). */
    private int openLoops;

    /** Prints {@code s}: one method per kind of statement, each of which a lowerer may override. */
    final void stmt(CodeWriter w, Stmt s) {
        s.accept(new Stmt.Visitor<Void>() {
            @Override
            public Void exit(Stmt.Exit e) {
                CStatements.this.exit(w, e, openLoops);
                return null;
            }

            @Override
            public Void assign(Stmt.Assign a) {
                CStatements.this.assign(w, a);
                return null;
            }

            @Override
            public Void reduce(Stmt.Reduce r) {
                CStatements.this.reduce(w, r);
                return null;
            }

            @Override
            public Void localDecl(Stmt.LocalDecl d) {
                CStatements.this.localDecl(w, d);
                return null;
            }

            @Override
            public Void ifStmt(Stmt.If i) {
                CStatements.this.ifStmt(w, i);
                return null;
            }

            @Override
            public Void switchStmt(Stmt.Switch sw) {
                CStatements.switchStmt(w, sw, printer, t -> stmt(w, t));
                return null;
            }

            @Override
            public Void deadBranch(Stmt.DeadBranch d) {
                // Spelt as any if: only the generator knows it never runs.
                CStatements.this.ifStmt(w, new Stmt.If(d.cond(), d.body(), null));
                return null;
            }

            @Override
            public Void block(Stmt.Block b) {
                w.open("");
                stmts(w, b.stmts());
                w.close();
                return null;
            }

            @Override
            public Void loopNest(Stmt.LoopNest n) {
                nest(w, n, 0);
                return null;
            }

            @Override
            public Void loopSeq(Stmt.LoopSeq q) {
                for (Stmt.LoopNest n : q.nests()) nest(w, n, 0);
                return null;
            }
        });
    }

    void assign(CodeWriter w, Stmt.Assign a) {
        String op = a.compound() == null ? "=" : a.compound().symbol + "=";
        w.line(printer.expr(a.target()) + " " + op + " " + printer.expr(a.value()) + ";");
    }

    void ifStmt(CodeWriter w, Stmt.If i) {
        w.open("if (" + printer.expr(i.cond()) + ")");
        stmts(w, i.then().stmts());
        if (i.otherwise() != null) {
            w.close().open("else");
            stmts(w, i.otherwise().stmts());
        }
        w.close();
    }

    /**
     * A switch, spelt alike in C, C++, ISPC and SYCL: each case's body in braces of its own (a
     * declaration may open it, and none is jumped over into its scope), then {@code break;} unless
     * it falls through; the default last. {@code stmt} prints one statement of a body.
     */
    static void switchStmt(CodeWriter w, Stmt.Switch s, ExprPrinter printer, java.util.function.Consumer<Stmt> stmt) {
        w.open("switch (" + printer.expr(s.selector()) + ")");
        for (Stmt.Switch.Case c : s.cases()) {
            for (int k = 0; k < c.labels().size() - 1; k++) w.line("case " + label(printer, s, c.labels().get(k)) + ":");
            w.open("case " + label(printer, s, c.labels().get(c.labels().size() - 1)) + ":");
            c.body().stmts().forEach(stmt);
            if (!c.fallsThrough()) w.line("break;");
            w.close();
        }
        if (s.otherwise() != null) {
            w.open("default:");
            s.otherwise().stmts().forEach(stmt);
            w.close();
        }
        w.close();
    }

    private static String label(ExprPrinter printer, Stmt.Switch s, long value) {
        return printer.expr(new Expr.Const(s.selector().type(), value));
    }

    /** A fold: by default its meaning in C's terms, {@code t = t op v}. */
    void reduce(CodeWriter w, Stmt.Reduce r) {
        stmt(w, r.asAssign());
    }

    /**
     * {@code break;}, {@code continue;} or {@code return;}.
     *
     * @param openLoops the loops printed around it: 0 when the loop it leaves is not printed
     *                  as a loop (a SYCL kernel's work-items), which only a lowerer can spell
     */
    void exit(CodeWriter w, Stmt.Exit e, int openLoops) {
        if (e.kind() != Stmt.Exit.Kind.RETURN && openLoops == 0) throw new IllegalStateException(e.kind() + " outside any printed loop");
        w.line(keyword(e) + ";");
    }

    static String keyword(Stmt.Exit e) {
        return switch (e.kind()) {
            case BREAK -> "break";
            case CONTINUE -> "continue";
            case RETURN -> "return";
        };
    }

    void localDecl(CodeWriter w, Stmt.LocalDecl d) {
        if (d.var().isCopyField()) {
            // The whole element is copied; the program reads the field the variable is.
            Expr.Subscript s = (Expr.Subscript) d.init();
            w.line("struct " + s.array().field().type() + " " + d.var().copyName() + " = "
                    + ExprPrinter.structElement(s.array(), s.indices().stream().map(printer::expr).toList()) + ";");
            return;
        }
        w.line(printer.type(d.var().base()) + " " + d.var().name() + " = " + printer.expr(d.init()) + ";");
    }

    /** The levels of {@code n} from {@code level} in, each in its form (for, while, do-while), and its body. */
    final void nest(CodeWriter w, Stmt.LoopNest n, int level) {
        if (level == n.depth()) {
            stmts(w, n.body().stmts());
            return;
        }
        Stmt.LoopLevel lv = n.levels().get(level);
        LoopHead h = lv.head();
        String update = update(h);
        String decl = declaration(h);
        String pragmaLine = level == n.depth() - 1 && n.pragma() != Pragma.NONE ? "#pragma " + pragma(n.pragma()) : null;
        if (h.form() != LoopHead.Form.FOR) {
            w.formLoop(h.form() == LoopHead.Form.DO_WHILE, decl, pragmaLine, printer.expr(h.headerCond()), update,
                    () -> levelBody(w, n, level));
            return;
        }
        if (pragmaLine != null) w.line(pragmaLine);
        w.open("for (" + decl + "; " + printer.expr(h.cond()) + "; " + update + ")");
        levelBody(w, n, level);
        w.close();
    }

    /** A loop head's declaration of its iterator: {@code T i = start}. */
    final String declaration(LoopHead h) {
        return printer.type(h.iter().type()) + " " + h.iter().name() + " = " + printer.expr(h.start());
    }

    /** A loop head's update: {@code i++}, {@code i--}, {@code i += step} or {@code i -= step}. */
    final String update(LoopHead h) {
        String name = h.iter().name();
        Expr step = Exprs.stripImplicit(h.update().rhs());
        return step instanceof Expr.Const c && c.value() == 1
                ? name + (h.countsUp() ? "++" : "--")
                : name + (h.countsUp() ? " += " : " -= ") + printer.expr(step);
    }

    /** A level's statements: its prefix, the levels inside, its suffix. */
    private void levelBody(CodeWriter w, Stmt.LoopNest n, int level) {
        Stmt.LoopLevel lv = n.levels().get(level);
        openLoops++;
        stmts(w, lv.prefix().stmts());
        nest(w, n, level + 1);
        stmts(w, lv.suffix().stmts());
        openLoops--;
    }

    /** How gcc and clang spell a loop pragma. */
    static String pragma(Pragma p) {
        return switch (p) {
            case NONE -> throw new IllegalArgumentException("no pragma");
            case CLANG_VECTORIZE -> "clang loop vectorize(enable)";
            case CLANG_INTERLEAVE -> "clang loop interleave(enable)";
            case CLANG_UNROLL -> "clang loop unroll(enable)";
            case CLANG_UNROLL_COUNT -> "clang loop unroll_count(4)";
            case CLANG_VECTORIZE_PREDICATE -> "clang loop vectorize(enable) vectorize_predicate(enable)";
            case CLANG_DISTRIBUTE -> "clang loop distribute(enable)";
            case GCC_UNROLL -> "GCC unroll 4";
            case GCC_IVDEP -> "GCC ivdep";
        };
    }
}
