package dev.yarpj.cli;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A finding is reduced or triaged by one process at a time; the second is refused in one line the triage lane knows. */
class FindingLockTest {
    @Test
    void aSecondLockOnOneFindingIsRefusedUntilTheFirstIsReleased(@TempDir Path finding) throws Exception {
        FindingLock first = FindingLock.take(finding, ".reduce.lock");
        Main.UsageError e = assertThrows(Main.UsageError.class, () -> FindingLock.take(finding, ".reduce.lock"));
        assertTrue(e.getMessage().startsWith(FindingLock.BUSY), e.getMessage());
        try (FindingLock other = FindingLock.take(finding, ".triage.lock")) {
            // another kind of work on the same finding is not held up
        }
        first.close();
        FindingLock.take(finding, ".reduce.lock").close();
    }
}
