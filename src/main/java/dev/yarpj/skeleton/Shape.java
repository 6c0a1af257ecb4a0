package dev.yarpj.skeleton;

import java.util.List;

/**
 * The high-level structure of a test, laid out top-down before any expression exists
 * (YARPGen v2, section 3.3). Policy decisions that must be coordinated across statements
 * (nest depth, imperfect levels, the odd/even split, fusible sequences) are fixed here and
 * honoured by fleshing.
 */
public sealed interface Shape {

    /** Statements and loops in a list of shapes, nested ones included: the cost of one pass over it. */
    static int size(List<? extends Shape> shapes) {
        int n = 0;
        for (Shape s : shapes) n += s.size();
        return n;
    }

    /** Statements and loops in this shape, nested ones included. */
    int size();

    enum SlotKind { ASSIGN, COMPOUND, LOCAL }

    /** A statement slot that fleshing fills with one assignment or declaration. */
    record Slot(SlotKind kind) implements Shape {
        public int size() {
            return 1;
        }
    }

    /** An if statement; {@code onParity} tests the parity of the split iterator (paper Listing 5). */
    record IfShape(List<Shape> then, List<Shape> otherwise, boolean onParity) implements Shape {
        public int size() {
            return 1 + Shape.size(then) + (otherwise == null ? 0 : Shape.size(otherwise));
        }
    }

    /**
     * A loop nest. {@code splitLevel} is the level whose iteration space is partitioned into
     * odd and even elements, or -1.
     */
    record Nest(List<Level> levels, List<Shape> body, int splitLevel) implements Shape {
        public int depth() {
            return levels.size();
        }

        public int size() {
            return sizeFrom(0);
        }

        /** The size of one iteration of level {@code level}: its own header, prefix, suffix and all within. */
        public int sizeFrom(int level) {
            int n = Shape.size(body);
            for (int l = level; l < levels.size(); l++) {
                n += 1 + Shape.size(levels.get(l).prefix()) + Shape.size(levels.get(l).suffix());
            }
            return n;
        }
    }

    record Level(List<Shape> prefix, List<Shape> suffix) {}

    /** Adjacent nests; with {@code sharedSpace} they iterate over one space and are fusible. */
    record Seq(List<Nest> nests, boolean sharedSpace) implements Shape {
        public int size() {
            return Shape.size(nests);
        }
    }
}
