package dev.yarpj.stats;

import dev.yarpj.harness.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How the printers spell numbers and rows, so that a figure reads the same in every section. */
final class Cells {
    private Cells() {}

    static String fixed(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }

    static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    /** A share as a percentage, "-" for none of nothing (the SYCL table's spelling). */
    static String pct(long part, long whole) {
        return whole == 0 ? "-" : String.format("%.1f%%", 100.0 * part / whole);
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

    static double share(long part, long whole) {
        return whole == 0 ? Double.NaN : (double) part / whole;
    }

    /** A number, or empty for NaN. */
    static String csvDouble(double d) {
        return Double.isNaN(d) ? "" : Json.number(d);
    }

    static String csvNumber(Number n) {
        return n instanceof Double d ? Json.number(d) : n.toString();
    }

    static String csv(String... cells) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) sb.append(',');
            String c = cells[i];
            if (c.indexOf(',') >= 0 || c.indexOf('"') >= 0 || c.indexOf('\n') >= 0) {
                sb.append('"').append(c.replace("\"", "\"\"")).append('"');
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    static boolean[] rightAligned(int columns, int from) {
        boolean[] r = new boolean[columns];
        for (int i = from; i < columns; i++) r[i] = true;
        return r;
    }

    /** The data-parallel loops' trip rows shown: all loops, each idiom that has any, innermost loops (none leaves early). */
    static List<TripSummary.Row> ispcTripRows(TripSummary t) {
        List<TripSummary.Row> rows = new ArrayList<>();
        for (TripSummary.Row r : t.rows()) {
            TripSummary.Group g = r.group();
            if (g.leavesEarlyOnly()) continue;
            if (g.idiom() == null || (!g.innermostOnly() && r.loops() > 0)) rows.add(r);
        }
        return rows;
    }
}
