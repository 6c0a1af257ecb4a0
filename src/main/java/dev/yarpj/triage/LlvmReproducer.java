package dev.yarpj.triage;

import dev.yarpj.harness.CampaignConfig;
import dev.yarpj.harness.CompilerVersion;
import dev.yarpj.harness.ProcessRunner;
import dev.yarpj.harness.Testbed;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * For a clang finding blamed on one pass: the LLVM IR at that pass's input, an {@code opt}
 * command that shows the symptom on that IR with that pass alone ({@code llc} for a pass of
 * the back end), and the IR reduced by {@code llvm-reduce} with an interestingness test of
 * the finding's kind. This is what LLVM developers ask a report for: the bug in one pass,
 * without clang's front end.
 *
 * <p>The IR comes from clang itself at the finding's flags, with {@code -opt-bisect-limit}
 * one below the blamed pass: every pass before it has run, none after. The pass's name in
 * opt's pipeline syntax is found from its class name (the one opt-bisect prints) among the
 * names {@code opt -print-passes} knows, parameters as clang's own pipeline
 * ({@code -print-pipeline-passes}) has them, and confirmed by {@code -debug-pass-manager}.
 * The LLVM tools must be the clang's own version ({@code opt-23} for clang 23, as
 * scripts/install-compilers.sh installs them).
 */
final class LlvmReproducer {
    /**
     * What was made. {@code note} says in one line what the IR shows or why there is none;
     * {@code command} runs the pass on {@code reduced} (null when no reproducer was made).
     */
    record Result(String note, Path before, Path reduced, List<String> command, int beforeLines, int reducedLines, String measured,
                  String passClass, String input) {
        static Result none(String why) {
            return new Result(why, null, null, null, 0, 0, null, null, null);
        }

        boolean made() {
            return command != null;
        }

        /** The reproducer as triage.json has it, paths relative to the triage directory {@code work}. */
        Map<String, Object> json(Path work) {
            Map<String, Object> j = new java.util.LinkedHashMap<>();
            j.put("note", note);
            j.put("command", made() ? String.join(" ", shortCommand(command)) : null);
            j.put("ir", reduced == null ? null : work.relativize(reduced).toString());
            j.put("lines", made() ? reducedLines : null);
            j.put("lines_at_pass_input", before == null ? null : beforeLines);
            j.put("measured", measured);
            return j;
        }
    }

    private static final Pattern BLAME = Pattern.compile("^(.+?) on (.+) \\(pass (\\d+)\\)$");
    private static final Pattern CLANG_MAJOR = Pattern.compile("clang version (\\d+)");
    /** Where opt's class names and pipeline names part ways. */
    private static final Map<String, String> NAMES = Map.ofEntries(Map.entry("IndVarSimplifyPass", "indvars"),
            Map.entry("LoopFullUnrollPass", "loop-unroll-full"), Map.entry("CorrelatedValuePropagationPass", "correlated-propagation"),
            Map.entry("LoopStrengthReducePass", "loop-reduce"), Map.entry("MergedLoadStoreMotionPass", "mldst-motion"),
            Map.entry("InductiveRangeCheckEliminationPass", "irce"), Map.entry("LoopFusePass", "loop-fusion"),
            Map.entry("LoopIdiomRecognizePass", "loop-idiom"), Map.entry("LoopLoadEliminationPass", "loop-load-elim"),
            Map.entry("SLPVectorizerPass", "slp-vectorizer"), Map.entry("DSEPass", "dse"), Map.entry("TailCallElimPass", "tailcallelim"));

    private LlvmReproducer() {}

    /**
     * Makes the reproducer in {@code work}/ir for the test {@code s} shows with {@code minimal},
     * whose symptom {@link Triage#bisectClang} blamed on {@code blame}; llvm-reduce gets
     * {@code reduceSeconds} of wall-clock time (0: the IR is not reduced) and at most
     * {@code passIterations} rounds over its passes.
     */
    static Result make(Symptom s, List<String> minimal, String blame, Path work, String searchPath, double compileTimeout,
                       double reduceSeconds, int passIterations) throws IOException {
        Matcher b = BLAME.matcher(blame);
        if (!b.matches()) return Result.none("no IR reproducer: no single pass is blamed");
        String passClass = b.group(1);
        int number = Integer.parseInt(b.group(3));
        if (minimal.stream().anyMatch(f -> f.startsWith("-flto"))) {
            return Result.none("no IR reproducer: the bug needs -flto, whose passes run at the link");
        }
        Matcher v = CLANG_MAJOR.matcher(CompilerVersion.firstLine(minimal.get(0)));
        if (!v.find()) return Result.none("no IR reproducer: " + minimal.get(0) + " does not say its clang version");
        String major = v.group(1);
        Path opt = find("opt-" + major, searchPath);
        Path llc = find("llc-" + major, searchPath);
        if (opt == null && llc == null) {
            return Result.none("no IR reproducer: opt-" + major + " is not installed (scripts/install-compilers.sh installs it with clang-" + major + ")");
        }
        Path dir = Files.createDirectories(work.resolve("ir"));
        // The IR at the pass's input: every optional pass before it has run, none after.
        Path before = emit(s, minimal, number - 1, "before.ll", compileTimeout);
        if (before == null) return Result.none("no IR reproducer: clang does not emit the IR");
        int beforeLines = lines(before);
        List<String> mllvm = new ArrayList<>();
        for (int i = 0; i + 1 < minimal.size(); i++) if (minimal.get(i).equals("-mllvm")) mllvm.add(minimal.get(++i));

        // The pass alone under opt, on its input; else (a pass of the back end, or a pass whose
        // output crashes the back end) llc at the finding's level, on what the middle end hands
        // it once the pass has run.
        OptPass pass = opt == null ? null : optPass(s, minimal, opt, passClass, compileTimeout);
        String className = pass == null ? passClass : pass.className();
        Path input = before;
        List<String> command = null;
        Interesting test = null;
        String shown = null;
        // A compile-time problem grows with the code the pass sees (a loop fully unrolled into hundreds of
        // stores, say), so its IR at the pass's input stays large however it is reduced. The front end's IR
        // through the level's whole pipeline is small, and the time is still the pass's: that is tried first.
        if (pass != null && s.kind() == Symptom.Kind.COMPILE_HANG && pipeline(minimal) != null) {
            Path front = emit(s, minimal, -2, "front.ll", compileTimeout);
            if (front != null) {
                command = new ArrayList<>(List.of(opt.toString(), "-passes=" + pipeline(minimal)));
                command.addAll(mllvm);
                test = new SlowPass(s, command, dir, compileTimeout, className);
                shown = test.showsOn(front);
                input = front;
            }
        }
        if (shown == null && pass != null) {
            command = new ArrayList<>(List.of(opt.toString(), "-passes=" + pass.pipeline()));
            command.addAll(mllvm);
            test = Interesting.of(s, minimal, command, dir, compileTimeout, className);
            shown = test.showsOn(before);
            input = before;
        }
        if (shown == null && llc != null && s.kind() != Symptom.Kind.WRONG_CODE) {
            Path after = emit(s, minimal, number, "backend.ll", compileTimeout);
            if (after != null) {
                command = new ArrayList<>(List.of(llc.toString(), level(minimal)));
                command.addAll(mllvm);
                test = Interesting.of(s, minimal, command, dir, compileTimeout, className);
                shown = test.showsOn(after);
                input = after;
            }
        }
        if (shown == null) {
            return new Result("no IR reproducer: neither " + (pass == null ? "opt (no pipeline name for " + passClass + ")" : "opt -passes=" + pass.pipeline())
                    + " on the IR at the pass's input" + (s.kind() == Symptom.Kind.WRONG_CODE ? "" : " nor llc on the IR after it")
                    + " shows the symptom (the IR is ir/before.ll)", before, null, null, beforeLines, 0, null, className, null);
        }
        beforeLines = lines(input);
        before = input;
        String inputKind = input.getFileName().toString().equals("front.ll")
                ? "the IR clang's front end makes (`-S -emit-llvm -Xclang -disable-llvm-passes` at the flags above), through opt's whole pipeline of the level, where the time goes to the blamed pass"
                : input.getFileName().toString().equals("backend.ll")
                ? "the IR clang's back end gets once the blamed pass has run (`-S -emit-llvm -mllvm -opt-bisect-limit` at the pass)"
                : "the IR at the input of the blamed pass (`-S -emit-llvm -mllvm -opt-bisect-limit` one below the pass)";
        return reduced(s, dir, test, command, before, shown, inputKind, className, find("llvm-reduce-" + major, searchPath), reduceSeconds,
                passIterations);
    }

    /**
     * The reproducer {@code command} shows on {@code before} (what it does there: {@code shown}),
     * with that IR reduced by {@code reducer} (null: not installed) within {@code reduceSeconds}.
     */
    private static Result reduced(Symptom s, Path dir, Interesting test, List<String> command, Path before, String shown, String inputKind,
                                  String className, Path reducer, double reduceSeconds, int passIterations) throws IOException {
        int beforeLines = lines(before);
        String tool = reducer == null ? "llvm-reduce" : reducer.getFileName().toString();
        Path reduced = before;
        String how = "not reduced";
        if (reduceSeconds > 0) {
            if (reducer == null) {
                how = "not reduced: llvm-reduce of this LLVM is not installed";
            } else {
                Path script = test.write(dir.resolve("interesting.sh"));
                Path out = dir.resolve("reduced.ll");
                // An earlier triage's reduction that still shows the symptom with this command is where this one
                // starts (the IR clang emits is the same each time): llvm-reduce need not do that work again.
                Path start = before;
                if (Files.exists(out)) {
                    Path earlier = Files.move(out, dir.resolve("earlier.ll"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    if (test.showsOn(earlier) != null) start = earlier;
                }
                List<String> reduce = new ArrayList<>(List.of(reducer.toString(), "--test=" + script, "-o", out.toString(),
                        "--max-pass-iterations=" + passIterations));
                // Wrong code: no edit that puts poison or NaN in an operand, which would give the pass undefined behaviour to exploit.
                if (s.kind() == Symptom.Kind.WRONG_CODE) reduce.add("--skip-delta-passes=operands-poison,operands-nan");
                reduce.add(start.toString());
                ProcessRunner.Captured c = ProcessRunner.capture(dir, reduce, Map.of(), reduceSeconds, null);
                // Nothing left to cut from an earlier reduction: that one stands.
                if (!Files.exists(out) && !start.equals(before)) Files.copy(start, out);
                // llvm-reduce saves its best reduction after each of its passes: one it had no time to finish still counts.
                boolean saved = Files.exists(out);
                if (saved && test.showsOn(out) != null) {
                    reduced = out;
                    how = "reduced by " + tool + " from " + beforeLines + " lines"
                            + (start.equals(before) ? "" : " (from an earlier triage's " + lines(start) + ")")
                            + (c.timedOut() ? " in its " + (long) reduceSeconds + " s, not to the end" : "");
                } else {
                    String last = c.output().lines().filter(l -> !l.isBlank()).reduce((a, x) -> x).orElse("").strip();
                    how = saved ? "not reduced: llvm-reduce's result does not show it when checked again"
                            : c.timedOut() ? "not reduced: llvm-reduce ran out of its " + (long) reduceSeconds + " s"
                            : "not reduced: llvm-reduce failed: " + last;
                }
            }
        }
        String measured = test.measure(reduced, className);
        List<String> shownCommand = new ArrayList<>(shortCommand(command));
        return new Result("shown by " + String.join(" ", shownCommand) + " on " + dir.relativize(reduced) + " (" + lines(reduced) + " lines, " + how
                + "); on the IR before reduction it " + shown, before, reduced, command, beforeLines, lines(reduced), measured, className, inputKind);
    }

    /**
     * For an ispc crash: the IR ispc hands its code generator ({@code --emit-llvm-text} at the
     * finding's level and target, {@code compile} being that ispc command without its outputs),
     * compiled by the newest LLVM's {@code llc} (llc-newest) for the target's CPU, and reduced by
     * llvm-reduce-newest: an ispc crash that this shows is a bug of LLVM's back end, to report to
     * LLVM with that IR. ispc's IR names no CPU, so llc is told the one ispc compiled for.
     */
    static Result forIspc(Symptom s, List<String> compile, String target, String level, String searchPath, double compileTimeout,
                          double reduceSeconds, int passIterations) throws IOException {
        if (s.kind() != Symptom.Kind.COMPILER_CRASH) return Result.none("no IR reproducer: made for ispc crashes only");
        String cpu = cpuOfIspcTarget(target);
        if (cpu == null) return Result.none("no IR reproducer: no CPU known for ispc's target " + target);
        Path llc = find("llc-newest", searchPath);
        if (llc == null) return Result.none("no IR reproducer: llc-newest is not installed (scripts/install-compilers.sh installs it)");
        Path dir = Files.createDirectories(s.dir().resolve("ir"));
        Path ir = dir.resolve("ispc.ll");
        Files.deleteIfExists(ir);
        List<String> emit = new ArrayList<>(compile);
        emit.addAll(List.of("--emit-llvm-text", "-o", "ir/ispc.ll"));
        Symptom.Run e = s.run(emit, compileTimeout * 4);
        if (e.exit() != 0 || !Files.exists(ir)) return Result.none("no IR reproducer: ispc does not emit its IR: " + Symptom.firstLine(e.output()));
        List<String> command = new ArrayList<>(List.of(llc.toString(), level.equals("-O0") ? "-O0" : level, "-mcpu=" + cpu));
        Interesting test = new Crash(s, command, dir);
        String shown = test.showsOn(ir);
        if (shown == null) {
            return new Result("no IR reproducer: " + String.join(" ", shortCommand(command)) + " on the IR ispc emits does not show the crash"
                    + " (ispc's front end or its own LLVM, then; the IR is ir/ispc.ll)", ir, null, null, lines(ir), 0, null, null, null);
        }
        return reduced(s, dir, test, command, ir, shown, "the IR ispc hands its code generator (`--emit-llvm-text` at the flags above),"
                + " which the newest LLVM's llc fails on by itself for the target's CPU (" + cpu + "): a bug of LLVM's back end", null,
                find("llvm-reduce-newest", searchPath), reduceSeconds, passIterations);
    }

    /** The CPU of an ispc target, as llc's {@code -mcpu} names it; null for a target not known here. */
    static String cpuOfIspcTarget(String target) {
        if (target.startsWith("avx512skx")) return "skylake-avx512";
        if (target.startsWith("avx512icl")) return "icelake-server";
        if (target.startsWith("avx512spr")) return "sapphirerapids";
        if (target.startsWith("avx2")) return "haswell";
        if (target.startsWith("avx1")) return "sandybridge";
        if (target.startsWith("sse4")) return "nehalem";
        if (target.startsWith("sse2")) return "x86-64";
        return null;
    }

    /** The class name of the pass {@code blame} names ("LoopLoadEliminationPass on ... (pass 474)"), else null. */
    static String passClass(String blame) {
        Matcher b = BLAME.matcher(blame);
        return b.matches() ? b.group(1) : null;
    }

    /** The words that make {@code command} (opt or llc) write nothing: compile time and crashes need no output file. */
    static List<String> discardOutput(List<String> command) {
        return Path.of(command.get(0)).getFileName().toString().startsWith("llc") ? List.of("-o", "/dev/null") : List.of("-disable-output");
    }

    /** The command as a report shows it: the tool by its name, not its path; a word the shell would take apart in quotes. */
    static List<String> shortCommand(List<String> command) {
        List<String> c = new ArrayList<>();
        c.add(Path.of(command.get(0)).getFileName().toString());
        for (String w : command.subList(1, command.size())) c.add(w.matches("[A-Za-z0-9_=,./:+-]*") ? w : "'" + w.replace("'", "'\\''") + "'");
        return c;
    }

    /** opt's pipeline for the finding's level ({@code default<O2>}), or null for -O0 and levels opt has none of. */
    static String pipeline(List<String> minimal) {
        String l = minimal.stream().filter(f -> f.matches("-O[0-3sz]?")).reduce((a, x) -> x).orElse(null);
        if (l == null || l.equals("-O0")) return null;
        return "default<" + (l.equals("-O") ? "O1" : l.substring(1)) + ">";
    }

    private static String level(List<String> minimal) {
        String l = minimal.stream().filter(f -> f.matches("-O[0-3]")).reduce((a, x) -> x).orElse("-O2");
        return l;
    }

    /**
     * The IR clang emits at the finding's flags with {@code -opt-bisect-limit=limit} (-2: its
     * front end's, before any pass), as ir/{@code name}; null when it emits none.
     */
    private static Path emit(Symptom s, List<String> minimal, int limit, String name, double compileTimeout) throws IOException {
        List<String> emit = new ArrayList<>(minimal);
        emit.addAll(List.of("-w", "-S", "-emit-llvm", s.file(), "-o", "ir/" + name));
        emit.addAll(limit == -2 ? List.of("-Xclang", "-disable-llvm-passes") : List.of("-mllvm", "-opt-bisect-limit=" + limit));
        Path out = s.dir().resolve("ir").resolve(name);
        Files.deleteIfExists(out);
        Symptom.Run e = s.run(emit, compileTimeout * 4);
        return e.exit() == 0 && Files.exists(out) ? out : null;
    }

    /** A pass as opt runs it: its name in the pipeline syntax, with parameters, and its class name (what -time-passes prints). */
    record OptPass(String pipeline, String className) {}

    /**
     * The pass opt-bisect named {@code blamed} (a pipeline name such as {@code loop-load-elim}, as
     * LLVM 23 prints them, or a class name such as {@code LoopLoadEliminationPass}, as older
     * releases did) as opt runs it, with the parameters clang's pipeline gives it; null when
     * opt has no such pass. A class name is matched to the name {@code opt -print-passes} lists
     * (a known exception, else the longest whose letters begin the class name's), and confirmed
     * by opt running a pass of that class.
     */
    static OptPass optPass(Symptom s, List<String> minimal, Path opt, String blamed, double timeout) throws IOException {
        List<String> names = new ArrayList<>();
        for (String l : s.run(List.of(opt.toString(), "-print-passes"), 60).output().split("\n")) {
            String n = l.strip().replaceAll("<.*$", "");
            if (n.matches("[a-z0-9][a-z0-9-]*")) names.add(n);
        }
        String name = names.contains(blamed) ? blamed : NAMES.get(blamed);
        if (name == null) {
            String want = letters(blamed.replaceAll("Pass$", ""));
            for (String n : names) if (want.startsWith(letters(n)) && (name == null || n.length() > name.length())) name = n;
        }
        if (name == null) return null;
        Path probe = s.dir().resolve("ir/probe.ll");
        Files.createDirectories(probe.getParent());
        Files.writeString(probe, PROBE);
        String className = className(s, opt, name, probe, names.contains(blamed) ? null : blamed);
        if (className == null || !names.contains(blamed) && !className.equals(blamed)) return null;
        // The parameters clang's own pipeline gives it (loop-unroll<O3>, loop-vectorize<...>), where it prints one.
        List<String> print = new ArrayList<>(minimal);
        print.addAll(List.of("-w", "-S", "-emit-llvm", s.file(), "-o", "/dev/null", "-mllvm", "-print-pipeline-passes"));
        Matcher m = Pattern.compile("(?<![A-Za-z0-9-])" + Pattern.quote(name) + "(<[^<>]*>)?(?=[,()]|$)", Pattern.MULTILINE)
                .matcher(s.run(print, timeout * 4).output());
        if (m.find() && m.group(1) != null && className(s, opt, name + m.group(1), probe, className) != null) {
            return new OptPass(name + m.group(1), className);
        }
        return new OptPass(name, className);
    }

    /**
     * The class of the pass opt runs for {@code pipeline} on the probe: {@code expected} if it
     * runs one of that class, else of the passes it says it runs, the one whose name shares the
     * longest start with the pipeline name's letters (not LoopSimplifyPass or LCSSAPass, which a
     * loop pass brings along); null when opt refuses it.
     */
    private static String className(Symptom s, Path opt, String pipeline, Path probe, String expected) throws IOException {
        Symptom.Run r = s.run(List.of(opt.toString(), "-passes=" + pipeline, "-debug-pass-manager", "-disable-output", probe.toString()), 60);
        if (r.exit() != 0) return null;
        if (expected != null) return Pattern.compile("Running pass: " + Pattern.quote(expected) + "\\b").matcher(r.output()).find() ? expected : null;
        String want = letters(pipeline.replaceAll("<.*$", ""));
        String best = null;
        int bestLength = 0;
        Matcher m = Pattern.compile("Running pass: (\\w+)").matcher(r.output());
        while (m.find()) {
            String c = letters(m.group(1));
            int k = 0;
            while (k < c.length() && k < want.length() && c.charAt(k) == want.charAt(k)) k++;
            if (k > bestLength) {
                best = m.group(1);
                bestLength = k;
            }
        }
        return best;
    }

    /** A function with a loop: every function and loop pass of opt's pipeline runs on it. */
    private static final String PROBE = """
            define void @f(ptr %p, i64 %n) {
            entry:
              br label %loop
            loop:
              %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
              %a = getelementptr inbounds i32, ptr %p, i64 %i
              store i32 0, ptr %a
              %i.next = add nuw nsw i64 %i, 1
              %c = icmp ult i64 %i.next, %n
              br i1 %c, label %loop, label %exit
            exit:
              ret void
            }
            """;

    private static String letters(String s) {
        return s.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
    }

    static Path find(String command, String searchPath) {
        for (String d : searchPath.split(File.pathSeparator)) {
            if (d.isEmpty()) continue;
            Path p = Path.of(d, command);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    static int lines(Path p) throws IOException {
        try (var l = Files.lines(p)) {
            return (int) l.count();
        }
    }

    /**
     * The interestingness test of one kind of finding: what makes an IR file show the symptom,
     * in Java (to check the IR before and after) and as the shell script llvm-reduce runs.
     */
    private abstract static class Interesting {
        final Symptom s;
        final List<String> command;
        final Path dir;

        Interesting(Symptom s, List<String> command, Path dir) {
            this.s = s;
            this.command = command;
            this.dir = dir;
        }

        static Interesting of(Symptom s, List<String> minimal, List<String> command, Path dir, double compileTimeout, String className) {
            return switch (s.kind()) {
                case COMPILE_HANG -> new SlowPass(s, command, dir, compileTimeout, className);
                case COMPILER_CRASH -> new Crash(s, command, dir);
                default -> new WrongOutput(s, minimal, command, dir);
            };
        }

        /** What the command does on {@code ir} when it shows the symptom there (in a few words), else null. */
        abstract String showsOn(Path ir) throws IOException;

        /** The script: exit 0 when the IR file it is given shows the symptom. */
        abstract Path write(Path script) throws IOException;

        /** What the command costs on the final IR, for the report; null when nothing is measured. */
        String measure(Path ir, String passClass) throws IOException {
            return null;
        }

        List<String> on(Path ir, String... more) {
            List<String> c = new ArrayList<>(command);
            c.addAll(List.of(more).equals(List.of("-disable-output")) ? discardOutput(command) : List.of(more));
            c.add(ir.toString());
            return c;
        }

        List<String> onDiscarding(Path ir, String more) {
            List<String> c = new ArrayList<>(command);
            c.addAll(discardOutput(command));
            c.add(more);
            c.add(ir.toString());
            return c;
        }

        static String quote(List<String> words) {
            StringBuilder b = new StringBuilder();
            for (String w : words) b.append(b.length() == 0 ? "" : " ").append("'").append(w.replace("'", "'\\''")).append("'");
            return b.toString();
        }

        Path script(Path script, String body) throws IOException {
            Files.writeString(script, "#!/bin/sh\n# Written by yarpj triage: exit 0 when the LLVM IR file $1 still shows the finding's symptom.\n" + body);
            script.toFile().setExecutable(true);
            return script;
        }
    }

    /**
     * A compile-time finding: the command spends at least {@code limit} CPU seconds in the blamed
     * pass and at least half of its time ({@code -time-passes}): a quarter of what the pass takes
     * on the unreduced IR, at most a quarter of the compile limit, at least one second. Each try
     * may run twice as long as the unreduced IR took (at least four times the limit) before
     * ulimit kills it (not interesting then: its share is unknown); most tries lose the problem
     * and end sooner.
     */
    private static final class SlowPass extends Interesting {
        final double compileTimeout;
        final String className;
        long limit;
        /** The CPU seconds a try may take: twice what the unreduced IR took, at least four times the limit. */
        long cap;

        SlowPass(Symptom s, List<String> command, Path dir, double compileTimeout, String className) {
            super(s, command, dir);
            this.compileTimeout = compileTimeout;
            this.className = className;
        }

        @Override
        String showsOn(Path ir) throws IOException {
            double most = limit == 0 ? compileTimeout * 4 : cap;
            ProcessRunner.Result r = ProcessRunner.run(dir, "opt-time", onDiscarding(ir, "-time-passes"), CampaignConfig.compileLimits(most));
            if (!r.ok()) return null;
            double[] pass = passTime(r.stderr());
            if (pass == null || pass[1] < 50) return null;
            if (limit == 0) {
                if (pass[0] < 2) return null;
                limit = Math.max(1, (long) Math.min(pass[0] / 4, compileTimeout / 4));
                cap = Math.max(limit * 4, (long) Math.ceil(r.cpuSeconds() * 2));
            } else if (pass[0] < limit * 0.5) {
                // Rechecked here (an earlier reduction, llvm-reduce's result, the report's figures): the reduction
                // stops where the pass takes just over the limit, so that timing noise must not undo it.
                return null;
            }
            return String.format(Locale.ROOT, "takes %.1f CPU-s, %.1f of them (%.0f%%) in %s", r.cpuSeconds(), pass[0], pass[1], className);
        }

        /** The user seconds and per cent {@code -time-passes} gives the blamed pass, or null when it names it nowhere. */
        double[] passTime(String report) {
            Matcher m = CompileTimes.passLine(className).matcher(report);
            return m.find() ? new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))} : null;
        }

        @Override
        Path write(Path script) throws IOException {
            String line = "s/^ *\\([0-9.]*\\) *( *\\([0-9.]*\\)%).* " + className + "$/\\1 \\2/p";
            return script(script, "# It is when the command spends at least " + limit + " CPU seconds in " + className
                    + " and at least half its time (-time-passes).\n"
                    + "ulimit -c 0; ulimit -t " + cap + "\n"
                    + "out=$(" + quote(command) + " " + String.join(" ", discardOutput(command)) + " -time-passes \"$1\" 2>&1 >/dev/null) || exit 1\n"
                    + "set -- $(printf '%s\\n' \"$out\" | sed -n '" + line + "' | head -n 1)\n"
                    + "[ $# -eq 2 ] && awk -v s=\"$1\" -v p=\"$2\" 'BEGIN { exit !(s >= " + limit + " && p >= 50) }'\n");
        }

        @Override
        String measure(Path ir, String passClass) throws IOException {
            return showsOn(ir);
        }
    }

    /**
     * A crash: the tool fails with the message the compiler crashed with, without the words
     * that differ between clang ("error in backend: Cannot select") and opt or llc ("LLVM ERROR:
     * Cannot select").
     */
    private static final class Crash extends Interesting {
        final String message;

        Crash(Symptom s, List<String> command, Path dir) {
            super(s, command, dir);
            this.message = s.crashText().replaceFirst("^(error in backend|LLVM ERROR): ", "");
        }

        @Override
        String showsOn(Path ir) throws IOException {
            Symptom.Run r = s.run(on(ir, "-o", "/dev/null"), 120);
            return !r.timedOut() && r.exit() != 0 && dev.yarpj.harness.Signature.withoutAddresses(r.output()).contains(message)
                    ? "fails with \"" + message + "\"" : null;
        }

        @Override
        Path write(Path script) throws IOException {
            Files.writeString(dir.resolve("crash.txt"), message + "\n");
            return script(script, "ulimit -c 0; ulimit -t 120\n" + quote(command) + " -o /dev/null \"$1\" 2>&1 | sed -E 's/0x[0-9a-fA-F]+/0x/g' | grep -qF -f "
                    + quote(List.of(dir.resolve("crash.txt").toString())) + "\n");
        }
    }

    /**
     * Wrong code: the IR built as it is (clang at the finding's level with no middle-end pass)
     * prints the reference output, and with the pass applied first prints the buggy build's
     * very output. An IR reduction may bring in
     * undefined behaviour that the unreduced test was free of; the report says so.
     */
    private static final class WrongOutput extends Interesting {
        final List<String> build;
        String wrong;

        WrongOutput(Symptom s, List<String> minimal, List<String> command, Path dir) {
            super(s, command, dir);
            // The finding's compiler, level and target flags with no pass of the middle end: it builds IR as it
            // is, with the back end the finding had (at -O0 AArch64 selects instructions another way), and links.
            List<String> b = new ArrayList<>(List.of(minimal.get(0)));
            for (int i = 1; i < minimal.size(); i++) {
                String f = minimal.get(i);
                if (f.equals("-mllvm")) i++;
                else if (!f.startsWith("-f")) b.add(f);
            }
            b.addAll(List.of("-w", "-Xclang", "-disable-llvm-passes"));
            this.build = b;
        }

        @Override
        String showsOn(Path ir) throws IOException {
            List<String> ref = new ArrayList<>(build);
            ref.add(ir.toString());
            ref.addAll(s.inputs());
            ref.addAll(List.of("-o", "ir-ref.bin", Testbed.MATH_LIBRARY));
            if (s.run(ref, 120).exit() != 0) return null;
            Symptom.Run a = s.exec("ir-ref.bin");
            if (a.timedOut() || a.exit() != 0 || !a.output().equals(s.referenceOutput())) return null;
            if (s.run(on(ir, "-o", dir.resolve("after.bc").toString()), 120).exit() != 0) return null;
            List<String> bug = new ArrayList<>(build);
            bug.add(dir.resolve("after.bc").toString());
            bug.addAll(s.inputs());
            bug.addAll(List.of("-o", "ir-bug.bin", Testbed.MATH_LIBRARY));
            if (s.run(bug, 120).exit() != 0) return null;
            Symptom.Run r = s.exec("ir-bug.bin");
            if (r.timedOut() || r.exit() != 0 || r.output().equals(s.referenceOutput())) return null;
            if (wrong == null) wrong = r.output();
            return r.output().equals(wrong) ? "prints `" + r.output().strip() + "` where the IR as it is prints `" + s.referenceOutput().strip() + "`" : null;
        }

        @Override
        Path write(Path script) throws IOException {
            Files.writeString(dir.resolve("expected.txt"), s.referenceOutput());
            Files.writeString(dir.resolve("wrong.txt"), wrong);
            String run = s.emulator().isEmpty() ? "" : quote(s.emulator()) + " ";
            String d = quote(List.of(dir.toString()));
            // The driver apart, when the symptom needs it: by absolute path, as the script runs elsewhere.
            String others = s.inputs().isEmpty() ? "" : " " + quote(s.inputs().stream().map(x -> s.dir().resolve(x).toAbsolutePath().toString()).toList());
            return script(script, "ulimit -c 0; ulimit -t 120\nt=$(mktemp -d) || exit 1\ntrap 'rm -rf \"$t\"' EXIT\n"
                    + quote(build) + " \"$1\"" + others + " -o \"$t/ref\" " + Testbed.MATH_LIBRARY + " >/dev/null 2>&1 || exit 1\n"
                    + "timeout " + (long) s.runSeconds() + " " + run + "\"$t/ref\" > \"$t/ref.out\" 2>/dev/null || exit 1\n"
                    + "cmp -s \"$t/ref.out\" " + d + "/expected.txt || exit 1\n"
                    + quote(command) + " \"$1\" -o \"$t/after.bc\" >/dev/null 2>&1 || exit 1\n"
                    + quote(build) + " \"$t/after.bc\"" + others + " -o \"$t/bug\" " + Testbed.MATH_LIBRARY + " >/dev/null 2>&1 || exit 1\n"
                    + "timeout " + (long) s.runSeconds() + " " + run + "\"$t/bug\" > \"$t/bug.out\" 2>/dev/null || exit 1\n"
                    + "cmp -s \"$t/bug.out\" " + d + "/wrong.txt\n");
        }
    }
}
