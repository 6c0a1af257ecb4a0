package dev.yarpj.cli;

import dev.yarpj.gen.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The yarpj command line: one class per subcommand. */
@Command(name = "yarpj", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {"Random program generator for testing the loop optimizers of C, C++, ISPC and SYCL compilers.",
                "The manual: docs/guide.md; the bugs found: bugs.md."},
        subcommands = {GenCommand.class, FuzzCommand.class, ReduceCommand.class, TriageCommand.class, BugsCommand.class, ReportCommand.class, BenchCommand.class, StatsCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    /** Exit code for bad input: an unknown option value, a broken policy, an unwritable directory. */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand (try: yarpj gen --help)");
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // Bad input is one line on stderr and exit code 2, never a usage dump or a stack trace.
        cl.setParameterExceptionHandler((ex, args) -> {
            ex.getCommandLine().getErr().println("yarpj: " + ex.getMessage());
            return EXIT_USAGE;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof UsageError u) {
                cmd.getErr().println("yarpj: " + u.getMessage());
                return EXIT_USAGE;
            }
            cmd.getErr().println("yarpj: internal error: " + ex);
            // A bug of yarpj's own: YARPJ_TRACE=1 shows where, for its report.
            if (System.getenv("YARPJ_TRACE") != null) ex.printStackTrace(cmd.getErr());
            else cmd.getErr().println("yarpj: (run with YARPJ_TRACE=1 for the stack trace)");
            return 1;
        });
        return cl;
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"yarpj " + Version.VALUE};
        }
    }

    /** What a command says when another process works on a finding it was given. */
    static final String BUSY = "another yarpj process is working on this finding";

    /** The lock {@code name} of {@code finding}, or a one-line usage error when another process holds it. */
    static dev.yarpj.harness.FindingLock lock(java.nio.file.Path finding, String name) {
        try {
            dev.yarpj.harness.FindingLock l = dev.yarpj.harness.FindingLock.tryTake(finding, name);
            if (l == null) throw new UsageError(BUSY + " (" + name + "): " + finding);
            return l;
        } catch (java.io.IOException e) {
            throw new UsageError("cannot lock " + finding.resolve(name) + ": " + e.getMessage());
        }
    }

    /** Bad input found after parsing; reported as one line with exit code 2. */
    static final class UsageError extends RuntimeException {
        UsageError(String message) {
            super(message, null, false, false);
        }
    }
}
