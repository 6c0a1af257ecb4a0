package dev.yarpj.harness;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a compiler says it is. Campaign logs record the first line of {@code --version};
 * testbed names may carry the short form ({@code {version}} in a name), so that results of
 * two versions of one compiler never share a testbed name.
 */
public final class CompilerVersion {
    // The first dotted number, and a snapshot's date right after it: "gcc (Debian 20261020-1)
    // 17.0.0 20261020 (experimental)" is 17.0.0-20261020, "Debian clang version 23.1.4 (2)" 23.1.4.
    private static final Pattern SHORT = Pattern.compile("(\\d+\\.\\d+(?:\\.\\d+)?)(?:\\s+(\\d{8})\\b)?");

    private CompilerVersion() {}

    /** What each compiler said, asked once per run: every testbed of one compiler gets the same name. */
    private static final Map<String, String> SAID = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The first line {@code cc --version} prints, or "?" when it cannot be run. Its wall-clock
     * limit is generous: on a loaded machine a campaign at low priority waits long for a core,
     * and a probe cut short named a testbed {@code clang-unknown} beside its {@code clang-23.1.4}
     * twins.
     */
    public static String firstLine(String cc) {
        String known = SAID.get(cc);
        if (known != null) return known;
        try {
            ProcessRunner.Captured c = ProcessRunner.capture(null, List.of(cc, "--version"), Map.of(), 120, null);
            String line = c.started() ? c.output().lines().findFirst().orElse("?") : "?";
            if (!line.equals("?") && !line.isBlank()) SAID.put(cc, line);
            return line;
        } catch (IOException e) {
            return "?";
        }
    }

    /** The version number in a {@code --version} line (with a snapshot's date), or "unknown". */
    public static String shortForm(String firstLine) {
        Matcher m = SHORT.matcher(firstLine);
        if (!m.find()) return "unknown";
        return m.group(2) == null ? m.group(1) : m.group(1) + "-" + m.group(2);
    }

    /**
     * Whether version {@code a} is newer than {@code b}, both in {@link #shortForm} ("16.2.0",
     * "17.0.0-20261020": a snapshot's date counts after its version); false when either is unknown.
     */
    public static boolean newer(String a, String b) {
        if (a == null || b == null || a.equals("unknown") || b.equals("unknown")) return false;
        String[] x = a.split("[.-]");
        String[] y = b.split("[.-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            long p = i < x.length && x[i].matches("\\d{1,18}") ? Long.parseLong(x[i]) : 0;
            long q = i < y.length && y[i].matches("\\d{1,18}") ? Long.parseLong(y[i]) : 0;
            if (p != q) return p > q;
        }
        return false;
    }
}
