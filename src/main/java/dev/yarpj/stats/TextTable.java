package dev.yarpj.stats;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table: columns padded to their widest cell, numbers aligned right. */
final class TextTable {
    private final List<String> headers;
    private final boolean[] right;
    private final List<List<String>> rows = new ArrayList<>();

    /** {@code rightAligned}: one flag per column. */
    TextTable(List<String> headers, boolean... rightAligned) {
        this.headers = headers;
        this.right = rightAligned;
    }

    void add(String... cells) {
        rows.add(List.of(cells));
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    String render(String indent) {
        int[] w = new int[headers.size()];
        for (int i = 0; i < w.length; i++) w[i] = headers.get(i).length();
        for (List<String> r : rows) for (int i = 0; i < w.length; i++) w[i] = Math.max(w[i], r.get(i).length());
        StringBuilder sb = new StringBuilder();
        line(sb, indent, headers, w);
        for (List<String> r : rows) line(sb, indent, r, w);
        return sb.toString();
    }

    private void line(StringBuilder sb, String indent, List<String> cells, int[] w) {
        StringBuilder l = new StringBuilder(indent);
        for (int i = 0; i < w.length; i++) {
            if (i > 0) l.append("  ");
            String c = cells.get(i);
            boolean r = i < right.length && right[i];
            if (r) l.append(" ".repeat(w[i] - c.length())).append(c);
            else l.append(c).append(i == w.length - 1 ? "" : " ".repeat(w[i] - c.length()));
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }
}
