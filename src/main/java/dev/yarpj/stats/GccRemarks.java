package dev.yarpj.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads gcc's {@code -fopt-info} output: lines like
 * {@code func.c:12:5: optimized: loop vectorized using 16 byte vectors}. Lines without a
 * location and kind (gcc's continuation and detail lines) are skipped.
 *
 * <p>gcc 12 honours only one {@code -fopt-info} option per compile ("ignoring possibly
 * conflicting option" for the others), so one file per optimization group cannot be had
 * from one compile. yarpj therefore uses {@code -fopt-info-all=FILE}, and all of gcc's
 * remarks fall under one group-less pass, {@link #PASS}; the message, normalised by
 * {@link #normalise}, is the remark name that tells them apart.
 */
public final class GccRemarks {
    /** The pass name of every gcc remark: gcc's output names no group when all groups go to one file. */
    public static final String PASS = "opt-info";

    /** Words of a message kept in its remark name. */
    public static final int NAME_WORDS = 7;

    private static final Pattern LINE =
            Pattern.compile("^(?:([^\\s:]+):(\\d+):\\d+: )?(optimized|missed|note): ?(.*)$");
    private static final Pattern QUOTED = Pattern.compile("(?<!\\w)'[^']*'(?!\\w)|‘[^’]*’|\"[^\"]*\"|`[^']*'");
    private static final Pattern PARENS = Pattern.compile("\\s*\\([^()]*\\)");
    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:0[xX][0-9a-fA-F]+|\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)%?");
    private static final Pattern EDGE_PUNCT = Pattern.compile("^([^A-Za-z0-9_'‘`\"]*)(.*?)([.,;:!?]*)$");

    private GccRemarks() {}

    public static RemarkTally parse(Path file) throws IOException {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
            return parse(in);
        }
    }

    public static RemarkTally parse(Reader reader) throws IOException {
        BufferedReader in = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
        RemarkTally tally = new RemarkTally();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) continue;
            RemarkKind kind = RemarkKind.ofGccWord(m.group(3));
            tally.add(PASS, kind, normalise(m.group(4)));
            // "loop vectorized using 32 byte vectors" sits on a line of the loop: that of the exit test gcc counts
            // iterations by (a for loop's first line, a do-while's last); its epilogue's, if vectorized too, on the same.
            if (kind == RemarkKind.PASSED && m.group(1) != null && !m.group(1).endsWith(".h") && m.group(4).startsWith("loop vectorized")) {
                tally.addVectorizedLoop(Integer.parseInt(m.group(2)));
            }
        }
        return tally;
    }

    /**
     * A message reduced to what remarks of one sort share: quoted text becomes X,
     * parenthesised text is dropped, numbers become N, words holding digits, underscores,
     * slashes, dots or brackets (variables, SSA names, {@code max_i32/0}, vector modes) become
     * X, and only the first {@value #NAME_WORDS} words are kept. For example
     * "loop with 4 iterations completely unrolled (header execution count 10737418)" gives
     * "loop with N iterations completely unrolled".
     */
    public static String normalise(String message) {
        String s = QUOTED.matcher(message.strip()).replaceAll("X");
        String before;
        do {
            before = s;
            s = PARENS.matcher(s).replaceAll("");
        } while (!s.equals(before));
        List<String> words = new ArrayList<>();
        for (String token : s.strip().split("\\s+")) {
            if (token.isEmpty()) continue;
            if (words.size() == NAME_WORDS) break;
            Matcher m = EDGE_PUNCT.matcher(token);
            if (!m.matches()) {
                words.add(token);
                continue;
            }
            String core = m.group(2);
            String replaced = core;
            if (NUMBER.matcher(core).matches()) {
                replaced = "N";
            } else if (!core.equals("X") && core.chars().anyMatch(c -> Character.isDigit(c) || "_/.[]".indexOf(c) >= 0)) {
                replaced = "X";
            }
            words.add(m.group(1) + replaced + m.group(3));
        }
        String name = String.join(" ", words);
        int end = name.length();
        while (end > 0 && ".,;:".indexOf(name.charAt(end - 1)) >= 0) end--;
        return name.substring(0, end);
    }
}
