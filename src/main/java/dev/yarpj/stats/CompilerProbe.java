package dev.yarpj.stats;

import dev.yarpj.harness.ProcessRunner;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What a compiler binary says it is: the first line of its {@code --version}, and the family that line names. */
final class CompilerProbe {
    private CompilerProbe() {}

    /** The first line of {@code binary --version}; a bad-input error if it cannot run. */
    static String version(String binary) {
        ProcessRunner.Captured c;
        try {
            c = ProcessRunner.capture(null, List.of(binary, "--version"), Map.of(), 30, null);
        } catch (IOException e) {
            throw new StatsStage.BadInput("interrupted");
        }
        if (!c.started()) throw new StatsStage.BadInput("cannot run compiler " + binary + ": " + firstLine(c.output()));
        if (c.timedOut()) throw new StatsStage.BadInput("cannot run compiler " + binary + ": '--version' did not finish");
        if (c.exitCode() != 0) throw new StatsStage.BadInput("cannot run compiler " + binary + ": '--version' exited with " + c.exitCode());
        String text = c.output().strip();
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl).strip();
    }

    /**
     * The remark compiler a version line names: clang if it says "clang", else gcc. Each family
     * rejects the other's remark options, which would fail every compile, so a mismatch is
     * caught before compiling.
     */
    static RemarkCompiler family(String versionLine) {
        return versionLine.toLowerCase(Locale.ROOT).contains("clang") ? RemarkCompiler.CLANG : RemarkCompiler.GCC;
    }

    static String firstLine(String s) {
        if (s == null) return "unknown error";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
