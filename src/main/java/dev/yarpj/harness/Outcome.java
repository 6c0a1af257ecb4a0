package dev.yarpj.harness;

/**
 * What one test did on one testbed, after DeepSmith's taxonomy. Each kind but PASS is a
 * finding, saved under {@code results/<dir>/}.
 */
public enum Outcome {
    PASS("pass"),
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
}
