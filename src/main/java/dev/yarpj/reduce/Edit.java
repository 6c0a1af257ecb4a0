package dev.yarpj.reduce;

/**
 * One edit of a program that a reviewer can name, addressed by the preorder numbers of the
 * program it is applied to ({@link Rewrite}): blocks (the body of {@code test} is block 0,
 * then every nested block in program order), statements, and the expressions an edit may
 * replace (those computing values; never a loop head, a subscript's index or an assignment's
 * target, whose changes could break a loop's plan or a parallel loop's independence). A
 * reduction is the seed's program and the list of edits it accepted, replayable in order.
 */
public sealed interface Edit {
    /** What the edit does, for a log and for {@code edits.json}. */
    String describe();

    /** The number of what it addresses: its block, statement or expression (0 for the whole program). */
    int at();

    /** Deletes statements {@code from} (inclusive) to {@code to} (exclusive) of block {@code block}. */
    record DeleteStmts(int block, int from, int to) implements Edit {
        public int at() {
            return block;
        }

        public String describe() {
            return "delete statements " + from + ".." + (to - 1) + " of block " + block;
        }
    }

    /** Replaces the if statement numbered {@code stmt} by one of its arms (its statements, in its place). */
    record UnwrapIf(int stmt, boolean then) implements Edit {
        public int at() {
            return stmt;
        }

        public String describe() {
            return "replace if " + stmt + " by its " + (then ? "then" : "else") + " arm";
        }
    }

    /** Drops nest {@code nest} of the loop sequence numbered {@code stmt}. */
    record DropNest(int stmt, int nest) implements Edit {
        public int at() {
            return stmt;
        }

        public String describe() {
            return "drop nest " + nest + " of loop sequence " + stmt;
        }
    }

    /** Drops the outermost loop level of the nest numbered {@code stmt}, running its inner loops once, at the outer iterator's first value. */
    record DropLevel(int stmt) implements Edit {
        public int at() {
            return stmt;
        }

        public String describe() {
            return "drop the outer loop of nest " + stmt;
        }
    }

    /** Replaces expression {@code expr} by its operand number {@code operand}, converted to its type. */
    record ToOperand(int expr, int operand) implements Edit {
        public int at() {
            return expr;
        }

        public String describe() {
            return "replace expression " + expr + " by its operand " + operand;
        }
    }

    /** Replaces expression {@code expr} by the constant {@code value} of its type. */
    record ToConst(int expr, long value) implements Edit {
        public int at() {
            return expr;
        }

        public String describe() {
            return "replace expression " + expr + " by " + value;
        }
    }

    /** Drops the globals, parameters and arrays that nothing reads or writes any more. */
    record DropUnused() implements Edit {
        public int at() {
            return 0;
        }

        public String describe() {
            return "drop unused globals and arrays";
        }
    }
}
