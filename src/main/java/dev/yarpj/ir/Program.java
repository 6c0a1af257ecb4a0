package dev.yarpj.ir;

import java.util.List;

/**
 * A whole test: the globals (inputs and outputs), the parameters of {@code test}, and its
 * body. {@code outputs} and {@code outputArrays} are listed in checksum order. Arrays are
 * storage: {@code inputArrays} and {@code outputArrays} hold every array the driver defines;
 * {@code arrayParams} lists, in parameter order after the scalar {@code params}, the arrays
 * {@code test} receives as pointers (its own storage, or a view into another array's).
 */
public record Program(List<ScalarVar> inputs, List<ScalarVar> outputs, List<ArrayVar> inputArrays,
                      List<ArrayVar> outputArrays, List<ScalarVar> params, List<ArrayVar> arrayParams,
                      Stmt.Block body, int scalarSlots, int arraySlots) {
    /** A program whose arrays are all globals. */
    public Program(List<ScalarVar> inputs, List<ScalarVar> outputs, List<ArrayVar> inputArrays,
                   List<ArrayVar> outputArrays, List<ScalarVar> params, Stmt.Block body,
                   int scalarSlots, int arraySlots) {
        this(inputs, outputs, inputArrays, outputArrays, params, List.of(), body, scalarSlots, arraySlots);
    }
}
