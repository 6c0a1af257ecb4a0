package dev.yarpj.stats.ispc;

import java.util.List;

/**
 * The execution masks of the varying ifs of a set of ISPC tests, as their measurement
 * builds counted them: the varying ifs, those that ran with some lane on at least once, the
 * share of those that had a mixed mask (neither every active lane on nor every one off) at
 * least once, and the share of all their runs that were mixed; and, per varying if that
 * ran, how many of its runs were mixed, in four buckets: none, under half, half or more
 * (but not all), all.
 */
public final class MaskSummary {

    /** Share of one varying if's runs that were mixed. */
    public enum Bucket {
        NONE("never mixed", "never"), UNDER_HALF("mixed < 50%", "under_half"), HALF_OR_MORE("mixed >= 50%", "half_or_more"),
        ALWAYS("always mixed", "always");

        public final String label;
        public final String key;

        Bucket(String label, String key) {
            this.label = label;
            this.key = key;
        }

        /** The bucket of an if that ran; exact comparisons. */
        public static Bucket of(IfMask m) {
            if (m.runs() == 0) throw new IllegalArgumentException("the if never ran");
            if (m.mixed() == 0) return NONE;
            if (m.mixed() == m.runs()) return ALWAYS;
            return 2 * m.mixed() < m.runs() ? UNDER_HALF : HALF_OR_MORE;
        }
    }

    private final int tests;
    private final List<List<IfMask>> programs;
    private int testsWithRan;
    private int ifs;
    private int ran;
    private int mixedOnce;
    private long runs;
    private long mixedRuns;
    private final int[] buckets = new int[Bucket.values().length];

    /** @param programs per measured test, its varying ifs' counts */
    public MaskSummary(List<List<IfMask>> programs) {
        this.tests = programs.size();
        this.programs = programs;
        for (List<IfMask> p : programs) {
            boolean any = false;
            for (IfMask m : p) {
                ifs++;
                if (m.runs() == 0) continue;
                any = true;
                ran++;
                runs += m.runs();
                mixedRuns += m.mixed();
                if (m.mixed() > 0) mixedOnce++;
                buckets[Bucket.of(m).ordinal()]++;
            }
            if (any) testsWithRan++;
        }
    }

    /**
     * The same figures over the varying ifs that break or continue ({@link IfMask#exit}):
     * where their masks were mixed, some lanes left or skipped the rest of their loop's
     * iteration while others went on, which is how an exit shrinks a mask inside a loop.
     */
    public MaskSummary exits() {
        return new MaskSummary(programs.stream().map(p -> p.stream().filter(IfMask::exit).toList()).toList());
    }

    /** Tests measured. */
    public int tests() {
        return tests;
    }

    /** Tests with at least one varying if that ran. */
    public int testsWithRan() {
        return testsWithRan;
    }

    /** Static varying ifs of the tests. */
    public int ifs() {
        return ifs;
    }

    /** Varying ifs that ran with some lane on at least once. */
    public int ran() {
        return ran;
    }

    /** Varying ifs that had a mixed mask at least once. */
    public int mixedOnce() {
        return mixedOnce;
    }

    /** Share of the varying ifs that ran that had a mixed mask at least once; NaN if none ran. */
    public double mixedOnceShare() {
        return ran == 0 ? Double.NaN : (double) mixedOnce / ran;
    }

    /** Runs (with some lane on) of every varying if. */
    public long runs() {
        return runs;
    }

    /** Those of the runs with a mixed mask. */
    public long mixedRuns() {
        return mixedRuns;
    }

    /** Share of all runs that were mixed; NaN if none. */
    public double mixedRunShare() {
        return runs == 0 ? Double.NaN : (double) mixedRuns / runs;
    }

    /** Varying ifs that ran, in {@code b}. */
    public int count(Bucket b) {
        return buckets[b.ordinal()];
    }

    /** Share of the varying ifs that ran in {@code b}; NaN if none ran. */
    public double share(Bucket b) {
        return ran == 0 ? Double.NaN : (double) count(b) / ran;
    }
}
