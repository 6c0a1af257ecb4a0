package dev.yarpj.harness;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One process at a time reduces or triages a finding: the command holds a lock file in the
 * finding's directory while it works ({@link #REDUCE}, {@link #TRIAGE}). A campaign killed
 * with {@code kill -9} leaves its triage lane's child running; the lane of the resumed
 * campaign sees the lock held and leaves that finding to it instead of doing the same work.
 */
public final class FindingLock implements AutoCloseable {
    public static final String REDUCE = ".reduce.lock";
    public static final String TRIAGE = ".triage.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private FindingLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock {@code name} of {@code finding}, or null when another process (or this one) holds it. */
    public static FindingLock tryTake(Path finding, String name) throws IOException {
        FileChannel c = FileChannel.open(finding.resolve(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock l;
        try {
            l = c.tryLock();
        } catch (OverlappingFileLockException e) {
            l = null;
        }
        if (l == null) {
            c.close();
            return null;
        }
        return new FindingLock(c, l);
    }

    /** Whether some process holds the lock {@code name} of {@code finding} now. */
    public static boolean held(Path finding, String name) throws IOException {
        if (!Files.exists(finding.resolve(name))) return false;
        FindingLock l = tryTake(finding, name);
        if (l == null) return true;
        l.close();
        return false;
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
