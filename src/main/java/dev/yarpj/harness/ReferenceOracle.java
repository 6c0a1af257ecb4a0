package dev.yarpj.harness;

import dev.yarpj.lower.Language;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The oracle of tests with no prediction (Csmith's, YARPGen's): the reference's build at -O0
 * says what a test must print, and before any testbed that prints something else, crashes or
 * hangs becomes a finding, a second compiler at -O0 must agree with it and the test must be
 * clean under ASan and UBSan (gcc and clang, this machine's). A test that fails either is
 * dropped and counted, never a finding: its output is not the program's to trust.
 *
 * <p>The second opinion and the sanitizers cost builds, so they are asked only of a test with a
 * symptom to confirm; a test all testbeds agree on needs neither.
 */
final class ReferenceOracle {
    private final CampaignConfig cfg;
    private final Language lang;

    ReferenceOracle(CampaignConfig cfg) {
        this.cfg = cfg;
        this.lang = cfg.lang();
    }

    /**
     * The reference's verdict on a test: its output, or why the test is dropped.
     *
     * @param output  what the reference's build printed (null when dropped)
     * @param dropped why the test is dropped, in a few words that counts group by, or null
     */
    record Reference(String output, String dropped, double compileSeconds, double runSeconds) {}

    /** The CPU seconds of the second opinion's and the sanitizers' builds and runs on this thread since the last call (for the test's CPU). */
    private final ThreadLocal<double[]> distrustCpu = ThreadLocal.withInitial(() -> new double[2]);

    /** {compile, run} CPU seconds {@link #distrust} took on this thread since the last call; starts again from 0. */
    double[] takeDistrustCpu() {
        double[] c = distrustCpu.get().clone();
        distrustCpu.get()[0] = 0;
        distrustCpu.get()[1] = 0;
        return c;
    }

    /** Builds func at -O0 with the reference's compiler, links it with driver.o (built already) and runs it. */
    Reference reference(Path scratch) throws IOException {
        String ref = cfg.reference().compiler(lang);
        return buildAndRun(scratch, "reference", List.of(ref), "reference at -O0");
    }

    /**
     * Why a test with a symptom is not to be trusted, or null when it is: a second compiler at
     * -O0 that prints other than {@code expected}, or a sanitizer's report.
     */
    String distrust(Path scratch, String expected) throws IOException {
        List<String> second = secondOpinion();
        if (second != null) {
            Reference r = buildAndRun(scratch, "second", second, second.get(0) + " at -O0");
            distrustCpu.get()[0] += r.compileSeconds();
            distrustCpu.get()[1] += r.runSeconds();
            if (r.dropped() != null) return r.dropped();
            if (!r.output().equals(expected)) return "references disagree (" + cfg.reference().compiler(lang) + " and " + second.get(0) + " at -O0)";
        }
        boolean cpp = lang == Language.CPP;
        int ran = 0;
        for (String cc : cpp ? List.of("g++", "clang++") : List.of("gcc", "clang")) {
            if (!Testbeds.onPath(cc) || !sanitizes(scratch, cc)) continue;
            String why = sanitized(scratch, cc);
            if (why != null) return why;
            ran++;
        }
        // A symptom no sanitizer has looked at may be the program's UB: not a finding.
        return ran == 0 ? "no sanitizer here to check it (gcc's or clang's ASan and UBSan)" : null;
    }

    /**
     * The compiler of the second opinion and its flags for -O0: that of the first testbed whose
     * compiler is of the other family than the reference's (clang for gcc, gcc for clang), with
     * those of its fixed flags that say which target and ABI it builds for ({@code --target},
     * {@code -mabi}; -march, -O and -ffast-math would not be the plain build); else, for a gcc
     * reference, clang (the newest installed) for the reference's target, which its name says
     * ({@code aarch64-linux-gnu-gcc-newest}), and for a clang reference of this machine its gcc.
     * Null when there is none: the sanitizers alone then confirm a symptom.
     */
    List<String> secondOpinion() {
        String ref = cfg.reference().compiler(lang);
        boolean refClang = ref.contains("clang");
        for (Testbed t : cfg.testbeds()) {
            String cc = t.compiler(lang);
            if (cc == null || cc.contains("clang") == refClang) continue;
            List<String> cmd = new ArrayList<>(List.of(cc));
            for (String f : t.flags()) if (TARGET_FLAG.matcher(f).lookingAt()) cmd.add(f);
            return cmd;
        }
        boolean cpp = lang == Language.CPP;
        if (refClang) {
            String gcc = cpp ? "g++" : "gcc";
            return cfg.reference().target().equals(Testbed.HOST) && Testbeds.onPath(gcc) ? List.of(gcc) : null;
        }
        String clang = Testbeds.onPath(cpp ? "clang++-newest" : "clang-newest") ? (cpp ? "clang++-newest" : "clang-newest") : cpp ? "clang++" : "clang";
        if (!Testbeds.onPath(clang)) return null;
        java.util.regex.Matcher cross = CROSS.matcher(Path.of(ref).getFileName().toString());
        return cross.lookingAt() ? List.of(clang, "--target=" + cross.group(1)) : List.of(clang);
    }

    private static final java.util.regex.Pattern TARGET_FLAG = java.util.regex.Pattern.compile("--target=|-mabi=");
    /** A cross compiler's name: its target triple, then the compiler ({@code riscv64-linux-gnu-gcc-newest}). */
    private static final java.util.regex.Pattern CROSS = java.util.regex.Pattern.compile("([a-z0-9_]+-linux-gnu[a-z0-9]*)-(gcc|g\\+\\+)");

    private Reference buildAndRun(Path scratch, String step, List<String> compiler, String what) throws IOException {
        String ref = cfg.reference().compiler(lang);
        String obj = "func-" + step + ".o";
        String bin = "test-" + step;
        List<String> compile = new ArrayList<>(compiler);
        compile.addAll(List.of("-O0", "-w", "-c", "func." + lang.extension, "-o", obj));
        ProcessRunner.Result c = ProcessRunner.run(scratch, step + ".compile", compile, cfg.compileLimits());
        TestRunner.cannotRun(c, compile);
        if (!c.ok()) return new Reference(null, what + " does not compile", c.cpuSeconds(), 0);
        List<String> link = List.of(ref, "driver.o", obj, "-o", bin, Testbed.MATH_LIBRARY);
        ProcessRunner.Result l = ProcessRunner.run(scratch, step + ".link", link, cfg.compileLimits());
        double compileS = c.cpuSeconds() + l.cpuSeconds();
        if (!l.ok()) return new Reference(null, what + " does not link", compileS, 0);
        ProcessRunner.Limits rl = cfg.runLimitsOf(cfg.reference());
        ProcessRunner.Result r = ProcessRunner.run(scratch, step + ".run", exec("./" + bin), rl);
        if (r.timedOut() && r.cpuSeconds() < rl.cpuSeconds() / 2) {
            // Stopped by the wall clock with little CPU used: a busy machine, not a long run. Once more with six times the
            // wall-clock time and the same CPU time, as a testbed's run gets: a test is dropped for its own length only.
            ProcessRunner.Result again = ProcessRunner.run(scratch, step + ".rerun", exec("./" + bin),
                    new ProcessRunner.Limits(rl.timeoutSeconds() * 6, rl.cpuSeconds(), rl.memoryMiB(), rl.fileSizeMiB()));
            r = new ProcessRunner.Result(again.exitCode(), again.timedOut(), again.stdout(), again.stderr(), again.wallSeconds(),
                    again.cpuSeconds() + r.cpuSeconds());
        }
        if (r.timedOut() || r.overCpuLimit()) return new Reference(null, what + " runs past the time limit", compileS, r.cpuSeconds());
        if (!r.ok()) return new Reference(null, what + " exits with " + r.exitCode(), compileS, r.cpuSeconds());
        return new Reference(r.stdout().strip(), null, compileS, r.cpuSeconds());
    }

    /**
     * Why the test is not sanitizer-clean when built by {@code cc} on this machine, or null.
     * Csmith's and YARPGen's programs are LP64 C or C++ with no target in them, so this
     * machine's build stands for every 64-bit target's.
     */
    private String sanitized(Path scratch, String cc) throws IOException {
        String ext = lang.extension;
        List<String> build = List.of(cc, "-O0", "-g", "-w", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                "func." + ext, "driver." + ext, "-o", "test-san", Testbed.MATH_LIBRARY);
        // ASan reserves terabytes of address space: no memory limit on its build or run.
        ProcessRunner.Limits buildLimits = new ProcessRunner.Limits(cfg.compileLimits().timeoutSeconds(), cfg.compileLimits().cpuSeconds(),
                ProcessRunner.Limits.NO_MEMORY_LIMIT, cfg.compileLimits().fileSizeMiB());
        ProcessRunner.Result b = ProcessRunner.run(scratch, "san-" + cc + ".compile", build, buildLimits);
        distrustCpu.get()[0] += b.cpuSeconds();
        if (!b.ok()) return "sanitizer build by " + cc + " fails";
        double t = cfg.runLimits().timeoutSeconds() * 3;
        ProcessRunner.Result r = ProcessRunner.run(scratch, "san-" + cc + ".run",
                List.of("env", "ASAN_OPTIONS=detect_leaks=0", "UBSAN_OPTIONS=print_stacktrace=0", "./test-san"),
                new ProcessRunner.Limits(t, t, ProcessRunner.Limits.NO_MEMORY_LIMIT, cfg.runLimits().fileSizeMiB()));
        distrustCpu.get()[1] += r.cpuSeconds();
        if (r.timedOut()) return "sanitized build by " + cc + " runs past the time limit";
        if (r.ok()) return null;
        String report = r.stderr().lines().filter(l -> l.contains("runtime error:") || l.contains("ERROR: AddressSanitizer"))
                .findFirst().orElse("exit " + r.exitCode());
        // By kind alone (the sanitizer's words without file, line and values), so that counts group.
        String kind = report.contains("runtime error:") ? report.substring(report.indexOf("runtime error:") + 15).replaceAll("-?\\d+", "N")
                : report.replaceAll(".*AddressSanitizer: ", "").replaceAll(" on .*", "");
        return "sanitizer (" + cc + "): " + kind.strip();
    }

    /** Whether {@code cc} builds a sanitized program at all, by compiler: a machine without ASan's runtime has only the second opinion. */
    private static final java.util.Map<String, Boolean> SANITIZES = new java.util.concurrent.ConcurrentHashMap<>();

    private boolean sanitizes(Path scratch, String cc) throws IOException {
        Boolean known = SANITIZES.get(cc);
        if (known != null) return known;
        String ext = lang.extension;
        java.nio.file.Files.writeString(scratch.resolve("san-probe." + ext), "int main(void) { return 0; }\n");
        ProcessRunner.Result p = ProcessRunner.run(scratch, "san-probe", List.of(cc, "-fsanitize=address,undefined", "san-probe." + ext,
                "-o", "san-probe"), new ProcessRunner.Limits(600, 60, ProcessRunner.Limits.NO_MEMORY_LIMIT, 256));
        // A probe stopped by a limit (a very busy machine) says nothing: asked again next time.
        if (!p.timedOut() && !p.overCpuLimit()) SANITIZES.put(cc, p.ok());
        return p.ok();
    }

    /** The reference's run of {@code bin}: under the target's emulator, at the first setting of a testbed when the emulator has variables. */
    private List<String> exec(String bin) {
        Testbed ref = cfg.reference();
        if (ref.run().stream().noneMatch(a -> a.contains("{"))) return ref.execCommand(bin);
        Testbed first = cfg.testbeds().get(0).drawn(0);
        List<String> cmd = new ArrayList<>(first.settings().get(0).run());
        cmd.add(bin);
        return cmd;
    }
}
