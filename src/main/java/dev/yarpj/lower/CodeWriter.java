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
}
