package dev.yarpj.harness;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Signatures that group findings with one cause: the compiler's own words for a crash
 * (gcc's "internal compiler error: ... at file:line", clang's assertion or UNREACHABLE
 * text, ispc's "FATAL ERROR: ..." or "Assertion failed: ...") plus its top stack frames,
 * with addresses and numbers masked.
 */
public final class Signature {
    private static final Pattern GCC_ICE = Pattern.compile("internal compiler error: ?(.*)");
    private static final Pattern CLANG = Pattern.compile("(Assertion .* failed\\.?|UNREACHABLE executed.*|LLVM ERROR: .*|fatal error: error in backend: .*)");
    /** ispc's FatalError (also what its signal handler reports), its assertions, and an internal error it admits to. */
    private static final Pattern ISPC = Pattern.compile(
            "(FATAL ERROR: .*|Assertion failed(?: \\([^)]*\\))?: .*|Error: .*\\b[Ii]nternal (?:compiler )?error.*)");
    private static final Pattern FRAME = Pattern.compile("^\\s*(?:#\\d+\\s+)?0x[0-9a-fA-F]+\\s+(?:in\\s+)?([^\\s(]+)");
    private static final int FRAMES = 3;
    /** Frames of the crash reporting machinery, the same in every crash: never part of a signature. */
    private static final Pattern HANDLER_FRAME = Pattern.compile(
            "PrintStackTrace|RunSignalHandlers|SignalHandler|__restore_rt|^raise$|^abort$|__assert_fail|__assert_fail_base"
                    + "|llvm_unreachable_internal|gsignal|pthread_kill|CrashRecoveryContext|report_fatal_error|internal_error|fancy_abort"
                    + "|crash_signal|diagnostic_report_diagnostic|diagnostic_impl|lSignal|FatalError|DoAssert|^0x");
    /**
     * The pass a crash happened in, from LLVM's stack dump: the legacy pass manager's
     * {@code Running pass 'X'} or the new one's {@code Running pass "x<params>"}, whose
     * parameters (which the drawn options change) are left out.
     */
    private static final Pattern RUNNING_PASS = Pattern.compile("Running pass (?:'([^']+)'|\"([^\"<]+)[^\"]*\")");
    /** A line of LLVM's stack dump ({@code 0.\tProgram arguments: ...}): the command, the pipeline; never a crash's message. */
    private static final Pattern STACK_DUMP_LINE = Pattern.compile("^\\s*\\d+\\.\\s");
    /** The driver's last words for a crash with no message of its own (a release build's segfault). */
    private static final Pattern FRONTEND_FAILED = Pattern.compile("(?:clang|clang\\+\\+|ispc)[^:]*: error: .*(?:command failed|failed due to signal).*");
    /** A compiler out of time or memory: a driver's words for a killed cc1 (ProcessRunner's), or the compiler's own. */
    private static final Pattern RESOURCE = Pattern.compile(ProcessRunner.Result.CPU_KILLED_CHILD.pattern()
            + "|CPU time limit exceeded|out of memory|cannot allocate memory|virtual memory exhausted", Pattern.CASE_INSENSITIVE);

    private Signature() {}

    /** What a crashing compiler says, as {@link #isCompilerCrash} reads it, for grep -E in a repro.sh. */
    static final String CRASH_TEXT = "internal compiler error|Assertion .* failed|UNREACHABLE|LLVM ERROR|PLEASE submit a bug report";
    /** The same for ispc, which also says FATAL ERROR and admits internal errors of its own. */
    static final String CRASH_TEXT_ISPC = CRASH_TEXT
            + "|FATAL ERROR: |Assertion failed|Error: .*[Ii]nternal (compiler )?error|Please file a bug report at https://github.com/ispc";

    /**
     * The stable part of a crash message, for an interestingness test to grep: the compiler's
     * error text without line numbers and what follows them, and without the addresses LLVM
     * prints of its nodes ("Cannot select: 0x55d0...: v2i64 = ..."), which change from run to
     * run (compare with {@link #withoutAddresses} of the output); null when there is none.
     */
    public static String crashMessage(String stderr) {
        for (String line : withoutAddresses(stderr).split("\n")) {
            int i = line.indexOf("internal compiler error");
            if (i < 0) i = line.indexOf("Assertion");
            if (i < 0) i = line.indexOf("UNREACHABLE");
            if (i < 0) i = line.indexOf("LLVM ERROR");
            if (i < 0) i = line.indexOf("error in backend");
            if (i >= 0) {
                String msg = line.substring(i).replaceAll(":\\d+.*$", "").replaceAll("\\s+\\(.*$", "");
                return msg.length() > 120 ? msg.substring(0, 120) : msg;
            }
        }
        return null;
    }

    private static final Pattern GCC_IN = Pattern.compile("^in ([A-Za-z_][\\w:~]*)");
    private static final Pattern ASSERTION = Pattern.compile("Assertion [`'\"](.*)['\"] failed");
    private static final Pattern UNREACHABLE = Pattern.compile("^(.*?)\\s*\\n?UNREACHABLE executed", Pattern.MULTILINE);

    /**
     * Where a compiler crashed, for a bug key that tells two crashes of one pass apart: gcc's
     * function of its internal error ({@code in vect_get_vec_defs_for_operand}), clang's failed
     * assertion (its condition, masked) or unreachable message, else the top two frames of the
     * stack dump past the crash machinery (a release build's segfault prints no message), else
     * the crash message; empty when the output shows none of them.
     */
    public static String crashPoint(String stderr) {
        Matcher ice = GCC_ICE.matcher(stderr);
        if (ice.find()) {
            Matcher in = GCC_IN.matcher(ice.group(1).trim());
            if (in.find()) return "in " + in.group(1);
        }
        Matcher a = ASSERTION.matcher(stderr);
        if (a.find()) return "assertion " + mask(a.group(1));
        Matcher u = UNREACHABLE.matcher(stderr);
        if (u.find()) return "unreachable " + mask(u.group(1).replaceFirst("^.*?(error|warning): ", ""));
        List<String> frames = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            Matcher f = FRAME.matcher(line);
            if (f.find() && !HANDLER_FRAME.matcher(f.group(1)).find() && !f.group(1).startsWith("/") && frames.size() < 2) frames.add(f.group(1));
        }
        if (!frames.isEmpty()) return "at " + String.join(" < ", frames);
        String m = crashMessage(stderr);
        return m == null ? "" : mask(m);
    }

    /** {@code text} with every hexadecimal address (0x55d0c3a4e2f0) made 0x: what a crash message is compared on. */
    public static String withoutAddresses(String text) {
        return ADDRESS.matcher(text).replaceAll("0x");
    }

    private static final java.util.regex.Pattern ADDRESS = java.util.regex.Pattern.compile("0x[0-9a-fA-F]+");

    /**
     * Whether compiler output shows it ran out of memory or CPU time under the harness's
     * limits: a hog to recheck, not a crash.
     */
    public static boolean isResourceExhaustion(String stderr) {
        return RESOURCE.matcher(stderr).find();
    }

    /** Whether compiler output shows an internal error rather than a diagnosis of the program. */
    public static boolean isCompilerCrash(String stderr) {
        if (isResourceExhaustion(stderr)) return false;
        return GCC_ICE.matcher(stderr).find() || CLANG.matcher(stderr).find() || ISPC.matcher(stderr).find()
                || stderr.contains("PLEASE submit a bug report") || stderr.contains("Please submit a full bug report")
                || stderr.contains("Please file a bug report at https://github.com/ispc");
    }

    /** A readable crash signature: the error text and the top frames, masked. */
    public static String ofCrash(String stderr) {
        String head = null;
        Matcher m = GCC_ICE.matcher(stderr);
        if (m.find()) head = "internal compiler error: " + m.group(1).trim();
        if (head == null) {
            Matcher c = CLANG.matcher(stderr);
            if (c.find()) head = c.group(1).trim();
        }
        if (head == null) {
            Matcher i = ISPC.matcher(stderr);
            if (i.find()) head = i.group(1).trim();
        }
        if (head == null) {
            // No message: the driver's words, never a line of the stack dump (its command line has every drawn option).
            Matcher d = FRONTEND_FAILED.matcher(stderr);
            if (d.find()) head = d.group();
        }
        if (head == null) head = firstLine(String.join("\n", stderr.lines().filter(l -> !STACK_DUMP_LINE.matcher(l).find()).toList()), "error");
        List<String> frames = new ArrayList<>();
        String pass = null;
        for (String line : stderr.split("\n")) {
            Matcher f = FRAME.matcher(line);
            if (f.find() && frames.size() < FRAMES && !HANDLER_FRAME.matcher(f.group(1)).find()) frames.add(f.group(1));
            Matcher p = RUNNING_PASS.matcher(line);
            if (p.find()) pass = p.group(1) != null ? p.group(1) : p.group(2); // the innermost pass is listed last
        }
        String sig = mask(head);
        if (pass != null) sig += " | in pass '" + pass + "'";
        if (!frames.isEmpty()) sig += " | " + String.join(" < ", frames);
        return sig;
    }

    /** The first line of compiler output that mentions {@code word}, masked; for rejected programs. */
    public static String firstLine(String text, String word) {
        for (String line : text.split("\n")) if (line.contains(word)) return mask(line.replaceFirst("^[^:]*:\\d+:\\d+: ", ""));
        return text.isBlank() ? "(no output)" : mask(text.split("\n")[0]);
    }

    private static final Pattern UNDEFINED = Pattern.compile("undefined reference to [`'\"]?([^`'\"\s]+)");

    /**
     * What a failed link says, masked: its first undefined symbol when it names one (the
     * linker's last line, "ld returned 1 exit status", is the same for every cause), else its
     * first line with "error".
     */
    public static String linkError(String stderr) {
        Matcher m = UNDEFINED.matcher(stderr);
        if (m.find()) return "undefined reference to " + mask(m.group(1));
        return firstLine(stderr, "error");
    }

    /** The first line of compiler output that reports an error (gcc and clang say "error", ispc "Error"), masked. */
    public static String firstError(String text) {
        for (String line : text.split("\n")) {
            if (line.contains("error") || line.contains("Error")) return mask(line.replaceFirst("^[^:]*:\\d+:\\d+: ", ""));
        }
        return firstLine(text, "error");
    }

    /**
     * The first line of compiler output that mentions "error", else the first non-empty one,
     * as it is (unmasked: it is shown to a person, not grouped), cut to 200 characters.
     */
    public static String firstErrorLine(String output) {
        String first = null;
        for (String line : output.split("\n")) {
            String l = line.strip();
            if (l.isEmpty()) continue;
            if (first == null) first = l;
            if (l.contains("error")) {
                first = l;
                break;
            }
        }
        if (first == null) return "no output";
        return first.length() > 200 ? first.substring(0, 200) + "..." : first;
    }

    /** Addresses, numbers and generated names vary from test to test; the cause does not. */
    static String mask(String s) {
        return s.replaceAll("0x[0-9a-fA-F]+", "0xADDR")
                .replaceAll("\\b(var|res|arr|out|tmp|i)_\\d+\\b", "$1_N")
                .replaceAll("\\d+", "N")
                .replaceAll("\\s+", " ")
                .trim();
    }

    /** A short stable id for a signature, used as a directory name. */
    public static String id(String signature) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(signature.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
