package dev.yarpj.triage;

import dev.yarpj.harness.CampaignConfig;
import dev.yarpj.harness.ProcessRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A compile-time finding measured as compiler developers measure one: the test's compile
 * with the smallest flags on every installed release of the compiler, in CPU seconds, with
 * the blamed pass's seconds from {@code -ftime-report} (clang's new pass manager prints one
 * line per pass class), and each release's ratio to the fastest.
 */
final class CompileTimes {
    /**
     * One release: {@code cpuSeconds} of its compile ({@code capped}: still compiling at the
     * cap, so at least that), {@code passSeconds} of them in the blamed pass (NaN when
     * {@code -ftime-report} does not name it, or the compile did not finish).
     */
    record Row(String command, String version, double cpuSeconds, boolean capped, double passSeconds) {}

    private CompileTimes() {}

    /**
     * Measures the releases of {@code checks} that built or showed the test (those that
     * cannot build it, an option they do not know, say, are left out), each at most
     * {@code capSeconds} of CPU.
     */
    static List<Row> measure(Symptom s, List<String> minimal, List<Versions.Check> checks, String passClass, String searchPath,
                             double capSeconds) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (Versions.Check c : checks) {
            if (c.result() == Versions.Result.FAILS) continue;
            String cc = c.command().equals(Path.of(minimal.get(0)).getFileName().toString()) ? minimal.get(0) : path(c.command(), searchPath);
            List<String> cmd = new ArrayList<>(minimal);
            cmd.set(0, cc);
            cmd.addAll(List.of("-ftime-report", "-w", "-c", s.file(), "-o", "/dev/null"));
            ProcessRunner.Result r = ProcessRunner.run(s.dir(), "compile-time", cmd, CampaignConfig.compileLimits(capSeconds));
            boolean capped = r.pastTimeLimit(capSeconds);
            if (!capped && r.exitCode() != 0) continue;
            rows.add(new Row(c.command(), c.version(), r.cpuSeconds(), capped, capped ? Double.NaN : passSeconds(r.stderr(), passClass)));
        }
        return rows;
    }

    private static String path(String command, String searchPath) {
        Path p = LlvmReproducer.find(command, searchPath);
        return p == null ? command : p.toString();
    }

    /**
     * A line of a pass's timing in {@code -ftime-report} or {@code -time-passes}: its user
     * seconds (group 1) and their share in per cent (group 2).
     */
    static Pattern passLine(String passClass) {
        return Pattern.compile("^\\s*([0-9.]+)\\s+\\(\\s*([0-9.]+)%\\).*\\s" + Pattern.quote(passClass) + "\\s*$", Pattern.MULTILINE);
    }

    /** The user seconds {@code -ftime-report} gives {@code passClass}, summed over its lines; NaN when it names it nowhere. */
    static double passSeconds(String report, String passClass) {
        if (passClass == null) return Double.NaN;
        Matcher m = passLine(passClass).matcher(report);
        double sum = 0;
        boolean any = false;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
            any = true;
        }
        return any ? sum : Double.NaN;
    }

    /** The rows as a Markdown table with each release's ratio to the fastest. */
    static String table(List<Row> rows, String passClass) {
        double fastest = rows.stream().mapToDouble(Row::cpuSeconds).min().orElse(Double.NaN);
        StringBuilder t = new StringBuilder("| compiler | version | CPU-s | in " + (passClass == null ? "the blamed pass" : passClass)
                + " (-ftime-report) | to the fastest |\n|---|---|---|---|---|\n");
        for (Row r : rows) {
            t.append("| ").append(r.command()).append(" | ").append(r.version()).append(" | ").append(r.capped() ? "more than " : "")
                    .append(String.format(Locale.ROOT, "%.2f", r.cpuSeconds())).append(" | ")
                    .append(Double.isNaN(r.passSeconds()) ? "-" : String.format(Locale.ROOT, "%.2f", r.passSeconds())).append(" | ")
                    .append(r.capped() ? "at least " : "").append(String.format(Locale.ROOT, "%.1fx", r.cpuSeconds() / fastest)).append(" |\n");
        }
        return t.toString();
    }
}
