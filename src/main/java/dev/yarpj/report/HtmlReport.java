package dev.yarpj.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code yarpj report}: one self-contained HTML page over one or more results directories,
 * every shard merged: the campaign at a glance, its findings, and plots. The page has no
 * scripts and loads nothing: its style and its SVG plots are inline, and its only links
 * are to the findings' files, relative to the page.
 */
public final class HtmlReport {
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private HtmlReport() {}

    /** What the report covered, for the command's one-line summary. */
    public record Written(int logs, long tests, int findings, long hits, String bugs, String agreement) {}

    public static Written write(List<Path> resultDirs, Path out, String version) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CampaignData d = CampaignData.read(resultDirs);
        Path base = out.toAbsolutePath().getParent();
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>yarpj campaign report</title>\n<style>\n")
                .append("body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}")
                .append("h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #ccc}")
                .append("table{border-collapse:collapse;font-size:.9em;margin:.5em 0}th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}")
                .append("th{background:#f2f2f2}td.n{text-align:right;font-variant-numeric:tabular-nums}tr.total td{font-weight:bold}")
                .append(".kind{font-weight:bold}.wrong-code,.compiler-crash{color:#b00}.muted{color:#777}.open{color:#b00;font-weight:bold}.fixed{color:#070}")
                .append("figure{margin:1em 0}.pair{display:flex;gap:1em;flex-wrap:wrap}")
                .append("\n</style>\n</head>\n<body>\n");
        h.append("<h1>yarpj campaign report</h1>\n<p>").append(esc(String.join(", ", resultDirs.stream().map(Path::toString).toList())))
                .append(": ").append(d.logs().size()).append(d.logs().size() == 1 ? " campaign log" : " campaign logs (shards)")
                .append(". Written by yarpj ").append(esc(version)).append(" at ").append(UTC.format(Instant.now())).append(".</p>\n");
        bugs(h, resultDirs, base);
        glance(h, d);
        String agreement = agreement(d.agreement());
        boolean grouped = resultDirs.stream().anyMatch(r -> Files.exists(r.resolve("bugs.json")));
        // Where the triage lane grouped findings into bugs (by their whole key), the Bugs section says how many; else the old count by blamed pass.
        String bugs = d.findings().isEmpty() ? "" : grouped ? "Their bugs, by the key the triage lane gives them, are in the Bugs section above." : bugSentence(d);
        findings(h, d, base, bugs, agreement);
        plots(h, d);
        configurations(h, d);
        if (d.skippedLines() > 0) {
            h.append("<p class=\"muted\">").append(d.skippedLines()).append(" unreadable log lines skipped (torn by a killed run).</p>\n");
        }
        h.append("</body>\n</html>\n");
        Path tmp = out.resolveSibling("." + out.getFileName() + ".tmp");
        Files.writeString(tmp, h);
        Files.move(tmp, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        long hits = d.findings().stream().mapToLong(f -> f.seeds().size()).sum();
        return new Written(d.logs().size(), d.tests().size(), d.findings().size(), hits, bugs, agreement);
    }

    private static void glance(StringBuilder h, CampaignData d) {
        h.append("<h2 id=\"glance\">The campaign at a glance</h2>\n");
        List<String> outcomes = d.outcomes();
        h.append("<table id=\"campaign\">\n<tr><th>log</th><th>runs</th><th>jobs</th><th>wall time</th><th>tests</th><th>tests/hour</th>");
        for (String o : outcomes) h.append("<th>").append(esc(o)).append("</th>");
        h.append("<th>CPU: generation</th><th>compilation</th><th>execution</th></tr>\n");
        double first = Double.NaN;
        double last = Double.NaN;
        long tests = 0;
        double gen = 0;
        double comp = 0;
        double exec = 0;
        Map<String, Long> total = new TreeMap<>();
        for (CampaignData.Log l : d.logs()) {
            int jobs = l.runs().stream().mapToInt(CampaignData.Run::jobs).max().orElse(0);
            row(h, false, esc(l.label()), l.runs().size(), jobs == 0 ? "" : Integer.toString(jobs), l.wallSeconds(), l.tests(),
                    l.testsPerHour(), outcomes, l.outcomes(), l.generationS(), l.compileS(), l.executionS());
            for (CampaignData.Run r : l.runs()) {
                if (!Double.isNaN(r.start())) first = Double.isNaN(first) ? r.start() : Math.min(first, r.start());
                if (!Double.isNaN(r.end())) last = Double.isNaN(last) ? r.end() : Math.max(last, r.end());
            }
            tests += l.tests();
            gen += l.generationS();
            comp += l.compileS();
            exec += l.executionS();
            l.outcomes().forEach((k, v) -> total.merge(k, v, Long::sum));
        }
        if (d.logs().size() > 1) {
            double span = Double.isNaN(first) || Double.isNaN(last) ? 0 : last - first;
            row(h, true, "all, from the first start to the last test", d.logs().stream().mapToInt(l -> l.runs().size()).sum(), "",
                    span, tests, tests / Math.max(span, 1e-9) * 3600, outcomes, total, gen, comp, exec);
        }
        h.append("</table>\n<p class=\"muted\">Wall time is the time a log's runs took, from each run's start to its last test; ")
                .append("CPU shares are of the CPU time the log records (generation, and the compilers and tests the harness ran).</p>\n");
        long builds = d.logs().stream().mapToLong(CampaignData.Log::builds).sum();
        long buildRuns = d.logs().stream().mapToLong(CampaignData.Log::buildRuns).sum();
        // A build runs once per emulator setting it is valid under: every vector length of scalable code.
        h.append(String.format(java.util.Locale.ROOT, "<p id=\"runs\">Runs: %d of %d builds that ran (%.2f per build, %.2f per compile "
                + "CPU-second); running took %.1f%% of the CPU the logs record.</p>%n", buildRuns, builds,
                buildRuns / (double) Math.max(builds, 1), buildRuns / Math.max(comp, 1e-9), 100 * exec / Math.max(gen + comp + exec, 1e-9)));
        CampaignData.SlowCompiles slow = d.slowCompiles();
        h.append("<p id=\"slow-compiles\">Slow compiles (past the compile limit; not findings): ");
        if (slow.runs() == 0) {
            h.append("none.</p>\n");
        } else {
            h.append(slow.runs()).append(slow.runs() == 1 ? " run" : " runs").append(" in ").append(slow.tests())
                    .append(slow.tests() == 1 ? " test" : " tests").append(", ").append(duration(slow.seconds())).append(" of compiling; by testbed: ");
            List<String> parts = new java.util.ArrayList<>();
            slow.byTestbed().forEach((tb, n) -> parts.add(esc(tb) + " " + n));
            h.append(String.join(", ", parts)).append(".</p>\n");
        }
    }

    private static void row(StringBuilder h, boolean total, String label, int runs, String jobs, double wall, long tests, double perHour,
                            List<String> outcomes, Map<String, Long> byOutcome, double gen, double comp, double exec) {
        double cpu = Math.max(gen + comp + exec, 1e-9);
        h.append(total ? "<tr class=\"total\">" : "<tr>").append("<td>").append(label).append("</td>").append(num(runs)).append("<td class=\"n\">")
                .append(jobs).append("</td><td class=\"n\">").append(wall > 0 ? duration(wall) : "not logged").append("</td>").append(num(tests))
                .append(wall > 0 ? num(Math.round(perHour)) : "<td></td>");
        for (String o : outcomes) h.append(num(byOutcome.getOrDefault(o, 0L)));
        h.append(pct(gen / cpu)).append(pct(comp / cpu)).append(pct(exec / cpu)).append("</tr>\n");
    }

    /**
     * The bugs first: each results directory's bugs.json (written by the triage lane of yarpj
     * fuzz, or yarpj bugs), new bugs before known ones, with their keys, standing, findings and
     * report. Nothing when no campaign has one.
     */
    @SuppressWarnings("unchecked")
    private static void bugs(StringBuilder h, List<Path> resultDirs, Path base) throws IOException {
        List<Map<String, Object>> all = new java.util.ArrayList<>();
        List<Path> from = new java.util.ArrayList<>();
        int untriaged = 0;
        for (Path dir : resultDirs) {
            Path f = dir.resolve("bugs.json");
            if (!Files.exists(f)) continue;
            Map<String, Object> j = dev.yarpj.harness.JsonFiles.parseObject(Files.readString(f));
            for (Object b : (List<Object>) j.getOrDefault("bugs", List.of())) {
                all.add((Map<String, Object>) b);
                from.add(dir);
            }
            untriaged += ((Number) j.getOrDefault("findings_not_triaged_yet", 0)).intValue();
        }
        if (all.isEmpty() && resultDirs.stream().noneMatch(r -> Files.exists(r.resolve("bugs.json")))) return;
        long known = all.stream().filter(b -> b.get("known") != null).count();
        h.append("<h2 id=\"bugs-heading\">Bugs</h2>\n<p id=\"bug-count\">").append(all.size() - known).append(" new, ").append(known)
                .append(" known").append(untriaged > 0 ? "; " + untriaged + " findings not triaged yet" : "").append(".</p>\n");
        h.append("<table id=\"bug-table\"><tr><th>bug</th><th>kind</th><th>compiler</th><th>blamed</th><th>options</th>"
                + "<th>on the newest compilers</th><th>findings</th><th>report</th></tr>\n");
        for (boolean newOnes : new boolean[] {true, false}) {
            for (int i = 0; i < all.size(); i++) {
                Map<String, Object> b = all.get(i);
                if ((b.get("known") == null) != newOnes) continue;
                Map<String, Object> key = (Map<String, Object>) b.get("key");
                String label = newOnes ? "new " + b.get("id") : "known: " + ((Map<String, Object>) b.get("known")).get("id");
                Path report = from.get(i).resolve(String.valueOf(b.get("report"))).toAbsolutePath();
                h.append("<tr><td>").append(esc(label)).append("</td><td class=\"kind ").append(esc(String.valueOf(key.get("kind")))).append("\">")
                        .append(esc(String.valueOf(key.get("kind")))).append("</td><td>").append(esc(String.valueOf(key.get("family"))))
                        .append("</td><td>").append(esc(String.valueOf(key.get("blamed")))).append("</td><td>")
                        .append(esc(String.join(" ", (List<String>) key.get("options")))).append("</td><td class=\"")
                        .append("open".equals(b.get("status")) ? "open" : "").append("\">").append(esc(String.valueOf(b.get("standing")) + rechecked(b)))
                        .append("</td>").append(num(((List<Object>) b.get("findings")).size())).append("<td><a href=\"")
                        .append(esc(base.relativize(report).toString())).append("\">report.md</a></td></tr>\n");
            }
        }
        h.append("</table>\n");
    }

    /** For a known bug, what its reduced test in the record did on the campaign's compilers (the lane's recheck). */
    @SuppressWarnings("unchecked")
    static String rechecked(Map<String, Object> bug) {
        if (!(bug.get("known") instanceof Map<?, ?> k) || !(k.get("recheck") instanceof Map<?, ?> r)) return "";
        return "; the record's reduced test: " + r.get("result") + (r.get("campaign_compiler") == null ? "" : " on " + r.get("campaign_compiler"))
                + (r.get("standing") == null ? "" : " (" + r.get("standing") + ")");
    }

    private static void findings(StringBuilder h, CampaignData d, Path base, String bugs, String agreement) {
        h.append("<h2 id=\"findings-heading\">Findings</h2>\n");
        if (d.findings().isEmpty()) {
            h.append("<p id=\"no-findings\">No findings.</p>\n");
            h.append("<table id=\"findings\"><tr><th>kind</th><th>signature</th><th>tests</th></tr></table>\n");
            return;
        }
        double t0 = d.tests().stream().mapToDouble(CampaignData.TestDone::t).filter(t -> !Double.isNaN(t)).min().orElse(Double.NaN);
        h.append("<p id=\"bugs\">").append(d.findings().size()).append(" signatures, hit by ")
                .append(d.findings().stream().mapToLong(f -> f.seeds().size()).sum()).append(" tests. ").append(esc(bugs))
                .append("</p>\n");
        h.append("<table id=\"findings\">\n<tr><th>kind</th><th>signature</th><th>tests</th><th>first seen</th><th>testbeds</th>")
                .append("<th>example seeds</th><th>bug (yarpj triage)</th><th>on the newest compilers</th><th>files</th></tr>\n");
        for (CampaignData.Finding f : d.findings()) {
            h.append("<tr><td class=\"kind ").append(esc(f.kind())).append("\">").append(esc(f.kind())).append("</td><td>")
                    .append(esc(f.signature())).append("<br><span class=\"muted\">").append(esc(f.id())).append("</span></td>")
                    .append(num(f.seeds().size())).append("<td>");
            if (!Double.isNaN(f.firstSeen())) {
                h.append(duration(f.firstSeen() - t0)).append(" in<br><span class=\"muted\">")
                        .append(UTC.format(Instant.ofEpochMilli((long) (f.firstSeen() * 1000)))).append("</span>");
            }
            h.append("</td><td>").append(esc(String.join(", ", f.testbeds()))).append("</td><td>");
            List<String> seeds = new ArrayList<>();
            for (long s : f.seeds()) {
                if (seeds.size() == 5) {
                    seeds.add("…");
                    break;
                }
                seeds.add(Long.toString(s));
            }
            h.append(esc(String.join(", ", seeds))).append("</td><td>");
            if (f.bugs().isEmpty()) {
                h.append("<span class=\"muted\">not triaged</span></td><td>");
            } else {
                h.append(esc(String.join("; ", f.bugs().stream().map(CampaignData.Triaged::group).distinct().toList()))).append("</td><td>");
                List<String> standings = new ArrayList<>();
                for (CampaignData.Triaged b : f.bugs()) {
                    String st = b.standing() == null ? "<span class=\"muted\">not checked</span>"
                            : "<span class=\"" + esc(b.status()) + "\">" + esc(b.standing()) + "</span>";
                    if (!standings.contains(st)) standings.add(st);
                }
                h.append(String.join("; ", standings)).append("</td><td>");
            }
            List<String> links = new ArrayList<>();
            for (Path ex : f.examples()) {
                if (Files.exists(ex.resolve("repro.sh"))) {
                    links.add(link(base, ex.resolve("repro.sh"), ex.getFileName() + "/repro.sh"));
                }
            }
            for (Path r : f.reduced()) links.add(link(base, r, "reduced " + r.getParent().getParent().getFileName() + "/" + r.getFileName()));
            h.append(String.join("<br>", links)).append("</td></tr>\n");
        }
        h.append("</table>\n<p id=\"agreement\">").append(esc(agreement)).append("</p>\n");
    }

    /**
     * How many bugs the findings are: a signature is only how the harness groups findings, and
     * {@code yarpj triage} puts those whose blamed pass agrees in one group, whatever their
     * signatures said. Signatures not triaged are counted apart, never guessed into a group.
     * Bugs still open on the newest compilers (GCC trunk, the newest clang) are counted apart
     * from those fixed there: a group is open when any of its examples is.
     */
    static String bugSentence(CampaignData d) {
        Map<String, String> bugs = new TreeMap<>(); // group -> open, fixed or null (not checked)
        long triaged = 0;
        for (CampaignData.Finding f : d.findings()) {
            if (f.bugs().isEmpty()) continue;
            triaged++;
            for (CampaignData.Triaged b : f.bugs()) {
                String known = bugs.get(b.group());
                String st = "open".equals(b.status()) || "open".equals(known) ? "open"
                        : "fixed".equals(b.status()) || "fixed".equals(known) ? "fixed" : null;
                bugs.put(b.group(), st);
            }
        }
        long untriaged = d.findings().size() - triaged;
        if (triaged == 0) {
            return "A signature is how the harness groups findings; none is triaged yet (yarpj triage groups them into bugs by blamed pass).";
        }
        long open = bugs.values().stream().filter("open"::equals).count();
        long fixed = bugs.values().stream().filter("fixed"::equals).count();
        long unchecked = bugs.size() - open - fixed;
        return "By yarpj triage's blamed pass, the " + triaged + " triaged signature" + (triaged == 1 ? " is " : "s are ") + bugs.size()
                + " distinct bug" + (bugs.size() == 1 ? "" : "s") + ": " + open + " open on the newest compilers, " + fixed + " fixed there"
                + (unchecked == 0 ? "" : ", " + unchecked + " not checked against them") + (untriaged == 0 ? "." : "; " + untriaged + " not triaged.");
    }

    /** One sentence: do the campaign logs and the finding directories agree? */
    static String agreement(CampaignData.Agreement a) {
        String older = a.unchecked() == 0 ? "" : " (" + a.unchecked() + " more found by tests whose log lines, written by an older yarpj,"
                + " do not list findings, cannot be checked)";
        if (a.agrees()) {
            return "The campaign logs and the finding directories agree: " + a.pairs() + " (finding, test) pairs, none lost or doubled"
                    + older + ".";
        }
        StringBuilder s = new StringBuilder("The campaign logs and the finding directories disagree:");
        if (!a.doubled().isEmpty()) s.append(" logged twice: ").append(a.doubled().size()).append(" (").append(a.doubled().get(0)).append(");");
        if (!a.onlyLogged().isEmpty()) s.append(" logged, not stored: ").append(a.onlyLogged().size()).append(" (").append(a.onlyLogged().get(0)).append(");");
        if (!a.onlyStored().isEmpty()) {
            s.append(" stored, not logged: ").append(a.onlyStored().size()).append(" (").append(a.onlyStored().get(0))
                    .append("; a test killed before its log line; --resume reruns it);");
        }
        return s.substring(0, s.length() - 1) + older + ".";
    }

    private static void plots(StringBuilder h, CampaignData d) {
        h.append("<h2 id=\"plots\">Plots</h2>\n");
        figure(h, "over-time", Plots.overTime(d.tests()), "the logs have no test times (written by an older yarpj)");
        figure(h, "outcomes", Plots.outcomesPerTestbed(d.outcomesPerTestbed(), d.outcomes()), "no testbed runs logged");
        figure(h, "compile-times", Plots.compileTimes(d.compileSecondsPerTestbed()), "no compiles logged");
        String trips = Plots.bars("Trip counts of the tested loops", "iterations per entry", "static loops", d.tripBands());
        String idioms = Plots.bars("Idioms of the tested loop nests", "idiom", "loop nests", d.idioms());
        if (trips == null && idioms == null) {
            h.append("<p class=\"muted\">The campaign did not log the loops' trip counts and idioms.</p>\n");
        } else {
            h.append("<div class=\"pair\">");
            figure(h, "trips", trips, "");
            figure(h, "idioms", idioms, "");
            h.append("</div>\n<p class=\"muted\">As the interpreter saw them run: each static loop counted once per test, ")
                    .append("in the band of its mean iterations per entry.</p>\n");
        }
    }

    /** Of each testbed with a configuration space: per alternative of each axis, the runs that drew it and their findings. */
    private static void configurations(StringBuilder h, CampaignData d) {
        if (d.options().isEmpty()) return;
        h.append("<h2 id=\"configurations\">Configurations drawn</h2>\n<p>Each test drew one alternative of each axis of the")
                .append(" testbeds' configuration spaces: how many runs drew each, and how many of those were findings.</p>\n")
                .append("<table><tr><th>testbed</th><th>axis</th><th>alternative</th><th>runs</th><th>findings</th></tr>\n");
        d.options().forEach((tb, axes) -> axes.forEach((axis, values) -> values.forEach((value, n) -> h.append("<tr><td>")
                .append(esc(tb)).append("</td><td>").append(esc(axis)).append("</td><td>").append(esc(value)).append("</td>")
                .append(num(n.runs())).append(num(n.findings())).append("</tr>\n"))));
        h.append("</table>\n");
    }

    private static void figure(StringBuilder h, String id, String svg, String missing) {
        if (svg == null) {
            if (!missing.isEmpty()) h.append("<p class=\"muted\" id=\"").append(id).append("\">No plot: ").append(esc(missing)).append(".</p>\n");
            return;
        }
        h.append("<figure id=\"").append(id).append("\">").append(svg).append("</figure>\n");
    }

    private static String link(Path base, Path target, String text) {
        String href = base.relativize(target.toAbsolutePath()).toString().replace(java.io.File.separatorChar, '/');
        return "<a href=\"" + esc(href) + "\">" + esc(text) + "</a>";
    }

    private static String num(long n) {
        return "<td class=\"n\">" + String.format(Locale.ROOT, "%,d", n) + "</td>";
    }

    private static String pct(double share) {
        return "<td class=\"n\">" + String.format(Locale.ROOT, "%.1f%%", 100 * share) + "</td>";
    }

    /** "42 s", "3 min 05 s", "2 h 07 min", with no-break spaces. */
    static String duration(double seconds) {
        if (Double.isNaN(seconds)) return "";
        long s = Math.round(seconds);
        String d = s >= 3600 ? String.format(Locale.ROOT, "%d h %02d min", s / 3600, s % 3600 / 60)
                : s >= 60 ? String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60) : s + " s";
        return d.replace(" ", "&nbsp;");
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
