package dev.yarpj.triage;

import dev.yarpj.harness.JsonFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A campaign's bugs: its triaged findings ({@code <kind>/<signature>/<seed>/triage/triage.json})
 * grouped by {@link BugKey}. {@link #write} keeps {@code DIR/bugs.json} (every bug with its
 * key, standing on the newest compilers, findings, and first and last time seen) and
 * {@code DIR/bugs/<id>/report.md} (the report draft of the bug's smallest finding, with the
 * list of its findings) up to date; it reads only what triage left, so it can run again at
 * any time.
 */
public final class BugBook {
    /**
     * The findings directories triage knows the symptom of, in the order the lane takes them:
     * compile hangs last, since each try of theirs costs a slow compile and one would hold up
     * every runtime crash and link failure behind it.
     */
    static final List<String> KINDS = List.of("wrong-code", "compiler-crash", "runtime-crash", "program-rejected", "compile-hang");

    /** A triaged finding: where it is under the results directory, and what its triage said. */
    public record Triaged(String path, long seed, String minimal, String status, String standing, int lines, Instant seen,
                          Path dir) {}

    /**
     * One bug: its key, the findings that show it (smallest first), and the known bug it is
     * (null: a new one). A new bug {@code resembles} a known one whose key it has, but whose
     * reduced test the campaign's compiler gets right: it is another bug of that pass under
     * those options, or a second face of the known one that its fix left behind.
     */
    public record Bug(BugKey key, List<Triaged> findings, KnownBugs.Known known, KnownBugs.Known resembles) {
        public Bug(BugKey key, List<Triaged> findings, KnownBugs.Known known) {
            this(key, findings, known, null);
        }

        public String id() {
            return key.id();
        }

        /**
         * The recheck of the reduced test of the known bug it is (or resembles) on this
         * campaign's compilers ({@link Recheck}), from whichever of its findings it was made
         * from; null when none was.
         */
        public Map<String, Object> recheck() throws IOException {
            KnownBugs.Known k = known != null ? known : resembles;
            if (k == null) return null;
            for (Triaged t : findings) {
                Path f = Recheck.file(t.dir(), k.id());
                if (Files.exists(f)) return JsonFiles.parseObject(Files.readString(f));
            }
            return null;
        }

        /** Open on the newest compilers if any of its findings is. */
        public String status() {
            return findings.stream().anyMatch(t -> t.status().equals("open")) ? "open"
                    : findings.get(0).status();
        }
    }

    /** What a results directory holds: its bugs, and the findings triage refused or has not seen yet. */
    public record Book(List<Bug> bugs, int triaged, List<String> refused, List<Path> untriaged) {
        /** How many of the bugs are in the record of known bugs. */
        public long known() {
            return bugs.stream().filter(b -> b.known() != null).count();
        }
    }

    private BugBook() {}

    /** The finding directories under {@code results} of the kinds triage takes, in path order. */
    static List<Path> findings(Path results) throws IOException {
        List<Path> out = new ArrayList<>();
        for (String kind : KINDS) {
            Path k = results.resolve(kind);
            if (!Files.isDirectory(k)) continue;
            try (Stream<Path> s = Files.walk(k, 2)) {
                s.filter(p -> p.getNameCount() == k.getNameCount() + 2 && p.getFileName().toString().matches("\\d+")
                        && Files.exists(p.resolve("meta.json"))).sorted().forEach(out::add);
            }
        }
        return out;
    }

    /** The bugs of the triaged findings under {@code results}, known ones labelled from {@code known}. */
    public static Book read(Path results, KnownBugs known) throws IOException {
        Map<BugKey, List<Triaged>> byKey = new LinkedHashMap<>();
        List<String> refused = new ArrayList<>();
        List<Path> untriaged = new ArrayList<>();
        int triaged = 0;
        for (Path f : findings(results)) {
            Path json = f.resolve("triage/triage.json");
            Path refusal = f.resolve(TriageLane.REFUSED);
            if (Files.exists(json)) {
                Map<String, Object> t = JsonFiles.parseObject(Files.readString(json));
                // A finding the lane reduced keeps the key of its quick triage (see TriageLane).
                Path quick = f.resolve(TriageLane.QUICK);
                BugKey key = BugKey.of(Files.exists(quick) ? JsonFiles.parseObject(Files.readString(quick)) : t);
                triaged++;
                String path = results.relativize(f).toString();
                byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(new Triaged(path, Long.parseLong(f.getFileName().toString()),
                        String.valueOf(t.get("minimal")), String.valueOf(t.get("status")), String.valueOf(t.get("standing")),
                        ((Number) t.getOrDefault("lines", 0)).intValue(), Files.getLastModifiedTime(f.resolve("meta.json")).toInstant(), f));
            } else if (Files.exists(refusal)) {
                refused.add(results.relativize(f) + ": " + Files.readString(refusal).strip());
            } else {
                untriaged.add(f);
            }
        }
        // Keys of one known bug (a record may list several) are one bug; the others, one bug per key.
        Map<String, BugKey> firstKeyOf = new LinkedHashMap<>();
        Map<BugKey, List<Triaged>> merged = new LinkedHashMap<>();
        byKey.forEach((k, v) -> {
            KnownBugs.Known kb = known.match(k);
            BugKey into = kb == null ? k : firstKeyOf.computeIfAbsent(kb.id(), id -> k);
            merged.computeIfAbsent(into, x -> new ArrayList<>()).addAll(v);
        });
        List<Bug> bugs = new ArrayList<>();
        for (Map.Entry<BugKey, List<Triaged>> e : merged.entrySet()) {
            List<Triaged> sorted = e.getValue().stream().sorted(Comparator.comparingInt(Triaged::lines).thenComparing(Triaged::path)).toList();
            Bug b = new Bug(e.getKey(), sorted, known.match(e.getKey()));
            // The known bug's own test right on the compiler that fails on these findings (newer than the one the record shows it
            // on): the findings are some other bug, which the key does not tell apart.
            Map<String, Object> recheck = b.recheck();
            if (b.known() != null && recheck != null && "fixed".equals(recheck.get("status"))) b = new Bug(b.key(), sorted, null, b.known());
            bugs.add(b);
        }
        bugs.sort(Comparator.comparing((Bug b) -> b.findings().stream().map(Triaged::seen).min(Comparator.naturalOrder()).orElseThrow())
                .thenComparing(Bug::id));
        return new Book(bugs, triaged, refused, untriaged);
    }

    /** Reads the bugs of {@code results} and writes bugs.json and bugs/<id>/report.md there; returns them. */
    public static Book write(Path results, KnownBugs known) throws IOException {
        Book book = read(results, known);
        Path dir = Files.createDirectories(results.resolve("bugs"));
        List<Map<String, Object>> all = new ArrayList<>();
        for (Bug b : book.bugs()) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("id", b.id());
            Map<String, Object> key = new LinkedHashMap<>();
            key.put("kind", b.key().kind());
            key.put("target", b.key().target());
            key.put("family", b.key().family());
            key.put("blamed", b.key().blamed());
            key.put("options", b.key().options());
            if (!b.key().crash().isEmpty()) key.put("crash", b.key().crash());
            j.put("key", key);
            if (b.known() != null) {
                Map<String, Object> k = new LinkedHashMap<>();
                k.put("id", b.known().id());
                k.put("title", b.known().title());
                k.put("recorded_status", b.known().status());
                Map<String, Object> recheck = b.recheck();
                k.put("recheck", recheck != null ? recheck : b.known().hasTest() ? "not yet" : "none: the record has no reduced test");
                j.put("known", k);
            } else {
                j.put("known", null);
                if (b.resembles() != null) {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("id", b.resembles().id());
                    r.put("title", b.resembles().title());
                    r.put("why", "its key, but the record's reduced test is right on this campaign's compiler");
                    r.put("recheck", b.recheck());
                    j.put("resembles", r);
                }
            }
            j.put("status", b.status());
            j.put("standing", b.findings().get(0).standing());
            j.put("smallest_configuration", b.findings().stream().map(Triaged::minimal).min(Comparator.comparingInt(String::length)).orElseThrow());
            j.put("first_seen", b.findings().stream().map(Triaged::seen).min(Comparator.naturalOrder()).orElseThrow().toString());
            j.put("last_seen", b.findings().stream().map(Triaged::seen).max(Comparator.naturalOrder()).orElseThrow().toString());
            List<Map<String, Object>> fs = new ArrayList<>();
            for (Triaged t : b.findings()) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("finding", t.path());
                x.put("seed", t.seed());
                x.put("configuration", t.minimal());
                x.put("lines", t.lines());
                x.put("seen", t.seen().toString());
                fs.add(x);
            }
            j.put("findings", fs);
            j.put("report", "bugs/" + b.id() + "/report.md");
            all.add(j);
            Path bugDir = Files.createDirectories(dir.resolve(b.id()));
            atomicWrite(bugDir.resolve("report.md"), report(b));
        }
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("bugs", all);
        top.put("new_bugs", book.bugs().size() - book.known());
        top.put("known_bugs", book.known());
        top.put("findings_triaged", book.triaged());
        top.put("findings_refused", book.refused());
        top.put("findings_not_triaged_yet", book.untriaged().size());
        atomicWrite(results.resolve("bugs.json"), JsonFiles.writePretty(top) + "\n");
        return book;
    }

    /** The bug's report: its smallest finding's report draft, then the list of its findings. */
    static String report(Bug b) throws IOException {
        Triaged smallest = b.findings().get(0);
        Path draft = smallest.dir().resolve("triage/report.md");
        StringBuilder r = new StringBuilder();
        r.append(Files.exists(draft) ? Files.readString(draft).strip() : "# " + b.key().line()).append("\n\n");
        if (b.resembles() != null) {
            Map<String, Object> recheck = b.recheck();
            r.append("## Not the known bug it resembles\n\n").append("Its key is that of known bug ").append(b.resembles().id()).append(" (")
                    .append(b.resembles().title()).append("), but that bug's reduced test is right on ")
                    .append(recheck == null ? "this campaign's compiler" : String.valueOf(recheck.get("campaign_compiler")))
                    .append(", which fails on these findings: another bug of the same pass under the same options, or a second face"
                            + " of the known one that its fix left behind.\n\n");
        }
        r.append("## Findings of this bug\n\n");
        r.append("Grouped by the key ").append(b.key().line()).append(" (bug ").append(b.id()).append(").\n\n");
        for (Triaged t : b.findings()) {
            r.append("- `").append(t.path()).append("`: ").append(t.minimal()).append(" (").append(t.lines()).append(" lines)\n");
        }
        return r.toString();
    }

    /** One line per bug for a summary. */
    public static List<String> lines(Book book) throws IOException {
        List<String> out = new ArrayList<>();
        for (Bug b : book.bugs()) {
            Map<String, Object> recheck = b.recheck();
            String rechecked = recheck == null ? "" : "; its reduced test: " + recheck.get("result")
                    + (recheck.get("campaign_compiler") == null ? "" : " on " + recheck.get("campaign_compiler"))
                    + (recheck.get("status") == null ? "" : ", " + recheck.get("status") + " on the newest");
            String what = b.known() != null ? "known: " + b.known().id() : b.resembles() != null
                    ? "new " + b.id() + ", resembling known " + b.resembles().id() + " (whose own test this compiler gets right)" : "new " + b.id();
            if (b.resembles() != null) rechecked = "";
            out.add(what + " (" + b.status() + " on the newest compilers, "
                    + b.findings().size() + " finding" + (b.findings().size() == 1 ? "" : "s") + rechecked + "): " + b.key().line());
        }
        return out;
    }

    static void atomicWrite(Path file, String text) throws IOException {
        // A temporary name of this process and thread: the lanes of several shards write one bugs.json.
        Path tmp = file.resolveSibling("." + file.getFileName() + "." + ProcessHandle.current().pid() + "." + Thread.currentThread().getId() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Counts by status, for a summary: open, fixed on trunk, and so on. */
    static Map<String, Integer> byStatus(Book book) {
        Map<String, Integer> m = new TreeMap<>();
        for (Bug b : book.bugs()) m.merge(b.status(), 1, Integer::sum);
        return m;
    }
}
