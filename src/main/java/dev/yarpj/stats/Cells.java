package dev.yarpj.stats;

import dev.yarpj.harness.JsonFiles;
import java.util.List;
import java.util.Locale;

/** How the printers spell numbers, so that a figure reads the same in every section and format. */
final class Cells {
    private Cells() {}

    static String fixed(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }

    /** A share as a percentage, "-" for none of nothing. */
    static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    static String log2(double d) {
        return Double.isNaN(d) ? "-" : String.format(Locale.ROOT, "%.3f", d);
    }

    static String pValue(double p) {
        return p >= 0.001 ? String.format(Locale.ROOT, "%.3f", p) : String.format(Locale.ROOT, "%.1e", p);
    }

    static String list(List<String> l) {
        return l.isEmpty() ? "none" : String.join(", ", l);
    }

    /** {@code part / whole}; NaN for a share of nothing. */
    static double share(long part, long whole) {
        return whole == 0 ? Double.NaN : (double) part / whole;
    }

    /**
     * A figure of JSON and CSV: 6 significant digits (more would be noise of the sample, and
     * the files are read by people too), with a decimal point, as all of yarpj's JSON for people
     * spells them ({@link JsonFiles#number}); null for NaN and infinities.
     */
    static String number(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? null : JsonFiles.number(d);
    }

    static boolean[] rightAligned(int columns, int from) {
        boolean[] r = new boolean[columns];
        for (int i = from; i < columns; i++) r[i] = true;
        return r;
    }
}
