package dev.yarpj.harness;

import dev.yarpj.lower.CFamilyLowerer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One saved finding: an example directory {@code results/<kind>/<signature>/<seed>/} as its
 * {@code meta.json} describes it, typed. {@link TestRunner} writes meta.json; this is its one
 * reader, for reduction, triage and the report, with what they need to know of a finding:
 * its buggy testbed's compile command, its files merged into one, its crash message.
 *
 * @param dir       the example directory
 * @param kind      what went wrong
 * @param signature the signature it is filed under
 * @param seed      the test's seed
 * @param lang      the test's language as the CLI names it ({@code c}, {@code cpp}, {@code ispc}, {@code sycl})
 * @param testbed   the testbed that showed it ({@code generator} for a generator failure)
 * @param testbeds  every testbed that showed it (a wrong code's wrong testbeds; else the one)
 * @param reference the reference compiler's command, or null
 * @param target    the machine its testbed builds for, or null for this one
 * @param emulator  the emulator and its options its programs run under, or empty: they run here
 * @param commands  the commands the harness ran for it, in order
 * @param meta      everything meta.json says, for what a reader needs beyond these
 */
public record Finding(Path dir, Outcome kind, String signature, long seed, String lang, String testbed, List<String> testbeds,
                      String reference, String target, List<String> emulator, List<List<String>> commands, Map<String, Object> meta) {

    /** A directory that is not a finding, or whose meta.json says too little; the message is one line. */
    public static final class Unreadable extends RuntimeException {
        public Unreadable(String m) {
            super(m, null, false, false);
        }
    }

    /** Reads the finding in {@code dir}. */
    public static Finding read(Path dir) throws IOException {
        Path file = dir.resolve("meta.json");
        if (!Files.exists(file)) throw new Unreadable("not a finding directory (no meta.json): " + dir);
        Map<String, Object> m = JsonFiles.parseObject(Files.readString(file));
        if (m == null) throw new Unreadable("cannot read " + file + ": not one JSON object");
        String kindName = String.valueOf(m.get("kind"));
        Outcome kind = Outcome.fromDir(kindName);
        if (kind == null || kind == Outcome.PASS || kind == Outcome.SLOW_COMPILE) {
            throw new Unreadable(file + " names no kind of finding: " + kindName);
        }
        String testbed = m.get("testbed") == null ? null : String.valueOf(m.get("testbed"));
        List<String> testbeds = m.get("testbeds") instanceof List<?> l ? strings(l) : testbed == null ? List.of() : List.of(testbed);
        List<List<String>> commands = new ArrayList<>();
        if (m.get("commands") instanceof List<?> cmds) {
            for (Object c : cmds) if (c instanceof List<?> args) commands.add(strings(args));
        }
        long seed = m.get("seed") instanceof Number n ? n.longValue() : -1;
        return new Finding(dir, kind, String.valueOf(m.get("signature")), seed, String.valueOf(m.get("lang")), testbed, testbeds,
                m.get("reference") instanceof String r ? r : null, m.get("target") instanceof String t ? t : null,
                m.get("run") instanceof List<?> run ? strings(run) : List.of(), List.copyOf(commands), m);
    }

    private static List<String> strings(List<?> l) {
        return l.stream().map(String::valueOf).toList();
    }

    /** The extension of its C or C++ files ({@code func.c} or {@code func.cpp}; ISPC and SYCL tests have C++ ones). */
    public String ext() {
        return lang.equals("c") ? "c" : "cpp";
    }

    /** The generator of its test ({@code yarpj}, {@code csmith}, {@code yarpgen}): findings before there were others are yarpj's. */
    public String generator() {
        return meta.get("generator") instanceof String g ? g : "yarpj";
    }

    /** Whether its test is yarpj's own, with a program in yarpj's IR that the IR phase of reduction can cut. */
    public boolean fromYarpj() {
        return generator().equals("yarpj");
    }

    /** Whether a testbed showed it against a reference (a generator failure has neither). */
    public boolean hasBuggyTestbed() {
        return reference != null && testbed != null && !testbed.equals("generator");
    }

    /** The buggy testbed's compile command of {@code func.<ext>}, without its source, output, {@code -c} and {@code -w}. */
    public List<String> compileCommand() {
        String source = "func." + ext();
        for (List<String> args : commands) {
            if (args.contains(source)) return withoutFiles(args, source);
        }
        throw new Unreadable("the finding does not record the compile command of its testbed: " + dir);
    }

    /**
     * A compile command without its source {@code source}, its output ({@code -o FILE}),
     * {@code -c} and {@code -w}; for a test with a second file, without that file and the
     * {@code -r} that builds both into one object ({@link Testbed#compileCommand(dev.yarpj.lower.Language, String, String)}).
     */
    static List<String> withoutFiles(List<String> cmd, String source) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < cmd.size(); i++) {
            String a = cmd.get(i);
            if (a.equals("-o")) {
                i++;
            } else if (!a.equals("-c") && !a.equals("-r") && !a.equals(source) && !a.equals("-w") && !isSecondFile(a)) {
                out.add(a);
            }
        }
        return out;
    }

    /** Whether a command's argument is a test's second file, its extern helpers. */
    static boolean isSecondFile(String arg) {
        return arg.equals(CFamilyLowerer.HELPERS + "c") || arg.equals(CFamilyLowerer.HELPERS + "cpp");
    }

    /**
     * The driver's functions in a merged test are built without optimization, by gcc and by
     * clang, as the harness builds driver files. A big test's driver initializes thousands of
     * arrays in loops in one function: at the buggy testbed's flags it can take gcc's graphite
     * more than ten minutes and 11 GB to build, where the harness's build took a minute, and it
     * would let the compiler inline test() into main(), which the harness's build never does.
     * Both pragmas are -Wunknown-pragmas to the other compiler, a harmless warning; C-Vise
     * removes them when the symptom does not need them.
     */
    public static final String DRIVER_UNOPTIMIZED = "#pragma GCC optimize (\"O0\")\n#pragma clang optimize off\n";

    /** Its init.h, func and driver as one translation unit (the driver's functions unoptimized). */
    public String merged() throws IOException {
        return merge(dir, ext());
    }

    /**
     * The init.h, func.{@code ext}, its second file (extern helpers) if it has one and
     * driver.{@code ext} of a test directory as one translation unit. The second file's
     * min and max functions, which func may define too, are kept once.
     */
    public static String merge(Path dir, String ext) throws IOException {
        StringBuilder includes = new StringBuilder();
        StringBuilder body = new StringBuilder();
        Set<String> functions = new HashSet<>();
        for (String f : List.of("init.h", "func." + ext, CFamilyLowerer.HELPERS + ext, "driver." + ext)) {
            if (f.startsWith("driver.")) body.append(DRIVER_UNOPTIMIZED);
            if (isSecondFile(f) && !Files.exists(dir.resolve(f))) continue;
            List<String> lines = Files.readAllLines(dir.resolve(f), StandardCharsets.UTF_8);
            // init.h's include guard goes: its #ifndef, #define and last #endif, no other #endif (func may have its own).
            int guardEnd = f.equals("init.h") ? lines.lastIndexOf("#endif") : -1;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("#include \"")) continue;
                if (line.startsWith("#include <")) {
                    if (includes.indexOf(line) < 0) includes.append(line).append('\n');
                    continue;
                }
                if (line.startsWith("#ifndef YARPJ_INIT_H") || line.startsWith("#define YARPJ_INIT_H") || i == guardEnd) continue;
                if (line.startsWith("static inline ") && !functions.add(line)) continue;
                body.append(line).append('\n');
            }
        }
        return includes.append(body).toString();
    }

    /** The stable part of its compiler's crash message. */
    public String crashMessage() throws IOException {
        Path stderr = dir.resolve("compile.stderr");
        if (!Files.exists(stderr)) throw new Unreadable("the finding has no compile.stderr: " + dir);
        return crashMessage(Files.readString(stderr));
    }

    /** Where the compiler crashed ({@link Signature#crashPoint}), from compile.stderr; empty when it does not say. */
    public String crashPoint() throws IOException {
        Path stderr = dir.resolve("compile.stderr");
        return Files.exists(stderr) ? Signature.crashPoint(Files.readString(stderr)) : "";
    }

    /**
     * The undefined reference a rejected program's link failed on ({@link Signature#linkError}:
     * "undefined reference to X", names masked); null when the finding is no such link failure
     * (a compiler that refused the program itself, or a link that failed otherwise).
     */
    public String undefinedReference() throws IOException {
        Path stderr = dir.resolve("link.stderr");
        if (kind != Outcome.PROGRAM_REJECTED || !Files.exists(stderr)) return null;
        String m = Signature.linkError(Files.readString(stderr));
        return m.startsWith("undefined reference to ") ? m : null;
    }

    /** The stable part of a crash message (see {@link Signature#crashMessage}). */
    public static String crashMessage(String stderr) {
        String m = Signature.crashMessage(stderr);
        if (m == null) throw new Unreadable("no internal-error message in compile.stderr");
        return m;
    }
}
