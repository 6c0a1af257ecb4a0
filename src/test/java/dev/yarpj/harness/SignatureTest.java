package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SignatureTest {
    private static final String GCC = """
            func.c: In function 'test':
            func.c:12:1: internal compiler error: in vect_get_vec_defs_for_operand, at tree-vect-stmts.cc:1509
               12 | void test(int var_3) {
            0x7f3a2c11 vect_get_vec_defs_for_operand(vec_info*, _stmt_vec_info*, unsigned int)
            0x7f3a2c99 vectorizable_operation
            0x1b2c3d4e vect_transform_stmt(vec_info*)
            0x99999999 execute_one_pass(opt_pass*)
            Please submit a full bug report, with preprocessed source.
            """;

    private static final String CLANG = """
            clang: /build/llvm/lib/Transforms/Vectorize/LoopVectorize.cpp:8123: void foo(): Assertion `Def == PreviousDef' failed.
            PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
             #0 0x00007f0000001234 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int)
             #1 0x00007f0000005678 SignalHandler(int)
             #2 0x00007f000000abcd llvm::LoopVectorizePass::run()
            """;

    @Test
    void aFailedLinkIsSignedByItsUndefinedSymbolNotTheLinkersLastLine() {
        String ld = """
                /usr/bin/aarch64-linux-gnu-ld.bfd: func-aarch64-gcc-16.2.0-O3-sve2-vl128.o: in function `test':
                (.text+0x674): undefined reference to `_ZGVsMxv_fn_0'
                collect2: error: ld returned 1 exit status
                """;
        assertEquals("undefined reference to _ZGVsMxv_fn_N", Signature.linkError(ld));
        // Another symbol is another signature; a link that names none keeps its error line.
        assertFalse(Signature.linkError(ld).equals(Signature.linkError(ld.replace("_ZGVsMxv_fn_0", "helper_fn_0"))));
        assertEquals("collectN: error: ld returned N exit status", Signature.linkError("collect2: error: ld returned 1 exit status\n"));
    }

    @Test
    void gccIceSignatureKeepsTheMessageAndTopFramesWithNumbersMasked() {
        assertTrue(Signature.isCompilerCrash(GCC));
        assertEquals("internal compiler error: in vect_get_vec_defs_for_operand, at tree-vect-stmts.cc:N"
                + " | vect_get_vec_defs_for_operand < vectorizable_operation < vect_transform_stmt", Signature.ofCrash(GCC));
    }

    @Test
    void clangAssertionSignatureKeepsTheAssertionText() {
        assertTrue(Signature.isCompilerCrash(CLANG));
        String sig = Signature.ofCrash(CLANG);
        assertTrue(sig.startsWith("Assertion `Def == PreviousDef' failed."), sig);
        assertTrue(sig.endsWith("| llvm::LoopVectorizePass::run"), "crash-handler frames are skipped: " + sig);
    }

    /** A bug key's crash point: gcc's function, clang's assertion, else the top frames past the handler; the same across tests. */
    @Test
    void theCrashPointIsTheFunctionOrAssertionOrTopFramesWithoutLineNumbers() {
        assertEquals("in vect_get_vec_defs_for_operand", Signature.crashPoint(GCC));
        assertEquals("in vect_get_vec_defs_for_operand", Signature.crashPoint(GCC.replace("1509", "1600").replace("var_3", "var_9")));
        assertEquals("assertion Def == PreviousDef", Signature.crashPoint(CLANG));
        String segv = """
                during GIMPLE pass: vect
                func.c:3:6: internal compiler error: Segmentation fault
                0x12ab34 crash_signal
                0x56cd78 vect_transform_loop(_loop_vec_info*, gimple*)
                0x9abcde vectorize_loops()
                """;
        assertEquals("at vect_transform_loop < vectorize_loops", Signature.crashPoint(segv));
        String unreachable = "Unhandled opcode in widening\nUNREACHABLE executed at /build/llvm/lib/X.cpp:120!\n";
        assertEquals("unreachable Unhandled opcode in widening", Signature.crashPoint(unreachable));
        assertEquals("", Signature.crashPoint("func.c:1:1: error: expected ';'\n"));
    }

    @Test
    void sameCrashInDifferentTestsHasOneSignature() {
        String other = GCC.replace("1509", "1511").replace("0x7f3a2c11", "0x1").replace("var_3", "var_77");
        assertEquals(Signature.id(Signature.ofCrash(GCC)), Signature.id(Signature.ofCrash(other)));
    }

    @Test
    void distinctClangSegfaultsKeepDistinctSignatures() {
        String crash = """
                PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
                Stack dump:
                1.	<eof> parser at end of file
                2.	Code generation
                3.	Running pass 'Function Pass Manager' on module 'func.c'.
                4.	Running pass 'X86 DAG->DAG Instruction Selection' on function '@test'
                 #0 0x00007f0000001234 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int)
                 #1 0x00007f0000002222 llvm::sys::RunSignalHandlers()
                 #2 0x00007f0000003333 SignalHandler(int)
                 #3 0x00007f0000004444 __restore_rt
                 #4 0x00007f0000005555 %s
                clang: error: clang frontend command failed with exit code 139
                """;
        String a = Signature.ofCrash(String.format(crash, "llvm::SelectionDAG::getNode()"));
        String b = Signature.ofCrash(String.format(crash, "llvm::X86TargetLowering::LowerBUILD_VECTOR()"));
        assertTrue(a.contains("in pass 'X86 DAG->DAG Instruction Selection'"), a);
        assertFalse(Signature.id(a).equals(Signature.id(b)), a + " vs " + b);
    }

    /**
     * A release build's segfault under the new pass manager has no message; its stack dump
     * starts with the whole -cc1 command, drawn options included. Two configurations of one
     * crash sign alike: by the driver's words, the innermost pass without its parameters, and
     * the top frames.
     */
    @Test
    void aCrashWithoutAMessageIsNotSignedByItsCommandLineNorByThePassParameters() {
        String crash = """
                PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace, preprocessed source, and associated run script.
                Stack dump:
                0.	Program arguments: /usr/lib/llvm-23/bin/clang -cc1 -triple riscv64-unknown-linux-gnu -O3 %s -ferror-limit 19 -o func.o -x c func.c
                1.	<eof> parser at end of file
                2.	Optimizer
                3.	Running pass "function<eager-inv>(loop-vectorize<%s>)" on module "func.c"
                4.	Running pass "loop-vectorize<%s>" on function "test"
                 #0 0x00007f0000001234 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int)
                 #1 0x00007f0000002222 llvm::sys::RunSignalHandlers()
                 #2 0x00007f0000003333 SignalHandler(int)
                 #3 0x00007f0000004444 __restore_rt
                 #4 0x00007f0000005555 llvm::VPRecipeBase::execute()
                 #5 0x00007f0000006666 llvm::LoopVectorizationPlanner::executePlan()
                clang: error: clang frontend command failed with exit code 139 (use -v to see invocation)
                """;
        String a = Signature.ofCrash(String.format(crash, "-mllvm -force-vector-width=4", "interleave-forced-only;vectorize-forced-only", "interleave-forced-only;vectorize-forced-only"));
        String b = Signature.ofCrash(String.format(crash, "-mllvm -force-vector-interleave=4 -ffast-math", "no-interleave-forced-only", "no-interleave-forced-only"));
        assertTrue(Signature.isCompilerCrash(String.format(crash, "", "", "")));
        assertEquals(a, b);
        assertFalse(a.contains("Program arguments") || a.contains("cc1"), a);
        assertTrue(a.startsWith("clang: error: clang frontend command failed with exit code N"), a);
        assertTrue(a.contains("in pass 'loop-vectorize'") && a.contains("llvm::VPRecipeBase::execute"), a);
        assertTrue(a.length() < 300, a);
    }

    @Test
    void runningOutOfMemoryOrTimeIsNotACrash() {
        String killed = "gcc: internal compiler error: Killed signal terminated program cc1\nPlease submit a full bug report\n";
        assertTrue(Signature.isResourceExhaustion(killed));
        assertFalse(Signature.isCompilerCrash(killed));
        assertTrue(Signature.isResourceExhaustion("LLVM ERROR: out of memory\n"));
    }

    @Test
    void ordinaryCompileErrorsAreNotCrashes() {
        assertFalse(Signature.isCompilerCrash("func.c:3:5: error: expected ';' before '}' token\n"));
    }

    @Test
    void ispcFatalErrorsAndAssertionsAreCrashes() {
        String fatal = """
                /build/ispc/src/opt/ImproveMemoryOps.cpp(1234): FATAL ERROR: Unhandled signal sent to process; terminating.
                ***
                *** Please file a bug report at https://github.com/ispc/ispc/issues
                *** (Including as much information as you can about how to reproduce this error).
                *** You have apparently encountered a bug in the compiler that we'd like to fix!
                ***
                """;
        assertTrue(Signature.isCompilerCrash(fatal));
        assertEquals("FATAL ERROR: Unhandled signal sent to process; terminating.", Signature.ofCrash(fatal));
        String assertion = "/build/ispc/src/ctx.cpp:4321: Assertion failed: \"lanes == width\".\n***\n";
        assertTrue(Signature.isCompilerCrash(assertion));
        assertEquals("Assertion failed: \"lanes == width\".", Signature.ofCrash(assertion));
        String atPos = "func.ispc:12:5: Error: Assertion failed (/build/ispc/src/expr.cpp:77): \"type != nullptr\".\n";
        assertTrue(Signature.isCompilerCrash(atPos));
        assertEquals("Assertion failed (/build/ispc/src/expr.cpp:N): \"type != nullptr\".", Signature.ofCrash(atPos));
        assertTrue(Signature.isCompilerCrash("func.ispc:3:1: Error: Internal compiler error: fake.\n"));
        assertTrue(Signature.isCompilerCrash("LLVM ERROR: Cannot select: 0x55d0 t12: v8i32 = fake\n"));
    }

    @Test
    void ordinaryIspcErrorsAreNotCrashesAndKeepTheirFirstErrorLine() {
        String err = "Warning: something harmless.\nfunc.ispc:7:12: Error: Undeclared symbol \"var_3\".\n";
        assertFalse(Signature.isCompilerCrash(err));
        assertEquals("Error: Undeclared symbol \"var_N\".", Signature.firstError(err));
        assertEquals("error: expected ';'", Signature.firstError("func.c:3:5: error: expected ';'\n"));
    }

    @Test
    void aBackEndCrashMessageLeavesOutTheNodeAddressesThatChangeFromRunToRun() {
        String one = "fatal error: error in backend: Cannot select: 0x5580b368b0f0: v2i64 = insert_vector_elt 0x5580b368af30, 0x5580b368b010, Constant:i64<1>\n";
        String two = "fatal error: error in backend: Cannot select: 0x55d0c3a4e2f0: v2i64 = insert_vector_elt 0x55d0c3a4e110, 0x55d0c3a4e3b8, Constant:i64<1>\n";
        String m = Signature.crashMessage(one);
        assertEquals("error in backend: Cannot select: 0x: v2i64 = insert_vector_elt 0x, 0x, Constant:i64<1>", m);
        assertEquals(m, Signature.crashMessage(two), "the same crash twice has one message");
        assertTrue(Signature.withoutAddresses(two).contains(m), "and the other run's output, compared as it is, shows it");
    }
}
