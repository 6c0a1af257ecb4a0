package dev.yarpj.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One process at a time reduces or triages a finding: the command holds a lock file in the
 * finding's directory while it works. A campaign killed with {@code kill -9} leaves its triage
 * lane's child running; the lane of the resumed campaign must not start the same work beside it.
 */
final class FindingLock implements AutoCloseable {
    /** What the command says when another process holds the lock: the triage lane waits on it, then tries again. */
    static final String BUSY = "another yarpj process is working on this finding";

    private final FileChannel channel;
    private final FileLock lock;

    private FindingLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock {@code name} of {@code finding}, or a one-line usage error when another process holds it. */
    static FindingLock take(Path finding, String name) {
        try {
            FileChannel c = FileChannel.open(finding.resolve(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = c.tryLock();
            } catch (OverlappingFileLockException e) {
                l = null;
            }
            if (l == null) {
                c.close();
                throw new Main.UsageError(BUSY + " (" + name + "): " + finding);
            }
            return new FindingLock(c, l);
        } catch (IOException e) {
            throw new Main.UsageError("cannot lock " + finding.resolve(name) + ": " + e.getMessage());
        }
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
