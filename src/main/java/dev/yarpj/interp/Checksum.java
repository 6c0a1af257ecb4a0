package dev.yarpj.interp;

/**
 * The checksum the driver prints: each output value, converted to unsigned long long, is
 * folded in with boost's hash_combine (as YARPGen does). The C text of the same function is
 * emitted by the lowerer; the two must stay in step.
 */
public final class Checksum {
    public static final long SALT = 0x9e3779b9L;

    private long seed;

    public void add(long value) {
        seed ^= value + SALT + (seed << 6) + (seed >>> 2);
    }

    public long value() {
        return seed;
    }

    public static long of(long[] values) {
        Checksum c = new Checksum();
        for (long v : values) c.add(v);
        return c.value();
    }
}
