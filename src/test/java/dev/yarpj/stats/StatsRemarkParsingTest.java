package dev.yarpj.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatsRemarkParsingTest {
    /** A loop both compilers vectorize at -O3. */
    private static final String VECTORIZABLE =
            "void f(int *restrict a, int *restrict b){for(int i=0;i<1024;i++)a[i]=b[i]*3;}\n";

    @Test
    void clangVectorizesTheLoopAndSaysSo(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("v.c"), VECTORIZABLE);
        RemarkCompiler.CompileResult r = RemarkCompiler.CLANG.compile("clang", dir, "v.c", 60);
        assertEquals(RemarkCompiler.Status.OK, r.status(), r.message());
        assertTrue(r.tally().count("loop-vectorize", RemarkKind.PASSED) >= 1, r.tally().toString());
        assertTrue(r.tally().count("loop-vectorize", RemarkKind.PASSED, "Vectorized") >= 1, r.tally().byName().toString());
    }

    @Test
    void gccVectorizesTheLoopAndSaysSo(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("v.c"), VECTORIZABLE);
        RemarkCompiler.CompileResult r = RemarkCompiler.GCC.compile("gcc", dir, "v.c", 60);
        assertEquals(RemarkCompiler.Status.OK, r.status(), r.message());
        // gcc's remarks carry no group (see GccRemarks): the vectorizer's show in the remark name.
        assertTrue(r.tally().count(GccRemarks.PASS, RemarkKind.PASSED) >= 1, r.tally().toString());
        assertTrue(r.tally().count(GccRemarks.PASS, RemarkKind.PASSED, "loop vectorized using N byte vectors") >= 1,
                r.tally().byName().toString());
    }

    /** A vectorizable loop on line 4 and a search loop that a break leaves on line 7, printed as yarpj prints loops. */
    private static final String SEARCH = String.join("\n", "int a[1024], b[1024];", "int f(void) {", "    int r = -1;",
            "    for (int i = 0; (i < 1024); i++) {", "        a[i] = (b[i] * 3);", "    }",
            "    for (int i = 0; (i < 1024); i++) {", "        if ((b[i] == 7)) {", "            r = i;", "            break;", "        }",
            "    }", "    return r;", "}", "");

    @Test
    void theLoopsThatLeaveEarlyAreCountedWithThoseTheVectorizerVectorized(@TempDir Path dir) throws Exception {
        assertEquals(java.util.Set.of(7), EarlyExitLoops.lines(SEARCH));
        Files.writeString(dir.resolve("s.c"), SEARCH);
        // gcc 12 and clang 14 vectorize the first loop, not the search.
        for (RemarkCompiler c : RemarkCompiler.values()) {
            RemarkCompiler.CompileResult r = c.compile(c.defaultBinary, dir, "s.c", 60);
            assertEquals(RemarkCompiler.Status.OK, r.status(), r.message());
            r.tally().countEarlyExits(SEARCH);
            assertEquals(java.util.Set.of(4), r.tally().vectorizedLoopLines(), c.toString());
            assertEquals(1, r.tally().earlyExitLoops());
            assertEquals(0, r.tally().earlyExitLoopsVectorized());
        }
        // clang 23 vectorizes loops with an uncountable early exit (LLVM since 2025): the search too.
        if (dev.yarpj.harness.Testbeds.onPath("clang-23")) {
            RemarkCompiler.CompileResult r = RemarkCompiler.CLANG.compile("clang-23", dir, "s.c", 60);
            r.tally().countEarlyExits(SEARCH);
            assertEquals(java.util.Set.of(4, 7), r.tally().vectorizedLoopLines());
            assertEquals(1, r.tally().earlyExitLoopsVectorized());
        }
    }

    @Test
    void theLoopABreakLeavesIsTheInnermostAndAWhileThatTestsDataLeavesEarly() {
        // As the lowerers print them: a for nest whose inner loop a break leaves, a while with a
        // header exit, a do-while whose condition tests its bound only, a while in braces.
        String nest = String.join("\n", "for (int i = 0; (i < 4); i++) {", "    for (int j = 0; (j < 4); j++) {", "        if ((s[j] == 1)) {",
                "            break;", "        }", "    }", "    if ((t[i] == 2)) {", "        continue;", "    }", "}",
                " {", "    int k = 0;", "    while (((k < 9) && (u[k] != 3))) {", "        k++;", "    }", "}",
                " {", "    int m = 0;", "    do {", "        m++;", "    } while ((m < 9));", "}", "");
        List<EarlyExitLoops.Loop> loops = EarlyExitLoops.loops(nest);
        assertEquals(List.of(new EarlyExitLoops.Loop(1, 10, false), new EarlyExitLoops.Loop(2, 6, true), new EarlyExitLoops.Loop(13, 15, true),
                new EarlyExitLoops.Loop(19, 21, false)), loops);
        assertEquals(java.util.Set.of(2, 13), EarlyExitLoops.lines(nest));
        // A remark is about the innermost loop around its line: gcc's on a do-while's last line, on an exit's test inside a body.
        assertEquals(loops.get(3), EarlyExitLoops.around(loops, 21));
        assertEquals(loops.get(1), EarlyExitLoops.around(loops, 3));
        assertEquals(loops.get(0), EarlyExitLoops.around(loops, 7));
        assertEquals(null, EarlyExitLoops.around(loops, 12));
    }

    @Test
    void theInnermostLoopAroundAReturnLeavesEarly() {
        String nest = String.join("\n", "for (int i = 0; (i < 4); i++) {", "    for (int j = 0; (j < 4); j++) {", "        if ((s[i] == 1)) {",
                "            return;", "        }", "    }", "}", "");
        assertEquals(List.of(new EarlyExitLoops.Loop(1, 7, false), new EarlyExitLoops.Loop(2, 6, true)), EarlyExitLoops.loops(nest));
    }

    @Test
    void aCompileErrorIsAFailureNotAnException(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bad.c"), "int f( {\n");
        for (RemarkCompiler c : RemarkCompiler.values()) {
            RemarkCompiler.CompileResult r = c.compile(c.defaultBinary, dir, "bad.c", 60);
            assertEquals(RemarkCompiler.Status.FAILED, r.status(), c + ": " + r.message());
            assertTrue(r.message().contains("error"), r.message());
        }
    }

    @Test
    void aHangingCompileIsKilledAtTheTimeout(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("v.c"), VECTORIZABLE);
        Path cc = dir.resolve("slow-cc");
        Files.writeString(cc, "#!/bin/sh\nsleep 60\n");
        assertTrue(cc.toFile().setExecutable(true));
        long start = System.nanoTime();
        RemarkCompiler.CompileResult r = RemarkCompiler.CLANG.compile(cc.toString(), dir, "v.c", 1);
        assertEquals(RemarkCompiler.Status.TIMED_OUT, r.status(), r.message());
        assertTrue((System.nanoTime() - start) / 1e9 < 20, "killed, not waited for");
    }

    @Test
    void clangRecordIsScannedByLine() throws Exception {
        String yaml = """
                --- !Passed
                Pass:            licm
                Name:            Hoisted
                DebugLoc:        { File: func.c, Line: 11, Column: 43 }
                Function:        test
                Args:
                  - String:          'hoisting '
                  - Pass:            not-a-pass
                ...
                --- !Missed
                Pass:            'loop-vectorize'
                Name:            MissedDetails
                ...
                --- !AnalysisFPCommute
                Pass:            loop-vectorize
                Name:            CantReorderFPOps
                ...
                --- !Failure
                Pass:            ''
                Name:            ''
                ...
                --- !Passed
                Pass:            licm
                Name:            Hoisted
                """;
        RemarkTally t = ClangRemarks.parse(new StringReader(yaml));
        assertEquals(2, t.count("licm", RemarkKind.PASSED, "Hoisted"));
        assertEquals(1, t.count("loop-vectorize", RemarkKind.MISSED));
        assertEquals(1, t.count("loop-vectorize", RemarkKind.ANALYSIS, "CantReorderFPOps"));
        assertEquals(1, t.count(ClangRemarks.NONE, RemarkKind.MISSED, ClangRemarks.NONE));
        assertEquals(0, t.count("not-a-pass", RemarkKind.PASSED));
        assertEquals(5, t.total());
    }

    @Test
    void gccLinesAreTalliedAndNormalised() throws Exception {
        String text = """
                func.c:12:5: optimized: loop vectorized using 16 byte vectors
                func.c:30:5: optimized: loop vectorized using 32 byte vectors
                func.c:1:6: note: vectorized 1 loops in function.
                func.c:40:3: missed: couldn't vectorize loop
                func.c:41:3: missed: not vectorized: control flow in loop.
                 scalar_type: long long int
                BB 9 is always executed in loop 1
                func.c:7:9: optimized: loop with 5 iterations completely unrolled (header execution count 10737418)
                func.c:8:9: optimized:  Inlining max_i32/0 into test/8.
                """;
        RemarkTally t = GccRemarks.parse(new StringReader(text));
        assertEquals(2, t.count(GccRemarks.PASS, RemarkKind.PASSED, "loop vectorized using N byte vectors"));
        assertEquals(1, t.count(GccRemarks.PASS, RemarkKind.PASSED, "loop with N iterations completely unrolled"));
        assertEquals(1, t.count(GccRemarks.PASS, RemarkKind.PASSED, "Inlining X into X"));
        assertEquals(1, t.count(GccRemarks.PASS, RemarkKind.ANALYSIS, "vectorized N loops in function"));
        assertEquals(2, t.count(GccRemarks.PASS, RemarkKind.MISSED));
        assertEquals(7, t.total());
    }

    @Test
    void gccMessagesAreNormalised() {
        assertEquals("Unswitching loop on condition: if", GccRemarks.normalise("Unswitching loop on condition: if (_45 != 0)"));
        assertEquals("couldn't vectorize loop", GccRemarks.normalise("couldn't vectorize loop"));
        assertEquals("Loop N distributed: split to N loops",
                GccRemarks.normalise("Loop 33 distributed: split to 2 loops and 0 library calls."));
        assertEquals("***** Analysis failed with vector mode X", GccRemarks.normalise("***** Analysis failed with vector mode V8QI"));
        assertEquals("sinking common stores with same value to", // cut after 7 words
                GccRemarks.normalise("sinking common stores with same value to out_3[i_1_2][4]"));
        assertEquals("Inlining X into X", GccRemarks.normalise(" Inlining max_i32/0 into test/8."));
        assertEquals("not inlinable: X -> X, function body", GccRemarks.normalise("not inlinable: 'f' -> 'g', function body not available"));
    }
}
