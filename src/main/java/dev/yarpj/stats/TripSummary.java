package dev.yarpj.stats;

import dev.yarpj.interp.LoopTrips;
import dev.yarpj.ir.Idiom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How many iterations the static loops of a set of programs run per entry, as the
 * interpreter measured them ({@link LoopTrips}): per group of loops (every loop or the
 * innermost levels only, of every idiom or of one), the number of loops, the share in each
 * {@link Bucket}, and the median of iterations per entry over the loops that were entered.
 * Also, per program, the mean of log2(1 + iterations per entry) over its entered loops of a
 * group: the sample that {@link TripComparison} tests between policies.
 */
public final class TripSummary {

    /** Iterations per entry of one loop, {@code avg = iterations / entered}. */
    public enum Bucket {
        /** entered == 0 */
        NEVER("never", "never"),
        /** entered > 0 and iterations <= entered: avg <= 1 */
        AT_MOST_ONE("<=1", "at_most_1"),
        /** 1 < avg < 8 */
        FEW("2-7", "2_to_7"),
        /** 8 <= avg < 64 */
        SOME("8-63", "8_to_63"),
        /** avg >= 64 */
        MANY(">=64", "64_or_more");

        /** As in the table's header. */
        public final String label;
        /** As in JSON and CSV. */
        public final String key;

        Bucket(String label, String key) {
            this.label = label;
            this.key = key;
        }

        /** The bucket of one loop; exact (integer) comparisons, so that avg 8 is 8-63, never 2-7. */
        public static Bucket of(LoopTrips t) {
            long e = t.entered();
            long n = t.iterations();
            if (e == 0) return NEVER;
            if (n <= e) return AT_MOST_ONE;
            if (n < 8 * e) return FEW;
            if (n < 64 * e) return SOME;
            return MANY;
        }
    }

    /**
     * Which loops a row covers: every level or the innermost only; one idiom, or every idiom
     * when null; with {@code leavesEarlyOnly}, only loops that a break, a header exit or a
     * return may leave ({@link LoopTrips#exits}), whose iterations stop where the exit fires.
     */
    public record Group(boolean innermostOnly, Idiom idiom, boolean leavesEarlyOnly) {
        public Group(boolean innermostOnly, Idiom idiom) {
            this(innermostOnly, idiom, false);
        }

        public boolean contains(LoopTrips t) {
            return (!innermostOnly || t.innermost()) && (idiom == null || t.idiom() == idiom) && (!leavesEarlyOnly || t.exits());
        }

        /** "all", "innermost" or "exits" (the loops that leave early). */
        public String scope() {
            return leavesEarlyOnly ? "exits" : innermostOnly ? "innermost" : "all";
        }

        /** "all", or the idiom in lower case. */
        public String idiomName() {
            return idiom == null ? "all" : idiom.name().toLowerCase(Locale.ROOT);
        }
    }

    /** Every loop, then each idiom; then the same for innermost loops only; then the loops that leave early. */
    public static final List<Group> GROUPS = groups();

    private static List<Group> groups() {
        List<Group> g = new ArrayList<>();
        for (boolean innermost : new boolean[] {false, true}) {
            g.add(new Group(innermost, null));
            for (Idiom i : Idiom.values()) g.add(new Group(innermost, i));
        }
        g.add(new Group(false, null, true));
        return List.copyOf(g);
    }

    /**
     * One group's figures: {@code counts} per bucket, in {@link Bucket} order; {@code entered}
     * loops entered at least once; {@code median} of their iterations per entry (NaN if none).
     */
    public record Row(Group group, int loops, List<Integer> counts, int entered, double median) {
        public int count(Bucket b) {
            return counts.get(b.ordinal());
        }

        /** Share of the group's loops in {@code b}; NaN for an empty group. */
        public double share(Bucket b) {
            return loops == 0 ? Double.NaN : (double) count(b) / loops;
        }
    }

    /**
     * Where the exits of the loops that leave early ended their entries, over every entry of
     * those loops: in its first iteration, in the middle, in the last iteration its loop had
     * planned, or not at all (the loop ran its planned trips). The policy plans each exit at
     * one of these positions (exits: position_weights); this is what the interpreter saw.
     */
    public record ExitEnds(long entries, long first, long middle, long last, long notEnded) {
        /** Share of the entries; NaN when there are none. */
        public double share(long part) {
            return entries == 0 ? Double.NaN : (double) part / entries;
        }
    }

    private final int programs;
    private final ExitEnds exitEnds;
    private final List<Row> rows = new ArrayList<>();
    /** Per group (as {@link #GROUPS}), per program with an entered loop of the group: mean log2(1 + per entry). */
    private final List<double[]> meanLog2 = new ArrayList<>();

    /** @param programs each program's loops, as the interpreter listed them */
    public TripSummary(List<List<LoopTrips>> programs) {
        this.programs = programs.size();
        long entries = 0, broken = 0, first = 0, last = 0;
        for (List<LoopTrips> program : programs) {
            for (LoopTrips t : program) {
                if (!t.exits()) continue;
                entries += t.entered();
                broken += t.broken();
                first += t.brokenFirst();
                last += t.brokenLast();
            }
        }
        this.exitEnds = new ExitEnds(entries, first, broken - first - last, last, entries - broken);
        for (Group g : GROUPS) {
            int loops = 0;
            int[] counts = new int[Bucket.values().length];
            List<Double> perEntry = new ArrayList<>();
            double[] means = new double[programs.size()];
            int withEntered = 0;
            for (List<LoopTrips> program : programs) {
                double sum = 0;
                int entered = 0;
                for (LoopTrips t : program) {
                    if (!g.contains(t)) continue;
                    loops++;
                    counts[Bucket.of(t).ordinal()]++;
                    if (t.entered() == 0) continue;
                    double avg = t.perEntry();
                    perEntry.add(avg);
                    sum += log2OnePlus(avg);
                    entered++;
                }
                if (entered > 0) means[withEntered++] = sum / entered;
            }
            rows.add(new Row(g, loops, Arrays.stream(counts).boxed().toList(), perEntry.size(), median(perEntry)));
            meanLog2.add(Arrays.copyOf(means, withEntered));
        }
    }

    /** Number of programs summarised. */
    public int programs() {
        return programs;
    }

    /** Where the exits of the loops that leave early ended their entries. */
    public ExitEnds exitEnds() {
        return exitEnds;
    }

    /** One row per group, in {@link #GROUPS} order. */
    public List<Row> rows() {
        return rows;
    }

    public Row row(Group g) {
        return rows.get(index(g));
    }

    /**
     * For each program with at least one entered loop of {@code g}, the mean over those
     * loops of log2(1 + iterations per entry), in program order.
     */
    public double[] perProgramMeanLog2(Group g) {
        return meanLog2.get(index(g)).clone();
    }

    private static int index(Group g) {
        int i = GROUPS.indexOf(g);
        if (i < 0) throw new IllegalArgumentException("unknown group " + g);
        return i;
    }

    static double log2OnePlus(double x) {
        return Math.log1p(x) / Math.log(2);
    }

    /** The middle value, or the mean of the two middle ones; NaN for none. */
    static double median(List<Double> values) {
        if (values.isEmpty()) return Double.NaN;
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }
}
