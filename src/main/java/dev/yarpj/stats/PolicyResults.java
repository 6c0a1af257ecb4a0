package dev.yarpj.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Everything one policy gave over the seed range, in seed order; {@code R}: what the mode measures of a seed. */
record PolicyResults<R>(String policyName, List<SeedResult<R>> seeds) {

    /** What was measured of the seeds that were, in seed order. */
    List<R> measures() {
        List<R> l = new ArrayList<>();
        for (SeedResult<R> r : seeds) if (r instanceof SeedResult.Measured<R> m) l.add(m.measure());
        return l;
    }

    /** The seeds that were measured, in seed order. */
    List<SeedResult.Measured<R>> measured() {
        List<SeedResult.Measured<R>> l = new ArrayList<>();
        for (SeedResult<R> r : seeds) if (r instanceof SeedResult.Measured<R> m) l.add(m);
        return l;
    }

    /** The figures of the tests that were generated (measured or not), in seed order. */
    List<TestFigures> tests() {
        List<TestFigures> l = new ArrayList<>();
        for (SeedResult<R> r : seeds) if (r.test() != null) l.add(r.test());
        return l;
    }

    /** One figure of every generated test that has it, in seed order. */
    <T> List<T> tests(Function<TestFigures, T> figure) {
        List<T> l = new ArrayList<>();
        for (TestFigures t : tests()) {
            T v = figure.apply(t);
            if (v != null) l.add(v);
        }
        return l;
    }

    /** Every seed skipped for this reason, in seed order. */
    List<SeedResult.Skipped<R>> skipped(Skip why) {
        List<SeedResult.Skipped<R>> l = new ArrayList<>();
        for (SeedResult<R> r : seeds) if (r instanceof SeedResult.Skipped<R> s && s.why() == why) l.add(s);
        return l;
    }

    int skippedCount(Skip why) {
        return skipped(why).size();
    }
}
