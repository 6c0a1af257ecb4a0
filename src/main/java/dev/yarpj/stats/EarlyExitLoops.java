package dev.yarpj.stats;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The loops of a C or C++ test, by the lines they span, and which of them leave early: a
 * loop a {@code break} leaves (the innermost loop around it, as in C), the innermost loop
 * around a {@code return} (one test() leaves from), and a {@code while}
 * or {@code do-while} whose condition tests more than its bound ({@code &&}). The lowerers
 * print one statement per line, indented by nesting, with every loop's body in braces
 * closed at the loop's own indent, so the text says which loop a {@code break} belongs to.
 * A compiler's remark on a loop sits on one of its lines (clang's on the first; gcc's on
 * the line of the exit test it counts by, the last line of a do-while), never on a line of
 * a loop inside it: the innermost loop around a remark's line is the loop it is about.
 */
final class EarlyExitLoops {
    private EarlyExitLoops() {}

    /** A loop from line {@code first} to line {@code last} (1-based, its closing brace included). */
    record Loop(int first, int last, boolean leavesEarly) {
        boolean holds(int line) {
            return first <= line && line <= last;
        }
    }

    static List<Loop> loops(String source) {
        List<Loop> out = new ArrayList<>();
        Deque<int[]> open = new ArrayDeque<>(); // {indent, first line, leaves early} of each loop still open, innermost first
        String[] lines = source.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String text = lines[i].strip();
            int indent = lines[i].length() - lines[i].stripLeading().length();
            if (text.startsWith("}") && !open.isEmpty() && open.peek()[0] == indent) {
                int[] loop = open.pop();
                // do { ... } while (i < n && s[i] != K);
                boolean early = loop[2] == 1 || text.startsWith("} while") && text.contains("&&");
                out.add(new Loop(loop[1], i + 1, early));
            }
            if (text.startsWith("for (") || text.startsWith("while (") || text.startsWith("do {") || text.equals("do")) {
                open.push(new int[] {indent, i + 1, text.startsWith("while (") && text.contains("&&") ? 1 : 0});
            }
            // A return leaves every loop around it; the innermost is the one a vectorizer sees leave early.
            if ((text.contains("break;") || text.contains("return;")) && !open.isEmpty()) open.peek()[2] = 1;
        }
        out.sort(Comparator.comparingInt(Loop::first));
        return out;
    }

    /** The first lines of the loops of {@code source} that leave early. */
    static Set<Integer> lines(String source) {
        Set<Integer> out = new LinkedHashSet<>();
        for (Loop l : loops(source)) if (l.leavesEarly()) out.add(l.first());
        return out;
    }

    /** The loop a remark on {@code line} is about: the innermost loop around it, or null. */
    static Loop around(List<Loop> loops, int line) {
        Loop best = null;
        for (Loop l : loops) if (l.holds(line) && (best == null || l.last() - l.first() < best.last() - best.first())) best = l;
        return best;
    }
}
