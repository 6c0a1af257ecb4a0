package dev.yarpj.flesh;

import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.NumType;
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
    /** Input arrays only early exits read (see {@link #newSentinelArray}). */
    final List<ArrayVar> sentinelArrays = new ArrayList<>();
    /** Arrays passed to {@code test} as pointers, in parameter order: their own storage, or views. */
    final List<ArrayVar> arrayParams = new ArrayList<>();
    /**
     * Outputs other statements may store to: all but reduction accumulators, whose value
     * fleshing relies on between the reduction's iterations.
     */
    final List<ScalarVar> sharedOutputs = new ArrayList<>();
    final List<ArrayVar> sharedOutputArrays = new ArrayList<>();
    /**
     * Floating-point arrays and accumulators ({@link FloatStatements}), apart from the lists
     * above: no integer statement reads or stores them (a conversion to or from a floating
     * type must be exact, which only FloatStatements checks). The program lists them after
     * the integer ones (the floating data of carried scalars are with the sentinel arrays,
     * {@link #newFloatDataArray}).
     */
    final List<ArrayVar> floatInputArrays = new ArrayList<>();
    final List<ArrayVar> floatOutputArrays = new ArrayList<>();
    final List<ScalarVar> floatOutputs = new ArrayList<>();
    /** Pairs of views into one storage each (see {@link #newViews}). */
    final List<ArrayVar[]> viewPairs = new ArrayList<>();
    private final long maxArrayBytes;
    /** How a new array (not a view) is passed to {@code test}: decided by fleshing's policy. */
    private final Placement passing;

    /** Where a new array goes, given its dimensions, whether it is an input, its type and its contents. */
    interface Placement {
        ArrayVar.Passing apply(List<Integer> dims, boolean input, NumType elem, ArrayVar.Fill fill);
    }
    private long arrayBytes;
    private int scalarSlots;
    private int arraySlots;
    private int names;
    private int pathCounters;

    Globals(long maxArrayBytes, Placement passing) {
        this.maxArrayBytes = maxArrayBytes;
        this.passing = passing;
    }

    ScalarVar newInput(NumType t, long value, boolean param) {
        ScalarVar v = new ScalarVar(scalarSlots++, "var_" + names++, VarType.uniform(t), ScalarVar.Role.INPUT, value, param);
        inputs.add(v);
        if (param) params.add(v);
        return v;
    }

    ScalarVar newOutput(NumType t, long init) {
        ScalarVar v = newAccumulator(t, init);
        sharedOutputs.add(v);
        return v;
    }

    /** An output only its reduction writes. */
    ScalarVar newAccumulator(NumType t, long init) {
        return output(t, init, outputs);
    }

    /** A new output of type {@code t}, starting at {@code init}, listed in {@code list}. */
    private ScalarVar output(NumType t, long init, List<ScalarVar> list) {
        ScalarVar v = new ScalarVar(scalarSlots++, "res_" + names++, VarType.uniform(t), ScalarVar.Role.OUTPUT, init, false);
        list.add(v);
        return v;
    }

    /** A counter of the control-path oracle ({@link BranchTrace}), named apart from the rest. */
    ScalarVar newPathCounter() {
        ScalarVar v = new ScalarVar(scalarSlots++, "path_" + pathCounters++, VarType.uniform(NumType.UINT), ScalarVar.Role.OUTPUT, 0, false);
        outputs.add(v);
        return v;
    }

    /** A parameter of a helper function: a slot of its own, so a call binds it without touching the caller's. */
    ScalarVar newParameter(NumType t) {
        return new ScalarVar(scalarSlots++, "p_" + names++, VarType.uniform(t), ScalarVar.Role.PARAMETER, 0, false);
    }

    /** A parameter that takes an element by pointer: to it, or with {@code indexed} to its row, with an index. */
    ScalarVar newPointerParameter(NumType t, boolean indexed) {
        return new ScalarVar(scalarSlots++, "p_" + names++, VarType.uniform(t),
                indexed ? ScalarVar.Role.ARRAY_PARAMETER : ScalarVar.Role.POINTER_PARAMETER, 0, false);
    }

    /** The field {@code field} of a new local copy of an element of its array of structs ({@code t_3.arr_5}). */
    ScalarVar newCopyField(ArrayVar field) {
        return new ScalarVar(scalarSlots++, "t_" + names++ + "." + field.name(), VarType.uniform(field.base()), ScalarVar.Role.COPY_FIELD, 0, false);
    }

    /** The name of a new struct parameter of a helper. */
    String newStructName() {
        return "r_" + names++;
    }

    /** A field of struct parameter {@code struct}: named as the body reads it ({@code r_9.arr_5}, {@code r_9->arr_5}). */
    ScalarVar newFieldParameter(String struct, boolean byPointer, ArrayVar field) {
        return new ScalarVar(scalarSlots++, struct + (byPointer ? "->" : ".") + field.name(), VarType.uniform(field.base()),
                ScalarVar.Role.FIELD_PARAMETER, 0, false);
    }

    ScalarVar newLocal(NumType t) {
        return new ScalarVar(scalarSlots++, "tmp_" + names++, VarType.uniform(t), ScalarVar.Role.LOCAL, 0, false);
    }

    Iterator newIterator(NumType t) {
        return new Iterator(scalarSlots++, "i_" + names++, t);
    }

    /** A new array, or null when it would take the test past its array-bytes budget. */
    ArrayVar newArray(boolean input, NumType elem, List<Integer> dims, ArrayVar.Fill fill) {
        ArrayVar a = newPrivateArray(input, elem, dims, fill);
        if (a != null && !input) sharedOutputArrays.add(a);
        return a;
    }

    /** A new array no other statement stores to (for outputs: a reduction's accumulators), or null when over budget. */
    ArrayVar newPrivateArray(boolean input, NumType elem, List<Integer> dims, ArrayVar.Fill fill) {
        if (!reserve(elem, dims)) return null;
        ArrayVar a = array(input, elem, dims, fill, passing.apply(dims, input, elem, fill), inputArrays, outputArrays);
        if (a.isParam()) arrayParams.add(a);
        return a;
    }

    /** A new global floating-point array ({@link #floatInputArrays}), or null when over budget. */
    ArrayVar newFloatArray(boolean input, NumType elem, List<Integer> dims, ArrayVar.Fill fill) {
        if (!reserve(elem, dims)) return null;
        return array(input, elem, dims, fill, ArrayVar.Passing.GLOBAL, floatInputArrays, floatOutputArrays);
    }

    /** A new array passed as {@code how}, listed in {@code inputs} or {@code outputs}; its bytes already reserved. */
    private ArrayVar array(boolean input, NumType elem, List<Integer> dims, ArrayVar.Fill fill, ArrayVar.Passing how,
                           List<ArrayVar> inputs, List<ArrayVar> outputs) {
        ArrayVar a = new ArrayVar(arraySlots++, (input ? "arr_" : "out_") + names++, VarType.uniform(elem), List.copyOf(dims), input, fill, how);
        (input ? inputs : outputs).add(a);
        return a;
    }

    /** A new floating-point output only its reduction writes. */
    ScalarVar newFloatAccumulator(NumType t, long init) {
        return output(t, init, floatOutputs);
    }

    /**
     * A new input array that only an early exit reads (its values, with the planted
     * sentinel, are not the fill that expressions assume of the others), or null when over
     * budget. It is declared with the other input arrays but never picked for a read.
     */
    ArrayVar newSentinelArray(NumType elem, List<Integer> dims, ArrayVar.Fill fill) {
        if (!reserve(elem, dims)) return null;
        // Placed as an output is (never a bit-field): its planted sentinel is no value of the fill.
        ArrayVar a = new ArrayVar(arraySlots++, "arr_" + names++, VarType.uniform(elem), List.copyOf(dims), true, fill,
                passing.apply(dims, false, elem, fill));
        sentinelArrays.add(a);
        if (a.isParam()) arrayParams.add(a);
        return a;
    }

    /**
     * As {@link #newSentinelArray}, of a floating type: a global (never a parameter or a field
     * of structs, as no floating array is yet), read only by the loop carrying a scalar over it.
     */
    ArrayVar newFloatDataArray(NumType elem, List<Integer> dims, ArrayVar.Fill fill) {
        if (!reserve(elem, dims)) return null;
        return array(true, elem, dims, fill, ArrayVar.Passing.GLOBAL, sentinelArrays, floatOutputArrays);
    }

    /**
     * Two views of dimensions {@code dims} into one new output storage that is
     * {@code rowOffset} rows longer: the first view starts {@code rowOffset} rows in when
     * {@code firstAhead}, else the second does. Both are outputs other statements may store
     * to; the storage is what the test's checksum covers. Null when over budget.
     */
    ArrayVar[] newViews(NumType elem, List<Integer> dims, int rowOffset, boolean firstAhead, ArrayVar.Fill fill) {
        List<Integer> storageDims = new ArrayList<>(dims);
        storageDims.set(0, dims.get(0) + rowOffset);
        if (!reserve(elem, storageDims)) return null;
        ArrayVar storage = new ArrayVar(arraySlots++, "buf_" + names++, VarType.uniform(elem), List.copyOf(storageDims),
                false, fill, ArrayVar.Passing.GLOBAL);
        outputArrays.add(storage);
        ArrayVar[] views = new ArrayVar[2];
        for (int i = 0; i < 2; i++) {
            int offset = (i == 0) == firstAhead ? rowOffset : 0;
            views[i] = new ArrayVar(arraySlots++, "out_" + names++, VarType.uniform(elem), List.copyOf(dims), false, fill,
                    new ArrayVar.Passing.View(storage, offset));
            arrayParams.add(views[i]);
            sharedOutputArrays.add(views[i]);
        }
        viewPairs.add(views);
        return views;
    }

    /** Counts an array of these dimensions against the budget; false (nothing counted) when it would not fit. */
    private boolean reserve(NumType elem, List<Integer> dims) {
        long bytes = elem.bytes();
        for (int d : dims) bytes *= d;
        if (arrayBytes + bytes > maxArrayBytes) return false;
        arrayBytes += bytes;
        return true;
    }

    int scalarSlots() {
        return scalarSlots;
    }

    int arraySlots() {
        return arraySlots;
    }
}
