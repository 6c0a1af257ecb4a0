package dev.yarpj.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Two policies' trip counts side by side, per group of loops ({@link TripSummary#GROUPS}):
 * both rows, and Welch's t-test on the per-program mean of log2(1 + iterations per entry)
 * over entered loops ({@link TripSummary#perProgramMeanLog2}). A group with fewer than two
 * such programs under either policy is not tested.
 */
public final class TripComparison {

    /**
     * One group under A and B. {@code meanLog2A} and {@code meanLog2B} are the means of the
     * per-program samples (NaN for none); {@code pValue} is NaN when not {@code tested}.
     */
    public record Row(TripSummary.Group group, TripSummary.Row a, TripSummary.Row b, double meanLog2A, double meanLog2B,
                      boolean tested, double pValue, boolean significant) {
        /** "significant", "n.s.", or "-" when not tested. */
        public String verdict() {
            return !tested ? "-" : significant ? "significant" : "n.s.";
        }
    }

    private final List<Row> rows = new ArrayList<>();

    public TripComparison(TripSummary a, TripSummary b) {
        for (TripSummary.Group g : TripSummary.GROUPS) {
            double[] sa = a.perProgramMeanLog2(g);
            double[] sb = b.perProgramMeanLog2(g);
            double ma = mean(sa);
            double mb = mean(sb);
            if (sa.length >= 2 && sb.length >= 2) {
                Welch.Result w = Welch.test(sa, sb);
                rows.add(new Row(g, a.row(g), b.row(g), ma, mb, true, w.pValue(), w.significant()));
            } else {
                rows.add(new Row(g, a.row(g), b.row(g), ma, mb, false, Double.NaN, false));
            }
        }
    }

    /** One row per group, in {@link TripSummary#GROUPS} order. */
    public List<Row> rows() {
        return rows;
    }

    private static double mean(double[] v) {
        if (v.length == 0) return Double.NaN;
        double s = 0;
        for (double x : v) s += x;
        return s / v.length;
    }
}
