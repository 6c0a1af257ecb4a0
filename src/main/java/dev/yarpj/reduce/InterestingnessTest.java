package dev.yarpj.reduce;

import dev.yarpj.harness.Outcome;
import dev.yarpj.harness.ProcessRunner;
import dev.yarpj.harness.Replay;
import dev.yarpj.harness.Testbed;
import java.nio.file.Path;
import java.util.List;

/** Writes the shell interestingness test C-Vise runs on each candidate (see {@link Reducer}). */
final class InterestingnessTest {
    private InterestingnessTest() {}

    /**
     * The environment of a reduction with a budget in candidates: the file that counts them
     * (one byte per candidate; beside it {@code .lock} and {@code .pid}, the pid of the
     * timeout(1) that runs C-Vise), the budget, and the count past which C-Vise is ended for
     * sure. Past the budget a candidate is refused at once and C-Vise is stopped with SIGINT, as
     * at the end of its time, so that it cleans up its temporary folders. A Python process can
     * lose that signal (one that lands in a finalizer is printed and dropped; timeout(1)
     * forwards only the first), and CI once saw C-Vise refuse 712 candidates for 30 s after it:
     * past the hard limit, SIGTERM ends timeout(1)'s whole process group. Run by hand, without
     * them, the script only judges the file.
     */
    static final String BUDGET_FILE = "YARPJ_CANDIDATES", BUDGET = "YARPJ_CANDIDATE_BUDGET", HARD_LIMIT = "YARPJ_CANDIDATE_HARD_LIMIT";

    /**
     * Warnings of -Wall -Wextra that a reader of a bug report shrugs at: unused things, signed
     * and unsigned compared, comparisons always true for the type's range, parentheses style,
     * and the value-changing conversions that yarpj's tests rely on (implementation-defined,
     * the same in every compiler yarpj tests). Every other warning counts against a candidate.
     */
    static final String HARMLESS = "\\[-W(unused[a-z-]*|sign-compare|type-limits|tautological[a-z-]*|[a-z-]*parentheses[a-z-]*"
            + "|bool-compare|bool-operation|int-in-bool-context|constant-logical-operand|unknown-pragmas|missing-field-initializers"
            + "|missing-braces|constant-conversion|single-bit-bitfield-constant-conversion|empty-body|misleading-indentation"
            + "|dangling-else|self-assign[a-z-]*|implicit-fallthrough)\\]$|(conversion from|overflow in conversion from) .* changes value";

    /**
     * @param limits where {@code --calibrate} writes, and every other run reads, how many of each
     *               warning that is not harmless the original test has (usually none): a
     *               candidate may have no more of any kind, so reduction never adds one and a
     *               clean original gives a test that compiles clean under -Wall -Wextra
     * @param slowAfter for a compile hang, the seconds after which a buggy compile still running
     *                  counts as the hang, and within which the reference must compile
     * @param buildLimit the seconds any other build may take (candidates only get smaller, so
     *                   what fits the original fits them)
     * @param run the emulator that runs the buggy and reference builds of a finding on another
     *            target (qemu-aarch64 -cpu max, say), empty on this machine; the sanitizer and
     *            auto-var-init builds are the machine's own (the programs are LP64 on every target)
     */
    static String script(Outcome kind, String ext, String file, List<String> buggy, String reference, String crashText,
                         long slowAfter, long buildLimit, Path log, Path limits, List<String> run) {
        boolean cpp = ext.equals("cpp");
        String gcc = cpp ? "g++" : "gcc";
        String clang = cpp ? "clang++" : "clang";
        StringBuilder s = new StringBuilder();
        s.append("#!/usr/bin/env bash\n");
        s.append("# yarpj interestingness test for a ").append(kind.dir).append(" finding. Exit 0 keeps the candidate.\n");
        s.append("f=").append(file).append('\n');
        s.append("export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=0\n");
        s.append("san='-fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero -fno-sanitize-recover=all'\n");
        s.append("limits=").append(quote(limits.toAbsolutePath().toString())).append('\n');
        s.append("build=").append(buildLimit).append("   # seconds a build may take\n");
        s.append("# Warnings under -Wall -Wextra (gcc at -O2 for its value ranges: out-of-bounds subscripts, maybe-uninitialized uses;\n");
        s.append("# clang's front end sees constant subscripts out of bounds even in code that never runs), harmless ones aside, by kind.\n");
        s.append("warnings() {\n");
        s.append("  timeout $build ").append(gcc).append(" -O2 -c -Wall -Wextra -Wmaybe-uninitialized \"$f\" -o /dev/null > warn.txt 2>&1 || return 1\n");
        s.append("  timeout $build ").append(clang).append(" -O0 -c -Wall -Wextra -Wuninitialized -Wsometimes-uninitialized \"$f\" -o /dev/null >> warn.txt 2>&1 || return 1\n");
        s.append("  grep 'warning: ' warn.txt | grep -vE ").append(quote(HARMLESS)).append(" | grep -oE '\\[-W[a-zA-Z0-9=-]+\\]$' | sort | uniq -c > bad.txt\n");
        // int a[]; at file scope is a one-element array: legal, yet no reader of a bug report accepts it.
        s.append("  grep -q 'assumed to have one element' warn.txt && echo '1 [-Wincomplete-array]' >> bad.txt\n");
        s.append("  return 0\n}\n");
        s.append("if [ \"${1:-}\" = --calibrate ]; then warnings && cp bad.txt \"$limits\"; exit $?; fi\n");
        s.append("# a budget in candidates (yarpj reduce --candidates): past it, refuse and stop C-Vise as its time budget would\n");
        s.append("if [ -n \"${").append(BUDGET_FILE).append(":-}\" ]; then\n");
        s.append("  n=$(flock \"$").append(BUDGET_FILE).append(".lock\" bash -c 'printf x >> \"$1\"; stat -c %s \"$1\"' - \"$")
                .append(BUDGET_FILE).append("\")\n");
        s.append("  if [ \"$n\" -gt \"$").append(HARD_LIMIT).append("\" ]; then kill -TERM \"$(cat \"$").append(BUDGET_FILE)
                .append(".pid\")\" 2> /dev/null; exit 1; fi\n");
        s.append("  if [ \"$n\" -gt \"$").append(BUDGET).append("\" ]; then kill -INT \"$(cat \"$").append(BUDGET_FILE)
                .append(".pid\")\" 2> /dev/null; exit 1; fi\n");
        s.append("fi\n");
        s.append("# 1. the symptom first: most candidates lose it, and it needs only two builds\n");
        String bug = shell(buggy) + " -w \"$f\" -o bug.bin " + Testbed.MATH_LIBRARY;
        // The target's programs run under its emulator, with the harness's allowance for it.
        String exec = run.isEmpty() ? "timeout 10 ./" : "timeout " + 10 * Testbed.EMULATION_SLOWDOWN + " " + shell(run) + " ./";
        switch (kind) {
            case WRONG_CODE -> {
                s.append("timeout $build ").append(shell(List.of(reference))).append(" -O0 -w \"$f\" -o ref.bin " + Testbed.MATH_LIBRARY + " > /dev/null 2>&1 || exit 1\n");
                s.append(exec).append("ref.bin > ref.out 2>&1 || exit 1\n");
                s.append("timeout $build ").append(bug).append(" > /dev/null 2>&1 || exit 1\n");
                s.append(exec).append("bug.bin > bug.out 2>&1 || exit 1\n");
                s.append("cmp -s ref.out bug.out && exit 1\n");
            }
            case RUNTIME_CRASH -> {
                s.append("timeout $build ").append(bug).append(" > /dev/null 2>&1 || exit 1\n");
                s.append(exec).append("bug.bin > /dev/null 2>&1; rc=$?\n");
                // As the harness judges: any non-zero exit but a timeout or a command that could not run.
                s.append("[ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 126 ] && [ $rc -ne 127 ] || exit 1\n");
            }
            case COMPILER_CRASH -> {
                s.append("timeout $build ").append(bug).append(" > bug.err 2>&1\n");
                // The message without LLVM's node addresses, which change from run to run (Signature.crashMessage).
                s.append("sed -E 's/0x[0-9a-fA-F]+/0x/g' bug.err | grep -qF ").append(quote(crashText)).append(" || exit 1\n");
            }
            case COMPILE_HANG -> {
                // By CPU time (ulimit -t), as the IR phase judges (harness/Replay): C-Vise runs candidates side
                // by side, and a compile that waits is not slow. The wall clock still ends one that uses no CPU.
                // The limits the harness's compiles have (ProcessRunner): CPU one second over the mark, 4 GiB of memory,
                // so that a compiler that runs out of memory fails instead of being killed, which would read as a hang.
                String bounded = "( ulimit -t " + (slowAfter + 1) + " -v " + 4096 * 1024 + "; exec timeout " + Replay.HANG_WALL_FACTOR * slowAfter + " ";
                s.append(bounded).append(shell(List.of(reference))).append(" -O0 -w -c \"$f\" -o /dev/null ) > /dev/null 2>&1 || exit 1\n");
                s.append(bounded).append(bug).append(" ) > /dev/null 2> bug.err; rc=$?\n");
                s.append("# 124: the wall clock; 137, 152: SIGKILL, SIGXCPU at the CPU limit; gcc's driver outlives its cc1 and says so\n");
                s.append("[ $rc -eq 124 ] || [ $rc -eq 137 ] || [ $rc -eq 152 ] || grep -qE '")
                        .append(ProcessRunner.Result.CPU_KILLED_CHILD.pattern()).append("' bug.err || exit 1\n");
            }
            default -> throw new IllegalArgumentException("no interestingness test for a " + kind.dir + " finding");
        }
        s.append("# 2. no more warnings of any kind that is not harmless than the original had (usually none)\n");
        s.append("warnings || exit 1\n");
        s.append("while read -r n w; do\n");
        s.append("  lim=$(awk -v w=\"$w\" '$2 == w { print $1 }' \"$limits\")\n");
        s.append("  [ \"$n\" -le \"${lim:-0}\" ] || exit 1\n");
        s.append("done < bad.txt\n");
        s.append("# 3. sanitizer-clean runs, built by gcc and by clang at -O0\n");
        s.append("for cc in ").append(gcc).append(' ').append(clang).append("; do\n");
        s.append("  timeout $build $cc -O0 -g $san -w \"$f\" -o san.bin " + Testbed.MATH_LIBRARY + " > /dev/null 2>&1 || exit 1\n");
        s.append("  timeout 10 ./san.bin > \"san-$cc.out\" 2>&1 || exit 1\n");
        s.append("done\n");
        s.append("# floating point must stay exact (no operation rounds, overflows or goes subnormal, see FloatArith):\n");
        s.append("# a program with any is run at -O0 with those exceptions trapping, so that C-Vise cannot make one round\n");
        s.append("if grep -qwE 'float|double|_Float16' \"$f\"; then\n");
        s.append("  printf '%s\\n' '#define _GNU_SOURCE' '#include <fenv.h>' \\\n");
        s.append("    '__attribute__((constructor)) static void yarpj_fp_traps(void) { feenableexcept(FE_INEXACT | FE_UNDERFLOW | FE_OVERFLOW | FE_INVALID | FE_DIVBYZERO); }' > fptrap.c\n");
        s.append("  # _Float16 rounded at every operation, as with half vectors, not kept in float until stored (x86-64's default)\n");
        s.append("  half=; grep -qw _Float16 \"$f\" && half=-fexcess-precision=16\n");
        s.append("  timeout $build ").append(gcc).append(" -O0 -ffp-contract=off $half -w \"$f\" fptrap.c -o trap.bin " + Testbed.MATH_LIBRARY + " > /dev/null 2>&1 || exit 1\n");
        s.append("  timeout 10 ./trap.bin > /dev/null 2>&1 || exit 1\n");
        s.append("fi\n");
        s.append("# a program whose output depends on garbage shows it here: both builds must agree\n");
        s.append("cmp -s san-").append(gcc).append(".out san-").append(clang).append(".out || exit 1\n");
        s.append("# uninitialized reads that no sanitizer sees: the output must not change with what fills fresh locals\n");
        s.append("for init in zero pattern; do\n");
        s.append("  timeout $build ").append(gcc).append(" -O0 -w -ftrivial-auto-var-init=$init \"$f\" -o init.bin " + Testbed.MATH_LIBRARY + " > /dev/null 2>&1 || exit 1\n");
        s.append("  timeout 10 ./init.bin > \"init-$init.out\" 2>&1 || exit 1\n");
        s.append("  cmp -s \"init-$init.out\" san-").append(gcc).append(".out || exit 1\n");
        s.append("done\n");
        if (kind == Outcome.WRONG_CODE) {
            s.append("# the reference output was the UB-free one\n");
            s.append("cmp -s ref.out san-").append(gcc).append(".out || exit 1\n");
        }
        s.append("echo accepted >> ").append(quote(log.toAbsolutePath().toString())).append('\n');
        s.append("exit 0\n");
        return s.toString();
    }

    private static String shell(List<String> cmd) {
        StringBuilder sb = new StringBuilder();
        for (String a : cmd) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(a.matches("[A-Za-z0-9_./=+,:@-]+") ? a : quote(a));
        }
        return sb.toString();
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
