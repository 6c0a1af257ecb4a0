package dev.yarpj.policy;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The single seeded random source of one test. Its algorithm is fixed by the JDK
 * specification, so a seed gives the same program on every JVM.
 */
public final class Rng {
    private final SplittableRandom random;

    public Rng(long seed) {
        this.random = new SplittableRandom(seed);
    }

    public boolean chance(double p) {
        return p > 0 && random.nextDouble() < p;
    }

    /** Uniform in [lo, hi]. */
    public int between(int lo, int hi) {
        return lo >= hi ? lo : lo + random.nextInt(hi - lo + 1);
    }

    public long nextLong() {
        return random.nextLong();
    }

    public <T> T pick(List<T> items) {
        return items.get(random.nextInt(items.size()));
    }

    /** A key drawn with probability proportional to its weight; null when all weights are zero. */
    public <K> K weighted(Map<K, Integer> weights) {
        long total = 0;
        for (int w : weights.values()) total += w;
        if (total == 0) return null;
        long r = random.nextLong(total);
        for (Map.Entry<K, Integer> e : weights.entrySet()) {
            r -= e.getValue();
            if (r < 0) return e.getKey();
        }
        throw new AssertionError();
    }
}
