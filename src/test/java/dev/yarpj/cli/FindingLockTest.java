package dev.yarpj.cli;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.harness.FindingLock;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A finding is reduced or triaged by one process at a time; the second is refused in one line the triage lane knows. */
class FindingLockTest {
    @Test
    void aSecondLockOnOneFindingIsRefusedUntilTheFirstIsReleased(@TempDir Path finding) throws Exception {
        FindingLock first = Main.lock(finding, FindingLock.REDUCE);
        Main.UsageError e = assertThrows(Main.UsageError.class, () -> Main.lock(finding, FindingLock.REDUCE));
        assertTrue(e.getMessage().startsWith(Main.BUSY), e.getMessage());
        assertTrue(FindingLock.held(finding, FindingLock.REDUCE));
        try (FindingLock other = Main.lock(finding, FindingLock.TRIAGE)) {
            // another kind of work on the same finding is not held up
        }
        first.close();
        assertTrue(!FindingLock.held(finding, FindingLock.REDUCE));
        Main.lock(finding, FindingLock.REDUCE).close();
    }
}
