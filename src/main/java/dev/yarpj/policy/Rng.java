package dev.yarpj.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.apache.commons.math3.distribution.EnumeratedDistribution;
import org.apache.commons.math3.random.AbstractRandomGenerator;
import org.apache.commons.math3.util.Pair;

/**
 * The single seeded random source of one test. Its algorithm is fixed by the JDK
 * specification, so a seed gives the same program on every JVM. Weighted choices are
 * Commons Math distributions drawing from this source.
 */
public final class Rng {
    /** Where draws come from: the seeded generator, possibly recording ({@link #record}) or replaying a {@link Tape}. */
    private Source random;
    /** This source seen as a Commons Math generator, for its distributions. */
    private final AbstractRandomGenerator asGenerator = new AbstractRandomGenerator() {
        @Override
        public void setSeed(long seed) {
            throw new UnsupportedOperationException("an Rng is seeded once, when made");
        }

        @Override
        public double nextDouble() {
            return random.nextDouble();
        }
    };

    public Rng(long seed) {
        this.random = new Seeded(new SplittableRandom(seed));
    }

    private Rng(Source source) {
        this.random = source;
    }

    /**
     * From now on, every draw is also written to the returned tape: what a later stage
     * (the lowering's planner) drew, so that the same stage can be run again on the saved
     * program without the rng state that led to it ({@link #replaying}).
     */
    public Tape record() {
        Tape tape = new Tape("", List.of());
        Source inner = random;
        random = new Source() {
            @Override
            public double nextDouble() {
                double d = inner.nextDouble();
                tape.add('d', Double.doubleToRawLongBits(d));
                return d;
            }

            @Override
            public int nextInt(int bound) {
                int v = inner.nextInt(bound);
                tape.add('i', v);
                return v;
            }

            @Override
            public long nextLong() {
                long v = inner.nextLong();
                tape.add('l', v);
                return v;
            }
        };
        return tape;
    }

    /**
     * An rng that draws what {@code tape} recorded, in order, as long as the draws asked
     * of it are of the kinds recorded (an int below the same bound); from the first draw
     * that differs (the program it serves was edited since), it draws from a generator
     * seeded with {@code seed}. Same tape, same draws asked: same answers.
     */
    public static Rng replaying(Tape tape, long seed) {
        SplittableRandom fallback = new SplittableRandom(seed);
        return new Rng(new Source() {
            int next;
            boolean off;

            private boolean on(char kind, long bound) {
                if (!off && next < tape.size() && tape.kind(next) == kind && (kind != 'i' || tape.value(next) < bound)) return true;
                off = true;
                return false;
            }

            @Override
            public double nextDouble() {
                return on('d', 0) ? Double.longBitsToDouble(tape.value(next++)) : fallback.nextDouble();
            }

            @Override
            public int nextInt(int bound) {
                return on('i', bound) ? (int) tape.value(next++) : fallback.nextInt(bound);
            }

            @Override
            public long nextLong() {
                return on('l', 0) ? tape.value(next++) : fallback.nextLong();
            }
        });
    }

    /**
     * The draws of an rng since {@link #record}: their kinds ({@code d} a double as its bits,
     * {@code i} an int, {@code l} a long) and values, in order.
     */
    public static final class Tape {
        private final StringBuilder kinds;
        private final List<Long> values;

        public Tape(String kinds, List<Long> values) {
            if (kinds.length() != values.size()) throw new IllegalArgumentException("a tape has as many kinds as values");
            if (!kinds.matches("[dil]*")) throw new IllegalArgumentException("a tape's kinds are d, i and l");
            this.kinds = new StringBuilder(kinds);
            this.values = new ArrayList<>(values);
        }

        void add(char kind, long value) {
            kinds.append(kind);
            values.add(value);
        }

        public String kinds() {
            return kinds.toString();
        }

        public List<Long> values() {
            return List.copyOf(values);
        }

        public int size() {
            return values.size();
        }

        char kind(int i) {
            return kinds.charAt(i);
        }

        long value(int i) {
            return values.get(i);
        }
    }

    private interface Source {
        double nextDouble();

        int nextInt(int bound);

        long nextLong();
    }

    private record Seeded(SplittableRandom r) implements Source {
        @Override
        public double nextDouble() {
            return r.nextDouble();
        }

        @Override
        public int nextInt(int bound) {
            return r.nextInt(bound);
        }

        @Override
        public long nextLong() {
            return r.nextLong();
        }
    }

    public boolean chance(double p) {
        return p > 0 && random.nextDouble() < p;
    }

    /**
     * True with probability {@code p}, taking one draw even where {@code p} is 0: a choice
     * that changes only how a thing is spelt, so that every other draw, and so the program,
     * stays the same whatever {@code p} is (a controlled comparison of the two spellings).
     */
    public boolean spelling(double p) {
        return random.nextDouble() < p;
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
        return sampler(weights).get();
    }

    /**
     * Draws keys with probability proportional to their weights, from this source; for a
     * choice made many times, the distribution is built once. Supplies null when all weights
     * are zero.
     */
    public <K> Supplier<K> sampler(Map<K, Integer> weights) {
        List<Pair<K, Double>> pmf = new ArrayList<>();
        for (Map.Entry<K, Integer> e : weights.entrySet()) {
            // Zero-weight keys are left out: a draw landing exactly on a boundary must not pick one.
            if (e.getValue() > 0) pmf.add(new Pair<>(e.getKey(), (double) e.getValue()));
        }
        if (pmf.isEmpty()) return () -> null;
        if (pmf.size() == 1) {
            K only = pmf.get(0).getKey();
            return () -> only;
        }
        EnumeratedDistribution<K> d = new EnumeratedDistribution<>(asGenerator, pmf);
        return d::sample;
    }

    /**
     * A choice among a few names by small integer weights, drawn as generation drew it before
     * the weights were a policy's: {@link #roll} as {@code between(0, total - 1)} walked through
     * the running sums, {@link #pick} as {@link Rng#pick} from a list repeating each name as often
     * as its weight says. Names of weight 0 are never drawn; at least one weight must be above 0.
     */
    public static final class Odds<K> {
        private final List<K> keys = new ArrayList<>();
        private final List<Integer> upTo = new ArrayList<>();
        private int total;

        public Odds(Map<String, Integer> weights, java.util.function.Function<String, K> key) {
            for (Map.Entry<String, Integer> e : weights.entrySet()) {
                if (e.getValue() <= 0) continue;
                total += e.getValue();
                keys.add(key.apply(e.getKey()));
                upTo.add(total);
            }
            if (total == 0) throw new IllegalArgumentException("weights all zero: " + weights);
        }

        /** The key of {@code between(0, total - 1)}. */
        public K roll(Rng rng) {
            return at(rng.between(0, total - 1));
        }

        /** The key {@link Rng#pick} draws from the list that repeats each key weight times. */
        public K pick(Rng rng) {
            return at(rng.random.nextInt(total));
        }

        /** The keys of weight above 0, in order. */
        public List<K> keys() {
            return List.copyOf(keys);
        }

        private K at(int r) {
            for (int i = 0; i < keys.size(); i++) if (r < upTo.get(i)) return keys.get(i);
            throw new IllegalStateException();
        }
    }
}
