package dev.yarpj.stats.ispc;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.harness.ProcessRunner;
import dev.yarpj.harness.Signature;
import dev.yarpj.harness.Testbed;
import dev.yarpj.lower.Language;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the measurement variant of an ISPC test (generated with {@code measure} set: each
 * varying if counts the times it ran with some lane on and the times its mask was mixed)
 * with the real ispc and g++, runs it, and reads the counts it prints ({@code yarpj-mask
 * <id> <runs> <mixed>}, one line per varying if) and its checksum, which must be the
 * interpreter's prediction. The commands are the harness's ({@link Testbed}): the test
 * builds as one ispc testbed of a campaign would, except that ispc writes the driver's
 * header {@code func_ispc.h} in the same run (a campaign writes it once for all testbeds):
 * <pre>
 *   ispc --pic LEVEL --target=TARGET --woff func.ispc -o func.o -h func_ispc.h
 *   g++ -O0 -w -DYARPJ_ISPC -c driver.cpp -o driver.o
 *   g++ driver.o func.o -o test.bin
 *   ./test.bin
 * </pre>
 * Each command runs under {@link ProcessRunner}'s limits.
 */
public final class IspcMaskBuild {
    public static final String DEFAULT_TARGET = "avx2-i32x8";
    public static final String DEFAULT_LEVEL = "-O0";
    /** The optimization levels ispc takes. */
    public static final List<String> LEVELS = List.of("-O0", "-O1", "-O2", "-O3");
    /** The driver's compiler, as the report names it. */
    public static final String DRIVER_COMPILER = "g++";

    private static final long MEMORY_MIB = 4096;
    private static final long FILE_MIB = 1024;
    private static final Pattern MASK_LINE = Pattern.compile("yarpj-mask (\\d+) (\\d+) (\\d+) ([01])");
    private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+(\\.\\d+)?");

    /** How a build and run ended. */
    public enum Status { OK, COMPILE_FAILED, COMPILE_TIMEOUT, RUN_FAILED, RUN_TIMEOUT, MISMATCH }

    /**
     * {@code masks}: per varying if, by id, when OK (also when the checksum mismatched);
     * {@code message}: what went wrong otherwise (for MISMATCH: the expected and the printed checksum).
     */
    public record Result(Status status, List<IfMask> masks, String message) {}

    private final Testbed testbed;
    private final String cxx;
    private final String target;
    private final String level;
    private final double compileTimeoutSeconds;
    private final double runTimeoutSeconds;

    public IspcMaskBuild(String ispc, String cxx, String target, String level, double compileTimeoutSeconds,
                         double runTimeoutSeconds) {
        if (!LEVELS.contains(level)) throw new IllegalArgumentException("ispc level must be one of " + LEVELS + ", got " + level);
        this.testbed = new Testbed("stats-masks", null, null, ispc, null, null, null, List.of(level, "--target=" + target),
                Testbed.HOST, List.of());
        this.cxx = cxx;
        this.target = target;
        this.level = level;
        this.compileTimeoutSeconds = compileTimeoutSeconds;
        this.runTimeoutSeconds = runTimeoutSeconds;
    }

    /** Whether the first line of a binary's {@code --version} is ispc's ("Intel(r) Implicit SPMD Program Compiler (Intel(r) ISPC), 1.28.2 ..."). */
    public static boolean isIspcVersion(String versionLine) {
        return versionLine.contains("ISPC");
    }

    /**
     * How the report names the build: "ispc 1.28.2 --target=avx2-i32x8 -O0 (driver: g++ -O0)",
     * the version number taken from the first line of ispc's {@code --version} (left out if it has none).
     */
    public String describe(String versionLine) {
        Matcher v = VERSION.matcher(versionLine);
        return testbed.ispcCompiler() + (v.find() ? " " + v.group() : "") + " --target=" + target + " " + level
                + " (driver: " + DRIVER_COMPILER + " -O0)";
    }

    /** "ispc --target=avx2-i32x8 -O0", the build without versions. */
    public String describe() {
        return testbed.ispcCompiler() + " --target=" + target + " " + level;
    }

    /** The ispc command line for func.ispc: the testbed's, writing the driver's header too. */
    List<String> ispcCommand() {
        List<String> c = new ArrayList<>(testbed.compileCommand(Language.ISPC, "func.o"));
        c.addAll(List.of("-h", "func_ispc.h"));
        return c;
    }

    /**
     * Writes the files of {@code test} (a measurement variant) to {@code dir}, builds, runs
     * and reads it. {@code varyingIfs}: the number of mask lines it must print.
     */
    public Result run(Path dir, GeneratedTest test, int varyingIfs) throws IOException {
        for (Map.Entry<String, String> f : test.files().files().entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
        }
        ProcessRunner.Limits compile = new ProcessRunner.Limits(compileTimeoutSeconds, MEMORY_MIB, FILE_MIB);
        ProcessRunner.Result r = ProcessRunner.run(dir, "ispc", ispcCommand(), compile);
        Result failed = buildFailure("ispc", r);
        if (failed != null) return failed;
        r = ProcessRunner.run(dir, "cxx", Testbed.driverCommand(Language.ISPC, cxx), compile);
        failed = buildFailure(cxx, r);
        if (failed != null) return failed;
        r = ProcessRunner.run(dir, "link", testbed.linkCommand(Language.ISPC, cxx, "func.o", "test.bin"), compile);
        failed = buildFailure(cxx, r);
        if (failed != null) return failed;
        r = ProcessRunner.run(dir, "run", testbed.execCommand(dir.toAbsolutePath().resolve("test.bin").toString()),
                new ProcessRunner.Limits(runTimeoutSeconds, MEMORY_MIB, FILE_MIB));
        if (r.timedOut()) return new Result(Status.RUN_TIMEOUT, null, "still running after " + (long) runTimeoutSeconds + " s");
        if (r.exitCode() != 0) {
            return new Result(Status.RUN_FAILED, null, (r.signalled() ? "killed by signal " + (r.exitCode() - 128)
                    : "exit code " + r.exitCode()) + ": " + Signature.firstErrorLine(r.stderr() + "\n" + r.stdout()));
        }
        return parse(r.stdout(), varyingIfs, test.prediction().expectedOutput());
    }

    private Result buildFailure(String who, ProcessRunner.Result r) {
        // The CPU limit equals the wall-clock one, so a build that spins may be stopped by either.
        if (r.pastTimeLimit(compileTimeoutSeconds)) {
            return new Result(Status.COMPILE_TIMEOUT, null, who + " still compiling after " + (long) compileTimeoutSeconds + " s");
        }
        if (r.exitCode() != 0) {
            return new Result(Status.COMPILE_FAILED, null, who + ": exit code " + r.exitCode() + ": " + Signature.firstErrorLine(r.stderr()));
        }
        return null;
    }

    /**
     * Reads a run's output: per call of {@code test()} (one per input set), one mask line per
     * varying if, ids 0 to {@code varyingIfs - 1} in any order, and one other line, the
     * checksum. The counters add up over the calls, so an if's last line is the whole run's.
     * Anything else is a failed run; checksums other than {@code expected} (one line per set)
     * a MISMATCH (with the masks read).
     */
    static Result parse(String stdout, int varyingIfs, String expected) {
        IfMask[] masks = new IfMask[varyingIfs];
        int[] lines = new int[varyingIfs];
        List<String> checksums = new ArrayList<>();
        for (String raw : stdout.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty()) continue;
            Matcher m = MASK_LINE.matcher(line);
            if (m.matches()) {
                int id;
                long runs;
                long mixed;
                try {
                    id = Integer.parseInt(m.group(1));
                    runs = Long.parseLong(m.group(2));
                    mixed = Long.parseLong(m.group(3));
                } catch (NumberFormatException e) {
                    return odd("a number out of range: " + line);
                }
                if (id >= varyingIfs) return odd("mask line for varying if " + id + " of " + varyingIfs + ": " + line);
                if (++lines[id] > checksums.size() + 1) return odd("two mask lines for varying if " + id + " in one call");
                if (mixed > runs) return odd("more mixed runs than runs: " + line);
                if (masks[id] != null && (runs < masks[id].runs() || mixed < masks[id].mixed())) return odd("a count went down: " + line);
                masks[id] = new IfMask(runs, mixed, m.group(4).equals("1"));
            } else {
                checksums.add(line);
            }
        }
        for (int i = 0; i < varyingIfs; i++) if (masks[i] == null) return odd("no mask line for varying if " + i);
        if (checksums.isEmpty()) return odd("no checksum");
        String checksum = String.join("\n", checksums);
        List<IfMask> list = new ArrayList<>(List.of(masks));
        if (!checksum.equals(expected)) {
            return new Result(Status.MISMATCH, List.copyOf(list), "expected checksum " + expected + ", printed " + checksum);
        }
        return new Result(Status.OK, List.copyOf(list), "");
    }

    private static Result odd(String what) {
        return new Result(Status.RUN_FAILED, null, "unexpected output: " + what);
    }
}
