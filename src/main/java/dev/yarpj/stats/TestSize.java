package dev.yarpj.stats;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.skeleton.CompileCost;

/**
 * How big one generated test is: the lines of its {@code func} file and the measures its
 * compile-cost estimate is made of ({@link CompileCost}), for relating compile time to size.
 */
public record TestSize(int funcLines, CompileCost cost) {
    static TestSize of(GeneratedTest test) {
        String func = test.files().files().get(test.funcFile());
        int lines = func == null ? 0 : (int) func.lines().count();
        return new TestSize(lines, CompileCost.of(test.skeleton()));
    }
}
