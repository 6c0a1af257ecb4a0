package dev.yarpj.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Saves findings under {@code results/<kind>/<signature-id>/<seed>/}. Each finding is built
 * in a scratch directory and moved into place in one atomic rename, so a killed harness
 * leaves either the whole finding or none of it. Findings with one signature are counted
 * and a few kept as examples (about {@link #EXAMPLES}; shards racing for the last slot may
 * each keep one more).
 *
 * <p>Many processes (the shards of a campaign, on many machines) may save into one results
 * directory at once, so nothing here is read, modified and written back: every seed that
 * hit a signature is appended to {@code seeds/<writer>.txt}, a file only this process
 * writes, and readers merge the files ({@link #hits}). Saving the same seed twice (a test
 * rerun after {@code --resume}) adds nothing.
 */
public final class FindingStore {
    static final int EXAMPLES = 5;

    private final Path root;
    private final Path tmp;
    private final String writer;
    /** How many examples a signature keeps: {@link #EXAMPLES}, or every one (a benchmark labels each finding). */
    private final int examples;

    /** The store of a campaign that is the only writer of {@code root}. */
    FindingStore(Path root) throws IOException {
        this(root, root.resolve(".tmp"), "main");
    }

    /**
     * @param staging where findings are built before the rename: this process's own, on the file system of {@code root}
     * @param writer  the name of this process's seed records: unique among the processes writing into {@code root}
     */
    FindingStore(Path root, Path staging, String writer) throws IOException {
        this(root, staging, writer, EXAMPLES);
    }

    FindingStore(Path root, Path staging, String writer, int examples) throws IOException {
        this.examples = examples;
        this.root = root;
        this.tmp = Files.createDirectories(staging);
        this.writer = writer;
    }

    /**
     * @param files name to content, written into the example directory
     * @param copyFrom test files to copy into it
     * @return the example directory, or null when the signature already has enough examples
     */
    synchronized Path save(Outcome kind, String signature, long seed, Map<String, String> files, Path copyFrom,
                           Iterable<String> copyNames) throws IOException {
        // Not createDirectories' result: the first of a kind, made with its parent, came back absolute (the summary then named
        // one finding by an absolute path and the others as --out gave them).
        Path sigDir = root.resolve(kind.dir).resolve(Signature.id(signature));
        Files.createDirectories(sigDir);
        Path sigFile = sigDir.resolve("signature.txt");
        if (!Files.exists(sigFile)) atomicWrite(sigFile, signature + "\n");
        Path seeds = Files.createDirectories(sigDir.resolve("seeds")).resolve(writer + ".txt");
        String line = seed + "\n";
        // Only this process writes this file, and a seed belongs to one shard: reading it back races with nobody.
        if (Files.exists(seeds) && Files.readAllLines(seeds).contains(Long.toString(seed))) return sigDir.resolve(Long.toString(seed));
        Path example = sigDir.resolve(Long.toString(seed));
        Path result = null;
        if (!Files.exists(example) && examples(sigDir) < examples) {
            Path staging = Files.createTempDirectory(tmp, kind.dir + "-");
            for (String n : copyNames) {
                Path src = copyFrom.resolve(n);
                if (Files.exists(src)) Files.copy(src, staging.resolve(n), StandardCopyOption.REPLACE_EXISTING);
            }
            for (Map.Entry<String, String> f : files.entrySet()) {
                Files.writeString(staging.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
            }
            Path repro = staging.resolve("repro.sh");
            if (Files.exists(repro)) repro.toFile().setExecutable(true);
            // On disk before the rename makes it visible, so even a power cut leaves whole findings.
            try (Stream<Path> s = Files.list(staging)) {
                for (Path f : (Iterable<Path>) s::iterator) sync(f, false);
            }
            sync(staging, true);
            Files.move(staging, example, StandardCopyOption.ATOMIC_MOVE);
            sync(sigDir, true);
            result = example;
        } else if (Files.exists(example)) {
            result = example;
        }
        try (var ch = java.nio.channels.FileChannel.open(seeds, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        return result;
    }

    /**
     * The seeds that hit a signature, merged from every writer's records (and the
     * {@code seeds.txt} of results written before sharding), each once. A line torn by a
     * killed writer is ignored: its test had not finished and runs again on resume.
     */
    public static java.util.SortedSet<Long> hits(Path sigDir) throws IOException {
        java.util.SortedSet<Long> seeds = new java.util.TreeSet<>();
        List<Path> files = new java.util.ArrayList<>();
        Path dir = sigDir.resolve("seeds");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.getFileName().toString().endsWith(".txt")).forEach(files::add);
            }
        }
        if (Files.exists(sigDir.resolve("seeds.txt"))) files.add(sigDir.resolve("seeds.txt"));
        for (Path f : files) seeds.addAll(seedLines(f));
        Path withdrawn = sigDir.resolve("withdrawn");
        if (Files.isDirectory(withdrawn)) {
            try (Stream<Path> s = Files.list(withdrawn)) {
                for (Path f : (Iterable<Path>) s.filter(p -> p.getFileName().toString().endsWith(".txt"))::iterator) {
                    seeds.removeAll(seedLines(f));
                }
            }
        }
        return seeds;
    }

    private static List<Long> seedLines(Path f) throws IOException {
        String text = Files.readString(f);
        int end = text.lastIndexOf('\n');
        List<Long> out = new java.util.ArrayList<>();
        for (String l : text.substring(0, end + 1).split("\n")) {
            if (l.matches("\\d{1,18}")) out.add(Long.parseLong(l));
        }
        return out;
    }

    /**
     * Withdraws a finding its recheck showed to be no finding (a compile-time outlier that,
     * compiled again, took less than the outlier bar): its example moves to
     * {@code results/withdrawn/<kind>/<signature-id>/<seed>/}, kept for whoever wants to see
     * why, and its seed is recorded in {@code withdrawn/<writer>.txt} beside the signature's
     * seed records, so that {@link #hits} no longer counts it. A signature left with no hits
     * is no finding at all (readers skip it).
     */
    synchronized void withdraw(Path example) throws IOException {
        Path sigDir = example.getParent();
        Path kindDir = sigDir.getParent();
        Path target = root.resolve("withdrawn").resolve(kindDir.getFileName().toString()).resolve(sigDir.getFileName().toString());
        Files.createDirectories(target);
        Path sigFile = target.resolve("signature.txt");
        if (!Files.exists(sigFile) && Files.exists(sigDir.resolve("signature.txt"))) {
            atomicWrite(sigFile, Files.readString(sigDir.resolve("signature.txt")));
        }
        Path records = Files.createDirectories(sigDir.resolve("withdrawn")).resolve(writer + ".txt");
        try (var ch = java.nio.channels.FileChannel.open(records, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap((example.getFileName() + "\n").getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Path moved = target.resolve(example.getFileName().toString());
        if (!Files.exists(moved)) Files.move(example, moved, StandardCopyOption.ATOMIC_MOVE);
    }

    private static long examples(Path sigDir) throws IOException {
        try (Stream<Path> s = Files.list(sigDir)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d+")).count();
        }
    }

    /** Writes {@code target} whole or not at all: a temporary file beside it, synced, then renamed. */
    static void atomicWrite(Path target, String content) throws IOException {
        // A temporary name of this process and thread: shards may write one signature.txt at the same moment.
        Path t = target.resolveSibling("." + target.getFileName() + "." + ProcessHandle.current().pid() + "."
                + Thread.currentThread().getId() + ".tmp");
        Files.writeString(t, content);
        sync(t, false);
        Files.move(t, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void sync(Path p, boolean directory) {
        try (var ch = java.nio.channels.FileChannel.open(p, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            if (!directory) throw new java.io.UncheckedIOException(e);
            // Some file systems cannot sync a directory; the rename is still atomic there.
        }
    }

    /** Removes staging left by a killed run of this process's campaign or shard (never another's). */
    void cleanStaging() throws IOException {
        try (Stream<Path> s = Files.walk(tmp)) {
            s.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(tmp)).forEach(p -> p.toFile().delete());
        }
    }
}
