package dev.yarpj.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * When a compile's time is a finding. A slow compile alone is not: large tests are slow to
 * build at {@code -O3} with every compiler, and compiler developers do not take "this test
 * takes 70 s" for a bug. What they do take is one compiler, level or version many times
 * slower than the others on the same test, or a build that never finishes. So the rule
 * compares each compile with the median CPU time of the compiles of the same test that
 * finished within the limit:
 * <ul>
 * <li>a compile past the limit is an outlier when the limit is at least {@link #FACTOR}
 * times that median (it is then at least that many times slower); whether it finishes at
 * all is told later by a recheck ({@link CompileRecheck}), which never holds up a job;</li>
 * <li>a compile that finished is an outlier when it took at least {@link #FACTOR} times the
 * median and at least {@link #FLOOR_OF_LIMIT} of the limit: a compile of a few seconds
 * stands out only when it is long enough to be more than noise.</li>
 * </ul>
 * Nothing is an outlier when no compile finished, or when half of them or more are slow:
 * the median is then slow too.
 *
 * <p>The median, not the fastest: {@code -O1} is always much faster than {@code -O3}, and a
 * rule against the fastest would call every {@code -O3} hog an outlier.
 */
final class CompileTimeRule {
    /** How many times slower than the median a compile must be to be an outlier. */
    static final double FACTOR = 10;
    /** The least CPU time, as a share of the compile limit, of a finished compile that is an outlier. */
    static final double FLOOR_OF_LIMIT = 1.0 / 6;

    private CompileTimeRule() {}

    /**
     * The outliers of one test: each testbed with its time ("> limit" for one past it), why in
     * one sentence, and the seconds a compile had to take to be one ({@link #FACTOR} times the
     * median); no testbeds when there are none.
     */
    record Outliers(Map<String, String> testbeds, String reason, double bar) {
        boolean any() {
            return !testbeds.isEmpty();
        }
    }

    /**
     * @param limitSeconds the compile limit
     * @param finished     CPU seconds of every testbed whose compile ended within the limit (whether or not it succeeded)
     * @param slow         the testbeds whose compile passed the limit, in testbed order
     */
    static Outliers outliers(double limitSeconds, Map<String, Double> finished, List<String> slow) {
        Map<String, String> out = new LinkedHashMap<>();
        if (finished.isEmpty()) return new Outliers(out, "", Double.NaN);
        double median = median(new ArrayList<>(finished.values()));
        double bar = FACTOR * median;
        for (String tb : slow) {
            if (limitSeconds >= bar) out.put(tb, String.format(Locale.ROOT, "> %.0f s", limitSeconds));
        }
        for (Map.Entry<String, Double> e : finished.entrySet()) {
            if (e.getValue() >= bar && e.getValue() >= FLOOR_OF_LIMIT * limitSeconds) {
                out.put(e.getKey(), String.format(Locale.ROOT, "%.1f s", e.getValue()));
            }
        }
        if (out.isEmpty()) return new Outliers(out, "", bar);
        String reason = String.format(Locale.ROOT, "at least %.0f times the median CPU time of the %d testbeds that finished "
                + "(%.2f s)", FACTOR, finished.size(), median);
        return new Outliers(out, reason, bar);
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
