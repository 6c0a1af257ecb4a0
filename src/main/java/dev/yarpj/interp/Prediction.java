package dev.yarpj.interp;

import java.util.List;

/**
 * The expected final state of a program: the value of each output scalar and the contents
 * of each output array (row-major), in checksum order, plus the checksum the driver prints;
 * also what the execution cost: {@code steps} (statements and iterations executed) and the
 * trip profile of every static loop ({@code loops}, in program pre-order: a loop before the
 * loops inside it, a nest's levels outermost first); and whether {@code test()} left early
 * ({@code returned}: a return fired), and how often each static {@code if} ran and held
 * ({@code branches}, in program pre-order). All of that is of the program's planned input
 * set; {@code otherSets} are the predictions of its other input sets, in order.
 */
public record Prediction(List<Long> scalars, List<long[]> arrays, long checksum, long steps, List<LoopTrips> loops, boolean returned,
                         List<BranchCount> branches, List<Prediction> otherSets) {
    public Prediction {
        branches = branches == null ? List.of() : List.copyOf(branches);
        otherSets = otherSets == null ? List.of() : List.copyOf(otherSets);
    }

    /** The prediction of a program with one input set. */
    public Prediction(List<Long> scalars, List<long[]> arrays, long checksum, long steps, List<LoopTrips> loops, boolean returned) {
        this(scalars, arrays, checksum, steps, loops, returned, List.of(), List.of());
    }

    /** This prediction (of the planned input set) with those of the program's other input sets, in order. */
    public Prediction withOtherSets(List<Prediction> others) {
        return new Prediction(scalars, arrays, checksum, steps, loops, returned, branches, others);
    }

    /** The prediction of input set {@code k} (0: the planned one, this). */
    public Prediction set(int k) {
        return k == 0 ? this : otherSets.get(k - 1);
    }

    /** How many input sets it predicts. */
    public int sets() {
        return 1 + otherSets.size();
    }

    /** The checksum of each input set, in order. */
    public List<Long> checksums() {
        List<Long> all = new java.util.ArrayList<>(List.of(checksum));
        for (Prediction p : otherSets) all.add(p.checksum);
        return all;
    }

    /**
     * The input sets (lines, from 0) at which a driver's output {@code got} differs from the
     * {@link #expectedOutput} {@code expected}, a missing or extra line included.
     */
    public static List<Integer> differingSets(String expected, String got) {
        String[] want = expected.strip().split("\n");
        String[] have = got.strip().split("\n");
        List<Integer> differ = new java.util.ArrayList<>();
        for (int k = 0; k < Math.max(want.length, have.length); k++) {
            if (k >= want.length || k >= have.length || !want[k].strip().equals(have[k].strip())) differ.add(k);
        }
        return differ;
    }

    /** What the driver prints in --check=hash: one unsigned checksum a line, per input set (no newline after the last). */
    public String expectedOutput() {
        return String.join("\n", checksums().stream().map(Long::toUnsignedString).toList());
    }
}
