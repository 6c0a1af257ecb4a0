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
 * @param parallelLoops  data-parallel loops (those ISPC may run as a gang, SYCL as a kernel's
 *                       range) entered in the planned set
 * @param partialPlanned per gang width of {@link #GANG_WIDTHS}, those of them whose iterations in
 *                       the planned set are not a multiple of it: a gang that wide ran a partial
 *                       step (a lower bound: entries whose remainders add up to whole gangs are missed)
 * @param partialAny     the same over every input set: some set ran a partial step
 * @param partialAndWhole those where one set ran a partial step and another only whole gang
 *                       steps (iterations a multiple of the width, not 0): one build met both
 * @param movedLoops     the innermost loops (of {@code loops}) whose iterations per entry (rounded
 *                       down) differ between sets
 * @param longPlanned    per vectorization factor of {@link #FACTORS}, those of them that ran at
 *                       least 2VF+1 iterations per entry in the planned set: a vector loop that
 *                       wide ran twice and left an epilogue
 * @param longAny        the same in some set
 * @param shortAndLong   those that ran fewer than VF in one set and at least 2VF+1 in another:
 *                       one build met its short path and its main vector loop with its epilogue
 */
public record InputSetTrips(int tests, int severalSets, long loops, long tripCounts, long loopsWithMore, long conditions, long outcomes,
                            long conditionsWithMore, long parallelLoops, List<Long> partialPlanned, List<Long> partialAny,
                            List<Long> partialAndWhole, long movedLoops, List<Long> longPlanned, List<Long> longAny, List<Long> shortAndLong) {
    /** The gang widths of ISPC's targets (4, 8 and 16 lanes) that partial steps are counted at. */
    public static final List<Integer> GANG_WIDTHS = List.of(4, 8, 16);

    /** The vectorization factors whose trip counts innermost loops are counted at (elements of 4 to 1 bytes in AVX-512, up to 64). */
    public static final List<Integer> FACTORS = List.of(8, 16, 32, 64);

    public InputSetTrips {
        partialPlanned = List.copyOf(partialPlanned);
        partialAny = List.copyOf(partialAny);
        partialAndWhole = List.copyOf(partialAndWhole);
        longPlanned = List.copyOf(longPlanned);
        longAny = List.copyOf(longAny);
        shortAndLong = List.copyOf(shortAndLong);
    }

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
        Long[] longPlanned = zeros(FACTORS.size());
        Long[] longAny = zeros(FACTORS.size());
        Long[] shortAndLong = zeros(FACTORS.size());
        long moved = 0;
        for (int site = 0; site < loops.size(); site++) {
            if (!loops.get(site).innermost() || loops.get(site).entered() == 0) continue;
            // Iterations per entry (rounded down) in each set that entered the loop; the planned set always did.
            List<Long> perEntry = new java.util.ArrayList<>();
            for (int k = 0; k < p.sets(); k++) {
                LoopTrips x = p.set(k).loops().get(site);
                if (x.entered() > 0) perEntry.add(x.iterations() / x.entered());
            }
            if (new HashSet<>(perEntry).size() < 2) continue;
            moved++;
            for (int v = 0; v < FACTORS.size(); v++) {
                long vf = FACTORS.get(v);
                if (perEntry.get(0) >= 2 * vf + 1) longPlanned[v]++;
                boolean longer = perEntry.stream().anyMatch(n -> n >= 2 * vf + 1);
                if (longer) longAny[v]++;
                if (longer && perEntry.stream().anyMatch(n -> n < vf)) shortAndLong[v]++;
            }
        }
        long parallel = 0;
        Long[] planned = zeros();
        Long[] any = zeros();
        Long[] both = zeros();
        for (int site = 0; site < loops.size(); site++) {
            if (!loops.get(site).parallel() || loops.get(site).entered() == 0) continue;
            parallel++;
            for (int w = 0; w < GANG_WIDTHS.size(); w++) {
                int width = GANG_WIDTHS.get(w);
                if (loops.get(site).iterations() % width != 0) planned[w]++;
                boolean partial = false;
                boolean whole = false;
                for (int k = 0; k < p.sets(); k++) {
                    long n = p.set(k).loops().get(site).iterations();
                    partial |= n % width != 0;
                    whole |= n > 0 && n % width == 0;
                }
                if (partial) any[w]++;
                if (partial && whole) both[w]++;
            }
        }
        return new InputSetTrips(1, p.sets() > 1 ? 1 : 0, trips[0], trips[1], trips[2], outcomes[0], outcomes[1], outcomes[2],
                parallel, List.of(planned), List.of(any), List.of(both), moved, List.of(longPlanned), List.of(longAny), List.of(shortAndLong));
    }

    private static Long[] zeros() {
        return zeros(GANG_WIDTHS.size());
    }

    private static Long[] zeros(int n) {
        Long[] z = new Long[n];
        java.util.Arrays.fill(z, 0L);
        return z;
    }

    private static List<Long> add(List<Long> a, List<Long> b) {
        List<Long> out = new java.util.ArrayList<>();
        for (int i = 0; i < a.size(); i++) out.add(a.get(i) + b.get(i));
        return out;
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
        List<Long> none = List.of(zeros(FACTORS.size()));
        InputSetTrips s = new InputSetTrips(0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(zeros()), List.of(zeros()), List.of(zeros()), 0, none, none, none);
        for (InputSetTrips t : all) {
            s = new InputSetTrips(s.tests + t.tests, s.severalSets + t.severalSets, s.loops + t.loops, s.tripCounts + t.tripCounts,
                    s.loopsWithMore + t.loopsWithMore, s.conditions + t.conditions, s.outcomes + t.outcomes,
                    s.conditionsWithMore + t.conditionsWithMore, s.parallelLoops + t.parallelLoops,
                    add(s.partialPlanned, t.partialPlanned), add(s.partialAny, t.partialAny), add(s.partialAndWhole, t.partialAndWhole),
                    s.movedLoops + t.movedLoops, add(s.longPlanned, t.longPlanned), add(s.longAny, t.longAny), add(s.shortAndLong, t.shortAndLong));
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

    /** One line for the table: the vector boundaries the innermost loops met. */
    String vectorLine() {
        StringBuilder b = new StringBuilder();
        for (int v = 0; v < FACTORS.size(); v++) {
            if (v > 0) b.append(", ");
            int vf = FACTORS.get(v);
            b.append("VF ").append(vf).append(": ").append(longPlanned.get(v)).append(" in the planned set, ").append(longAny.get(v))
                    .append(" in some set, ").append(shortAndLong.get(v)).append(" also below ").append(vf).append(" in another");
        }
        return "input sets: of " + movedLoops + " innermost loops whose trip count per entry moved, those that ran 2VF+1 iterations or more"
                + " per entry (a vector loop twice and an epilogue): " + b;
    }

    /** One line for the table: the partial gang steps of the data-parallel loops. */
    String gangLine() {
        StringBuilder b = new StringBuilder();
        for (int w = 0; w < GANG_WIDTHS.size(); w++) {
            if (w > 0) b.append(", ");
            b.append(GANG_WIDTHS.get(w)).append(" lanes ").append(partialPlanned.get(w)).append(" in the planned set, ")
                    .append(partialAny.get(w)).append(" in some set, ").append(partialAndWhole.get(w)).append(" met both kinds (a partial step in one set, whole steps only in another)");
        }
        return "input sets: of " + parallelLoops + " data-parallel loops, those with a partial gang step (iterations not a multiple of the"
                + " width): " + b;
    }
}
