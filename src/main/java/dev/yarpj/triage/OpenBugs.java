package dev.yarpj.triage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The bugs triage found open on the newest compilers, each as its report draft (title, text,
 * reduced test, commands, versions, the release it first shows in, the IR reproducer), ready
 * to paste into the compiler's tracker: one per distinct bug, from its smallest finding. They
 * go into a file of their own, or into the marked part of an existing one (bugs.md), so that
 * what people wrote around it stays.
 */
final class OpenBugs {
    static final String BEGIN = "<!-- yarpj triage --bugs: begin (written by yarpj triage; edits here are lost) -->";
    static final String END = "<!-- yarpj triage --bugs: end -->";

    private OpenBugs() {}

    /** Writes the open bugs of {@code groups} (verdicts by bug) into {@code file}; returns how many there are. */
    static int write(Path file, Map<String, List<Triage.Verdict>> groups) throws IOException {
        StringBuilder b = new StringBuilder(BEGIN).append('\n');
        int open = 0;
        for (Map.Entry<String, List<Triage.Verdict>> g : groups.entrySet()) {
            List<Triage.Verdict> findings = g.getValue().stream().filter(v -> v.standing().status().equals("open")).toList();
            if (findings.isEmpty()) continue;
            Triage.Verdict smallest = findings.stream().min(Comparator.comparingInt(Triage.Verdict::lines)).orElseThrow();
            Path draft = smallest.finding().resolve("triage/report.md");
            if (!Files.exists(draft)) continue;
            open++;
            b.append('\n').append(demoted(Files.readString(draft).strip())).append("\n\n");
            b.append("Triaged from ").append(findings.size() == 1 ? "the finding " : findings.size() + " findings of this bug; the smallest is ")
                    .append('`').append(inResults(smallest.finding())).append("` (").append(g.getKey()).append(").\n");
        }
        if (open == 0) b.append("\nNo bug of the findings triaged is open on the newest compilers installed.\n");
        b.append(END).append('\n');
        String section = b.toString();
        if (Files.exists(file)) {
            String old = Files.readString(file);
            int i = old.indexOf(BEGIN);
            int j = old.indexOf(END);
            if (i >= 0 && j > i) {
                Files.writeString(file, old.substring(0, i) + section + old.substring(Math.min(old.length(), j + END.length() + 1)));
            } else {
                Files.writeString(file, old.stripTrailing() + "\n\n## Open on the newest compilers, ready to file\n\n" + section);
            }
        } else {
            Files.writeString(file, "# Compiler bugs open on the newest compilers, ready to file\n\n" + section);
        }
        return open;
    }

    /**
     * A finding as its results directory names it, {@code <kind>/<signature>/<seed>}: the
     * file this goes into (bugs.md, in the repository) names no path of the machine that ran
     * the campaign, which its readers do not have.
     */
    static String inResults(Path finding) {
        Path f = finding.toAbsolutePath().normalize();
        int n = f.getNameCount();
        return n >= 3 ? f.subpath(n - 3, n).toString() : f.getFileName().toString();
    }

    /** A report draft's headings two levels down: its title becomes a ### under the file's ##. */
    static String demoted(String draft) {
        StringBuilder out = new StringBuilder();
        boolean code = false;
        for (String line : draft.split("\n", -1)) {
            if (line.startsWith("```")) code = !code;
            out.append(!code && line.startsWith("#") ? "##" + line : line).append('\n');
        }
        return out.toString().stripTrailing();
    }
}
