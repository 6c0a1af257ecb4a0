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
 * median and at least {@link #FLOOR_OF_LIMIT} of the limit: a compile stands out only when
 * it is long enough to be more than noise.</li>
 * </ul>
 * Nothing is an outlier when no compile finished, or when half of them or more are slow:
 * the median is then slow too.
 *
 * <p>The same rule sets each compile's CPU limit ({@link #limit}): once {@link #MIN_FINISHED}
 * of a test's builds have finished, the next one is stopped at the bar that would make it an
 * outlier (ten times their median, at least the floor), since past that it is a finding
 * whatever else it does. Waiting for the whole limit cost a campaign a quarter of its CPU on
 * the outliers of one known bug. A compile stopped there is {@link #cut}: an outlier when its
 * bar is still that of the whole test (the runner compiles it again with the test's bar when
 * the builds after it raised the median).
 *
 * <p>The median, not the fastest: {@code -O1} is always much faster than {@code -O3}, and a
 * rule against the fastest would call every {@code -O3} hog an outlier.
 */
final class CompileTimeRule {
    /** How many times slower than the median a compile must be to be an outlier. */
    static final double FACTOR = 10;
    /**
     * The least CPU time, as a share of the compile limit, of a compile that is an outlier: 3 CPU-s
     * at the default 60. Judged by CPU time, a compile of a few seconds that is ten times the
     * others' is no noise; the floor keeps a tenth of a second against a hundredth from counting.
     * It was a sixth (10 s) while compiles were judged by wall-clock time too; stopped at it,
     * the outliers of one known bug still took a tenth of a campaign.
     */
    static final double FLOOR_OF_LIMIT = 1.0 / 20;

    /** How many of a test's builds must have finished before the next is stopped at their bar rather than at the limit. */
    static final int MIN_FINISHED = 3;

    private CompileTimeRule() {}

    /**
     * The CPU seconds the next compile of a test may take: the limit until {@link #MIN_FINISHED}
     * of its builds have finished, then the bar of an outlier over those ({@link #FACTOR} times
     * their median, at least {@link #FLOOR_OF_LIMIT} of the limit), never more than the limit.
     *
     * @param limitSeconds the compile limit ({@code --compile-timeout})
     * @param finished     CPU seconds of the test's compiles that finished so far
     */
    static double limit(double limitSeconds, java.util.Collection<Double> finished) {
        if (finished.size() < MIN_FINISHED) return limitSeconds;
        double bar = Math.max(FACTOR * median(new ArrayList<>(finished)), FLOOR_OF_LIMIT * limitSeconds);
        return Math.min(limitSeconds, bar);
    }

    /** What an outlier stopped at its bar says of its time: past 10x, at the CPU seconds it was stopped. */
    static String cut(double atSeconds) {
        return String.format(Locale.ROOT, "past %.0fx at %.1f CPU-s", FACTOR, atSeconds);
    }

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
     * @param finished     CPU seconds of every testbed whose compile ended within its limit (whether or not it succeeded)
     * @param slow         the testbeds whose compile passed the limit, in testbed order
     */
    static Outliers outliers(double limitSeconds, Map<String, Double> finished, List<String> slow) {
        return outliers(limitSeconds, finished, slow, Map.of());
    }

    /**
     * @param cut the testbeds whose compile was stopped at a bar under the limit ({@link #limit}), with that bar in CPU seconds
     */
    static Outliers outliers(double limitSeconds, Map<String, Double> finished, List<String> slow, Map<String, Double> cut) {
        Map<String, String> out = new LinkedHashMap<>();
        if (finished.isEmpty()) return new Outliers(out, "", Double.NaN);
        double median = median(new ArrayList<>(finished.values()));
        double bar = FACTOR * median;
        for (String tb : slow) {
            if (limitSeconds >= bar) out.put(tb, String.format(Locale.ROOT, "> %.0f s", limitSeconds));
        }
        for (Map.Entry<String, Double> e : cut.entrySet()) {
            // A hundredth of a second of slack: the bar was computed from the same times, rounded by ulimit to whole seconds.
            if (e.getValue() >= bar - 0.01 && e.getValue() >= FLOOR_OF_LIMIT * limitSeconds - 0.01) out.put(e.getKey(), cut(e.getValue()));
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
