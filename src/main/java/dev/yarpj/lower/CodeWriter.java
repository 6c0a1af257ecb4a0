package dev.yarpj.lower;

/** Accumulates source text with indentation. */
final class CodeWriter {
    private final StringBuilder sb = new StringBuilder(4096);
    private int indent;

    CodeWriter line(String text) {
        for (int i = 0; i < indent; i++) sb.append("    ");
        sb.append(text).append('\n');
        return this;
    }

    CodeWriter blank() {
        sb.append('\n');
        return this;
    }

    CodeWriter open(String text) {
        line(text + " {");
        indent++;
        return this;
    }

    CodeWriter close() {
        indent--;
        return line("}");
    }

    /** Closes a block with text other than a brace alone, such as the end of a lambda call. */
    CodeWriter closeWith(String text) {
        indent--;
        return line(text);
    }

    CodeWriter raw(String text) {
        sb.append(text);
        return this;
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    /**
     * A loop level spelt as a while or do-while ({@link dev.yarpj.ir.LoopHead.Form}), in braces
     * of its own that scope the iterator: {@code { decl; [pragma] while (cond) { body update; } }}
     * or {@code { decl; [pragma] do { body update; } while (cond); }}; {@code pragma} is the line
     * before the loop statement, or null.
     */
    void formLoop(boolean doWhile, String decl, String pragma, String cond, String update, Runnable body) {
        open("");
        line(decl + ";");
        if (pragma != null) line(pragma);
        open(doWhile ? "do" : "while (" + cond + ")");
        body.run();
        line(update + ";");
        if (doWhile) closeWith("} while (" + cond + ");");
        else close();
        close();
    }
}
