package dev.yarpj.triage;

import dev.yarpj.harness.Outcome;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A bug report draft in Markdown, in the style of the compiler's tracker: GCC's Bugzilla
 * ("wrong code at -O3 ... on x86_64-linux-gnu") or LLVM's GitHub issues ("[Pass]
 * miscompilation at -O2"), with the reduced test, the exact commands, expected and actual
 * output, versions, flags, the blamed pass and the sanitizer evidence that the test is
 * UB-free (built by gcc and clang at -O0 with UBSan and ASan, run clean).
 */
final class Report {
    /** The math library every build of a test into a program links (Testbed.MATH_LIBRARY). */
    private static final String LM = dev.yarpj.harness.Testbed.MATH_LIBRARY;

    private Report() {}

    /**
     * The expected and actual output of a test with several input sets, a row per call of
     * {@code test()}, the calls that differ marked: main() gives the inputs each set's values
     * before its call, so the failing input is the one its call names.
     */
    static String inputSets(String want, String got, String reference, String buggy) {
        String[] w = want.split("\n");
        String[] g = got.split("\n");
        StringBuilder r = new StringBuilder("main() calls test() once per input set, setting the inputs that set changes first (see main), and "
                + "prints a checksum per call. Expected (" + reference + " -O0, and the sanitizer builds below) and actual (" + buggy + "):\n\n");
        r.append("| call (input set) | expected | actual |\n| --- | --- | --- |\n");
        List<Integer> differ = dev.yarpj.interp.Prediction.differingSets(want, got);
        for (int k = 0; k < Math.max(w.length, g.length); k++) {
            String a = k < w.length ? w[k].strip() : "(none)";
            String b = k < g.length ? g[k].strip() : "(none)";
            r.append("| ").append(k).append(k == 0 ? " (planned)" : "").append(" | `").append(a).append("` | `").append(b).append('`')
                    .append(differ.contains(k) ? " (wrong)" : "").append(" |\n");
        }
        r.append("\nWrong in call").append(differ.size() == 1 ? " " : "s ").append(String.join(", ", differ.stream().map(String::valueOf).toList()))
                .append(".\n\n");
        return r.toString();
    }

    /** @param target the target of a finding made for another machine (aarch64-sve, say), else null */
    static String draft(Triage.Verdict v, Symptom s, Path test, String reference, String text, String target) throws IOException {
        String flags = String.join(" ", v.minimal().subList(1, v.minimal().size()));
        String what = switch (v.kind()) {
            case WRONG_CODE -> "wrong code";
            case COMPILER_CRASH -> "crash";
            case RUNTIME_CRASH -> "crashing code";
            case PROGRAM_REJECTED -> "link failure (" + s.crashText() + ")";
            default -> "compile hang";
        };
        String title = v.family().equals("clang")
                ? "[" + v.blame().replaceAll(" on .*$", "").replaceAll("Pass$", "") + "] " + (v.kind() == Outcome.WRONG_CODE ? "Miscompilation" : what)
                        + " at " + flags
                : what + " at " + flags + " on " + (target == null ? "x86_64-linux-gnu" : target);
        String file = test.getFileName().toString();
        String cc = v.minimal().get(0);
        StringBuilder r = new StringBuilder();
        r.append("# ").append(title).append("\n\n");
        r.append("Found by yarpj, a random program generator for loop optimizers. The test below is ")
                .append(v.lines()).append(" lines.\n\n");
        r.append("```").append(file.endsWith(".cpp") ? "c++" : "c").append('\n').append(text.strip()).append("\n```\n\n");
        r.append("## Commands\n\n");
        String exec = s.emulator().isEmpty() ? "./" : String.join(" ", s.emulator()) + " ./";
        if (target != null) {
            r.append("Target: ").append(target).append(s.emulator().isEmpty() ? "" : ", run under `" + String.join(" ", s.emulator()) + "`")
                    .append(" (the sanitizer builds below are x86-64's: the test is LP64 on both).\n\n");
        }
        // A test whose symptom needs its driver apart: the other files, and the driver built as the harness builds it.
        String with = "";
        if (!s.inputs().isEmpty()) {
            String ext = file.substring(file.lastIndexOf('.') + 1);
            r.append("The symptom needs the driver in a translation unit of its own, built by ").append(reference)
                    .append(" at -O0 as yarpj builds it (the test above is func alone); the driver and its header:\n\n");
            for (String other : new String[] {"init.h", "driver." + ext}) {
                r.append("`").append(other).append("`:\n\n```").append(ext.equals("cpp") ? "c++" : "c").append('\n')
                        .append(java.nio.file.Files.readString(test.resolveSibling(other)).strip()).append("\n```\n\n");
            }
            with = " " + String.join(" ", s.inputs());
        }
        r.append("```sh\n");
        if (!s.inputs().isEmpty()) {
            String ext = file.substring(file.lastIndexOf('.') + 1);
            r.append(reference).append(" -O0 -c driver.").append(ext).append(" -o driver.o\n");
        }
        r.append(reference).append(" -O0 ").append(file).append(with).append(" -o ref " + LM + " && ").append(exec).append("ref\n");
        r.append(String.join(" ", v.minimal())).append(' ').append(file).append(with).append(" -o bug " + LM + " && ").append(exec).append("bug\n```\n\n");
        if (v.kind() == Outcome.WRONG_CODE) {
            String want = s.referenceOutput().strip();
            String got = s.output(v.minimal()).strip();
            if (!want.contains("\n")) {
                r.append("Expected (").append(reference).append(" -O0, and the sanitizer builds below): `").append(want).append("`\n\n");
                r.append("Actual (").append(String.join(" ", v.minimal())).append("): `").append(got).append("`\n\n");
            } else {
                // Several input sets: main() sets the inputs and calls test() once per set, printing a line each.
                r.append(inputSets(want, got, reference, String.join(" ", v.minimal())));
            }
            if (s.kind() == Symptom.Kind.RUNTIME_CRASH) {
                r.append("Built as yarpj built it, func apart from its driver (`-c`, or `-r` with its helpers), the program printed a wrong"
                        + " result; built in one step as above, it crashes, and triage followed the crash.\n\n");
            }
        }
        r.append("## Triage\n\n");
        r.append("- Lowest level and fewest flags that show it: `").append(String.join(" ", v.minimal())).append("`\n");
        r.append("- Blamed: ").append(v.blame()).append('\n');
        if (!v.disablers().isEmpty()) r.append("- Any one of these makes it go away: `").append(String.join(" ", v.disablers())).append("`\n");
        r.append("- On the newest compilers: ").append(v.newest()).append('\n');
        r.append("- Versions:\n");
        for (Versions.Check c : v.standing().checks()) {
            r.append("  - ").append(c.command()).append(" (").append(c.version()).append(c.trunk() ? ", trunk" : "").append("): ")
                    .append(c.result().text).append(c.shownWith() == null ? "" : ": `" + c.shownWith() + "`").append('\n');
        }
        if (!v.compileTimes().isEmpty()) {
            String pass = v.ir() != null && v.ir().passClass() != null ? v.ir().passClass()
                    : v.family().equals("clang") ? LlvmReproducer.passClass(v.blame()) : null;
            r.append("\n## Compile time on each release\n\n`").append(String.join(" ", v.minimal().subList(1, v.minimal().size())))
                    .append(" -ftime-report -c ").append(file).append("`, CPU seconds (at most ").append("four times the compile limit each):\n\n")
                    .append(CompileTimes.table(v.compileTimes(), pass));
        }
        if (v.ir() != null) appendIr(r, v.ir(), v.kind(), test.getParent());
        r.append("\n## The test is free of undefined behaviour\n\n");
        boolean cpp = file.endsWith(".cpp");
        for (String san : cpp ? List.of("g++", "clang++") : List.of("gcc", "clang")) {
            List<String> build = new java.util.ArrayList<>(List.of(san, "-O0", "-g", "-fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero",
                    "-fno-sanitize-recover=all", "-w", file));
            // The driver apart: its source, sanitized too.
            for (String in : s.inputs()) build.add(in.endsWith(".o") ? in.substring(0, in.length() - 2) + file.substring(file.lastIndexOf('.')) : in);
            build.addAll(List.of("-o", "san.bin", LM));
            Symptom.Run b = s.run(build, 120);
            String verdict;
            if (b.exit() != 0) {
                verdict = "does not build: " + Symptom.firstLine(b.output());
            } else {
                Symptom.Run run = s.run(List.of("./san.bin"), 30);
                verdict = run.exit() == 0 ? "runs clean, prints `" + run.output().strip() + "`" : "exits with " + run.exit() + ": " + Symptom.firstLine(run.output());
            }
            r.append("- `").append(String.join(" ", build)).append(" && ./san.bin`: ").append(verdict).append('\n');
        }
        return r.toString();
    }

    /** The LLVM IR reproducer: the pass alone on the (reduced) IR at its input, or why there is none. */
    static void appendIr(StringBuilder r, LlvmReproducer.Result ir, Outcome kind, Path work) throws IOException {
        r.append("\n## LLVM IR reproducer\n\n");
        if (!ir.made()) {
            r.append(ir.note()).append('\n');
            return;
        }
        String file = work.relativize(ir.reduced()).toString();
        r.append("From ").append(ir.input()).append(": ").append(ir.beforeLines()).append(" lines").append(ir.reduced().equals(ir.before()) ? ""
                        : ", reduced by llvm-reduce to " + ir.reducedLines() + " lines").append(": `").append(file).append("`.\n\n");
        if (ir.reducedLines() <= 200) r.append("```llvm\n").append(java.nio.file.Files.readString(ir.reduced()).strip()).append("\n```\n\n");
        String cmd = String.join(" ", LlvmReproducer.shortCommand(ir.command()));
        r.append("```sh\n");
        switch (kind) {
            case WRONG_CODE -> r.append("clang -O1 -Xclang -disable-llvm-passes ").append(Path.of(file).getFileName()).append(" -o ref " + LM + " && ./ref\n")
                    .append(cmd).append(' ').append(Path.of(file).getFileName())
                    .append(" -o after.bc && clang -O1 -Xclang -disable-llvm-passes after.bc -o bug " + LM + " && ./bug   # the finding's level and target flags\n");
            case COMPILE_HANG -> r.append(cmd).append(' ').append(String.join(" ", LlvmReproducer.discardOutput(ir.command()))).append(" -time-passes ").append(Path.of(file).getFileName()).append('\n');
            default -> r.append(cmd).append(' ').append(String.join(" ", LlvmReproducer.discardOutput(ir.command()))).append(' ').append(Path.of(file).getFileName()).append('\n');
        }
        r.append("```\n\n").append(ir.note()).append(".\n");
        if (ir.measured() != null) r.append("On ").append(Path.of(file).getFileName()).append(" it ").append(ir.measured()).append(".\n");
        if (kind == Outcome.WRONG_CODE) {
            r.append("\nllvm-reduce kept the IR's unoptimized output equal to the expected one, but a reduction of IR can bring in undefined"
                    + " behaviour (poison, undef) that the C test is free of: check the reduced IR (with Alive2, say) before filing it alone.\n");
        }
    }
}
