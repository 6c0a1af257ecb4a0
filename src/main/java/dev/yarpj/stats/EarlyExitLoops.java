package dev.yarpj.stats;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.TreeSet;

/**
 * The loops of a C or C++ test that leave early, by the line they start on: a loop a
 * {@code break} leaves (the innermost loop around it, as in C), and a {@code while} or
 * {@code do-while} whose condition tests more than its bound ({@code &&}). The lowerers print
 * one statement per line, indented by nesting, with every loop's body in braces closed at the
 * loop's own indent, so the text says which loop a {@code break} belongs to. The line is the
 * one compilers put their loop remarks on, so that the vectorizer's remarks tell which of these
 * loops it vectorized.
 */
final class EarlyExitLoops {
    private EarlyExitLoops() {}

    static Set<Integer> lines(String source) {
        Set<Integer> out = new TreeSet<>();
        Deque<int[]> open = new ArrayDeque<>(); // {indent, line} of each loop still open, innermost first
        String[] lines = source.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String text = lines[i].strip();
            int indent = lines[i].length() - lines[i].stripLeading().length();
            if (text.startsWith("}") && !open.isEmpty() && open.peek()[0] == indent) {
                int[] loop = open.pop();
                // do { ... } while (i < n && s[i] != K);
                if (text.startsWith("} while") && text.contains("&&")) out.add(loop[1]);
            }
            boolean loop = text.startsWith("for (") || text.startsWith("while (") || text.startsWith("do {") || text.equals("do");
            if (loop) {
                open.push(new int[] {indent, i + 1});
                if (text.startsWith("while (") && text.contains("&&")) out.add(i + 1);
            }
            if (text.contains("break;") && !open.isEmpty()) out.add(open.peek()[1]);
        }
        return out;
    }
}
