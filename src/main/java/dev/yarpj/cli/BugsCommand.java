package dev.yarpj.cli;

import dev.yarpj.triage.BugBook;
import dev.yarpj.triage.KnownBugs;
import dev.yarpj.triage.TriageLane;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** yarpj bugs: a campaign's bugs, from its triaged findings; with --merge, its new bugs into the project's record. */
@Command(name = "bugs", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {"The bugs of a campaign: its triaged findings (yarpj fuzz triages them in the background) grouped by"
                + " their triage key, each labelled known (a bug of the record in --known-bugs) or new. Writes DIR/bugs.json"
                + " and DIR/bugs/<id>/report.md again, then prints one line per bug.",
                "With --merge, adds the new bugs to the record (a directory each, with bug.json, the test and the report) and"
                + " writes the record's index into --bugs-md.",
                "With --recheck (and no DIR), rechecks every bug of the record on the compilers installed here instead: its"
                + " reduced test at its smallest configuration, under its run, then every other installed version; prints one"
                + " line per bug (open on the newest, fixed, or not rechecked and why), writes each result and its date into the"
                + " bug's bug.json, and the record's index into --bugs-md."})
final class BugsCommand implements Callable<Integer> {
    @Parameters(paramLabel = "DIR", arity = "0..1", description = "A campaign's results directory (none with --recheck).")
    Path results;

    @Option(names = "--recheck", description = "Recheck the record of known bugs (--known-bugs) on the compilers installed here.")
    boolean recheck;

    @Option(names = "--known-bugs", paramLabel = "DIR", description = "The record of known bugs (default: known-bugs of yarpj).")
    Path knownBugs;

    @Option(names = "--triage", description = "First triage the findings not triaged yet, and reduce each new bug (as the"
            + " triage lane of yarpj fuzz does, with all of the CPU it can get): for a campaign run with --triage-share 0, or stopped.")
    boolean triage;

    @Option(names = "--reduce-budget", paramLabel = "TIME", defaultValue = "10m", description = "With --triage: time the reduction of"
            + " each new bug gets (default: ${DEFAULT-VALUE}; 0: no reduction).")
    String reduceBudget;

    @Option(names = "--reduce-candidates", paramLabel = "N", defaultValue = "0", description = "With --triage: candidates each"
            + " phase of a reduction may test (yarpj reduce --candidates), as well as --reduce-budget (default: no limit, the"
            + " time budget alone).")
    int reduceCandidates;

    @Option(names = "--compile-timeout", paramLabel = "CPU-SECONDS", defaultValue = "30", description = "With --triage or"
            + " --recheck: longest compile of one try (default: ${DEFAULT-VALUE}).")
    double compileTimeout;

    @Option(names = "--merge", description = "Add the new bugs to the record and write its index into --bugs-md.")
    boolean merge;

    @Option(names = "--bugs-md", paramLabel = "FILE", description = "Where --merge writes the record's index, into its marked part"
            + " (default: bugs.md beside the record).")
    Path bugsMd;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Path record = knownBugs != null ? knownBugs : FuzzCommand.home().resolve("known-bugs");
        PrintWriter out = spec.commandLine().getOut();
        if (recheck) {
            if (results != null || triage || merge) throw new Main.UsageError("--recheck takes no DIR, --triage or --merge");
            return recheckRecord(record, out);
        }
        if (results == null) throw new Main.UsageError("a results directory DIR is needed (or --recheck)");
        if (!Files.isDirectory(results)) throw new Main.UsageError("not a directory: " + results);
        KnownBugs known = FuzzCommand.knownBugs(knownBugs, !merge); // --merge makes a new record
        if (triage) {
            double reduceSeconds = reduceBudget.strip().equals("0") ? 0 : FuzzCommand.parseDuration("--reduce-budget", reduceBudget);
            if (!(compileTimeout > 0)) throw new Main.UsageError("--compile-timeout must be positive");
            if (reduceCandidates < 0) throw new Main.UsageError("--reduce-candidates must not be negative");
            TriageLane lane = new TriageLane(results, 1, compileTimeout, known, reduceSeconds)
                    .withRechecks(compileTimeout * dev.yarpj.harness.CampaignConfig.RECHECK_FACTOR).withReduceCandidates(reduceCandidates);
            lane.start();
            try {
                TriageLane.Done d = lane.finish(true);
                out.printf("triaged %d finding(s), %d refused, %d bug(s) reduced, in %.0f CPU-s%n", d.triaged(), d.refused(), d.reduced(), d.cpuSeconds());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Main.UsageError("interrupted");
            }
        }
        BugBook.Book book = BugBook.write(results, known);
        long old = book.known();
        out.printf("%d new bug(s), %d known, from %d triaged finding(s) in %s%n", book.bugs().size() - old, old, book.triaged(), results);
        for (String line : BugBook.lines(book)) out.println("  " + line);
        if (!book.untriaged().isEmpty()) out.println("  not triaged yet: " + book.untriaged().size() + " finding(s) (yarpj fuzz --resume triages them)");
        if (merge) {
            Files.createDirectories(record);
            List<String> added = KnownBugs.addNew(book, record);
            Path md = bugsMd != null ? bugsMd : record.toAbsolutePath().getParent().resolve("bugs.md");
            KnownBugs.writeIndex(record, md);
            out.println("added " + added.size() + " bug(s) to " + record + (added.isEmpty() ? "" : ": " + String.join(", ", added))
                    + "; its index is in " + md);
        }
        out.flush();
        return 0;
    }

    /** Rechecks every bug of the record in {@code record}, one line each, and writes the record's index. */
    private int recheckRecord(Path record, PrintWriter out) throws IOException {
        KnownBugs known = FuzzCommand.knownBugs(record, true);
        if (!(compileTimeout > 0)) throw new Main.UsageError("--compile-timeout must be positive");
        java.time.Instant now = java.time.Instant.now();
        int shows = 0;
        int fixed = 0;
        int not = 0;
        for (KnownBugs.Known k : known.bugs()) {
            java.util.Map<String, Object> r = dev.yarpj.triage.Recheck.record(k.dir(), compileTimeout, System.getenv().getOrDefault("PATH", ""), now);
            String result = String.valueOf(r.get("result"));
            if (result.startsWith("not rechecked")) not++;
            else if ("fixed".equals(r.get("status"))) fixed++;
            else if (result.equals("shows it")) shows++;
            out.println(k.id() + " (" + k.title() + "): " + (r.get("campaign_compiler") == null || result.startsWith("not rechecked") ? result
                    : result + " on " + r.get("campaign_compiler") + (r.get("standing") == null ? "" : "; " + r.get("standing"))));
            out.flush();
        }
        Path md = bugsMd != null ? bugsMd : record.toAbsolutePath().getParent().resolve("bugs.md");
        KnownBugs.writeIndex(record, md);
        out.printf("%d bug(s) in %s: %d show it, %d fixed, %d not rechecked; its index is in %s%n", known.bugs().size(), record, shows, fixed, not, md);
        out.flush();
        return 0;
    }
}
