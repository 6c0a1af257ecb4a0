package dev.yarpj.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Optimizer work bought per compile CPU-second: Passed remarks divided by the CPU seconds
 * (user + system) the compiles took, over all programs together, per pass and in total. A
 * campaign spends nearly all its CPU compiling, so this is how many optimizer events a policy
 * makes happen per unit of a campaign's budget. For gcc, whose remarks name no pass, the
 * units are its remark names (as in {@link PolicyComparison}).
 *
 * <p>Two policies compare by the ratio of their rates, unit by unit, and by the geometric
 * mean of those ratios over the loop units ({@link RemarkCompiler#isLoopUnit}); the total is
 * shown too, but a few frequent units (clang's LICM hoists) dominate it.
 *
 * <p>Compile times have a heavy tail (a clang vectorizer hog can take a hundred times the
 * median), so one compile can decide these rates: the largest compile and its share of the
 * CPU are reported beside them, so that a reader sees when to rerun with more seeds or look
 * at that seed.
 *
 * <p>Which tests the seeds draw moves the rates too: over 200 seeds, a geometric mean of
 * 1.58 measured on clang 23 had a 95% interval of 1.23 to 2.14 (docs/measurements.md, "The
 * compile budget"). So a comparison carries a bootstrap interval
 * of its geometric mean: the seeds that both policies compiled are resampled with
 * replacement, the same seeds on both sides, {@value #RESAMPLES} times, and the middle 95%
 * of the geometric means those samples give is the interval. The resampling draws from a
 * fixed seed, so the same compiles print the same interval.
 */
public final class RemarkRate {
    /** One unit: its Passed remarks, and those per CPU-second. */
    public record Unit(String name, long remarks, double perCpuSecond, boolean loop) {}

    /** The compile that took the most CPU: its seed, its CPU seconds and their share of all the compiles'. */
    public record Largest(long seed, double cpuSeconds, double share) {
        /** A share of the CPU from which the report says that this compile alone moves the rates. */
        static final double MOVES_RATES = 0.2;

        public boolean movesRates() {
            return share >= MOVES_RATES;
        }
    }

    private final double cpuSeconds;
    private final long total;
    private final Map<String, Unit> units = new TreeMap<>();
    private final Largest largest;
    /** Each compile's CPU seconds and Passed remarks per unit, by seed, for the bootstrap. */
    private final Map<Long, SeedCounts> bySeed = new HashMap<>();

    private record SeedCounts(double cpuSeconds, Map<String, Long> counts) {}

    /** The rates over {@code compiles}, the tallies of the seeds that compiled. */
    RemarkRate(RemarkCompiler compiler, List<SeedResult.Measured<RemarkTally>> compiles) {
        double cpu = 0;
        long all = 0;
        Map<String, Long> counts = new TreeMap<>();
        SeedResult.Measured<RemarkTally> most = null;
        for (SeedResult.Measured<RemarkTally> m : compiles) {
            RemarkTally t = m.measure();
            cpu += t.cpuSeconds();
            if (most == null || t.cpuSeconds() > most.measure().cpuSeconds()) most = m;
            Map<String, Long> seedCounts = new HashMap<>();
            if (compiler.geomeanOverNames()) {
                for (var e : t.byName().entrySet()) {
                    if (e.getKey().kind() == RemarkKind.PASSED) seedCounts.merge(e.getKey().name(), (long) e.getValue(), Long::sum);
                }
            } else {
                for (var e : t.byPass().entrySet()) {
                    if (e.getKey().kind() == RemarkKind.PASSED) seedCounts.merge(e.getKey().pass(), (long) e.getValue(), Long::sum);
                }
            }
            for (var e : seedCounts.entrySet()) counts.merge(e.getKey(), e.getValue(), Long::sum);
            bySeed.put(m.seed(), new SeedCounts(t.cpuSeconds(), seedCounts));
        }
        for (long c : counts.values()) all += c;
        this.cpuSeconds = cpu;
        this.total = all;
        this.largest = most == null ? null
                : new Largest(most.seed(), most.measure().cpuSeconds(), cpu > 0 ? most.measure().cpuSeconds() / cpu : Double.NaN);
        for (var e : counts.entrySet()) {
            String unit = e.getKey();
            boolean loop = compiler.geomeanOverNames() ? compiler.isLoopUnit("opt-info", unit) : compiler.isLoopUnit(unit, "");
            units.put(unit, new Unit(unit, e.getValue(), rate(e.getValue()), loop));
        }
    }

    private double rate(long remarks) {
        return cpuSeconds > 0 ? remarks / cpuSeconds : Double.NaN;
    }

    /** CPU seconds of all the compiles. */
    public double cpuSeconds() {
        return cpuSeconds;
    }

    /** The compile that took the most CPU, or null when nothing compiled. */
    public Largest largest() {
        return largest;
    }

    /** Passed remarks of all units. */
    public long total() {
        return total;
    }

    public double totalPerCpuSecond() {
        return rate(total);
    }

    /** Every unit with a Passed remark, by name. */
    public List<Unit> units() {
        return new ArrayList<>(units.values());
    }

    /** One unit under A and B: rates and their ratio (NaN unless both rates are positive). */
    public record Row(String unit, double perCpuSecondA, double perCpuSecondB, double ratio, boolean loop) {}

    /**
     * A and B side by side: every unit of either, the total, the geometric mean over the loop
     * units in both, and its bootstrap interval (null with fewer than 2 seeds compiled by both).
     */
    public record Comparison(List<Row> rows, Row total, int loopUnits, double geoMean, Interval interval,
                             List<String> onlyInA, List<String> onlyInB) {}

    /**
     * The middle {@link #CONFIDENCE} of the geometric means of {@code resamples} resamples of
     * the {@code seeds} both policies compiled, and the geometric mean over those seeds
     * themselves ({@code geoMean}): it differs from the comparison's, which counts every seed
     * each policy compiled, when a seed compiled under one policy only (a compile timeout, say).
     */
    public record Interval(double geoMean, double low, double high, int seeds, int resamples) {
        /** True when the interval holds 1: the two policies' rates do not differ at this confidence. */
        public boolean holdsOne() {
            return low <= 1 && 1 <= high;
        }
    }

    /** Resamples of the seeds in a bootstrap interval. */
    static final int RESAMPLES = 1000;
    /** Share of the resampled geometric means inside the interval. */
    public static final double CONFIDENCE = 0.95;
    /** The resampling's own seed: the same compiles give the same interval. */
    private static final long BOOTSTRAP_SEED = 0x9e3779b97f4a7c15L;

    public static Comparison compare(RemarkRate a, RemarkRate b) {
        TreeSet<String> names = new TreeSet<>(a.units.keySet());
        names.addAll(b.units.keySet());
        List<Row> rows = new ArrayList<>();
        List<String> onlyA = new ArrayList<>();
        List<String> onlyB = new ArrayList<>();
        List<String> loopUnits = new ArrayList<>();
        double logSum = 0;
        int n = 0;
        for (String name : names) {
            Unit ua = a.units.get(name);
            Unit ub = b.units.get(name);
            double ra = ua == null ? 0 : ua.perCpuSecond();
            double rb = ub == null ? 0 : ub.perCpuSecond();
            boolean loop = (ua != null && ua.loop()) || (ub != null && ub.loop());
            double ratio = ra > 0 && rb > 0 ? ra / rb : Double.NaN;
            rows.add(new Row(name, ra, rb, ratio, loop));
            if (!loop) continue;
            if (Double.isNaN(ratio)) {
                (ra > 0 ? onlyA : onlyB).add(name);
            } else {
                logSum += Math.log(ratio);
                n++;
                loopUnits.add(name);
            }
        }
        double ta = a.totalPerCpuSecond();
        double tb = b.totalPerCpuSecond();
        Row total = new Row("all passes", ta, tb, ta > 0 && tb > 0 ? ta / tb : Double.NaN, false);
        return new Comparison(rows, total, n, n == 0 ? Double.NaN : Math.exp(logSum / n), interval(a, b, loopUnits), onlyA, onlyB);
    }

    /**
     * The bootstrap interval of the geometric mean over {@code units}: the seeds compiled under
     * both A and B, resampled with replacement and the same on both sides. A resample in
     * which a unit has no remark on one side leaves that unit out of its mean, as the full
     * comparison does; one with no unit left gives no mean.
     */
    static Interval interval(RemarkRate a, RemarkRate b, List<String> units) {
        List<Long> seeds = new ArrayList<>();
        for (Long s : new TreeSet<>(a.bySeed.keySet())) if (b.bySeed.containsKey(s)) seeds.add(s);
        int n = seeds.size();
        if (n < 2 || units.isEmpty()) return null;
        int k = units.size();
        double[] cpuA = new double[n];
        double[] cpuB = new double[n];
        long[][] remA = new long[k][n];
        long[][] remB = new long[k][n];
        for (int i = 0; i < n; i++) {
            SeedCounts sa = a.bySeed.get(seeds.get(i));
            SeedCounts sb = b.bySeed.get(seeds.get(i));
            cpuA[i] = sa.cpuSeconds();
            cpuB[i] = sb.cpuSeconds();
            for (int u = 0; u < k; u++) {
                remA[u][i] = sa.counts().getOrDefault(units.get(u), 0L);
                remB[u][i] = sb.counts().getOrDefault(units.get(u), 0L);
            }
        }
        int[] pick = new int[n];
        for (int i = 0; i < n; i++) pick[i] = i;
        double paired = geoMean(pick, cpuA, cpuB, remA, remB);
        SplittableRandom rnd = new SplittableRandom(BOOTSTRAP_SEED);
        double[] means = new double[RESAMPLES];
        int m = 0;
        for (int r = 0; r < RESAMPLES; r++) {
            for (int i = 0; i < n; i++) pick[i] = rnd.nextInt(n);
            double g = geoMean(pick, cpuA, cpuB, remA, remB);
            if (!Double.isNaN(g)) means[m++] = g;
        }
        if (m == 0 || Double.isNaN(paired)) return null;
        double[] sorted = Arrays.copyOf(means, m);
        Arrays.sort(sorted);
        double tail = (1 - CONFIDENCE) / 2;
        int lo = (int) Math.floor(tail * (m - 1));
        int hi = (int) Math.ceil((1 - tail) * (m - 1));
        return new Interval(paired, sorted[lo], sorted[hi], n, m);
    }

    /** The geometric mean of A's rate over B's, unit by unit, over the picked seeds (a seed may be picked twice); NaN with no unit in both. */
    private static double geoMean(int[] pick, double[] cpuA, double[] cpuB, long[][] remA, long[][] remB) {
        double ca = 0, cb = 0;
        for (int i : pick) {
            ca += cpuA[i];
            cb += cpuB[i];
        }
        if (ca <= 0 || cb <= 0) return Double.NaN;
        double logSum = 0;
        int used = 0;
        for (int u = 0; u < remA.length; u++) {
            long ra = 0, rb = 0;
            for (int i : pick) {
                ra += remA[u][i];
                rb += remB[u][i];
            }
            if (ra == 0 || rb == 0) continue;
            logSum += Math.log((ra / ca) / (rb / cb));
            used++;
        }
        return used == 0 ? Double.NaN : Math.exp(logSum / used);
    }
}
