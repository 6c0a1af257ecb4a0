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

    /** Replaces the switch numbered {@code stmt} by the body of one case ({@code arm}), or of its default ({@code arm} = the number of cases). */
    record UnwrapSwitch(int stmt, int arm) implements Edit {
        public int at() {
            return stmt;
        }

        public String describe() {
            return "replace switch " + stmt + " by the body of its case " + arm + " (its default, when it has no such case)";
        }
    }

    /** Drops case {@code arm} of the switch numbered {@code stmt}: the values it was for go to the default. */
    record DropCase(int stmt, int arm) implements Edit {
        public int at() {
            return stmt;
        }

        public String describe() {
            return "drop case " + arm + " of switch " + stmt;
        }
    }

    /** Replaces the braced block numbered {@code stmt} by its statements, in its place (locals have unique names: none is hidden). */
    record Unblock(int stmt) implements Edit {
        public int at() {
            return stmt;
        }

        public String describe() {
            return "replace block " + stmt + " by its statements";
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

    /**
     * Drops the outermost loop level of the nest numbered {@code stmt} (or of the one nest of the
     * sequence numbered {@code stmt}), running its inner loops once, at the outer iterator's first value.
     */
    record DropLevel(int stmt) implements Edit {
        public int at() {
            return stmt;
        }

        public String describe() {
            return "drop the outer loop of nest " + stmt;
        }
    }

    /**
     * Drops the innermost loop level of the nest numbered {@code stmt} (or of the one nest of the
     * sequence numbered {@code stmt}), of two levels or more: its statements run once per
     * iteration of the loop around it, at the inner iterator's first value.
     */
    record DropInnermost(int stmt) implements Edit {
        public int at() {
            return stmt;
        }

        public String describe() {
            return "drop the inner loop of nest " + stmt;
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

    /**
     * Inlines call {@code expr} (a helper call): the call becomes the helper's body with each
     * parameter replaced by its argument, so a reduced test keeps a call only where the bug
     * needs one (a helper no call is left to goes with the unused globals).
     */
    record InlineCall(int expr) implements Edit {
        public int at() {
            return expr;
        }

        public String describe() {
            return "inline call " + expr;
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

    /**
     * Makes loop {@code loop} (loop heads numbered in preorder, a nest's levels outermost first)
     * run {@code trip} iterations, its first ones: its bound becomes the constant that stops it
     * there (for a loop whose start and step are constants or inputs). Its planned trip count
     * follows, and a prefix of independent iterations stays independent.
     */
    record LowerTrip(int loop, long trip) implements Edit {
        public int at() {
            return loop;
        }

        public String describe() {
            return "run loop " + loop + " " + trip + " time" + (trip == 1 ? "" : "s");
        }
    }

    /**
     * Spells loop {@code loop} (numbered as for {@link LowerTrip}), a while or do-while, as a for
     * loop again, without its header exit: it then runs its planned trips (the interpreter
     * checks them), and a sentinel array the header alone read is unused.
     */
    record ToFor(int loop) implements Edit {
        public int at() {
            return loop;
        }

        public String describe() {
            return "spell loop " + loop + " as a for loop";
        }
    }

    /**
     * Keeps the first {@code rows} rows of the array in slot {@code slot} (its outer dimension);
     * an access to a row that went is out of bounds, which the interpreter refuses.
     */
    record ShrinkArray(int slot, int rows) implements Edit {
        public int at() {
            return slot;
        }

        public String describe() {
            return "keep " + rows + " row" + (rows == 1 ? "" : "s") + " of array " + slot;
        }
    }

    /**
     * Takes the array in slot {@code slot} out of its array of structs: a global array of its
     * own, so that a reduced test keeps a struct only where the symptom needs one.
     */
    record Unfield(int slot) implements Edit {
        public int at() {
            return slot;
        }

        public String describe() {
            return "take array " + slot + " out of its struct";
        }
    }

    /**
     * Passes every parameter of helper {@code helper} (its index in the program's list) that
     * it takes by pointer by value instead: the same element, so the same values; a reduced
     * test keeps a pointer only where the symptom needs one.
     */
    record Unpoint(int helper) implements Edit {
        public int at() {
            return helper;
        }

        public String describe() {
            return "pass helper " + helper + "'s pointer parameters by value";
        }
    }

    /**
     * Passes each struct parameter of helper {@code helper} field by field, the fields its
     * body reads each a parameter of its own: the same values; a reduced test keeps a struct
     * parameter only where the symptom needs one.
     */
    record Unstruct(int helper) implements Edit {
        public int at() {
            return helper;
        }

        public String describe() {
            return "pass helper " + helper + "'s struct parameters field by field";
        }
    }

    /** Drops parameter {@code param} of helper {@code helper}, which its body does not read, and its argument from every call. */
    record DropParam(int helper, int param) implements Edit {
        public int at() {
            return helper;
        }

        public String describe() {
            return "drop parameter " + param + " of helper " + helper;
        }
    }

    /**
     * Drops field {@code field} of the struct helper {@code helper} returns, which no call
     * reads (an inlined call reads none); the last field left is returned as a plain value.
     */
    record DropResult(int helper, int field) implements Edit {
        public int at() {
            return helper;
        }

        public String describe() {
            return "drop result field " + field + " of helper " + helper;
        }
    }

    /**
     * Keeps the planned input set and, when {@code set} is above 0, input set {@code set}: the
     * driver then calls {@code test()} once or twice, and a wrong code that shows in one set
     * keeps that set alone (the planned one always stays: it is what the loops were planned
     * for).
     */
    record KeepInputSet(int set) implements Edit {
        public int at() {
            return 0;
        }

        public String describe() {
            return set == 0 ? "keep the planned input set alone" : "keep input set " + set + " beside the planned one";
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
