package dev.yarpj.stats.ispc;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.interp.LoopTrips;
import dev.yarpj.ir.LoopHead;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.LoweredTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the ISPC lowering made of one program, for the variety report of {@code yarpj stats
 * --lang=ispc}: its data-parallel loops (the static loops whose iterations may run as a gang,
 * {@link LoopTrips#parallel()}, with the interpreter's trip counts), the gang loops printed by
 * form ({@code foreach}, {@code foreach_tiled}, a {@code for} over {@code programIndex}), the
 * data-parallel loops printed as ordinary loops, the data-parallel loops without a planned
 * trip count (which the lowering never runs as a gang), the reductions of the IR ({@link
 * Stmt.Reduce}) and those printed as varying partial results, and the varying ifs, lane
 * queries (any/all/none) and select()s printed. The counts of printed things are the
 * lowerer's ({@link LoweredTest#choices()}).
 */
public record IspcLowering(List<LoopTrips> parallelLoops, int unplannedParallel, int foreach, int foreachTiled,
                           int programIndex, int serialParallel, int reductions, int partials, int varyingIfs,
                           int laneQueries, int selects) {

    /** The choice keys of the ISPC lowerer that this record reads. */
    static final List<String> CHOICES = List.of("gang.foreach", "gang.foreach_tiled", "gang.program_index",
            "serial_parallel_loops", "partials", "varying_ifs", "lane_queries", "selects");

    public IspcLowering {
        parallelLoops = List.copyOf(parallelLoops);
    }

    /** The figures of an ISPC test; null for a test of another language (its lowering made no such choices). */
    public static IspcLowering of(GeneratedTest t) {
        Map<String, Integer> c = t.files().choices();
        if (!c.keySet().containsAll(CHOICES)) return null;
        List<LoopTrips> parallel = new ArrayList<>();
        for (LoopTrips l : t.prediction().loops()) if (l.parallel()) parallel.add(l);
        Walker w = new Walker();
        w.block(t.program().body().stmts());
        return new IspcLowering(parallel, w.unplannedParallel, c.get("gang.foreach"), c.get("gang.foreach_tiled"),
                c.get("gang.program_index"), c.get("serial_parallel_loops"), w.reductions, c.get("partials"),
                c.get("varying_ifs"), c.get("lane_queries"), c.get("selects"));
    }

    /** Static data-parallel loops. */
    public int dataParallelLoops() {
        return parallelLoops.size();
    }

    /** Gang loops of every form. */
    public int gangLoops() {
        return foreach + foreachTiled + programIndex;
    }

    /** Counts the IR's Reduce statements and its data-parallel loop heads without a trip count, dead branches too. */
    private static final class Walker extends Stmt.Walker {
        int reductions;
        int unplannedParallel;

        void block(List<Stmt> stmts) {
            all(stmts);
        }

        @Override
        public Void reduce(Stmt.Reduce s) {
            reductions++;
            return null;
        }

        @Override
        public Void loopNest(Stmt.LoopNest n) {
            for (Stmt.LoopLevel lv : n.levels()) {
                LoopHead h = lv.head();
                if (h.parallel() && h.trip() < 0) unplannedParallel++;
            }
            return super.loopNest(n);
        }
    }
}
