package dev.yarpj.triage;

import dev.yarpj.harness.Finding;
import dev.yarpj.harness.JsonFiles;
import dev.yarpj.harness.ProcessRunner;
import dev.yarpj.harness.Outcome;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * From a saved finding to what a compiler developer needs: the lowest optimization level
 * and the fewest flags that still show the symptom, the pass to blame (clang: bisection
 * with {@code -mllvm -opt-bisect-limit}; gcc: the optimization flags and the tree and RTL
 * passes whose disabling makes the symptom go away), which installed versions of the
 * compiler show it, and a bug report draft. It works on the reduced test when the finding
 * has one ({@code yarpj reduce}), else on its files merged into one. Findings whose blamed
 * pass agrees are grouped as one bug, whatever their raw signatures said.
 */
public final class Triage {
    /**
     * @param searchPath where other versions of the compiler are looked for (as PATH): gcc-N,
     *                   gcc-trunk, clang-N and their C++ names, and the LLVM tools opt-N, llc-N, llvm-reduce-N
     * @param irReduceSeconds wall-clock seconds llvm-reduce gets for a clang finding's IR reproducer (0: not reduced)
     * @param bugsFile where the report drafts of the bugs open on the newest compilers go (see {@link OpenBugs}), or null
     */
    public record Options(double compileTimeoutSeconds, int maxPassTries, String searchPath, double irReduceSeconds,
                          int irPassIterations, Path bugsFile) {
        /** llvm-reduce's own default number of rounds over its passes. */
        public static final int IR_PASS_ITERATIONS = 5;

        public Options(double compileTimeoutSeconds, int maxPassTries, String searchPath) {
            this(compileTimeoutSeconds, maxPassTries, searchPath, 0, IR_PASS_ITERATIONS, null);
        }
    }

    /** What triage found out about one finding. */
    public record Verdict(Path finding, Outcome kind, String family, List<String> buggy, List<String> minimal,
                          String blame, List<String> disablers, Versions.Standing standing, String group,
                          int lines, int builds, LlvmReproducer.Result ir, List<CompileTimes.Row> compileTimes) {
        /** Where the bug stands on the newest compiler of its family, in one line. */
        public String newest() {
            return standing.sentence(family);
        }
    }

    static final Pattern LEVEL = Pattern.compile("-O[0-3sgz]?|-Ofast");
    /** What meta.json's outliers say of a compile stopped at the bar of an outlier: the CPU seconds of the bar. */
    private static final Pattern CUT = Pattern.compile("at ([0-9.]+) CPU-s");
    /** A line of gcc's -fdump-passes for a tree or RTL pass that runs. */
    private static final Pattern PASS_ON = Pattern.compile("^((tree|rtl)-[A-Za-z0-9_]+)\\s*:\\s*ON$");
    /**
     * The passes gcc cannot do without: disabling any one of them makes gcc (12 to trunk) crash
     * or build a program that crashes, whatever the test. Left out of the group testing, where
     * each would split every group it is in down to itself (135 builds instead of 39 on the planted gcc test).
     */
    private static final java.util.Set<String> GCC_REQUIRED_PASSES = java.util.Set.of("tree-lower", "tree-eh", "tree-cfg",
            "tree-ssa", "tree-loopinit", "tree-loopdone", "rtl-expand", "rtl-into_cfglayout", "rtl-dfinit", "rtl-loop2",
            "rtl-loop2_done", "rtl-ira", "rtl-reload", "rtl-pro_and_epilogue", "rtl-shorten", "rtl-final", "rtl-dfinish");
    private static final Pattern BISECT = Pattern.compile("BISECT: running pass \\((\\d+)\\) (.+?) on (.+)");

    private Triage() {}

    public static List<Verdict> triage(List<Path> findings, Options o, PrintWriter out) throws IOException {
        return triage(findings, o, out, List.of());
    }

    /**
     * As {@link #triage(List, Options, PrintWriter)}; a finding that fits one of {@code labelWith},
     * the keys of bugs already seen, is labelled with it by a few builds ({@link KnownSymptom})
     * instead, and has no verdict.
     */
    public static List<Verdict> triage(List<Path> findings, Options o, PrintWriter out, List<BugKey> labelWith) throws IOException {
        return triage(findings, o, out, labelWith, List.of());
    }

    /** As {@link #triage(List, Options, PrintWriter, List)}, with the reduced tests of bugs already seen that may label a finding too. */
    public static List<Verdict> triage(List<Path> findings, Options o, PrintWriter out, List<BugKey> labelWith, List<KnownSymptom.SeenTest> tests)
            throws IOException {
        List<Verdict> verdicts = new ArrayList<>();
        for (Path f : findings) {
            Prepared[] setUp = new Prepared[1];
            KnownSymptom.Label label = labelWith.isEmpty() && tests.isEmpty() ? null : KnownSymptom.label(f, labelWith, tests, o, setUp);
            if (label != null) {
                out.printf("%s: labelled by %d builds: %s%n", f, label.builds(), label.key().line());
                out.flush();
                continue;
            }
            Verdict v = one(f, o, setUp[0]);
            verdicts.add(v);
            out.printf("%s: %s, %s; lowest: %s; blamed: %s; %s%n", f, v.kind().dir, v.family(), String.join(" ", v.minimal()),
                    v.blame(), v.newest());
            out.flush();
        }
        Map<String, List<Verdict>> groups = new TreeMap<>();
        for (Verdict v : verdicts) groups.computeIfAbsent(v.group(), k -> new ArrayList<>()).add(v);
        out.printf("%d finding(s), %d distinct bug(s) by blamed pass:%n", verdicts.size(), groups.size());
        for (Map.Entry<String, List<Verdict>> g : groups.entrySet()) {
            out.printf("  %s: %s%n", g.getKey(), g.getValue().stream().map(v -> v.finding().getFileName().toString()).toList());
        }
        if (o.bugsFile() != null) {
            int open = OpenBugs.write(o.bugsFile(), groups);
            out.printf("%d bug(s) open on the newest compilers, ready to file, in %s%n", open, o.bugsFile());
        }
        return verdicts;
    }

    /**
     * The CPU a compile of one try may take: {@code limit}, or for a compile-time outlier (a
     * compile that finished, many times slower than the other testbeds', meta.json's {@code
     * outliers}) that finished within it, half its own time: a hang of the triage is a compile
     * that slow, which the compilers without the bug, as fast as the other testbeds, never are.
     */
    static double compileLimit(dev.yarpj.harness.Finding f, double limit) {
        if (!(f.meta().get("outliers") instanceof Map<?, ?> outliers)) return limit;
        double fastest = Double.MAX_VALUE;
        for (Object v : outliers.values()) {
            // "21.0 s" (it finished), "past 10x at 12.0 CPU-s" (stopped at the bar: at least that), "> 60 s" (at the limit).
            Matcher cut = CUT.matcher(String.valueOf(v));
            try {
                fastest = Math.min(fastest, cut.find() ? Double.parseDouble(cut.group(1)) : Double.parseDouble(String.valueOf(v).replace(" s", "").strip()));
            } catch (NumberFormatException e) {
                return limit; // a hang that never finished: the limit stands
            }
        }
        return fastest < limit ? Math.max(1, fastest / 2) : limit;
    }

    /**
     * A finding's test set up for triage in {@code finding/triage/}: the finding, the symptom it
     * shows and the build that shows it. Which test, and built how: the smallest there is
     * (C-Vise's, else the IR phase's, else the finding's merged), in one file, else its files
     * built apart as the harness builds them, and a wrong result may show as a crash instead.
     */
    record Prepared(Finding f, Symptom.Kind kind, Symptom s, List<String> buggy, String text, String crashText, Path work) {}

    /**
     * A finding's reduced test: C-Vise's merged file, else the IR phase's directory of files
     * ({@link Finding#merge} makes one of them); null when it has neither.
     */
    static Path reducedTest(Path finding, String ext) {
        Path merged = finding.resolve("reduced").resolve("merged." + ext);
        if (Files.exists(merged)) return merged;
        Path ir = finding.resolve("reduced").resolve("ir");
        return Files.exists(ir.resolve("func." + ext)) ? ir : null;
    }

    /** As {@link #reducedTest(Path, String)}, in the finding's own language; null also for a finding that cannot be read. */
    static Path reducedTest(Path finding) throws IOException {
        try {
            return reducedTest(finding, Finding.read(finding).ext());
        } catch (Finding.Unreadable e) {
            return null;
        }
    }

    /** Sets up {@code finding}'s test as {@link Prepared} says; a finding whose symptom does not show is a TriageException. */
    static Prepared prepare(Path finding, Options o) throws IOException {
        Finding f;
        List<String> buggy;
        Symptom.Kind kind;
        try {
            f = Finding.read(finding);
            kind = symptomKind(f);
            if (kind == null) {
                throw new TriageException("cannot triage a " + f.kind().dir + " finding" + (f.kind() == Outcome.PROGRAM_REJECTED
                        ? " that is no link failure on an undefined reference" : "") + ": " + finding);
            }
            if (!f.lang().equals("c") && !f.lang().equals("cpp")) {
                throw new TriageException("only C, C++ and ISPC findings can be triaged yet: " + finding);
            }
            buggy = f.compileCommand();
        } catch (Finding.Unreadable e) {
            throw new TriageException(e.getMessage());
        }
        String ext = f.ext();
        String reference = String.valueOf(f.reference());
        Path work = Files.createDirectories(finding.resolve("triage"));
        String file = "test." + ext;
        // The smallest test there is: C-Vise's, else the IR phase's, else the finding's own.
        Path irReduced = finding.resolve("reduced").resolve("ir");
        Path reduced = reducedTest(finding, ext);
        String text = reduced == null ? f.merged() : Files.isDirectory(reduced) ? Finding.merge(reduced, ext) : Files.readString(reduced);
        Files.writeString(work.resolve(file), text);
        String crashText;
        try {
            crashText = symptomText(f, kind);
        } catch (Finding.Unreadable e) {
            throw new TriageException(e.getMessage());
        }
        double limit = compileLimit(f, o.compileTimeoutSeconds());
        Symptom s = new Symptom(kind, work, file, reference, crashText, limit, f.emulator());
        if (!s.shows(buggy)) {
            // Some symptoms need the driver in a translation unit of its own, as the harness builds it: func (the IR
            // phase's, else the finding's) with the buggy command, linked to the driver built by the reference at -O0.
            Path files = Files.exists(irReduced.resolve("func." + ext)) ? irReduced : finding;
            Symptom split = Files.exists(files.resolve("driver." + ext)) ? split(files, work, ext, kind, reference, crashText, limit, f) : null;
            if (split != null && split.shows(buggy)) {
                s = split;
            } else {
                // A wrong result of the harness's build (func apart, -c or a partial link with -r) can be a crash of the
                // program triage builds in one step: clang 23's LTO for SVE did that on 2026-11-28. Both are the one
                // miscompilation (one kind of bug key); the crash of the test as the harness built it apart, else merged,
                // is then the symptom triage follows.
                Symptom crash = kind == Symptom.Kind.WRONG_CODE ? (split != null ? split : s).as(Symptom.Kind.RUNTIME_CRASH) : null;
                if (crash == null || !crash.shows(buggy)) {
                    throw new TriageException("the symptom does not show on " + (reduced != null ? reduced : "the merged test")
                            + " with " + String.join(" ", buggy) + (kind == Symptom.Kind.COMPILE_HANG ? " (within " + limit + " s of CPU)" : "")
                            + (split == null ? "" : ", nor on its files built apart") + (crash == null ? "" : ", nor as a crash"));
                }
                s = crash;
            }
            text = Files.readString(work.resolve(file));
        }
        // The last build showed the symptom: the builds that turn passes and options off are held to a few times its CPU.
        s.boundBuildsByLastOne();
        return new Prepared(f, kind, s, buggy, text, crashText, work);
    }

    static Verdict one(Path finding, Options o) throws IOException {
        return one(finding, o, null);
    }

    /** As {@link #one(Path, Options)}, going on from {@code setUp} (the finding's test as {@link #prepare} set it up) when not null. */
    static Verdict one(Path finding, Options o, Prepared setUp) throws IOException {
        try {
            Finding f = Finding.read(finding);
            if (f.lang().equals("ispc") && symptomKind(f) != null) return IspcTriage.one(finding, f, o);
        } catch (Finding.Unreadable e) {
            throw new TriageException(e.getMessage());
        }
        Prepared p = setUp != null ? setUp : prepare(finding, o);
        Finding f = p.f();
        Symptom.Kind kind = p.kind();
        Symptom s = p.s();
        List<String> buggy = p.buggy();
        String text = p.text();
        String crashText = p.crashText();
        Path work = p.work();
        String ext = f.ext();
        String reference = String.valueOf(f.reference());
        String file = s.file();
        double limit = compileLimit(f, o.compileTimeoutSeconds());
        List<String> minimal = minimize(s, buggy);
        String family = family(s, minimal.get(0));
        String blame;
        List<String> disablers = new ArrayList<>();
        if (family.equals("clang")) {
            blame = bisectClang(s, minimal);
        } else if (family.equals("gcc")) {
            disablers = gccDisablers(s, minimal, o.maxPassTries());
            blame = disablers.isEmpty() ? "no single flag or pass" : String.join(" ", disablers);
        } else {
            blame = "unknown compiler: not blamed";
        }
        LlvmReproducer.Result ir = family.equals("clang") && s.kind() != Symptom.Kind.RUNTIME_CRASH && s.kind() != Symptom.Kind.LINK_FAILURE
                ? LlvmReproducer.make(s, minimal, blame, work, o.searchPath(), limit, o.irReduceSeconds(),
                        o.irPassIterations()) : null;
        Versions.Standing standing = Versions.check(s, family, ext, minimal, buggy, o.searchPath());
        // The class name -ftime-report prints: the IR reproducer's, which knows it from opt, else the one bisection printed.
        String passClass = ir != null && ir.passClass() != null ? ir.passClass() : family.equals("clang") ? LlvmReproducer.passClass(blame) : null;
        List<CompileTimes.Row> times = kind == Symptom.Kind.COMPILE_HANG
                ? CompileTimes.measure(s, minimal, standing.checks(), passClass, o.searchPath(), limit * 4) : List.of();
        String group = family + ": " + (family.equals("clang") ? blame.replaceAll(" on .*$", "")
                : String.join(" ", culprits(s, minimal, disablers)));
        Verdict v = new Verdict(finding, f.kind(), family, buggy, minimal, blame, disablers, standing, group,
                (int) text.lines().count(), s.builds, ir, times);
        Files.writeString(work.resolve("report.md"), Report.draft(v, s, work.resolve(file), reference, text,
                f.target()));
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kind", f.kind().dir);
        json.put("target", f.target() == null ? BugKey.HOST : f.target());
        json.put("family", family);
        if (s.kind() != kind) json.put("symptom", BugKey.CRASH_SYMPTOM + " in one step (the harness's build, func apart, printed a wrong result)");
        if (kind == Symptom.Kind.LINK_FAILURE) json.put("symptom", "link failure: " + crashText);
        if (kind == Symptom.Kind.COMPILER_CRASH) json.put("crash", f.crashPoint());
        json.put("buggy", String.join(" ", buggy));
        json.put("minimal", String.join(" ", minimal));
        json.put("blame", blame);
        json.put("disabling", disablers);
        json.put("versions", Versions.json(standing));
        json.put("newest", standing.newest() == null ? null : standing.newest().command() + " " + standing.newest().version());
        json.put("on_trunk", standing.onTrunk());
        json.put("status", standing.status());
        json.put("fixed_in", standing.fixedIn() == null ? null : standing.fixedIn().command() + " " + standing.fixedIn().version());
        json.put("last_right", standing.lastRight() == null ? null : standing.lastRight().command() + " " + standing.lastRight().version());
        json.put("regressed_in", standing.regressedIn() == null ? null : standing.regressedIn().command() + " " + standing.regressedIn().version());
        json.put("standing", v.newest());
        if (!times.isEmpty()) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (CompileTimes.Row t : times) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("compiler", t.command());
                row.put("version", t.version());
                row.put("cpu_s", Math.round(t.cpuSeconds() * 100) / 100.0);
                row.put("still_compiling", t.capped());
                row.put("pass_s", Double.isNaN(t.passSeconds()) ? null : Math.round(t.passSeconds() * 100) / 100.0);
                rows.add(row);
            }
            json.put("compile_times", rows);
        }
        if (ir != null) json.put("ir_reproducer", ir.json(work));
        json.put("group", group);
        json.put("lines", v.lines());
        json.put("builds", s.builds);
        Files.writeString(work.resolve("triage.json"), JsonFiles.write(json) + "\n");
        return v;
    }

    /**
     * The test of {@code files} (a finding's directory, or its IR phase's) as the harness builds
     * it, in {@code work}: func as the test file, its second file of helpers and the driver's
     * object (by {@code reference} at -O0) linked with every build; null when the driver does not build.
     */
    private static Symptom split(Path files, Path work, String ext, Symptom.Kind kind, String reference, String crashText, double limit,
            Finding f) throws IOException {
        String file = "test." + ext;
        Files.copy(files.resolve("func." + ext), work.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        List<String> inputs = new ArrayList<>();
        try (java.util.stream.Stream<Path> headers = Files.list(files)) {
            for (Path h : headers.filter(p -> p.getFileName().toString().endsWith(".h")).toList()) {
                Files.copy(h, work.resolve(h.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        String helpers = dev.yarpj.lower.CFamilyLowerer.HELPERS + ext;
        if (Files.exists(files.resolve(helpers))) {
            Files.copy(files.resolve(helpers), work.resolve(helpers), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            inputs.add(helpers);
        }
        Files.copy(files.resolve("driver." + ext), work.resolve("driver." + ext), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        ProcessRunner.Captured c = ProcessRunner.capture(work, List.of(reference, "-O0", "-w", "-c", "driver." + ext, "-o", "driver.o"),
                Map.of(), limit * 4, null);
        if (!c.ok()) return null;
        inputs.add("driver.o");
        return new Symptom(kind, work, file, inputs, reference, crashText, limit, f.emulator());
    }

    /**
     * The symptom triage follows in finding {@code f}: its kind's, or for a rejected program
     * whose link failed on an undefined reference a link failure; null when triage cannot take it.
     */
    static Symptom.Kind symptomKind(Finding f) throws IOException {
        Symptom.Kind k = SYMPTOMS.get(f.kind());
        return k != null ? k : f.undefinedReference() != null ? Symptom.Kind.LINK_FAILURE : null;
    }

    /** What a build must repeat to show symptom {@code kind} of {@code f}: the crash message, the undefined reference; else null. */
    static String symptomText(Finding f, Symptom.Kind kind) throws IOException {
        return switch (kind) {
            case COMPILER_CRASH -> f.crashMessage();
            case LINK_FAILURE -> f.undefinedReference();
            default -> null;
        };
    }

    /** The kinds of finding triage knows the symptom of. */
    private static final Map<Outcome, Symptom.Kind> SYMPTOMS = Map.of(Outcome.WRONG_CODE, Symptom.Kind.WRONG_CODE,
            Outcome.COMPILER_CRASH, Symptom.Kind.COMPILER_CRASH, Outcome.RUNTIME_CRASH, Symptom.Kind.RUNTIME_CRASH,
            Outcome.COMPILE_HANG, Symptom.Kind.COMPILE_HANG);

    /**
     * The lowest optimization level that shows the symptom (trying -O0, -O1, -O2 up to the
     * testbed's own), then without each other option that it does not need: the smallest
     * configuration, for a finding of a configuration space as for a fixed testbed. An option
     * that takes the next word ({@code -mllvm -force-vector-width=4}, {@code --param X}) goes
     * or stays with it. A {@code -march=native} (or {@code -mcpu=native}) it keeps is replaced
     * by the lowest named level that still shows the symptom, so that the report reproduces on
     * another machine.
     */
    static List<String> minimize(Symptom s, List<String> buggy) throws IOException {
        String cc = buggy.get(0);
        List<List<String>> options = options(buggy.subList(1, buggy.size()));
        String level = options.stream().filter(o -> o.size() == 1 && LEVEL.matcher(o.get(0)).matches()).map(o -> o.get(0))
                .reduce((a, b) -> b).orElse(null);
        options.removeIf(o -> o.size() == 1 && LEVEL.matcher(o.get(0)).matches());
        if (level != null) {
            for (String l : List.of("-O0", "-O1", "-O2", "-O3")) {
                if (l.equals(level)) break;
                if (s.shows(with(cc, l, flat(options)))) {
                    level = l;
                    break;
                }
            }
        }
        for (int i = 0; i < options.size(); ) {
            List<List<String>> fewer = new ArrayList<>(options);
            fewer.remove(i);
            if (s.shows(with(cc, level, flat(fewer)))) options = fewer;
            else i++;
        }
        for (int i = 0; i < options.size(); i++) {
            if (options.get(i).size() == 1 && NATIVE.contains(options.get(i).get(0))) {
                List<String> named = namedForNative(s, cc, level, options, i);
                if (named != null) options.set(i, named);
            }
        }
        return with(cc, level, flat(options));
    }

    /** Options that mean "this machine's CPU": a report that keeps one reproduces only on a CPU like it. */
    private static final java.util.Set<String> NATIVE = java.util.Set.of("-march=native", "-mcpu=native", "-mtune=native");

    /**
     * The named levels, lowest first, that may stand for {@code native} (an option of
     * {@link #NATIVE}) on this machine's architecture (the JVM's {@code os.arch}: native is
     * this machine's CPU, so a cross compiler's target does not come into it).
     */
    static List<String> namedLevels(String native_, String osArch) {
        if (native_.startsWith("-mtune=")) return List.of("-mtune=generic");
        return switch (osArch) {
            case "amd64", "x86_64" -> List.of("-march=x86-64", "-march=x86-64-v2", "-march=x86-64-v3", "-march=x86-64-v4");
            case "aarch64" -> List.of("-march=armv8-a", "-march=armv8.2-a", "-march=armv8.2-a+sve", "-march=armv9-a+sve2");
            default -> List.of();
        };
    }

    /**
     * For option {@code i} of {@code options}, {@code -march=native} or {@code -mcpu=native}: the
     * lowest named level of this architecture that still shows the symptom in its place, else
     * the CPU the compiler resolves native to (gcc's {@code -march=} under {@code -Q
     * --help=target}, clang's {@code -target-cpu}) if that shows it; null when neither does.
     */
    private static List<String> namedForNative(Symptom s, String cc, String level, List<List<String>> options, int i)
            throws IOException {
        for (String named : namedLevels(options.get(i).get(0), System.getProperty("os.arch"))) {
            if (showsInstead(s, cc, level, options, i, named)) return List.of(named);
        }
        String native_ = options.get(i).get(0);
        String cpu = resolvedCpu(s, cc, native_);
        if (cpu == null) return null;
        String named = native_.substring(0, native_.indexOf('=') + 1) + cpu;
        return showsInstead(s, cc, level, options, i, named) ? List.of(named) : null;
    }

    /** Whether the symptom shows with option {@code i} of {@code options} replaced by {@code option}. */
    private static boolean showsInstead(Symptom s, String cc, String level, List<List<String>> options, int i, String option)
            throws IOException {
        List<List<String>> tried = new ArrayList<>(options);
        tried.set(i, List.of(option));
        return s.shows(with(cc, level, flat(tried)));
    }

    private static final Pattern GCC_MARCH = Pattern.compile("^[ \\t]*-m(arch|cpu|tune)=[ \\t]+([\\w.+-]+)[ \\t]*$", Pattern.MULTILINE);
    private static final Pattern CLANG_CPU = Pattern.compile("\"-target-cpu\" \"([^\"]+)\"");

    /**
     * The CPU name {@code cc} resolves {@code native_} to on this machine, or null: gcc's value of
     * that same option under {@code -Q --help=target}, else clang's {@code -target-cpu}.
     */
    private static String resolvedCpu(Symptom s, String cc, String native_) throws IOException {
        String option = native_.substring(2, native_.indexOf('='));
        Matcher m = GCC_MARCH.matcher(s.run(List.of(cc, native_, "-Q", "--help=target"), 30).output());
        while (m.find()) {
            if (m.group(1).equals(option) && !UNNAMED_CPU.contains(m.group(2))) return m.group(2);
        }
        Matcher c = CLANG_CPU.matcher(s.run(List.of(cc, native_, "-###", "-c", "-x", "c", "/dev/null"), 30).output());
        return c.find() && !UNNAMED_CPU.contains(c.group(1)) ? c.group(1) : null;
    }

    /** What a compiler may say native resolved to without naming a CPU. */
    private static final java.util.Set<String> UNNAMED_CPU = java.util.Set.of("native", "generic");

    /** Options that take the next word as their value. */
    private static final java.util.Set<String> WITH_VALUE = java.util.Set.of("-mllvm", "--param", "-Xclang", "-Xlinker", "-Xassembler",
            "-target", "-include", "-isystem", "-I", "-D", "-U");

    /** The command-line words {@code words} as options, each with its value word where it takes one. */
    static List<List<String>> options(List<String> words) {
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            if (WITH_VALUE.contains(words.get(i)) && i + 1 < words.size()) {
                out.add(List.of(words.get(i), words.get(i + 1)));
                i++;
            } else {
                out.add(List.of(words.get(i)));
            }
        }
        return out;
    }

    private static List<String> flat(List<List<String>> options) {
        return options.stream().flatMap(List::stream).toList();
    }

    private static List<String> with(String cc, String level, List<String> flags) {
        List<String> cmd = new ArrayList<>(List.of(cc));
        if (level != null) cmd.add(level);
        cmd.addAll(flags);
        return cmd;
    }

    static String family(Symptom s, String cc) throws IOException {
        String v = s.run(List.of(cc, "--version"), 30).output();
        if (v.contains("ISPC")) return "ispc";
        if (v.contains("clang")) return "clang";
        if (v.contains("Free Software Foundation") || v.contains("gcc") || v.contains("GCC")) return "gcc";
        return "unknown";
    }

    /**
     * clang: the first pass in {@code -opt-bisect-limit} order after which the symptom shows.
     * Runs with limits 0 (no optional pass) and -1 (all) first; then bisects.
     */
    static String bisectClang(Symptom s, List<String> minimal) throws IOException {
        StringBuilder all = new StringBuilder();
        if (!s.shows(bisect(minimal, -1), all)) return "not reproducible under -opt-bisect-limit";
        int max = 0;
        for (String l : all.toString().split("\n")) {
            Matcher m = BISECT.matcher(l);
            if (m.find()) max = Math.max(max, Integer.parseInt(m.group(1)));
        }
        if (s.shows(bisect(minimal, 0))) return "shows with no optional pass (-opt-bisect-limit=0): the front end or a required pass";
        int lo = 0;
        int hi = max;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (s.shows(bisect(minimal, mid))) hi = mid;
            else lo = mid;
        }
        StringBuilder log = new StringBuilder();
        s.shows(bisect(minimal, hi), log);
        for (String l : log.toString().split("\n")) {
            Matcher m = BISECT.matcher(l);
            if (m.find() && Integer.parseInt(m.group(1)) == hi) return m.group(2) + " on " + m.group(3) + " (pass " + hi + ")";
        }
        return "pass " + hi;
    }

    private static List<String> bisect(List<String> minimal, int limit) {
        List<String> cmd = new ArrayList<>(minimal);
        cmd.addAll(List.of("-mllvm", "-opt-bisect-limit=" + limit));
        return cmd;
    }

    /**
     * gcc: the optimization flags enabled at the level (gcc -Q --help=optimizers) and the
     * tree and RTL passes that run (-fdump-passes) whose disabling alone makes the compiler
     * get the test right (not merely fail otherwise); at most {@code maxTries} builds.
     */
    static List<String> gccDisablers(Symptom s, List<String> minimal, int maxTries) throws IOException {
        List<String> candidates = new ArrayList<>();
        List<String> q = new ArrayList<>(minimal);
        q.addAll(List.of("-Q", "--help=optimizers"));
        for (String l : s.run(q, 60).output().split("\n")) {
            String t = l.strip();
            if (!t.endsWith("[enabled]") || !t.startsWith("-f")) continue;
            // A flag that is itself a negative one (-fno-inline-stringops) is turned off by its positive form.
            String name = t.substring(2).split("\\s")[0];
            candidates.add(name.startsWith("no-") ? "-f" + name.substring(3) : "-fno-" + name);
        }
        // The passes that run: gcc lists them while compiling the test itself (output discarded).
        List<String> d = new ArrayList<>(minimal);
        d.addAll(List.of("-fdump-passes", "-w", "-c", s.file(), "-o", "/dev/null"));
        for (String l : s.run(d, 60).output().split("\n")) {
            String t = l.strip();
            Matcher m = PASS_ON.matcher(t);
            if (m.find() && !GCC_REQUIRED_PASSES.contains(m.group(1))) candidates.add("-fdisable-" + m.group(1));
        }
        // What the buggy build prints: a group of disablers "still shows the bug" only if it prints that.
        // A program whose wrong output changes from run to run (or that does not run) has no such output: any wrong one counts.
        String shown = s.kind() == Symptom.Kind.WRONG_CODE ? s.steadyOutput(minimal) : null;
        List<String> disablers = new ArrayList<>();
        disablersAmong(s, minimal, shown, candidates, new int[] {maxTries}, disablers);
        return disablers;
    }

    /**
     * Adds to {@code found}, in order, the members of {@code group} that alone make the build
     * right, trying the group whole first (group testing; {@code left[0]} builds at most): a
     * group whose flags together still show the symptom (for wrong code, the buggy build's
     * very output {@code shown}: another wrong output is other trouble) holds no flag that removes it alone,
     * and is done in one build; one that gets the test right, or fails otherwise (a pass the
     * compiler cannot do without), is split in two. A few hundred flags and passes, of which
     * one or two matter, take a few dozen builds instead of one each.
     */
    private static void disablersAmong(Symptom s, List<String> minimal, String shown, List<String> group, int[] left, List<String> found)
            throws IOException {
        if (group.isEmpty() || left[0] <= 0) return;
        left[0]--;
        List<String> cmd = new ArrayList<>(minimal);
        cmd.addAll(group);
        Symptom.Effect e = s.effectAs(cmd, shown);
        if (group.size() == 1) {
            if (e == Symptom.Effect.FIXES) found.add(group.get(0));
            return;
        }
        if (e == Symptom.Effect.SHOWS) return;
        int half = group.size() / 2;
        disablersAmong(s, minimal, shown, group.subList(0, half), left, found);
        disablersAmong(s, minimal, shown, group.subList(half, group.size()), left, found);
    }

    /**
     * gcc: of the disabling flags and passes, those that the testbed's own flags turn on (the
     * passes that do not run at the bare level): the culprit a grouping should key on, since
     * the others (loop header copying, invariant motion...) are often prerequisites that any
     * bug downstream of them shares. All of them when none is.
     */
    static List<String> culprits(Symptom s, List<String> minimal, List<String> disablers) throws IOException {
        List<String> bare = new ArrayList<>(minimal.subList(0, 1));
        minimal.stream().filter(f -> LEVEL.matcher(f).matches()).forEach(bare::add);
        if (bare.size() == minimal.size()) return disablers;
        List<String> d = new ArrayList<>(bare);
        d.addAll(List.of("-fdump-passes", "-w", "-c", s.file(), "-o", "/dev/null"));
        java.util.Set<String> atLevel = new java.util.HashSet<>();
        for (String l : s.run(d, 60).output().split("\n")) {
            Matcher m = PASS_ON.matcher(l.strip());
            if (m.find()) atLevel.add("-fdisable-" + m.group(1));
        }
        List<String> own = new ArrayList<>();
        for (String x : disablers) {
            boolean flagOfTestbed = x.startsWith("-fno-") && minimal.contains("-f" + x.substring("-fno-".length()))
                    // the positive form of an enabled negative flag (-finline-stringops for -fno-inline-stringops)
                    || !x.startsWith("-fno-") && !x.startsWith("-fdisable-") && minimal.contains("-fno-" + x.substring(2));
            boolean passOfTestbed = x.startsWith("-fdisable-") && !atLevel.contains(x);
            if (flagOfTestbed || passOfTestbed) own.add(x);
        }
        return own.isEmpty() ? disablers : own;
    }

    /** A finding that cannot be triaged; the message is one line. */
    public static final class TriageException extends RuntimeException {
        public TriageException(String m) {
            super(m, null, false, false);
        }
    }
}
