package dev.yarpj.flesh;

import dev.yarpj.ir.ScalarVar;
import java.util.ArrayList;
import java.util.List;

/**
 * The symbol table of one block: the locals declared in it, with their value in each
 * context, chained to the enclosing block's table. Globals live in {@link Globals}.
 */
final class Scope {
    record Local(ScalarVar var, long[] values) {}

    private final Scope parent;
    private final List<Local> locals = new ArrayList<>();

    Scope(Scope parent) {
        this.parent = parent;
    }

    void declare(ScalarVar var, long[] values) {
        locals.add(new Local(var, values));
    }

    /** Every local visible here, innermost scope last. */
    List<Local> visible() {
        List<Local> all = parent == null ? new ArrayList<>() : parent.visible();
        all.addAll(locals);
        return all;
    }
}
