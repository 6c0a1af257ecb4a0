package dev.yarpj.lower;

import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.StructArray;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import dev.yarpj.policy.EmitPolicy;
import dev.yarpj.policy.Rng;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SYCL lowering without a SYCL implementation: every emitted func.cpp, built by g++
 * against the host SYCL of the test resources (sycl-host/sycl/sycl.hpp, which runs kernels
 * on the host one work-item after another), prints the prediction of every input set; the
 * lowering is deterministic, and the host side of a
 * hand-built program (allocations, copies back, kernel names, reductions) has the structure
 * the kernels need, in every memory mode.
 */
class SyclLowererTest {
    /** The host SYCL: enough of SYCL 2020 to build and run every emitted func.cpp with g++ (see its header). */
    private static final Path HOST = Path.of("src/test/resources/sycl-host").toAbsolutePath();

    @TempDir
    Path dir;

    /**
     * Emitted tests, built by g++ against the host SYCL of the test resources (seed 10 under ASan and
     * UBSan), print the prediction of every input set; between them the tests use every way of running and
     * moving data, and a kernel whose range the host counts from a bound an input set moves is launched over
     * different ranges in one run. Seeds 6, 10 and 13 (1,238 lines of func.cpp): 6 has shared USM, range.2 and
     * most ways; 10 buffers; 13 device USM, guarded nd_ranges and the first kernel launched over two ranges (13
     * and 14 are the first two seeds that have one). Seeds 1..14 (11,000 lines) built the same checks on more
     * programs; scripts/check-seeds.sh builds hundreds.
     */
    @Test
    void everyEmittedTestPrintsEveryInputSetsPredictionOnTheHostSycl() throws Exception {
        Generator gen = new Generator(GenPolicy.defaults(), Language.SYCL, CheckMode.HASH);
        Set<String> kinds = new HashSet<>();
        int moved = 0;
        for (long s : new long[] {6, 10, 13}) {
            GeneratedTest t = gen.generate(s, "test");
            Path d = Files.createDirectories(dir.resolve("s" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            // One under the sanitizers (check-seeds.sh sanitizes every seed it checks).
            List<String> sanitize = s == 10 ? List.of("-fsanitize=address,undefined", "-fno-sanitize-recover=all") : List.of();
            run(d, dev.yarpj.Commands.cmd("g++", "-std=c++17", "-O0", "-w", sanitize, "-I", HOST.toString(), "-I", ".", "driver.cpp", "func.cpp",
                    "-o", "test.bin", "-lm"));
            ProcessBuilder pb = new ProcessBuilder(d.resolve("test.bin").toString()).directory(d.toFile());
            pb.environment().put("YARPJ_SYCL_HOST_TRACE", "1");
            pb.redirectError(d.resolve("trace.txt").toFile());
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), "seed " + s + ": " + Files.readString(d.resolve("trace.txt")));
            assertEquals(t.prediction().expectedOutput(), out.strip(), "seed " + s);
            for (Map.Entry<String, Integer> c : t.files().choices().entrySet()) if (c.getValue() > 0) kinds.add(c.getKey());
            // Each kernel's launches, one per input set: a range from a moved bound differs between them.
            Map<String, Set<String>> ranges = new java.util.HashMap<>();
            for (String line : Files.readAllLines(d.resolve("trace.txt"))) {
                String[] w = line.split(" ");
                if (w.length == 3 && w[0].equals("parallel_for")) ranges.computeIfAbsent(w[1], k -> new HashSet<>()).add(w[2]);
            }
            moved += (int) ranges.values().stream().filter(r -> r.size() > 1).count();
        }
        for (String k : List.of("range.1", "range.2", "nd_range", "nd_range.guarded", "range.from_bound", "single_task", "reductions",
                "memory.buffers", "memory.usm_shared", "memory.usm_device", "queue.in_order")) {
            assertTrue(kinds.contains(k), "no test used " + k + ": " + kinds);
        }
        assertTrue(moved > 0, "no kernel was launched over two ranges");
    }

    @Test
    void arraysOfStructsLiveInOneBufferOrAllocationEachAndHelpersTakeTheirElements() throws Exception {
        GenPolicy policy = PolicyLoader.parse("structs: {p_field: 0.8}\nfunctions: {p_call: 0.5, p_struct: 0.6, p_pointer: 0.5}\n",
                "structs.yaml", "structs");
        Generator gen = new Generator(policy, Language.SYCL, CheckMode.HASH);
        Set<String> seen = new HashSet<>();
        // Seeds 1..6: each way below is in two of them or more.
        for (long s = 1; s <= 6; s++) {
            GeneratedTest t = gen.generate(s, "test");
            Path d = Files.createDirectories(dir.resolve("s" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            run(d, "g++", "-std=c++17", "-fsyntax-only", "-w", "-I", HOST.toString(), "-I", ".", "func.cpp");
            String f = t.files().files().get("func.cpp");
            for (StructArray a : t.program().structArrays()) {
                String n = a.name(), type = "struct " + a.type();
                boolean output = a.fields().stream().anyMatch(x -> !x.isInput());
                int buffers = count(f, "sycl::buffer<" + type + ", " + a.dims().size() + "> b_" + n + "{");
                int allocations = count(f, "<" + type + ">(" + a.fields().get(0).elements() + ", q)");
                assertEquals(1, buffers + allocations, n + "\n" + f);
                // No field of an array of structs has a memory block of its own.
                for (ArrayVar x : a.fields()) assertTrue(!f.contains("b_" + x.name() + "{") && !f.contains(" *" + x.name() + " = "), x.name());
                if (buffers == 1) {
                    // Its accessors (in every kernel that uses it, if any does) read only an input.
                    seen.add(output ? "buffer.read_write" : "buffer.read");
                    assertTrue(!f.contains(" = b_" + n + ".get_access") || f.contains("auto " + n + " = b_" + n + ".get_access<sycl::access_mode::" + (output ? "read_write" : "read") + ">(h);"), n + "\n" + f);
                } else {
                    seen.add(output ? "usm.out" : "usm.in");
                    // Copied in; copied back when a field is an output.
                    assertTrue(f.contains("(" + n + ", ::" + n + ", "), n + "\n" + f);
                    assertEquals(output, f.contains("(::" + n + ", " + n + ", "), n + "\n" + f);
                }
            }
            if (f.contains("(&recs_")) seen.add("struct by pointer");
            if (Pattern.compile("fn_\\d+\\(recs_\\d+\\[").matcher(f).find()) seen.add("struct by value");
            if (Pattern.compile("fn_\\d+\\(&arr_").matcher(f).find()) seen.add("element by pointer");
        }
        assertEquals(Set.of("buffer.read_write", "buffer.read", "usm.out", "usm.in", "struct by pointer", "struct by value",
                "element by pointer"), seen);
    }

    /**
     * Floating point that never rounds (floats: p_float) in SYCL: the files of seeds 1..6 pass the
     * syntax check (with SYCL's math built-ins, each called in two of them or more), sums, minima and maxima of float and double are
     * sycl::reductions too, and the C++ lowering of two of them prints the prediction at -O0
     * and -Ofast. (A float sum is rare: a
     * sum whose every order is exact in 24 bits must have few terms; of seeds 1..20, four tests
     * have a double sum and one a float sum.)
     */
    @Test
    void floatingPointFoldsAreSyclReductionsAndTheCppLoweringPrintsThePrediction() throws Exception {
        // Every min, max, fabs, fma and square root the math built-in (floats: p_library), which changes nothing else.
        GenPolicy policy = PolicyLoader.parse("floats: {p_float: 0.5, p_library: 1}\n", "floats.yaml", "floats");
        Generator gen = new Generator(policy, Language.SYCL, CheckMode.HASH);
        Set<String> seen = new HashSet<>();
        Set<String> calls = new HashSet<>();
        for (long s = 1; s <= 20; s++) {
            GeneratedTest t = gen.generate(s, "test");
            var call = Pattern.compile("sycl::(fmin|fmax|fma|sqrt|fabs)\\(").matcher(t.files().files().get("func.cpp"));
            while (call.find()) if (s <= 6) calls.add(call.group(1));
            var m = Pattern.compile("sycl::reduction\\([^)]*sycl::(plus|minimum|maximum)<(float|double)>").matcher(t.files().files().get("func.cpp"));
            while (m.find()) seen.add(m.group(1) + "<" + m.group(2) + ">");
            if (s > 6) continue;
            Path d = Files.createDirectories(dir.resolve("s" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            run(d, "g++", "-std=c++17", "-fsyntax-only", "-w", "-I", HOST.toString(), "-I", ".", "func.cpp");
            if (s > 2) continue;
            String want = t.prediction().expectedOutput();
            for (String opt : List.of("-O0", "-Ofast")) {
                run(d, "g++", opt, "-w", "driver.cpp", "func_ref.cpp", "-o", "ref.bin", "-lm");
                assertEquals(want, run(d, d.resolve("ref.bin").toString()).strip(), "seed " + s + " C++ lowering " + opt);
            }
        }
        assertTrue(seen.stream().anyMatch(x -> x.startsWith("plus<")) && seen.size() >= 3, "floating reductions seen: " + seen);
        assertEquals(Set.of("fmin", "fmax", "fma", "sqrt", "fabs"), calls, "the math built-ins in the syntax-checked seeds");
    }

    private static int count(String s, String what) {
        return s.split(Pattern.quote(what), -1).length - 1;
    }

    @Test
    void theSameSeedGivesTheSameFiles() {
        for (long s = 1; s <= 10; s++) {
            GeneratedTest a = new Generator(GenPolicy.defaults(), Language.SYCL, CheckMode.HASH).generate(s, "test");
            GeneratedTest b = new Generator(GenPolicy.defaults(), Language.SYCL, CheckMode.HASH).generate(s, "test");
            assertEquals(a.files().files(), b.files().files(), "seed " + s);
        }
    }

    @Test
    void theHostSideAllocatesCopiesBackAndNamesEveryKernel() {
        Program p = IspcLowererTest.gangs();
        Prediction expected = Interpreter.run(p, 100_000);
        Set<String> memories = new HashSet<>();
        for (long seed = 1; seed <= 40; seed++) {
            LoweredTest t = new SyclLowerer(EmitPolicy.DEFAULT.sycl(), new Rng(seed)).lower(p, expected, CheckMode.HASH, "sycl test");
            String f = t.files().get("func.cpp");
            assertTrue(t.files().containsKey("func_ref.cpp") && t.files().containsKey("driver.cpp"), t.files().keySet().toString());
            // Kernel names: each declared once and used once.
            Matcher m = Pattern.compile("<(yarpj_kernel_\\d+)>").matcher(f);
            Set<String> used = new HashSet<>();
            while (m.find()) assertTrue(used.add(m.group(1)), "kernel name used twice: " + m.group(1) + "\n" + f);
            for (String k : used) assertTrue(f.contains("class " + k + ";"), k + " not declared\n" + f);
            // The up-by-one loop folds into three scalars: in a parallel_for, three reductions.
            if (f.contains("sycl::reduction(")) {
                assertEquals(3, f.split("sycl::reduction\\(", -1).length - 1, f);
                assertTrue(f.contains("sycl::plus<unsigned int>()") && f.contains("sycl::minimum<int>()")
                        && f.contains("sycl::bit_xor<unsigned int>()"), f);
            }
            String memory = t.choices().entrySet().stream().filter(e -> e.getKey().startsWith("memory.") && e.getValue() == 1)
                    .map(Map.Entry::getKey).findFirst().orElseThrow();
            memories.add(memory);
            for (String out : List.of("out_6", "out_7", "acc_0", "mn_1", "x_2")) {
                String host = "::" + out;
                switch (memory) {
                    case "memory.buffers" -> assertTrue(f.contains("b_" + out + "{") && f.contains(host), out + "\n" + f);
                    case "memory.usm_shared" -> assertTrue(f.contains("std::memcpy(" + (out.startsWith("out") ? host : "&" + host) + ", " + out)
                            && f.contains("sycl::free(" + out + ", q);"), out + " not copied back or not freed\n" + f);
                    default -> assertTrue(f.contains("q.memcpy(" + (out.startsWith("out") ? host : "&" + host) + ", " + out)
                            && f.contains("sycl::free(" + out + ", q);"), out + " not copied back or not freed\n" + f);
                }
            }
            // No kernel reads a global: inputs are copied to locals before any kernel.
            assertTrue(!f.contains("::arr_5[") && !f.contains("::acc_0["), f);
        }
        assertEquals(3, memories.size(), "every memory mode: " + memories);
    }
}
