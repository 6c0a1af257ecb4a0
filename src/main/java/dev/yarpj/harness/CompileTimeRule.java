package dev.yarpj.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * When a compile past the limit is a finding. A slow compile alone is not: large tests are
 * slow to build at {@code -O3} with every compiler, and compiler developers do not take
 * "this test takes 70 s" for a bug. What they do take is one compiler, level or version
 * many times slower than the others on the same test, or a build that never finishes. So
 * a compile past its limit is a finding only when at least one other testbed finished
 * the same test and the limit is at least {@link #FACTOR} times the median CPU time of
 * the testbeds that finished: the slow one is then at least that many times slower than
 * the typical one. Whether it finishes at all is told later by a recheck
 * ({@link CompileRecheck}), which never holds up a campaign's jobs.
 *
 * <p>The median, not the fastest: {@code -O1} is always much faster than {@code -O3}, and
 * a rule against the fastest would call every {@code -O3} hog an outlier.
 */
final class CompileTimeRule {
    /** How many times slower than the median of the others a compile must be to be an outlier. */
    static final double FACTOR = 10;

    private CompileTimeRule() {}

    /** A slow testbed the rule calls an outlier, and why in one sentence. */
    record Outlier(String testbed, String reason) {}

    /**
     * @param limitSeconds the compile limit the slow testbeds passed
     * @param finished     CPU seconds of every testbed whose compile ended within the limit (whether or not it succeeded)
     * @param slow         the testbeds whose compile passed the limit
     * @return the slow testbeds that are outliers (none when nothing finished, or when the others are too slow themselves)
     */
    static List<Outlier> outliers(double limitSeconds, Map<String, Double> finished, List<String> slow) {
        if (finished.isEmpty() || slow.isEmpty()) return List.of();
        double median = median(new ArrayList<>(finished.values()));
        if (limitSeconds < FACTOR * median) return List.of();
        String reason = String.format(Locale.ROOT, "still compiling at the %.0f s limit, while the median of the %d testbeds "
                + "that finished was %.2f s CPU: at least %.0f times slower", limitSeconds, finished.size(), median,
                Math.max(FACTOR, median > 0 ? limitSeconds / median : FACTOR));
        List<Outlier> out = new ArrayList<>();
        for (String tb : slow) out.add(new Outlier(tb, reason));
        return out;
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
