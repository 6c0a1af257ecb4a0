package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What triage --bugs writes into bugs.md names a finding within its results directory, never a path of the machine. */
class OpenBugsTest {
    @Test
    void aFindingIsNamedByKindSignatureAndSeed() {
        assertEquals("wrong-code/0123abcd/744", OpenBugs.inResults(Path.of("/home/user/campaigns/sve/results/wrong-code/0123abcd/744")));
        assertEquals("compile-hang/c356fe791646/3106745059", OpenBugs.inResults(Path.of("results/compile-hang/c356fe791646/3106745059")));
    }
}
