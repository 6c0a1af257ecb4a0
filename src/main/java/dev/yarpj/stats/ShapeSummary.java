package dev.yarpj.stats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    /** Each measure's figures ({@link Distribution#figures}) by its key in JSON and CSV, in the order they are shown. */
    public Map<String, Map<String, Number>> figures() {
        Map<String, Map<String, Number>> m = new LinkedHashMap<>();
        m.put("deepest_loop_nesting", depth.figures());
        m.put("loops_per_program", loops.figures());
        m.put("stmts_per_loop_body", bodies.figures());
        return m;
    }
}
