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
        long loops = 0;
        long counts = 0;
        long more = 0;
        List<LoopTrips> planned = p.loops();
        for (int site = 0; site < planned.size(); site++) {
            LoopTrips t = planned.get(site);
            if (!t.innermost() || t.entered() == 0) continue;
            Set<String> seen = new HashSet<>();
            for (int k = 0; k < p.sets(); k++) {
                LoopTrips x = p.set(k).loops().get(site);
                if (x.entered() > 0) seen.add(perEntry(x));
            }
            loops++;
            counts += seen.size();
            if (seen.size() > 1) more++;
        }
        long conditions = 0;
        long outcomes = 0;
        long moreOutcomes = 0;
        List<BranchCount> ifs = p.branches();
        for (int site = 0; site < ifs.size(); site++) {
            if (!ifs.get(site).inLoop() || ifs.get(site).evaluated() == 0) continue;
            Set<String> seen = new HashSet<>();
            for (int k = 0; k < p.sets(); k++) {
                BranchCount b = p.set(k).branches().get(site);
                if (b.evaluated() > 0) seen.add(b.outcome());
            }
            conditions++;
            outcomes += seen.size();
            if (seen.size() > 1) moreOutcomes++;
        }
        return new InputSetTrips(1, p.sets() > 1 ? 1 : 0, loops, counts, more, conditions, outcomes, moreOutcomes);
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
