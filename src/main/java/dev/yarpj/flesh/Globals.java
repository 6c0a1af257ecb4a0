package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.IntType;
import dev.yarpj.ir.Iterator;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.VarType;
import java.util.ArrayList;
import java.util.List;

/**
 * The global symbol table of a test (inputs, outputs, arrays) and the allocator of names
 * and interpreter slots for every data item, locals and iterators included. It also keeps
 * the test within its array-bytes budget.
 */
final class Globals {
    final List<ScalarVar> inputs = new ArrayList<>();
    final List<ScalarVar> outputs = new ArrayList<>();
    final List<ScalarVar> params = new ArrayList<>();
    final List<ArrayVar> inputArrays = new ArrayList<>();
    final List<ArrayVar> outputArrays = new ArrayList<>();
    /**
     * Outputs other statements may store to: all but reduction accumulators, whose value
     * fleshing relies on between the reduction's iterations.
     */
    final List<ScalarVar> sharedOutputs = new ArrayList<>();
    final List<ArrayVar> sharedOutputArrays = new ArrayList<>();
    private final long maxArrayBytes;
    private long arrayBytes;
    private int scalarSlots;
    private int arraySlots;
    private int names;

    Globals(long maxArrayBytes) {
        this.maxArrayBytes = maxArrayBytes;
    }

    ScalarVar newInput(IntType t, long value, boolean param) {
        ScalarVar v = new ScalarVar(scalarSlots++, "var_" + names++, VarType.uniform(t), ScalarVar.Role.INPUT, value, param);
        inputs.add(v);
        if (param) params.add(v);
        return v;
    }

    ScalarVar newOutput(IntType t, long init) {
        ScalarVar v = newAccumulator(t, init);
        sharedOutputs.add(v);
        return v;
    }

    /** An output only its reduction writes. */
    ScalarVar newAccumulator(IntType t, long init) {
        ScalarVar v = new ScalarVar(scalarSlots++, "res_" + names++, VarType.uniform(t), ScalarVar.Role.OUTPUT, init, false);
        outputs.add(v);
        return v;
    }

    ScalarVar newLocal(IntType t) {
        return new ScalarVar(scalarSlots++, "tmp_" + names++, VarType.uniform(t), ScalarVar.Role.LOCAL, 0, false);
    }

    Iterator newIterator(IntType t) {
        return new Iterator(scalarSlots++, "i_" + names++, t);
    }

    /** A new array, or null when it would take the test past its array-bytes budget. */
    ArrayVar newArray(boolean input, IntType elem, List<Integer> dims, ArrayVar.Fill fill) {
        ArrayVar a = newPrivateArray(input, elem, dims, fill);
        if (a != null && !input) sharedOutputArrays.add(a);
        return a;
    }

    /** A new array no other statement stores to (for outputs: a reduction's accumulators), or null when over budget. */
    ArrayVar newPrivateArray(boolean input, IntType elem, List<Integer> dims, ArrayVar.Fill fill) {
        long bytes = elem.bytes();
        for (int d : dims) bytes *= d;
        if (arrayBytes + bytes > maxArrayBytes) return null;
        arrayBytes += bytes;
        ArrayVar a = new ArrayVar(arraySlots++, (input ? "arr_" : "out_") + names++, VarType.uniform(elem),
                List.copyOf(dims), input, fill);
        (input ? inputArrays : outputArrays).add(a);
        return a;
    }

    int scalarSlots() {
        return scalarSlots;
    }

    int arraySlots() {
        return arraySlots;
    }
}
