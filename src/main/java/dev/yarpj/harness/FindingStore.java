package dev.yarpj.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Saves findings under {@code results/<kind>/<signature-id>/<seed>/}. Each finding is built
 * in a scratch directory and moved into place in one atomic rename, so a killed harness
 * leaves either the whole finding or none of it. Findings with one signature are counted
 * (every seed listed in {@code seeds.txt}) and a few kept as examples. Saving the same seed
 * twice (a test rerun after {@code --resume}) changes nothing.
 */
final class FindingStore {
    static final int EXAMPLES = 5;

    private final Path root;
    private final Path tmp;

    FindingStore(Path root) throws IOException {
        this.root = root;
        this.tmp = Files.createDirectories(root.resolve(".tmp"));
    }

    /**
     * @param files name to content, written into the example directory
     * @param copyFrom test files to copy into it
     * @return the example directory, or null when the signature already has enough examples
     */
    synchronized Path save(Outcome kind, String signature, long seed, Map<String, String> files, Path copyFrom,
                           Iterable<String> copyNames) throws IOException {
        Path sigDir = Files.createDirectories(root.resolve(kind.dir).resolve(Signature.id(signature)));
        Path sigFile = sigDir.resolve("signature.txt");
        if (!Files.exists(sigFile)) atomicWrite(sigFile, signature + "\n");
        Path seeds = sigDir.resolve("seeds.txt");
        String line = seed + "\n";
        if (Files.exists(seeds) && Files.readAllLines(seeds).contains(Long.toString(seed))) return sigDir.resolve(Long.toString(seed));
        Path example = sigDir.resolve(Long.toString(seed));
        Path result = null;
        if (!Files.exists(example) && examples(sigDir) < EXAMPLES) {
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

    private static long examples(Path sigDir) throws IOException {
        try (Stream<Path> s = Files.list(sigDir)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d+")).count();
        }
    }

    /** Writes {@code target} whole or not at all: a temporary file beside it, synced, then renamed. */
    static void atomicWrite(Path target, String content) throws IOException {
        Path t = target.resolveSibling("." + target.getFileName() + ".tmp");
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

    /** Removes staging left by a killed run. */
    void cleanStaging() throws IOException {
        try (Stream<Path> s = Files.walk(tmp)) {
            s.sorted(Comparator.reverseOrder()).filter(p -> !p.equals(tmp)).forEach(p -> p.toFile().delete());
        }
    }
}
