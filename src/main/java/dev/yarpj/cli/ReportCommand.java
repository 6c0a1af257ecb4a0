package dev.yarpj.cli;

import dev.yarpj.gen.Version;
import dev.yarpj.report.HtmlReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "report", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {
            "Write one self-contained HTML page over fuzz campaigns.",
            "Over their results directories, every shard merged, it shows the campaign at",
            "a glance (wall time, tests, tests per hour, testbed runs by outcome, CPU",
            "shares, per shard and in total), the findings (kind, signature, tests that",
            "hit it, first seen, testbeds, example seeds, links to repro.sh and reduced",
            "tests, the bug yarpj triage put each in and whether it is open or fixed on",
            "the newest compilers, whether the logs and the finding directories agree)",
            "and plots (tests and findings over time, outcomes and compile times per",
            "testbed, trip counts and idioms of the tested loops). The page needs no",
            "network and runs no scripts. A campaign may still be running.",
            "More in docs/guide.md (report)."})
final class ReportCommand implements Callable<Integer> {
    @Parameters(paramLabel = "RESULTS", arity = "1..*", description = "Results directories of yarpj fuzz (its --out).")
    List<Path> results;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "report.html", description = "The page to write (default: ${DEFAULT-VALUE}).")
    Path out;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        for (Path r : results) {
            if (!Files.isDirectory(r)) throw new Main.UsageError("not a results directory: " + r);
            boolean campaign = Files.exists(r.resolve("campaign.json")) || Files.exists(r.resolve("campaign.jsonl"))
                    || Files.isDirectory(r.resolve("shards"));
            if (!campaign) throw new Main.UsageError(r + " holds no campaign (no campaign.json or campaign.jsonl): give yarpj fuzz's --out");
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) throw new Main.UsageError("cannot write " + out + ": no directory " + parent);
        long t0 = System.nanoTime();
        HtmlReport.Written w = HtmlReport.write(results, out, Version.VALUE);
        spec.commandLine().getOut().printf("report: %s (%d logs, %d tests, %d signatures hit by %d tests) in %.1f s%n%s%s%n", out, w.logs(),
                w.tests(), w.findings(), w.hits(), (System.nanoTime() - t0) / 1e9, w.bugs().isEmpty() ? "" : w.bugs() + "\n", w.agreement());
        return 0;
    }
}
