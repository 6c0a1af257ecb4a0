package dev.yarpj.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SwarmTest {
    private static long enabled(Map<String, Integer> w) {
        return w.values().stream().filter(v -> v > 0).count();
    }

    @Test
    void theSameSeedSwitchesOffTheSameFeatures() {
        GenPolicy p = GenPolicy.defaults();
        assertEquals(p.swarm(42), p.swarm(42));
        Set<Map<String, Integer>> variants = new HashSet<>();
        for (long s = 0; s < 50; s++) variants.add(p.swarm(s).opWeights());
        assertTrue(variants.size() > 40, "different seeds give different subsets: " + variants.size());
    }

    @Test
    void everySwarmKeepsAssignmentsAnOperatorAndAType() {
        GenPolicy p = GenPolicy.defaults();
        long dropped = 0;
        for (long s = 0; s < 500; s++) {
            GenPolicy w = p.swarm(s);
            assertTrue(w.stmtWeights().get("assign") > 0);
            assertTrue(enabled(w.opWeights()) >= 1, "seed " + s);
            assertTrue(enabled(w.typeWeights()) >= 1, "seed " + s);
            dropped += enabled(p.opWeights()) - enabled(w.opWeights());
        }
        // About half of the operators go, on average.
        double mean = dropped / 500.0;
        assertTrue(mean > 9 && mean < 16, "mean operators dropped: " + mean);
        assertNotEquals(p.name(), p.swarm(1).name());
    }
}
