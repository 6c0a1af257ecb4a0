package dev.yarpj.stats.ispc;

/** How often one varying if ran with some lane on ({@code runs}) and, of those, with a mixed mask. */
public record IfMask(long runs, long mixed) {
    public IfMask {
        if (runs < 0 || mixed < 0 || mixed > runs) throw new IllegalArgumentException("bad counts " + runs + ", " + mixed);
    }
}
