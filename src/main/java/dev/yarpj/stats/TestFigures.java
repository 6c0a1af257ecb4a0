package dev.yarpj.stats;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.interp.LoopTrips;
import dev.yarpj.stats.ispc.IspcLowering;
import java.util.List;
import java.util.Map;

/**
 * What every mode measures of a generated test, compiled or not: its shape, the loop trip
 * counts of the interpreter's run, what the ISPC lowering made of it ({@code ispc}, null for
 * another language), the lowerer's choice counts, its size and the trip counts its input sets
 * gave its innermost loops.
 */
record TestFigures(ProgramShape shape, List<LoopTrips> loops, IspcLowering ispc, Map<String, Integer> choices, TestSize size,
                   InputSetTrips inputSets) {
    static TestFigures of(GeneratedTest test) {
        return new TestFigures(ProgramShape.of(test.program()), test.prediction().loops(), IspcLowering.of(test),
                test.files().choices(), TestSize.of(test), InputSetTrips.of(test.prediction()));
    }
}
