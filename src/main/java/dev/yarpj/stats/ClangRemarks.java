package dev.yarpj.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads clang's optimization record ({@code -fsave-optimization-record}, YAML) by scanning
 * lines, not with a YAML parser: the record is a stream of documents, each starting with a
 * tag line such as {@code --- !Passed} and carrying top-level {@code Pass:} and {@code Name:}
 * lines (nested arguments are indented, so they never look top-level).
 */
public final class ClangRemarks {
    /** The pass or name of a remark that has none (clang writes {@code ''}). */
    public static final String NONE = "(none)";

    private ClangRemarks() {}

    public static RemarkTally parse(Path file) throws IOException {
        // InputStreamReader replaces malformed bytes rather than failing on them.
        try (BufferedReader in = new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
            return parse(in);
        }
    }

    public static RemarkTally parse(Reader reader) throws IOException {
        BufferedReader in = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
        RemarkTally tally = new RemarkTally();
        RemarkKind kind = null;
        String pass = null;
        String name = null;
        int loc = -1;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("---")) {
                flush(tally, kind, pass, name, loc);
                loc = -1;
                String rest = line.substring(3).strip();
                kind = rest.startsWith("!") ? RemarkKind.ofClangTag(rest.substring(1).strip()) : null;
                pass = null;
                name = null;
            } else if (kind != null && line.startsWith("Pass:")) {
                pass = scalar(line.substring(5));
            } else if (kind != null && line.startsWith("Name:")) {
                name = scalar(line.substring(5));
            } else if (kind != null && line.startsWith("DebugLoc:")) {
                Matcher m = LINE.matcher(line);
                if (m.find() && !line.contains(".h,")) loc = Integer.parseInt(m.group(1));
            } else if (line.equals("...")) {
                flush(tally, kind, pass, name, loc);
                kind = null;
            }
        }
        flush(tally, kind, pass, name, loc);
        return tally;
    }

    /** The line of a remark's location: {@code DebugLoc: { File: func.cpp, Line: 12, Column: 5 }} (a header's is not the test's). */
    private static final Pattern LINE = Pattern.compile("\\bLine:\\s*(\\d+)");

    private static void flush(RemarkTally tally, RemarkKind kind, String pass, String name, int line) {
        if (kind == null || pass == null) return;
        tally.add(orNone(pass), kind, orNone(name));
        // The loop vectorizer's remark of a loop it vectorized sits on one of the loop's lines (its first).
        if (kind == RemarkKind.PASSED && pass.equals("loop-vectorize") && "Vectorized".equals(name) && line > 0) tally.addVectorizedLoop(line);
    }

    /** clang leaves some remarks' pass or name empty (loop-access analysis, explicit-transform failures). */
    private static String orNone(String s) {
        return s == null || s.isEmpty() ? NONE : s;
    }

    /** A plain or quoted YAML scalar on one line. */
    static String scalar(String s) {
        s = s.strip();
        if (s.length() >= 2 && s.charAt(0) == '\'' && s.charAt(s.length() - 1) == '\'') {
            return s.substring(1, s.length() - 1).replace("''", "'");
        }
        if (s.length() >= 2 && s.charAt(0) == '"' && s.charAt(s.length() - 1) == '"') {
            return s.substring(1, s.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
        }
        return s;
    }
}
