package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FindingTest {
    /** A meta.json as TestRunner writes one, through the harness's own JSON writer. */
    private static Path write(Path dir, Map<String, Object> meta) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("meta.json"), JsonFiles.write(meta) + "\n");
        return dir;
    }

    private static Map<String, Object> wrongCode() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "wrong-code");
        m.put("signature", "wrong code on gcc-O3");
        m.put("seed", 31000121L);
        m.put("lang", "cpp");
        m.put("policy", "default");
        m.put("testbed", "gcc-O3");
        m.put("testbeds", List.of("gcc-O3", "gcc-O3-native"));
        m.put("reference", "g++");
        m.put("target", "aarch64-sve");
        m.put("run", List.of("qemu-aarch64", "-cpu", "max"));
        m.put("commands", List.of(List.of("g++", "-O0", "-c", "driver.cpp", "-o", "driver.o"),
                List.of("g++-trunk", "-O3", "-fno-tree-vrp", "-c", "func.cpp", "-w", "-o", "func.o")));
        return m;
    }

    @Test
    void whatTheHarnessWritesReadsBackTyped(@TempDir Path dir) throws Exception {
        Finding f = Finding.read(write(dir.resolve("31000121"), wrongCode()));
        assertEquals(Outcome.WRONG_CODE, f.kind());
        assertEquals(31000121L, f.seed());
        assertEquals("cpp", f.ext());
        assertEquals(List.of("gcc-O3", "gcc-O3-native"), f.testbeds());
        assertEquals("aarch64-sve", f.target());
        assertEquals(List.of("qemu-aarch64", "-cpu", "max"), f.emulator());
        assertTrue(f.hasBuggyTestbed());
        // The buggy build's command, without the source, output, -c and -w: what reduction and triage rebuild with.
        assertEquals(List.of("g++-trunk", "-O3", "-fno-tree-vrp"), f.compileCommand());
    }

    @Test
    void aFindingOfOneTestbedOnThisMachineHasNoTargetOrEmulator(@TempDir Path dir) throws Exception {
        Map<String, Object> m = wrongCode();
        m.put("kind", "compiler-crash");
        m.put("lang", "c");
        m.remove("testbeds");
        m.remove("target");
        m.remove("run");
        Finding f = Finding.read(write(dir, m));
        assertEquals(Outcome.COMPILER_CRASH, f.kind());
        assertEquals(List.of("gcc-O3"), f.testbeds());
        assertNull(f.target());
        assertTrue(f.emulator().isEmpty());
        assertEquals("c", f.ext());
        // A C finding's compile command is the one of func.c: the C++ one above is not it.
        assertThrows(Finding.Unreadable.class, f::compileCommand);
    }

    @Test
    void aGeneratorFailureHasNoBuggyTestbed(@TempDir Path dir) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>(Map.of("kind", "generator-failure", "seed", 7L, "lang", "c", "testbed", "generator"));
        assertFalse(Finding.read(write(dir, m)).hasBuggyTestbed());
    }

    @Test
    void whatIsNotAFindingIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        Path none = Files.createDirectories(dir.resolve("none"));
        Path garbage = Files.createDirectories(dir.resolve("garbage"));
        Files.writeString(garbage.resolve("meta.json"), "{\"kind\": [unclosed\n");
        Path pass = write(dir.resolve("pass"), new LinkedHashMap<>(Map.of("kind", "pass")));
        Path slow = write(dir.resolve("slow"), new LinkedHashMap<>(Map.of("kind", "slow-compile")));
        for (Path p : List.of(none, garbage, pass, slow)) {
            Finding.Unreadable e = assertThrows(Finding.Unreadable.class, () -> Finding.read(p));
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
    }

    @Test
    void theCrashMessageKeepsTheCompilersTextWithoutLineNumbers() {
        String gcc = "func.c: In function 'test':\nfunc.c:12:6: internal compiler error: in vect_transform_loop, at tree-vect-loop.cc:12345\n";
        assertEquals("internal compiler error: in vect_transform_loop, at tree-vect-loop.cc", Finding.crashMessage(gcc));
        String clang = "clang: /build/llvm/lib/Transforms/Vectorize/VPlan.cpp:99: void f(): Assertion `x' failed.\n";
        assertEquals("Assertion `x' failed.", Finding.crashMessage(clang));
        assertThrows(Finding.Unreadable.class, () -> Finding.crashMessage("error: expected ';'\n"));
    }
}
