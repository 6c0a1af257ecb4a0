package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.lower.Language;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A finding's builds for its program in another language: the buggy compiler's C or C++ sibling, on that language's file. */
class ReplayTest {
    @Test
    void aCompilerNamesItsCOrCppSiblingWithItsPrefixSuffixAndDirectory() {
        assertEquals("g++-trunk", Replay.sibling("gcc-trunk", Language.CPP));
        assertEquals("gcc-16", Replay.sibling("g++-16", Language.C));
        assertEquals("/opt/x/bin/aarch64-linux-gnu-g++-16", Replay.sibling("/opt/x/bin/aarch64-linux-gnu-gcc-16", Language.CPP));
        assertEquals("clang++-23", Replay.sibling("clang-23", Language.CPP));
        assertEquals("clang-23", Replay.sibling("clang++-23", Language.C));
        assertEquals("clang", Replay.sibling("clang", Language.C));
        assertEquals("g++", Replay.sibling("g++", Language.CPP));
        assertEquals("c++", Replay.sibling("cc", Language.CPP));
        // A wrapper script of neither name builds both.
        assertEquals("/t/miscompile.sh", Replay.sibling("/t/miscompile.sh", Language.CPP));
        assertEquals("/t/miscompile.sh", Replay.sibling("/t/miscompile.sh", Language.C));
    }

    private static Finding finding(Path dir, Outcome kind, String lang, String reference, List<List<String>> commands) {
        return new Finding(dir, kind, "sig", 1, lang, "tb", List.of("tb"), reference, null, List.of(), commands, Map.of());
    }

    private static final List<List<String>> C_WRONG_CODE = List.of(List.of("gcc", "-O0", "-w", "-c", "driver.c", "-o", "driver.o"),
            List.of("gcc", "-O3", "-march=x86-64-v2", "-w", "-c", "func.c", "-o", "func-tb.o"),
            List.of("gcc", "driver.o", "func-tb.o", "-o", "test-tb"), List.of("./test-tb"));

    @Test
    void eachLanguageIsBuiltFromItsPlainCOrCppFileWithTheSameFlags(@TempDir Path dir) throws Exception {
        Replay r = new Replay(finding(dir, Outcome.WRONG_CODE, "c", "gcc", C_WRONG_CODE), 60, 10);
        assertEquals(List.of("g++", "-O3", "-march=x86-64-v2", "-w", "-c", "func.cpp", "-o", "func-other.o"), r.inLanguage(Language.CPP).buggyCompile());
        assertEquals("g++ -O3 -march=x86-64-v2 func.cpp", r.inLanguage(Language.ISPC).buggyCompileText());
        assertEquals("g++ -O3 -march=x86-64-v2 func_ref.cpp", r.inLanguage(Language.SYCL).buggyCompileText());
        assertEquals("gcc -O3 -march=x86-64-v2 func.c", r.inLanguage(Language.C).buggyCompileText());
    }

    @Test
    void aCompilerThatBuildsOneLanguageOnlyOrIsNotInstalledHasNoCounterpart(@TempDir Path dir) throws Exception {
        List<List<String>> ispc = List.of(List.of("ispc", "--woff", "func.ispc", "-h", "func_ispc.h"),
                List.of("g++", "-O0", "-w", "-DYARPJ_ISPC", "-c", "driver.cpp", "-o", "driver.o"),
                List.of("ispc", "--pic", "-O1", "--woff", "func.ispc", "-o", "f.o"), List.of("g++", "driver.o", "f.o", "-o", "t"), List.of("./t"));
        Replay r = new Replay(finding(dir, Outcome.WRONG_CODE, "ispc", "g++", ispc), 60, 10);
        assertEquals("ispc builds ispc only", assertThrows(Replay.NoCounterpart.class, () -> r.inLanguage(Language.C)).getMessage());
        List<List<String>> missing = List.of(C_WRONG_CODE.get(0), List.of("gcc-no-such-99", "-O2", "-w", "-c", "func.c", "-o", "f.o"),
                C_WRONG_CODE.get(2), C_WRONG_CODE.get(3));
        Replay m = new Replay(finding(dir, Outcome.WRONG_CODE, "c", "gcc", missing), 60, 10);
        assertEquals("g++-no-such-99 is not installed", assertThrows(Replay.NoCounterpart.class, () -> m.inLanguage(Language.CPP)).getMessage());
    }

    @Test
    void aCrashEndsWithItsCompileAndABuildThatFailsIsNotBuiltRatherThanGone(@TempDir Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("compile.stderr"), "during GIMPLE pass: vect\nfunc.c:3:1: internal compiler error: in foo, at bar.cc:12\n");
        List<List<String>> crash = List.of(List.of("gcc", "-O3", "-w", "-c", "func.c", "-o", "f.o"));
        Replay r = new Replay(finding(dir, Outcome.COMPILER_CRASH, "c", "gcc", crash), 60, 10).inLanguage(Language.CPP);
        assertEquals(List.of("g++", "-O3", "-w", "-c", "func.cpp", "-o", "func-other.o"), r.buggyCompile());
        // A file the sibling rejects: not built, with the error, not "does not show it".
        Replay.Judgement j = r.judge(Map.of("func.cpp", "int f( {\n"), "0");
        assertEquals(Replay.Verdict.NOT_BUILT, j.verdict());
        assertTrue(j.why().startsWith("g++ -O3 -w -c func.cpp -o func-other.o: ") && j.why().contains("error"), j.why());
        assertEquals(Replay.Verdict.GONE, r.judge(Map.of("func.cpp", "int f() { return 1; }\n"), "0").verdict());
    }
}
