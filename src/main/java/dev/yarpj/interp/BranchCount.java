package dev.yarpj.interp;

/**
 * How often the interpreter ran one static {@code if} of a program, in program pre-order, and
 * how often its condition held: whether it never held, always held, or held on some runs is
 * what a vectorizer's masks met on that input. {@code inLoop}: the {@code if} is inside a loop.
 */
public record BranchCount(boolean inLoop, long evaluated, long taken) {
    /** What the condition did on this input: "never", "always" or "some" (held on some runs and not others); "unrun" if it never ran. */
    public String outcome() {
        if (evaluated == 0) return "unrun";
        return taken == 0 ? "never" : taken == evaluated ? "always" : "some";
    }
}
