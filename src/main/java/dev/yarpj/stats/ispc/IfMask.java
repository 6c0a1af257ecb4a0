package dev.yarpj.stats.ispc;

/**
 * How often one varying if ran with some lane on ({@code runs}) and, of those, with a mixed
 * mask; {@code exit}: a branch of it breaks or continues, so a mixed run shrinks the mask of
 * the loop it leaves or skips.
 */
public record IfMask(long runs, long mixed, boolean exit) {
    public IfMask {
        if (runs < 0 || mixed < 0 || mixed > runs) throw new IllegalArgumentException("bad counts " + runs + ", " + mixed);
    }

    /** An if without an exit. */
    public IfMask(long runs, long mixed) {
        this(runs, mixed, false);
    }
}
