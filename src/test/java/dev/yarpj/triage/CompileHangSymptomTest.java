package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import dev.yarpj.harness.Finding;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Triage tells a compile-time finding by the compile's CPU time, as the campaign found it: a
 * compile that spins past the limit shows the hang, one that only waits as long (what a busy
 * machine does to a fast compile) does not, and a quick one fixes it.
 */
class CompileHangSymptomTest {
    @TempDir
    Path dir;

    private Path fake(String name, String body) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, "#!/usr/bin/env bash\n" + body + "\n");
        f.toFile().setExecutable(true);
        return f;
    }

    @Test
    void aCompileIsTheHangByItsCpuTimeNotByHowLongItWaited() throws Exception {
        Files.writeString(dir.resolve("t.c"), "int main(void) { return 0; }\n");
        Symptom hang = new Symptom(Symptom.Kind.COMPILE_HANG, dir, "t.c", "gcc", null, 2, List.of());
        Path spins = fake("spins.sh", "perl -e '1 while 1'");
        // Waits past the 2 CPU-s limit, and 3.5 s short of the wall-clock allowance of three times it: room for
        // gcc on a machine kept busy by eight processes (with a 1 s limit and 1 s of room, it once timed out there).
        Path waits = fake("waits.sh", "sleep 2.5; exec gcc \"$@\"");
        assertTrue(hang.shows(List.of(spins.toString(), "-O2")), "a compile that spins past its CPU limit is the hang");
        assertFalse(hang.shows(List.of(waits.toString(), "-O2")), "a compile that waited, using no CPU, is not");
        assertTrue(hang.fixes(List.of(waits.toString(), "-O2")), "and it builds the test");
        assertFalse(hang.shows(List.of("gcc", "-O2")));
    }

    /**
     * Once the buggy build has shown a wrong code, a build that crawls (some mixes of disabled
     * passes make gcc take minutes over a test it compiles in a second) is cut at a few times
     * that build's CPU, not at four times the compile limit, and is neither the bug nor the fix;
     * a quick build still gets the test right.
     */
    @Test
    void aBuildThatCrawlsAfterTheSymptomShowedIsCutAtAFewTimesItsCpu() throws Exception {
        Files.writeString(dir.resolve("t.c"), "#include <stdio.h>\nint main(void) {\n#ifdef BUG\n puts(\"1\");\n#else\n puts(\"0\");\n#endif\n return 0; }\n");
        Path cc = fake("cc.sh", "for a; do [ \"$a\" = -DSLOW ] && exec perl -e '1 while 1'; done; exec gcc \"$@\"");
        // A limit of 3 CPU-s: 12 for a build before the symptom showed; after, a third of it (1 s) or 8 times the buggy build.
        Symptom s = new Symptom(Symptom.Kind.WRONG_CODE, dir, "t.c", "gcc", null, 3, List.of());
        assertTrue(s.shows(List.of(cc.toString(), "-O1", "-DBUG")));
        s.boundBuildsByLastOne();
        assertTrue(s.buildCpuBound() >= 1 && s.buildCpuBound() < 3, "bound " + s.buildCpuBound() + " CPU-s: a third of the limit, or 8 times the buggy build");
        double before = dev.yarpj.harness.ProcessRunner.procCpu("self")[1];
        org.junit.jupiter.api.Assertions.assertEquals(Symptom.Effect.OTHER, s.effect(List.of(cc.toString(), "-O1", "-DBUG", "-DSLOW")));
        double spent = dev.yarpj.harness.ProcessRunner.procCpu("self")[1] - before;
        assertTrue(spent < 4, "the crawling build took " + spent + " CPU-s, past its bound (12 before the symptom showed)");
        org.junit.jupiter.api.Assertions.assertEquals(Symptom.Effect.FIXES, s.effect(List.of(cc.toString(), "-O1")));
    }

    /**
     * A compile-time outlier finished (10.6 s where the other testbeds took 0.4 s): under the
     * default limit it would never show, so a try may take half its time. A hang that never
     * finished, an outlier slower than the limit, or no outlier at all keep the limit.
     */
    @Test
    void aCompileTimeOutlierIsTriagedWithinHalfItsOwnTime() {
        org.junit.jupiter.api.Assertions.assertEquals(5.3, Triage.compileLimit(finding(java.util.Map.of("clang-23-space-2", "10.6 s")), 30), 1e-9);
        org.junit.jupiter.api.Assertions.assertEquals(1.0, Triage.compileLimit(finding(java.util.Map.of("a", "1.2 s", "b", "0.9 s")), 30), 1e-9);
        org.junit.jupiter.api.Assertions.assertEquals(30, Triage.compileLimit(finding(java.util.Map.of("a", "> 60 s")), 30), 1e-9);
        org.junit.jupiter.api.Assertions.assertEquals(30, Triage.compileLimit(finding(java.util.Map.of("a", "45.0 s")), 30), 1e-9);
        org.junit.jupiter.api.Assertions.assertEquals(30, Triage.compileLimit(finding(null), 30), 1e-9);
    }

    private Finding finding(java.util.Map<String, Object> outliers) {
        java.util.Map<String, Object> meta = new java.util.HashMap<>();
        if (outliers != null) meta.put("outliers", outliers);
        return new Finding(dir, dev.yarpj.harness.Outcome.COMPILE_HANG, "sig", 1, "c", "t", List.of("t"), "gcc", null, List.of(), List.of(), meta);
    }
}
