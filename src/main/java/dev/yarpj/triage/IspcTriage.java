package dev.yarpj.triage;

import dev.yarpj.harness.Finding;
import dev.yarpj.harness.IspcTargets;
import dev.yarpj.harness.JsonFiles;
import dev.yarpj.harness.Outcome;
import dev.yarpj.harness.Replay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Triage of an ISPC finding: the lowest optimization level that shows it, then every ispc
 * target at that level (those this CPU runs, for a symptom that needs a run), and a report
 * draft. The test is the IR phase's reduced one when there is one ({@code yarpj reduce}),
 * else the finding's own files, built as the finding's testbed built them ({@link Replay})
 * with the level and target changed. There is one ispc to a machine, so no versions are
 * compared, and ispc has no pass bisection like clang's: which targets show it is what tells
 * a front-end bug (every target of a width) from a code generator's.
 */
final class IspcTriage {
    /** ispc 1.28's targets, narrow to wide. */
    static final List<String> TARGETS = List.of("sse2-i32x4", "sse4-i32x4", "avx1-i32x8", "avx2-i32x4", "avx2-i32x8", "avx2-i32x16",
            "avx2-i64x4", "avx512skx-x4", "avx512skx-x8", "avx512skx-x16", "avx512skx-x32", "avx512skx-x64");

    private IspcTriage() {}

    static Triage.Verdict one(Path finding, Finding f, Triage.Options o) throws IOException {
        Path reduced = finding.resolve("reduced").resolve("ir");
        Path src = Files.exists(reduced.resolve("func.ispc")) ? reduced : finding;
        Map<String, String> files = new LinkedHashMap<>();
        for (String name : List.of("func.ispc", "func.cpp", "driver.cpp", "init.h")) {
            Path p = src.resolve(name);
            if (!Files.exists(p)) throw new Triage.TriageException("the test has no " + name + ": " + src);
            files.put(name, Files.readString(p));
        }
        String expected = Files.exists(src.resolve("expected.txt")) ? Files.readString(src.resolve("expected.txt")).strip() : null;
        if (expected == null && (f.kind() == Outcome.WRONG_CODE)) throw new Triage.TriageException("the test has no expected.txt: " + src);
        Replay replay;
        try {
            replay = new Replay(f, o.compileTimeoutSeconds() * 4, o.compileTimeoutSeconds());
        } catch (Finding.Unreadable e) {
            throw new Triage.TriageException(e.getMessage());
        }
        List<String> buggy = replay.buggyCompile();
        int[] builds = {0};
        Shows shows = cmd -> {
            builds[0]++;
            return replay.check(files, expected == null ? "" : expected, cmd) == Replay.Verdict.SHOWS;
        };
        if (!shows.test(buggy)) throw new Triage.TriageException("the symptom does not show on " + src + " with " + String.join(" ", buggy));

        String level = buggy.stream().filter(a -> a.matches("-O[0-3]")).findFirst().orElse("-O2");
        String target = target(buggy);
        for (String l : List.of("-O0", "-O1", "-O2", "-O3")) {
            if (l.equals(level)) break;
            if (shows.test(with(buggy, l, target))) {
                level = l;
                break;
            }
        }
        boolean runs = f.kind() == Outcome.WRONG_CODE || f.kind() == Outcome.RUNTIME_CRASH;
        List<String> showing = new ArrayList<>();
        List<String> right = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (String t : TARGETS) {
            if (runs && !IspcTargets.runsHere(t)) {
                skipped.add(t);
                continue;
            }
            (t.equals(target) || shows.test(with(buggy, level, t)) ? showing : right).add(t);
        }
        List<String> minimal = new ArrayList<>(List.of(buggy.get(0), level, "--target=" + target));
        String blame = "targets at " + level + ": " + String.join(", ", showing) + (right.isEmpty() ? "" : "; right on " + String.join(", ", right))
                + (skipped.isEmpty() ? "" : "; not run here: " + String.join(", ", skipped));
        String group = "ispc: " + f.kind().dir + " at " + level + " on " + String.join(",", showing);
        Versions.Standing standing = Versions.standing(List.of());
        int lines = (int) files.get("func.ispc").lines().count();
        Path work = Files.createDirectories(finding.resolve("triage"));
        Files.writeString(work.resolve("func.ispc"), files.get("func.ispc"));
        // A crash: does the newest LLVM's back end fail on ispc's IR by itself? Then it is LLVM's bug, with an IR reproducer.
        LlvmReproducer.Result ir = null;
        if (f.kind() == Outcome.COMPILER_CRASH) {
            try {
                Symptom s = new Symptom(Symptom.Kind.COMPILER_CRASH, work, "func.ispc", null, f.crashMessage(), o.compileTimeoutSeconds(), List.of());
                ir = LlvmReproducer.forIspc(s, irCommand(with(buggy, level, target)), target, level, o.searchPath(), o.compileTimeoutSeconds(),
                        o.irReduceSeconds(), o.irPassIterations());
            } catch (Finding.Unreadable e) {
                ir = LlvmReproducer.Result.none("no IR reproducer: " + e.getMessage());
            }
        }
        Triage.Verdict v = new Triage.Verdict(finding, f.kind(), "ispc", buggy, minimal, blame, List.of(), standing, group, lines, builds[0], ir, List.of());

        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kind", f.kind().dir);
        json.put("target", f.target() == null ? BugKey.HOST : f.target());
        json.put("family", "ispc");
        json.put("buggy", String.join(" ", buggy));
        json.put("minimal", String.join(" ", minimal));
        json.put("lowest_level", level);
        json.put("targets_showing", showing);
        json.put("targets_right", right);
        json.put("targets_not_run_here", skipped);
        json.put("blame", blame);
        if (f.kind() == dev.yarpj.harness.Outcome.COMPILER_CRASH) json.put("crash", f.crashPoint());
        json.put("standing", v.newest());
        if (ir != null) json.put("ir_reproducer", ir.json(work));
        json.put("group", group);
        json.put("lines", lines);
        json.put("builds", builds[0]);
        Files.writeString(work.resolve("triage.json"), JsonFiles.write(json) + "\n");
        StringBuilder report = new StringBuilder(report(v, f, level, showing, right, files.get("func.ispc"), expected));
        if (ir != null) Report.appendIr(report, ir, f.kind(), work);
        Files.writeString(work.resolve("report.md"), report.toString());
        return v;
    }

    /** The ispc command without its outputs ({@code -o FILE}, {@code -h FILE}): what --emit-llvm-text is added to. */
    static List<String> irCommand(List<String> cmd) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < cmd.size(); i++) {
            String a = cmd.get(i);
            if ((a.equals("-o") || a.equals("-h")) && i + 1 < cmd.size()) i++;
            else if (!a.startsWith("-o=") && !a.startsWith("-h=") && !a.equals("-c")) out.add(a);
        }
        return out;
    }

    private interface Shows {
        boolean test(List<String> compile) throws IOException;
    }

    /** The target a compile command names ({@code --target=T} or {@code --target T}). */
    static String target(List<String> cmd) {
        for (int i = 0; i < cmd.size(); i++) {
            if (cmd.get(i).startsWith("--target=")) return cmd.get(i).substring("--target=".length());
            if (cmd.get(i).equals("--target") && i + 1 < cmd.size()) return cmd.get(i + 1);
        }
        throw new Triage.TriageException("the buggy compile names no ispc target: " + String.join(" ", cmd));
    }

    /** The compile command with another level and target, everything else as recorded. */
    static List<String> with(List<String> cmd, String level, String target) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < cmd.size(); i++) {
            String a = cmd.get(i);
            if (a.matches("-O[0-3]")) {
                out.add(level);
            } else if (a.startsWith("--target=")) {
                out.add("--target=" + target);
            } else if (a.equals("--target") && i + 1 < cmd.size()) {
                out.add("--target=" + target);
                i++;
            } else {
                out.add(a);
            }
        }
        return out;
    }

    private static String report(Triage.Verdict v, Finding f, String level, List<String> showing, List<String> right, String ispc,
                                 String expected) {
        String what = switch (v.kind()) {
            case WRONG_CODE -> "wrong code";
            case RUNTIME_CRASH -> "crashing code";
            case COMPILER_CRASH -> "crash";
            default -> "compile hang";
        };
        StringBuilder r = new StringBuilder();
        r.append("# ispc: ").append(what).append(" at ").append(level).append(" on ").append(String.join(", ", showing)).append("\n\n");
        r.append("Found by yarpj (seed ").append(f.seed()).append("). Right on: ")
                .append(right.isEmpty() ? "no other target tried" : String.join(", ", right)).append(".\n\n");
        r.append("```\n").append(ispc).append("```\n\n");
        r.append("Built as the test harness built it:\n\n```\n");
        for (List<String> c : f.commands()) r.append(String.join(" ", c)).append('\n');
        r.append("```\n");
        if (expected != null && v.kind() == Outcome.WRONG_CODE) r.append("\nExpected output (the C++ twin `func.cpp` at -O0 prints it): ").append(expected).append('\n');
        return r.toString();
    }
}
