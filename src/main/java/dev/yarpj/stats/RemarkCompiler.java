package dev.yarpj.stats;

import dev.yarpj.harness.ProcessRunner;
import dev.yarpj.harness.Signature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A compiler whose optimization remarks {@code yarpj stats} counts: how to compile one
 * {@code func} file at {@code -O3} (object code thrown away) with remarks written to a file,
 * and how to read that file.
 */
public enum RemarkCompiler {
    /** {@code -fsave-optimization-record}, read by {@link ClangRemarks}. */
    CLANG("clang", "func.opt.yaml"),
    /** {@code -fopt-info-all=FILE}, read by {@link GccRemarks} (one group-less pass, see there). */
    GCC("gcc", "opt-info.txt");

    /**
     * clang passes that transform loops (or, like gvn and slp-vectorizer, do much of their
     * work on loop bodies): the passes whose Passed remarks enter the geometric mean of
     * {@code yarpj stats --compare}. Names are the {@code Pass:} of clang's remarks; both
     * spellings are listed where clang versions differ (loop-fusion/loop-fuse,
     * simple-loop-unswitch/loop-unswitch).
     */
    public static final Set<String> CLANG_LOOP_PASSES = Set.of(
            "loop-vectorize", "loop-unroll", "licm", "loop-idiom", "loop-delete", "loop-rotate",
            "slp-vectorizer", "gvn", "loop-unroll-and-jam", "loop-interchange", "loop-fusion", "loop-fuse",
            "loop-distribute", "loop-load-elim", "simple-loop-unswitch", "loop-unswitch", "loop-instsimplify",
            "loop-simplifycfg", "indvars", "loop-versioning-licm", "loop-flatten", "loop-predication", "loop-sink");

    /**
     * gcc's remarks carry no pass or group (see {@link GccRemarks}), so for gcc the geometric
     * mean runs over Passed remark names instead, leaving out those that start with one of
     * these: the inliner's ("Inlining min_i32/1 into test/8") and the store sinking of
     * phiopt, which are not loop optimizations.
     */
    public static final List<String> GCC_NON_LOOP_REMARK_PREFIXES = List.of("Inlining", "Inlined", "sinking common stores");

    /** Memory (MiB) and output file size (MiB) allowed to one compile. */
    private static final long MEMORY_MIB = 4096;
    private static final long FILE_MIB = 1024;

    public final String defaultBinary;
    private final String recordName;

    RemarkCompiler(String defaultBinary, String recordName) {
        this.defaultBinary = defaultBinary;
        this.recordName = recordName;
    }

    /** The compile command for {@code source} (a file name in {@code dir}), remarks going to {@link #recordFile}. */
    public List<String> command(String cc, String source, Path dir) {
        return command(cc, List.of(), source, dir);
    }

    /** As {@link #command(String, String, Path)}, with {@code flags} after -O3. */
    public List<String> command(String cc, List<String> flags, String source, Path dir) {
        List<String> c = new ArrayList<>(List.of(cc, "-O3"));
        c.addAll(flags);
        c.addAll(List.of("-c", "-w", source, "-o", "/dev/null"));
        if (this == CLANG) {
            c.add("-fsave-optimization-record");
            c.add("-foptimization-record-file=" + recordFile(dir));
        } else {
            c.add("-fopt-info-all=" + recordFile(dir));
        }
        return c;
    }

    public Path recordFile(Path dir) {
        return dir.toAbsolutePath().resolve(recordName);
    }

    /** Whether the compare's geometric mean counts this (pass, Passed remark name); see the constants above. */
    public boolean isLoopUnit(String pass, String name) {
        if (this == CLANG) return CLANG_LOOP_PASSES.contains(pass);
        for (String p : GCC_NON_LOOP_REMARK_PREFIXES) if (name.startsWith(p)) return false;
        return true;
    }

    /** A normalised gcc message that mentions a loop: "couldn't vectorize loop", "Loop N distributed: ...". */
    private static final Pattern MENTIONS_LOOP = Pattern.compile("(?i)\\bloops?\\b");

    /**
     * Whether a Missed or Analysis remark (why a loop was not transformed, or how) belongs to
     * the loop optimizations: for clang, one of a loop pass of the geometric mean
     * ({@link #CLANG_LOOP_PASSES}); for gcc, whose remarks name no pass, one whose normalised
     * message mentions a loop ("couldn't vectorize loop", "not vectorized: control flow in
     * loop"); vectorizer remarks that do not say "loop" are left out.
     */
    public boolean isLoopRemark(String pass, String name) {
        if (this == CLANG) return CLANG_LOOP_PASSES.contains(pass);
        return MENTIONS_LOOP.matcher(name).find();
    }

    /** What the geometric mean of a compare runs over: clang's passes, gcc's remark names. */
    public boolean geomeanOverNames() {
        return this == GCC;
    }

    /** How one compile ended. */
    public enum Status { OK, FAILED, TIMED_OUT }

    /** {@code tally} is set when OK; {@code message} says what went wrong otherwise. */
    public record CompileResult(Status status, RemarkTally tally, String message) {}

    /**
     * Compiles {@code source} in {@code dir} (which also holds its headers) and reads its
     * remarks. The compile is killed when it has used {@code cpuSeconds} of CPU, or has run
     * {@link ProcessRunner.Limits#COMPILE_WALL_PER_CPU} times that on the wall clock (one that waits for a core on a busy
     * machine is not killed for it, one that sleeps is).
     */
    public CompileResult compile(String cc, Path dir, String source, double cpuSeconds) throws IOException {
        return compile(cc, List.of(), dir, source, cpuSeconds);
    }

    /** As {@link #compile(String, Path, String, double)}, with {@code flags} after -O3. */
    public CompileResult compile(String cc, List<String> flags, Path dir, String source, double cpuSeconds) throws IOException {
        Path record = recordFile(dir);
        Files.deleteIfExists(record);
        ProcessRunner.Result r = ProcessRunner.run(dir, "compile", command(cc, flags, source, dir),
                ProcessRunner.Limits.compile(cpuSeconds, MEMORY_MIB, FILE_MIB));
        if (r.timedOut()) {
            return new CompileResult(Status.TIMED_OUT, null, "still compiling after " + fmt(cpuSeconds * ProcessRunner.Limits.COMPILE_WALL_PER_CPU) + " s");
        }
        if (r.reachedCpuLimit(cpuSeconds)) {
            return new CompileResult(Status.TIMED_OUT, null, "used its " + fmt(cpuSeconds) + " CPU-s and was stopped");
        }
        if (r.exitCode() == 0 && r.cpuSeconds() > cpuSeconds) {
            // ulimit -t counts whole seconds and stops a compile a little past the limit: one
            // that finished in between is over the limit all the same.
            return new CompileResult(Status.TIMED_OUT, null, "used " + String.format(java.util.Locale.ROOT, "%.1f", r.cpuSeconds())
                    + " CPU-s, over its " + fmt(cpuSeconds));
        }
        if (r.exitCode() == 128 + SIGXFSZ) {
            // Not a compiler crash, though clang's handler says so: a test of thousands of lines
            // can make gigabytes of remarks.
            return new CompileResult(Status.FAILED, null, "its remarks file passed the " + FILE_MIB + " MiB file-size limit"
                    + " (killed by signal " + SIGXFSZ + ")");
        }
        if (r.exitCode() != 0) {
            return new CompileResult(Status.FAILED, null, "exit code " + r.exitCode() + ": " + Signature.firstErrorLine(r.stderr()));
        }
        if (!Files.exists(record)) {
            // Both write the file even when they have nothing to say.
            return new CompileResult(Status.FAILED, null, "no remarks file written (is " + cc + " a " + defaultBinary + "?)");
        }
        RemarkTally t = this == CLANG ? ClangRemarks.parse(record) : GccRemarks.parse(record);
        t.setCpuSeconds(r.cpuSeconds());
        return new CompileResult(Status.OK, t, "");
    }

    /** The signal of a write past the file-size limit (ulimit -f). */
    private static final int SIGXFSZ = 25;

    private static String fmt(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }
}
