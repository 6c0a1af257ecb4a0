package dev.yarpj.stats;

import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Welch's unequal-variance t-test between two samples, two-sided, with the degenerate
 * cases settled: when neither sample varies, equal means are not significant (p = 1) and
 * different means are (p = 0), where the textbook formula divides by zero.
 */
public final class Welch {
    /** Significance level of every verdict. */
    public static final double ALPHA = 0.05;

    /** The means of both samples, the two-sided p-value and whether p < {@link #ALPHA}. */
    public record Result(double meanA, double meanB, double pValue, boolean significant) {
        public String verdict() {
            return significant ? "significant" : "n.s.";
        }
    }

    private Welch() {}

    /** @throws IllegalArgumentException if either sample has fewer than 2 values */
    public static Result test(double[] a, double[] b) {
        if (a.length < 2 || b.length < 2) {
            throw new IllegalArgumentException("need at least 2 samples on each side, got " + a.length + " and " + b.length);
        }
        double ma = StatUtils.mean(a);
        double mb = StatUtils.mean(b);
        double p;
        if (StatUtils.variance(a) == 0 && StatUtils.variance(b) == 0) {
            p = ma == mb ? 1.0 : 0.0;
        } else {
            // Welch: t = (ma - mb) / sqrt(va/na + vb/nb), Welch-Satterthwaite degrees of freedom.
            p = new TTest().tTest(a, b);
        }
        return new Result(ma, mb, p, p < ALPHA);
    }

    /** exp(mean(ln r)) over positive finite ratios; NaN for none. */
    public static double geometricMean(double[] ratios) {
        if (ratios.length == 0) return Double.NaN;
        double s = 0;
        for (double r : ratios) {
            if (!(r > 0) || Double.isInfinite(r)) throw new IllegalArgumentException("ratio must be positive and finite: " + r);
            s += Math.log(r);
        }
        return Math.exp(s / ratios.length);
    }
}
