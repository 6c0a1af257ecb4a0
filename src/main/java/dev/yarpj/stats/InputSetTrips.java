package dev.yarpj.stats;

import dev.yarpj.interp.BranchCount;
import dev.yarpj.interp.LoopTrips;
import dev.yarpj.interp.Prediction;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a test's input sets give its innermost loops, by the interpreter's trip counters: per
 * innermost loop entered in the planned set, how many distinct trip counts per entry it met
 * over all of the test's sets (iterations over entries, exactly). One input set gives each
 * loop one; the sets beyond it give a loop whose bound is an input more, which is what one
 * compile of it then checks. And per {@code if} inside a loop run in the planned set, how
 * many of the outcomes "never held", "always held" and "held on some runs" it met over the
 * sets (by the interpreter's branch counters): what the masks of one compile of it met.
 *
 * @param tests          the tests measured
 * @param severalSets    those with more than one input set
 * @param loops          innermost loops entered in the planned set
 * @param tripCounts     the distinct trip counts per entry they met, summed over those loops
 * @param loopsWithMore  those loops that met more than one
 * @param conditions     ifs inside loops run in the planned set
 * @param outcomes       the distinct outcomes they met, summed over those ifs
 * @param conditionsWithMore those ifs that met more than one
 */
public record InputSetTrips(int tests, int severalSets, long loops, long tripCounts, long loopsWithMore, long conditions, long outcomes,
                            long conditionsWithMore) {

    /** The figures of one test. */
    static InputSetTrips of(Prediction p) {
        List<LoopTrips> loops = p.loops();
        long[] trips = distinctPerSite(p, loops.size(), site -> loops.get(site).innermost() && loops.get(site).entered() > 0, (k, site) -> {
            LoopTrips x = p.set(k).loops().get(site);
            return x.entered() > 0 ? perEntry(x) : null;
        });
        List<BranchCount> ifs = p.branches();
        long[] outcomes = distinctPerSite(p, ifs.size(), site -> ifs.get(site).inLoop() && ifs.get(site).evaluated() > 0, (k, site) -> {
            BranchCount b = p.set(k).branches().get(site);
            return b.evaluated() > 0 ? b.outcome() : null;
        });
        return new InputSetTrips(1, p.sets() > 1 ? 1 : 0, trips[0], trips[1], trips[2], outcomes[0], outcomes[1], outcomes[2]);
    }

    /**
     * Over the {@code sites} that {@code counted} accepts: how many there are, the distinct
     * values {@code at(set, site)} they met over {@code p}'s input sets (null: not run in that
     * set), summed, and how many met more than one.
     */
    private static long[] distinctPerSite(Prediction p, int sites, java.util.function.IntPredicate counted,
            java.util.function.BiFunction<Integer, Integer, String> at) {
        long[] out = new long[3];
        for (int site = 0; site < sites; site++) {
            if (!counted.test(site)) continue;
            Set<String> seen = new HashSet<>();
            for (int k = 0; k < p.sets(); k++) {
                String v = at.apply(k, site);
                if (v != null) seen.add(v);
            }
            out[0]++;
            out[1] += seen.size();
            if (seen.size() > 1) out[2]++;
        }
        return out;
    }

    /** Iterations per entry as an exact fraction in lowest terms. */
    private static String perEntry(LoopTrips t) {
        long g = java.math.BigInteger.valueOf(t.iterations()).gcd(java.math.BigInteger.valueOf(t.entered())).longValue();
        return g == 0 ? "0" : t.iterations() / g + "/" + t.entered() / g;
    }

    static InputSetTrips sum(List<InputSetTrips> all) {
        InputSetTrips s = new InputSetTrips(0, 0, 0, 0, 0, 0, 0, 0);
        for (InputSetTrips t : all) {
            s = new InputSetTrips(s.tests + t.tests, s.severalSets + t.severalSets, s.loops + t.loops, s.tripCounts + t.tripCounts,
                    s.loopsWithMore + t.loopsWithMore, s.conditions + t.conditions, s.outcomes + t.outcomes,
                    s.conditionsWithMore + t.conditionsWithMore);
        }
        return s;
    }

    /** Distinct trip counts per innermost loop, on average. */
    public double meanTripCounts() {
        return loops == 0 ? 0 : tripCounts / (double) loops;
    }

    /** Distinct outcomes per condition in a loop, on average. */
    public double meanOutcomes() {
        return conditions == 0 ? 0 : outcomes / (double) conditions;
    }

    /** One line for the table. */
    String line() {
        return String.format(java.util.Locale.ROOT, "input sets: %d of %d tests have several; their %d innermost loops met %.2f distinct trip "
                + "counts per entry each on average, %d of them more than one; their %d conditions in loops met %.2f of the outcomes "
                + "never, always and some each on average, %d of them more than one", severalSets, tests, loops, meanTripCounts(), loopsWithMore,
                conditions, meanOutcomes(), conditionsWithMore);
    }
}
