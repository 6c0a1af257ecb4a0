package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The cross targets that scripts/install-compilers.sh installs when YARPJ_COMPILERS_TARGETS
 * names them (POWER, IBM Z, LoongArch): one generated C program through the target's
 * configuration space (harness/testbeds-TARGET-space.yaml), built by the newest cross gcc
 * and by clang on its four testbeds and run under the target's qemu at the drawn processor,
 * prints the prediction on each, and every option of the space is one both compilers take.
 * A target whose compilers are not installed in .tools/compilers is skipped, with the reason.
 */
class OtherCrossTargetsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"powerpc64le, powerpc64le-linux-gnu, qemu-ppc64le", "s390x, s390x-linux-gnu, qemu-s390x",
            "loongarch64, loongarch64-linux-gnu, qemu-loongarch64"})
    void aProgramThroughTheTargetsSpacePrintsThePredictionUnderQemu(String target, String triple, String qemu) throws Exception {
        Path bin = NewestCompilersTest.TOOLS.resolve("bin");
        Path list = NewestCompilersTest.TOOLS.resolve("installed");
        List<String> wrappers = Files.exists(list) ? Files.readAllLines(list) : List.of();
        boolean there = wrappers.contains(qemu) && Files.isExecutable(bin.resolve(triple + "-gcc-newest"))
                && Files.isExecutable(bin.resolve("clang-newest"));
        if (!there) System.err.println("OtherCrossTargetsTest " + target + " skipped: " + qemu + " and " + triple + "-gcc-newest are not installed"
                + " (YARPJ_COMPILERS_TARGETS=" + target + " scripts/install-compilers.sh installs them)");
        Assumptions.assumeTrue(there, target + " is not installed (YARPJ_COMPILERS_TARGETS=" + target + " scripts/install-compilers.sh)");
        Path out = dir.resolve(target);
        FuzzHarnessTest.Result r = FuzzHarnessTest.fuzz("--policy", FuzzHarnessTest.SMALL, "--lang=c", "--seeds", "1..1", "-j", "1",
                "--testbeds", "harness/testbeds-" + target + "-space.yaml", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains("dropped") || r.err().contains("skipped"), r.err());
        assertTrue(r.out().contains("testbed runs: {pass=4}"), r.out() + r.err());
        assertTrue(r.out().contains("target " + target + " (under " + qemu + " -cpu "), r.out());
    }
}
