package dev.yarpj.cli;

import dev.yarpj.harness.Testbeds;
import dev.yarpj.reduce.Reducer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "reduce", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {
            "Reduce a finding saved by 'yarpj fuzz' with C-Vise. Writes FINDING/reduced/: merged.<ext>",
            "(the reduced test), merged.<ext>.orig, interesting.sh (the test every kept candidate passed:",
            "sanitizer-clean with gcc and clang, same symptom), reduce.json and README.txt."})
final class ReduceCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FINDING", description = "A finding directory: results/<kind>/<signature>/<seed>.")
    Path finding;

    @Option(names = "--budget", paramLabel = "TIME", defaultValue = "30m", description = "Time budget, e.g. 90s, 10m, 1h (default: ${DEFAULT-VALUE}).")
    String budget;

    @Option(names = "--slow-after", paramLabel = "TIME", defaultValue = "10s",
            description = {"For a compile hang: a candidate is kept while the buggy compile still runs after this long,",
                "and only if the reference compiler builds it within this long (default: ${DEFAULT-VALUE})."})
    String slowAfter;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Candidates tested at once (default: number of cores).")
    Integer jobs;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(finding)) throw new Main.UsageError("not a directory: " + finding);
        if (!Testbeds.onPath("cvise")) throw new Main.UsageError("cvise is not installed (run scripts/setup.sh, or apt-get install cvise)");
        int n = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        if (n < 1) throw new Main.UsageError("-j must be at least 1");
        Reducer.Result r;
        try {
            r = Reducer.reduce(finding, new Reducer.Options(FuzzCommand.parseDuration("--budget", budget), n, "cvise",
                    FuzzCommand.parseDuration("--slow-after", slowAfter)));
        } catch (Reducer.ReduceException e) {
            throw new Main.UsageError(e.getMessage());
        }
        spec.commandLine().getOut().printf("reduced %d -> %d lines in %.0f s (%d candidates accepted, each sanitizer-clean): %s%n",
                r.linesBefore(), r.linesAfter(), r.seconds(), r.accepted(), r.reduced());
        return 0;
    }
}
