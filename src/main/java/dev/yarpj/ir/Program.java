package dev.yarpj.ir;

import java.util.List;

/**
 * A whole test: the globals (inputs and outputs), the parameters of {@code test}, and its
 * body. {@code outputs} and {@code outputArrays} are listed in checksum order. Arrays are
 * storage: {@code inputArrays} and {@code outputArrays} hold every array the driver defines;
 * {@code arrayParams} lists, in parameter order after the scalar {@code params}, the arrays
 * {@code test} receives as pointers (its own storage, or a view into another array's).
 * {@code helpers} are the functions {@code test} calls, callees before their callers.
 * {@code inputSets} are the values the driver gives the inputs before each call of
 * {@code test}, one call per set, {@link InputSet#PLANNED} first (a program written before
 * input sets has that one alone).
 */
public record Program(List<ScalarVar> inputs, List<ScalarVar> outputs, List<ArrayVar> inputArrays,
                      List<ArrayVar> outputArrays, List<ScalarVar> params, List<ArrayVar> arrayParams,
                      Stmt.Block body, int scalarSlots, int arraySlots, List<Helper> helpers, List<InputSet> inputSets) {
    public Program {
        helpers = List.copyOf(helpers);
        inputSets = inputSets == null || inputSets.isEmpty() ? List.of(InputSet.PLANNED) : List.copyOf(inputSets);
        if (!inputSets.get(0).equals(InputSet.PLANNED)) throw new IllegalArgumentException("the first input set must be the planned one");
    }

    /** A program with one input set, the planned one. */
    public Program(List<ScalarVar> inputs, List<ScalarVar> outputs, List<ArrayVar> inputArrays,
                   List<ArrayVar> outputArrays, List<ScalarVar> params, List<ArrayVar> arrayParams,
                   Stmt.Block body, int scalarSlots, int arraySlots, List<Helper> helpers) {
        this(inputs, outputs, inputArrays, outputArrays, params, arrayParams, body, scalarSlots, arraySlots, helpers, null);
    }

    /** The same program with input sets {@code sets} (the planned one first). */
    public Program withInputSets(List<InputSet> sets) {
        return new Program(inputs, outputs, inputArrays, outputArrays, params, arrayParams, body, scalarSlots, arraySlots, helpers, sets);
    }

    /** A program that calls no helper. */
    public Program(List<ScalarVar> inputs, List<ScalarVar> outputs, List<ArrayVar> inputArrays,
                   List<ArrayVar> outputArrays, List<ScalarVar> params, List<ArrayVar> arrayParams,
                   Stmt.Block body, int scalarSlots, int arraySlots) {
        this(inputs, outputs, inputArrays, outputArrays, params, arrayParams, body, scalarSlots, arraySlots, List.of());
    }

    /** The same program with another body (and the slots it needs), calling the same helpers. */
    public Program withBody(Stmt.Block body, int scalarSlots, int arraySlots) {
        return new Program(inputs, outputs, inputArrays, outputArrays, params, arrayParams, body, scalarSlots, arraySlots, helpers, inputSets);
    }

    /** The arrays of structs whose fields are among its arrays (see {@link ArrayVar.Passing.Field}). */
    public List<StructArray> structArrays() {
        List<ArrayVar> all = new java.util.ArrayList<>(inputArrays);
        all.addAll(outputArrays);
        return StructArray.of(all);
    }

    /** A program whose arrays are all globals. */
    public Program(List<ScalarVar> inputs, List<ScalarVar> outputs, List<ArrayVar> inputArrays,
                   List<ArrayVar> outputArrays, List<ScalarVar> params, Stmt.Block body,
                   int scalarSlots, int arraySlots) {
        this(inputs, outputs, inputArrays, outputArrays, params, List.of(), body, scalarSlots, arraySlots);
    }
}
