package dev.yarpj.stats;

import java.util.List;

/**
 * The {@link ProgramShape}s of a set of programs as distributions: deepest loop nesting,
 * loops per program, statements directly in each loop body.
 */
public final class ShapeSummary {
    private final int programs;
    private final Distribution depth = new Distribution();
    private final Distribution loops = new Distribution();
    private final Distribution bodies = new Distribution();

    public ShapeSummary(List<ProgramShape> shapes) {
        this.programs = shapes.size();
        for (ProgramShape s : shapes) {
            depth.add(s.maxLoopDepth());
            loops.add(s.loops());
            bodies.addAll(s.stmtsPerLoopBody());
        }
    }

    public int programs() {
        return programs;
    }

    /** Deepest loop nesting per program (across nests inside nests). */
    public Distribution depth() {
        return depth;
    }

    /** Static loops per program. */
    public Distribution loops() {
        return loops;
    }

    /** Statements directly in each loop's body, over every loop of every program. */
    public Distribution bodies() {
        return bodies;
    }
}
