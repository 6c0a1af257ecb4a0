package dev.yarpj.stats;

import java.io.PrintWriter;
import java.io.StringWriter;

/** A stats report as {@code yarpj stats} prints it, as a string, for tests to read. */
final class Printed {
    private Printed() {}

    static String as(StatsStage.Format format, StatsReport report) {
        StringWriter w = new StringWriter();
        PrintWriter out = new PrintWriter(w);
        StatsStage.print(format, report, out);
        out.flush();
        return w.toString();
    }
}
