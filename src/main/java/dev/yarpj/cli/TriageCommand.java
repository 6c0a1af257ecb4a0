package dev.yarpj.cli;

import dev.yarpj.triage.Triage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "triage", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {
            "Find the flags, pass and versions behind findings; draft bug reports.",
            "C, C++ and ISPC findings; for ISPC: the lowest level and the targets that",
            "show it, and for a crash an LLVM IR reproducer when llc fails the same way.",
            "Reduce findings first with 'yarpj reduce': triage then works on",
            "FINDING/reduced/merged.<ext>, else on the IR phase's FINDING/reduced/ir/, else",
            "on the finding's files merged. For each C and C++ finding: the lowest",
            "optimization level and fewest testbed flags that show the symptom, with",
            "-march=native replaced by the lowest named level that shows it;",
            "the pass to blame (clang: bisection with -mllvm -opt-bisect-limit; gcc: the",
            "optimization flags and tree/RTL passes whose disabling alone removes the",
            "symptom); every installed version of the compiler (gcc-N, gcc-trunk, clang-N",
            "on the PATH) with or without the symptom, and whether the bug is open or fixed",
            "on the newest: GCC trunk (scripts/install-compilers.sh installs it), for clang",
            "the newest release installed; the release where it first goes away, or for an",
            "open bug the release it first shows in. Writes FINDING/triage/: test.<ext>,",
            "triage.json and report.md (a bug report draft with the sanitizer evidence).",
            "For a clang finding blamed on one pass, FINDING/triage/ir/: the LLVM IR at that",
            "pass's input (before.ll), an opt (llc for the back end) command that shows the",
            "symptom with that pass alone, and the IR reduced by llvm-reduce (reduced.ll),",
            "with the LLVM tools of the clang's own version (opt-N, llvm-reduce-N on the",
            "PATH, as scripts/install-compilers.sh installs them for the newest clang).",
            "Findings whose blamed pass agrees are one bug. SYCL findings are not triaged.",
            "More in docs/guide.md (triage)."})
final class TriageCommand implements Callable<Integer> {
    @Parameters(paramLabel = "FINDING", arity = "1..*", description = "Finding directories: results/<kind>/<signature>/<seed>.")
    List<Path> findings;

    @Option(names = "--compile-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Longest compile of one try; a compile hang must outlast it (default: ${DEFAULT-VALUE}; for a compile-time "
                    + "outlier that finished under it, half the outlier's compile time).")
    double compileTimeout;

    @Option(names = "--max-pass-tries", paramLabel = "N", defaultValue = "600",
            description = "gcc: most builds spent finding the flags and passes whose disabling alone makes the build right, tried in groups (default: ${DEFAULT-VALUE}).")
    int maxPassTries;

    @Option(names = "--ir-budget", paramLabel = "TIME", defaultValue = "10m",
            description = "clang: time llvm-reduce gets to reduce the IR reproducer of each finding, e.g. 90s, 10m; 0 leaves it unreduced (default: ${DEFAULT-VALUE}).")
    String irBudget;

    @Option(names = "--ir-iterations", paramLabel = "N", defaultValue = "" + Triage.Options.IR_PASS_ITERATIONS,
            description = "Rounds llvm-reduce makes over its passes (its --max-pass-iterations): fewer is quicker and leaves the IR a"
                    + " little bigger (default: ${DEFAULT-VALUE}).")
    int irIterations;

    @Option(names = "--bugs", paramLabel = "FILE",
            description = "Also write the report drafts of the bugs open on the newest compilers, one per distinct bug (from its"
                    + " smallest finding), into FILE: into its part marked by an earlier --bugs if it has one (bugs.md, say), else"
                    + " at its end, else a new file. Give all findings at once: the marked part is rewritten whole.")
    Path bugs;

    @Option(names = "--recheck-known", paramLabel = "RECORD",
            description = "Instead of triaging: build the known bug of RECORD (a directory of the record of known bugs, with"
                    + " bug.json and its reduced test) at its smallest configuration with the compiler of the one FINDING, then"
                    + " with every other installed version, and write FINDING/triage/recheck-<id>.json: whether the bug is still"
                    + " there, open or fixed on the newest. The triage lane of yarpj fuzz does this once per known bug it meets.")
    Path recheckKnown;

    @Option(names = "--label-with", paramLabel = "FILE",
            description = "The keys of bugs already seen (a bugs.json, or an object with a list 'keys' of them): a wrong code,"
                    + " compiler crash or link failure that fits one (its kind, compiler, target and options; with the key's"
                    + " pass turned off alone it comes out right, in the key's configuration it still goes wrong) is labelled"
                    + " with it by a few builds instead of triaged. The triage lane of yarpj fuzz gives it the bugs it has seen.")
    Path labelWith;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        for (Path f : findings) if (!Files.isDirectory(f)) throw new Main.UsageError("not a directory: " + f);
        if (compileTimeout <= 0) throw new Main.UsageError("--compile-timeout must be positive");
        if (irIterations < 1) throw new Main.UsageError("--ir-iterations must be at least 1");
        PrintWriter out = spec.commandLine().getOut();
        if (recheckKnown != null) {
            if (findings.size() != 1) throw new Main.UsageError("--recheck-known takes one FINDING");
            if (!Files.exists(recheckKnown.resolve("bug.json"))) throw new Main.UsageError("--recheck-known: no bug.json in " + recheckKnown);
            Map<String, Object> r = dev.yarpj.triage.Recheck.known(recheckKnown, findings.get(0), compileTimeout,
                    System.getenv().getOrDefault("PATH", ""));
            out.println(recheckKnown.getFileName() + ": its reduced test " + r.get("result")
                    + (r.get("standing") == null ? "" : "; " + r.get("standing")));
            return 0;
        }
        java.util.List<dev.yarpj.harness.FindingLock> locks = new java.util.ArrayList<>();
        try {
            for (Path f : findings) locks.add(Main.lock(f, dev.yarpj.harness.FindingLock.TRIAGE));
            double ir = irBudget.strip().equals("0") ? 0 : FuzzCommand.parseDuration("--ir-budget", irBudget);
            java.util.List<dev.yarpj.triage.BugKey> keys = java.util.List.of();
            java.util.List<dev.yarpj.triage.KnownSymptom.SeenTest> tests = java.util.List.of();
            if (labelWith != null) {
                if (!Files.isRegularFile(labelWith)) throw new Main.UsageError("--label-with: no such file: " + labelWith);
                try {
                    keys = dev.yarpj.triage.KnownBugs.keys(labelWith);
                    tests = dev.yarpj.triage.KnownBugs.tests(labelWith);
                } catch (IOException e) {
                    throw new Main.UsageError("--label-with: " + e.getMessage());
                }
            }
            Triage.triage(findings, new Triage.Options(compileTimeout, maxPassTries, System.getenv().getOrDefault("PATH", ""), ir, irIterations, bugs),
                    out, keys, tests);
        } catch (Triage.TriageException e) {
            throw new Main.UsageError(e.getMessage());
        } finally {
            for (dev.yarpj.harness.FindingLock l : locks) l.close();
        }
        return 0;
    }
}
