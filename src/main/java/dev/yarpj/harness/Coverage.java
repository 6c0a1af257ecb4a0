package dev.yarpj.harness;

import dev.yarpj.interp.LoopTrips;
import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.Idiom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a test's loops did, as the interpreter saw it, in a few numbers for its done line in
 * the campaign log: how many static loops fell in each band of iterations per entry, and
 * how many loop nests there were of each idiom. {@code yarpj report} plots both.
 */
final class Coverage {
    /** Upper bounds (inclusive) of the trip-count bands, by their names; the last band is open. */
    static final List<String> BANDS = List.of("0", "1", "2-7", "8-63", "64-511", "512+");
    private static final long[] UPPER = {0, 1, 7, 63, 511};

    private Coverage() {}

    static Map<String, Object> of(Prediction p) {
        Map<String, Long> trips = new LinkedHashMap<>();
        Map<String, Long> idioms = new LinkedHashMap<>();
        for (String b : BANDS) trips.put(b, 0L);
        for (Idiom i : Idiom.values()) idioms.put(i.name().toLowerCase(), 0L);
        for (LoopTrips l : p.loops()) {
            double perEntry = l.entered() == 0 ? 0 : l.perEntry();
            trips.merge(BANDS.get(band(perEntry)), 1L, Long::sum);
            if (l.level() == 0) idioms.merge(l.idiom().name().toLowerCase(), 1L, Long::sum);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("trips", trips);
        m.put("idioms", idioms);
        return m;
    }

    private static int band(double perEntry) {
        for (int i = 0; i < UPPER.length; i++) if (Math.round(perEntry) <= UPPER[i]) return i;
        return UPPER.length;
    }
}
