package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.harness.ProcessRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LLVM IR reproducer of a clang finding, with the newest clang and its own LLVM tools as
 * scripts/install-compilers.sh installs them (skipped where they are not): a real back-end
 * crash (clang 23 for POWER10 without VSX: "Cannot select") gets the IR clang hands the back
 * end, an llc command that fails with the same message, and that IR reduced by llvm-reduce;
 * the loop passes clang blames are named as opt's pipeline runs them; and -ftime-report's
 * seconds are read per pass.
 */
class LlvmReproducerTest {
    static final Path BIN = Path.of(".tools/compilers/bin").toAbsolutePath();

    @TempDir
    Path dir;

    /** The clang-N that clang-newest is, when it and its opt, llc and llvm-reduce are installed. */
    private static String clangWithTools() throws Exception {
        Path newest = BIN.resolve("clang-newest");
        Assumptions.assumeTrue(Files.exists(newest), "the newest clang is not installed (run scripts/install-compilers.sh)");
        String name = Files.readSymbolicLink(newest).getFileName().toString();
        String major = name.substring("clang-".length());
        for (String t : List.of("opt-", "llc-", "llvm-reduce-")) {
            Assumptions.assumeTrue(Files.isExecutable(BIN.resolve(t + major)), t + major + " is not installed (run scripts/install-compilers.sh)");
        }
        return major;
    }

    @Test
    void aBackEndCrashGetsTheIrTheBackEndIsHandedAndAnLlcCommandThatFailsTheSameWayReduced() throws Exception {
        String major = clangWithTools();
        Path clang = BIN.resolve("clang-" + major);
        Path f = Files.createDirectories(dir.resolve("compiler-crash/abc/1"));
        // Inserting a scalar into a vector: POWER9 and newer without VSX have no instruction for it.
        Files.writeString(f.resolve("func.c"), String.join("\n", "typedef long long v2 __attribute__((vector_size(16)));",
                "long long sum(long long *p, int n) {", "    long long s = 0;", "    for (int i = 0; i < n; i++)", "        s += p[i] * 3;",
                "    return s;", "}", "v2 g(v2 v, long long x) {", "    v[1] = x + sum(&x, 1);", "    return v;", "}", ""));
        Files.writeString(f.resolve("init.h"), "");
        Files.writeString(f.resolve("driver.c"), "int main(void) { return 0; }\n");
        List<String> buggy = List.of(clang.toString(), "--target=powerpc64le-linux-gnu", "-O2", "-mcpu=power10", "-mno-vsx");
        List<String> compile = new java.util.ArrayList<>(buggy);
        compile.addAll(List.of("-w", "-c", "func.c", "-o", "func.o"));
        ProcessRunner.Captured c = ProcessRunner.capture(f, compile, Map.of(), 120, null);
        Assumptions.assumeTrue(c.output().contains("Cannot select"), "this clang builds the test for POWER10 without VSX: its bug is fixed");
        Files.writeString(f.resolve("compile.stderr"), c.output());
        StringBuilder cmd = new StringBuilder("[");
        for (String a : compile) cmd.append(cmd.length() > 1 ? ", " : "").append('"').append(a).append('"');
        Files.writeString(f.resolve("meta.json"), "{\"kind\": \"compiler-crash\", \"lang\": \"c\", \"seed\": 1, \"testbed\": \"ppc\", "
                + "\"reference\": \"gcc\", \"commands\": [" + cmd + "]]}");

        // Only this clang and its tools on the search path: the other releases' checks are TriageTest's.
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String t : List.of("clang-", "opt-", "llc-", "llvm-reduce-")) Files.createSymbolicLink(bin.resolve(t + major), BIN.resolve(t + major));
        // and the machine's own clang, an older release: with it the newest is known to show the bug (open), as bugs.md needs.
        Path older = null;
        for (int n = 30; n >= 11 && older == null; n--) {
            if (!String.valueOf(n).equals(major) && Files.isExecutable(Path.of("/usr/bin/clang-" + n))) older = Path.of("/usr/bin/clang-" + n);
        }
        Assumptions.assumeTrue(older != null, "no older clang on the machine (apt-get install clang)");
        Files.createSymbolicLink(bin.resolve(older.getFileName()), older);
        StringWriter log = new StringWriter();
        Path bugs = Files.writeString(dir.resolve("bugs.md"), "# Our bugs\n\nWritten by hand.\n");
        Triage.Verdict v = Triage.triage(List.of(f), new Triage.Options(60, 50, bin.toString(), 300, 1, bugs), new PrintWriter(log)).get(0);
        LlvmReproducer.Result ir = v.ir();
        assertNotNull(ir, log.toString());
        assertTrue(ir.made(), ir.note());
        assertEquals("llc-" + major, LlvmReproducer.shortCommand(ir.command()).get(0), "a pass of the back end: " + v.blame());
        assertTrue(ir.reducedLines() < ir.beforeLines(), "llvm-reduce made the IR smaller: " + ir.note());
        // The reduced IR, on its own, fails llc with the finding's message.
        List<String> again = new java.util.ArrayList<>(ir.command());
        again.addAll(List.of("-o", "/dev/null", ir.reduced().toString()));
        ProcessRunner.Captured r = ProcessRunner.capture(dir, again, Map.of(), 120, null);
        assertTrue(r.exitCode() != 0 && r.output().contains("Cannot select"), r.output());
        assertFalse(Files.readString(ir.reduced()).contains("sum("), "the loop the crash does not need is gone");
        String report = Files.readString(f.resolve("triage/report.md"));
        assertTrue(report.contains("## LLVM IR reproducer") && report.contains("llc-" + major + " -O"), report);
        assertTrue(Files.readString(f.resolve("triage/triage.json")).contains("\"ir_reproducer\""));
        // The bug is open on the newest clang: its draft goes into bugs.md, after what was written by hand, and a second
        // triage rewrites that part instead of adding another.
        String written = Files.readString(bugs);
        assertTrue(written.startsWith("# Our bugs\n\nWritten by hand.\n") && written.contains(OpenBugs.BEGIN)
                && written.contains("### [") && written.contains("#### LLVM IR reproducer"), written);
        OpenBugs.write(bugs, Map.of(v.group(), List.of(v)));
        assertEquals(written, Files.readString(bugs));
    }

    @Test
    void anIspcCrashThatTheNewestLlcShowsOnIspcsIrIsLlvmsWithTheCpuOfTheTarget() throws Exception {
        clangWithTools();
        Path ispc = Path.of(".tools/ispc/bin/ispc").toAbsolutePath();
        Assumptions.assumeTrue(Files.isExecutable(ispc), "ispc is not installed (run scripts/install-ispc.sh)");
        // ispc 1.28.2 at -O2 for avx512skx-x16: LLVM's x86 back end cannot select a zero_extend_vector_inreg (bugs.md).
        Files.writeString(dir.resolve("func.ispc"), String.join("\n", "extern uniform unsigned int64 var_16;", "extern uniform int8 var_401;",
                "extern uniform int32 var_1008;", "extern uniform int32 var_1521;", "extern uniform unsigned int32 var_1537;",
                "export void test(uniform int16 var_1442, uniform unsigned int32 var_1523, uniform unsigned int64 var_1536,",
                "                 uniform int32 * uniform arr_90, uniform int32 (* uniform out_1538)[19], uniform unsigned int64 m) {",
                "    for (uniform int32 j = 0; j < 7; j++) {", "        for (uniform int32 g = 0; g < 19; g += programCount) {",
                "            varying int32 k = g + programIndex;", "            if (k < 19) {", "                varying unsigned int32 i = 0 + k * 1u;",
                "                if (var_1521 & var_1523)",
                "                    if (0 == (((var_1536 - var_1008) ^ (var_1442 * 324357532u)) >= ((0 != var_1537) & (var_401 + 4294967295u))))",
                "                        out_1538[j][i] = (((arr_90[i] * m) << 0) ^ var_16);", "            }", "        }", "    }", "}", ""));
        List<String> compile = List.of(ispc.toString(), "--pic", "-O2", "--target=avx512skx-x16", "func.ispc");
        List<String> build = new java.util.ArrayList<>(compile);
        build.addAll(List.of("-o", "func.o"));
        ProcessRunner.Captured c = ProcessRunner.capture(dir, build, Map.of(), 120, null);
        Assumptions.assumeTrue(c.output().contains("Cannot select"), "this ispc compiles the test: its bug is fixed");
        Symptom s = new Symptom(Symptom.Kind.COMPILER_CRASH, dir, "func.ispc", null, dev.yarpj.harness.Finding.crashMessage(c.output()), 60, List.of());
        // Not reduced here: llvm-reduce on this IR takes minutes (the POWER test above reduces).
        LlvmReproducer.Result ir = LlvmReproducer.forIspc(s, compile, "avx512skx-x16", "-O2", BIN.toString(), 60, 0, 1);
        assertTrue(ir.made(), ir.note());
        assertEquals(List.of("llc-newest", "-O2", "-mcpu=skylake-avx512"), LlvmReproducer.shortCommand(ir.command()));
        assertTrue(ir.note().contains("Cannot select: 0x: v4i64 = zero_extend_vector_inreg"), ir.note());
        assertTrue(Files.readString(ir.reduced()).contains("target triple = \"x86_64"), "ispc's own IR, as it hands it to its code generator");
        assertEquals(null, LlvmReproducer.cpuOfIspcTarget("neon-i32x4"), "a target whose CPU is not known here makes no reproducer");
    }

    @Test
    void theLoopPassesClangBlamesAreNamedAsOptRunsThem() throws Exception {
        String major = clangWithTools();
        Files.writeString(dir.resolve("t.c"), "int a[64], b[64];\nvoid f(int n) { for (int i = 0; i < n; i++) a[i] = b[i] + 1; }\n");
        Files.createDirectories(dir.resolve("ir"));
        Symptom s = new Symptom(Symptom.Kind.COMPILE_HANG, dir, "t.c", "gcc", null, 60, List.of());
        List<String> minimal = List.of(BIN.resolve("clang-" + major).toString(), "-O3");
        Path opt = BIN.resolve("opt-" + major);
        assertTrue(LlvmReproducer.optPass(s, minimal, opt, "LoopLoadEliminationPass", 60).pipeline().startsWith("loop-load-elim"));
        assertTrue(LlvmReproducer.optPass(s, minimal, opt, "LoopVectorizePass", 60).pipeline().startsWith("loop-vectorize<"),
                "with the parameters clang's pipeline gives it");
        assertTrue(LlvmReproducer.optPass(s, minimal, opt, "LICMPass", 60).pipeline().startsWith("licm"));
        assertTrue(LlvmReproducer.optPass(s, minimal, opt, "IndVarSimplifyPass", 60).pipeline().startsWith("indvars"));
        assertTrue(LlvmReproducer.optPass(s, minimal, opt, "SLPVectorizerPass", 60).pipeline().startsWith("slp-vectorizer"));
        assertTrue(LlvmReproducer.optPass(s, minimal, opt, "LoopFullUnrollPass", 60).pipeline().startsWith("loop-unroll-full"));
        // LLVM 23's opt-bisect names passes as the pipeline does; the class is what -time-passes prints.
        assertEquals("LoopLoadEliminationPass", LlvmReproducer.optPass(s, minimal, opt, "loop-load-elim", 60).className());
        assertEquals("IndVarSimplifyPass", LlvmReproducer.optPass(s, minimal, opt, "indvars", 60).className());
        assertEquals("LICMPass", LlvmReproducer.optPass(s, minimal, opt, "licm", 60).className());
        assertEquals(null, LlvmReproducer.optPass(s, minimal, opt, "NoSuchThingPass", 60));
    }

    @Test
    void theSecondsOfOnePassAreReadFromClangsTimeReport() throws Exception {
        String major = clangWithTools();
        Files.writeString(dir.resolve("t.c"), "int a[64], b[64];\nvoid f(int n) { for (int i = 0; i < n; i++) a[i] = b[i] + 1; }\n");
        ProcessRunner.Captured c = ProcessRunner.capture(dir, List.of(BIN.resolve("clang-" + major).toString(), "-O3", "-ftime-report", "-c", "t.c",
                "-o", "/dev/null"), Map.of(), 120, null);
        double lv = CompileTimes.passSeconds(c.output(), "LoopVectorizePass");
        assertFalse(Double.isNaN(lv), c.output());
        assertTrue(lv >= 0 && lv < 60, "seconds, not a percentage: " + lv);
        assertTrue(Double.isNaN(CompileTimes.passSeconds(c.output(), "NoSuchThingPass")));
    }
}
