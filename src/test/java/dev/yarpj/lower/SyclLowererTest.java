package dev.yarpj.lower;

import static dev.yarpj.Commands.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.interp.Interpreter;
import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.Program;
import dev.yarpj.policy.GenPolicy;
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
 * The SYCL lowering without a SYCL implementation: every emitted func.cpp passes
 * {@code g++ -std=c++17 -fsyntax-only} against the declarations in the test resources
 * (sycl-decls/sycl/sycl.hpp), the lowering is deterministic, and the host side of a
 * hand-built program (allocations, copies back, kernel names, reductions) has the structure
 * the kernels need, in every memory mode.
 */
class SyclLowererTest {
    private static final Path DECLS = Path.of("src/test/resources/sycl-decls").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void everyEmittedFilePassesASyntaxCheckAgainstTheSyclDeclarations() throws Exception {
        Generator gen = new Generator(GenPolicy.defaults(), Language.SYCL, CheckMode.HASH);
        Set<String> kinds = new HashSet<>();
        for (long s = 1; s <= 30; s++) {
            GeneratedTest t = gen.generate(s, "test");
            Path d = Files.createDirectories(dir.resolve("s" + s));
            for (Map.Entry<String, String> f : t.files().files().entrySet()) Files.writeString(d.resolve(f.getKey()), f.getValue());
            run(d, "g++", "-std=c++17", "-fsyntax-only", "-w", "-I", DECLS.toString(), "-I", ".", "func.cpp");
            for (Map.Entry<String, Integer> c : t.files().choices().entrySet()) if (c.getValue() > 0) kinds.add(c.getKey());
        }
        // The thirty tests between them use every way of running and moving data.
        for (String k : List.of("range.1", "range.2", "nd_range", "single_task", "reductions", "memory.buffers",
                "memory.usm_shared", "memory.usm_device", "queue.in_order")) {
            assertTrue(kinds.contains(k), "no test used " + k + ": " + kinds);
        }
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
