package dev.yarpj.ir;

import java.util.List;

/**
 * A whole test: the globals (inputs and outputs), the parameters of {@code test}, and its
 * body. {@code outputs} and {@code outputArrays} are listed in checksum order.
 */
public record Program(List<ScalarVar> inputs, List<ScalarVar> outputs, List<ArrayVar> inputArrays,
                      List<ArrayVar> outputArrays, List<ScalarVar> params, Stmt.Block body,
                      int scalarSlots, int arraySlots) {
}
