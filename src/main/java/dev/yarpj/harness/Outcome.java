package dev.yarpj.harness;

/**
 * What one test did on one testbed, after DeepSmith's taxonomy. Each kind but PASS and
 * SLOW_COMPILE is a finding, saved under {@code results/<dir>/}. A slow compile (past the
 * compile limit, in time or memory) is counted apart: it becomes a COMPILE_HANG finding
 * only when {@link CompileTimeRule} calls it an outlier among the testbeds of its test.
 */
public enum Outcome {
    PASS("pass"),
    SLOW_COMPILE("slow-compile"),
    WRONG_CODE("wrong-code"),
    COMPILER_CRASH("compiler-crash"),
    COMPILE_HANG("compile-hang"),
    PROGRAM_REJECTED("program-rejected"),
    RUNTIME_CRASH("runtime-crash"),
    RUNTIME_HANG("runtime-hang"),
    GENERATOR_FAILURE("generator-failure");

    public final String dir;

    Outcome(String dir) {
        this.dir = dir;
    }

    /** The outcome whose directory (and log) name is {@code dir}, or null. */
    public static Outcome fromDir(String dir) {
        for (Outcome o : values()) if (o.dir.equals(dir)) return o;
        return null;
    }
}
