package dev.yarpj.source;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Another generator's program: found on the PATH or by its path, and run with a time limit. */
final class Tool {
    /** What one run of a generator may take: Csmith and YARPGen write a test in well under a second. */
    static final double SECONDS = 60;

    private Tool() {}

    /** The program {@code name} resolves to: a path as given, else the first on the PATH; null when there is none. */
    static Path find(String name) {
        if (name.contains("/")) {
            Path p = Path.of(name).toAbsolutePath().normalize();
            return Files.isRegularFile(p) && Files.isExecutable(p) ? p : null;
        }
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String d : path.split(File.pathSeparator)) {
            if (d.isEmpty()) continue;
            Path p = Path.of(d, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) return p.toAbsolutePath();
        }
        return null;
    }

    /** What a run printed on its standard output, how it ended, and the CPU time it took (its children's too). */
    record Ran(int exitCode, boolean timedOut, String stdout, String stderr, double cpuSeconds) {
        boolean ok() {
            return !timedOut && exitCode == 0;
        }

        /** Why it gave nothing, in a few words. */
        String why() {
            if (timedOut) return "ran past " + (int) SECONDS + " s";
            String first = stderr.lines().filter(l -> !l.isBlank()).findFirst().orElse("");
            return "exit " + exitCode + (first.isEmpty() ? "" : ": " + (first.length() > 120 ? first.substring(0, 120) : first));
        }
    }

    /** Runs {@code cmd} in {@code dir} (null: the current one), with its output in memory. */
    static Ran run(List<String> cmd, Path dir) {
        try {
            Path out = Files.createTempFile("yarpj-gen", ".out");
            Path err = Files.createTempFile("yarpj-gen", ".err");
            Path times = Files.createTempFile("yarpj-gen", ".times");
            try {
                // Through bash for its times: the generator's CPU is the test's generation time, as yarpj's own is.
                List<String> full = new java.util.ArrayList<>(List.of("bash", "-c", "\"$@\"; rc=$?; times > \"$YARPJ_TIMES\"; exit $rc", "yarpj-gen"));
                full.addAll(cmd);
                ProcessBuilder pb = new ProcessBuilder(full).redirectOutput(out.toFile()).redirectError(err.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
                if (dir != null) pb.directory(dir.toFile());
                pb.environment().put("YARPJ_TIMES", times.toString());
                Process p = pb.start();
                boolean done = p.waitFor((long) (SECONDS * 1000), TimeUnit.MILLISECONDS);
                if (!done) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    p.waitFor();
                }
                return new Ran(done ? p.exitValue() : -1, !done, Files.readString(out, StandardCharsets.ISO_8859_1),
                        Files.readString(err, StandardCharsets.ISO_8859_1), childCpu(times));
            } finally {
                Files.deleteIfExists(times);
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            return new Ran(127, false, "", "cannot run " + cmd.get(0) + ": " + e.getMessage(), 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Ran(130, false, "", "interrupted", 0);
        }
    }

    /** The children's user and system time from bash's {@code times} (its second line: "0m0.120s 0m0.010s"). */
    private static double childCpu(Path times) throws IOException {
        List<String> lines = Files.readAllLines(times);
        if (lines.size() < 2) return 0;
        double s = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)m([\\d.]+)s").matcher(lines.get(1));
        while (m.find()) s += Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2));
        return s;
    }

    /** What is read of a run and the directory it ran in, before the directory goes. */
    @FunctionalInterface
    interface Reader<T> {
        T read(Ran ran, Path dir) throws IOException;
    }

    /**
     * Runs {@code cmd} in a fresh directory of its own, as every run of a generator: generators
     * write where they run (csmith its platform.info, even for --version; YARPGen its test, with
     * its command line in it). {@code read} takes the run and the directory, which is then deleted.
     *
     * @throws IOException when the directory cannot be made, or {@code read} fails
     */
    static <T> T runAlone(List<String> cmd, Reader<T> read) throws IOException {
        Path dir = Files.createTempDirectory("yarpj-gen");
        try {
            return read.read(run(cmd, dir), dir);
        } finally {
            delete(dir);
        }
    }

    /** The first line {@code cmd} prints (a version), or {@code fallback} when it prints none. */
    static String firstLine(List<String> cmd, String fallback) {
        try {
            return runAlone(cmd, (r, dir) -> (r.stdout() + r.stderr()).lines().map(String::strip).filter(l -> !l.isEmpty())
                    .findFirst().orElse(fallback));
        } catch (IOException e) {
            return fallback;
        }
    }

    /** Deletes {@code dir} and all in it: a generator's temporary directory (one left behind is harmless). */
    private static void delete(Path dir) {
        try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
