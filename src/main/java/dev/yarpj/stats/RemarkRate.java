package dev.yarpj.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 */
public final class RemarkRate {
    /** One unit: its Passed remarks, and those per CPU-second. */
    public record Unit(String name, long remarks, double perCpuSecond, boolean loop) {}

    /** The compile that took the most CPU: its seed, its CPU seconds and their share of all the compiles'. */
    public record Largest(long seed, double cpuSeconds, double share) {}

    private final double cpuSeconds;
    private final long total;
    private final Map<String, Unit> units = new TreeMap<>();
    private final Largest largest;

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
            if (compiler.geomeanOverNames()) {
                for (var e : t.byName().entrySet()) {
                    if (e.getKey().kind() == RemarkKind.PASSED) counts.merge(e.getKey().name(), (long) e.getValue(), Long::sum);
                }
            } else {
                for (var e : t.byPass().entrySet()) {
                    if (e.getKey().kind() == RemarkKind.PASSED) counts.merge(e.getKey().pass(), (long) e.getValue(), Long::sum);
                }
            }
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

    /** A and B side by side: every unit of either, the total, and the geometric mean over the loop units in both. */
    public record Comparison(List<Row> rows, Row total, int loopUnits, double geoMean, List<String> onlyInA, List<String> onlyInB) {}

    public static Comparison compare(RemarkRate a, RemarkRate b) {
        TreeSet<String> names = new TreeSet<>(a.units.keySet());
        names.addAll(b.units.keySet());
        List<Row> rows = new ArrayList<>();
        List<String> onlyA = new ArrayList<>();
        List<String> onlyB = new ArrayList<>();
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
            }
        }
        double ta = a.totalPerCpuSecond();
        double tb = b.totalPerCpuSecond();
        Row total = new Row("all passes", ta, tb, ta > 0 && tb > 0 ? ta / tb : Double.NaN, false);
        return new Comparison(rows, total, n, n == 0 ? Double.NaN : Math.exp(logSum / n), onlyA, onlyB);
    }
}
