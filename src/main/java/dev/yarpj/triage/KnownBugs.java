package dev.yarpj.triage;

import dev.yarpj.harness.JsonFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The project's record of known bugs, one directory per bug ({@code known-bugs/<id>/} in the
 * repository): {@code bug.json} (its title, status, and the keys its findings triage to),
 * the reduced test and the report. A campaign labels a bug whose key is a known bug's as
 * that bug, and shows the others as new. A bug may have several keys: one per configuration
 * triage tells apart that a person found to be the same bug.
 */
public final class KnownBugs {
    /**
     * A known bug: its directory name, title, status (open, fixed...) and keys; its record's
     * directory, and its reduced test there (which a campaign rechecks, {@link Recheck}, and
     * labels findings by, {@link KnownSymptom}), or null when it holds none.
     */
    public record Known(String id, String title, String status, List<BugKey> keys, Path dir, Path test) {
        public Known {
            keys = List.copyOf(keys);
        }

        /** Whether the record holds its reduced test. */
        public boolean hasTest() {
            return test != null;
        }
    }

    private final List<Known> bugs;

    private KnownBugs(List<Known> bugs) {
        this.bugs = List.copyOf(bugs);
    }

    /** No known bugs. */
    public static final KnownBugs NONE = new KnownBugs(List.of());

    public List<Known> bugs() {
        return bugs;
    }

    /** The known bug with key {@code k}, or null. */
    public Known match(BugKey k) {
        for (Known b : bugs) if (b.keys().contains(k)) return b;
        return null;
    }

    /** The record in {@code dir}; none when it does not exist. A record that cannot be read is a one-line error. */
    @SuppressWarnings("unchecked")
    public static KnownBugs load(Path dir) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) return NONE;
        List<Known> out = new ArrayList<>();
        List<Path> records;
        try (Stream<Path> s = Files.list(dir)) {
            records = s.filter(p -> Files.exists(p.resolve("bug.json"))).sorted().toList();
        }
        for (Path p : records) {
            Map<String, Object> j;
            try {
                j = JsonFiles.parseObject(Files.readString(p.resolve("bug.json")));
            } catch (RuntimeException e) {
                throw new IOException(p.resolve("bug.json") + " is not a JSON object: " + e.getMessage());
            }
            if (j == null) throw new IOException(p.resolve("bug.json") + " is not a JSON object");
            List<BugKey> keys = new ArrayList<>();
            if (!(j.get("keys") instanceof List<?> ks)) throw new IOException(p.resolve("bug.json") + " has no list 'keys'");
            for (Object k : ks) {
                BugKey key = key(k);
                if (key == null) throw new IOException(p.resolve("bug.json") + ": a key needs kind, family, blamed and options");
                keys.add(key);
            }
            Path test = j.get("test") == null ? null : p.toAbsolutePath().resolve(String.valueOf(j.get("test")));
            out.add(new Known(p.getFileName().toString(), String.valueOf(j.getOrDefault("title", p.getFileName().toString())),
                    String.valueOf(j.getOrDefault("status", "open")), keys, p.toAbsolutePath(), test != null && Files.exists(test) ? test : null));
        }
        return new KnownBugs(out);
    }

    /**
     * Adds the new bugs of {@code book} to the record in {@code dir}: for each, a directory
     * named by its id with bug.json (title, status, key, where and when it was found, the
     * smallest configuration), the test triage worked on and the report. Returns their ids.
     */
    public static List<String> addNew(BugBook.Book book, Path dir) throws IOException {
        List<String> added = new ArrayList<>();
        for (BugBook.Bug b : book.bugs()) {
            if (b.known() != null) continue;
            Path d = Files.createDirectories(dir.resolve(b.id()));
            BugBook.Triaged smallest = b.findings().get(0);
            String report = BugBook.report(b);
            String title = report.lines().findFirst().orElse("# " + b.key().line()).replaceFirst("^#+\\s*", "");
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("title", title);
            j.put("status", b.status());
            j.put("keys", List.of(json(b.key())));
            j.put("smallest_configuration", smallest.minimal().replaceFirst("^\\S*/", ""));
            // The version and the run the bug was shown on: a recheck calls it fixed only on a newer one, under that run.
            Map<String, Object> meta = JsonFiles.parseObject(Files.readString(smallest.dir().resolve("meta.json")));
            String compiler = smallest.minimal().split("\\s+")[0];
            if (meta.get("compilers") instanceof Map<?, ?> versions && versions.get(compiler) != null) {
                j.put("shown_on", dev.yarpj.harness.CompilerVersion.shortForm(String.valueOf(versions.get(compiler))));
            }
            if (meta.get("run") instanceof List<?> run && !run.isEmpty()) j.put("run", run);
            Path test = null;
            try (Stream<Path> s = Files.list(smallest.dir().resolve("triage"))) {
                test = s.filter(p -> p.getFileName().toString().matches("test\\.(c|cpp|ispc)")).findFirst().orElse(null);
            }
            if (test != null) {
                Files.copy(test, d.resolve(test.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                j.put("test", test.getFileName().toString());
            }
            j.put("found", Map.of("finding", smallest.path(), "findings", b.findings().size(),
                    "first_seen", b.findings().stream().map(BugBook.Triaged::seen).min(java.util.Comparator.naturalOrder()).orElseThrow().toString()));
            BugBook.atomicWrite(d.resolve("bug.json"), JsonFiles.writePretty(j) + "\n");
            BugBook.atomicWrite(d.resolve("report.md"), report);
            added.add(b.id());
        }
        return added;
    }

    static final String INDEX_BEGIN = "<!-- yarpj bugs --merge: begin (the record in known-bugs/, written by yarpj bugs; edits here are lost) -->";
    static final String INDEX_END = "<!-- yarpj bugs --merge: end -->";

    /**
     * Writes the record's index, one row per known bug (its title, status, key and report),
     * into {@code bugsMd}: into its part between the index marks if it has one, else at its end.
     */
    public static void writeIndex(Path dir, Path bugsMd) throws IOException {
        KnownBugs k = load(dir);
        Path base = bugsMd.toAbsolutePath().getParent();
        StringBuilder b = new StringBuilder(INDEX_BEGIN).append("\n\n| bug | status | key | record |\n|---|---|---|---|\n");
        for (Known x : k.bugs()) {
            String rel = base.relativize(dir.toAbsolutePath().resolve(x.id())).toString();
            // The report triage wrote, where the record has one; else its bug.json (its entry above has the test).
            String record = rel + (Files.exists(x.dir().resolve("report.md")) ? "/report.md" : "/bug.json");
            b.append("| ").append(x.title().replace("|", "\\|")).append(" | ").append(x.status()).append(" | ")
                    .append(x.keys().isEmpty() ? "(no key yet)" : String.join("; ", x.keys().stream().map(BugKey::line).toList()).replace("|", "\\|"))
                    .append(" | [").append(x.id()).append("](").append(record).append(") |\n");
        }
        if (k.bugs().isEmpty()) b.append("| (none yet) | | | |\n");
        b.append("\n").append(INDEX_END).append("\n");
        String section = b.toString();
        String old = Files.exists(bugsMd) ? Files.readString(bugsMd) : "# Compiler bugs found by yarpj\n";
        int i = old.indexOf(INDEX_BEGIN);
        int j = old.indexOf(INDEX_END);
        String text = i >= 0 && j > i ? old.substring(0, i) + section + old.substring(Math.min(old.length(), j + INDEX_END.length() + 1))
                : old.stripTrailing() + "\n\n## The record of known bugs\n\n" + section;
        // The status table, where bugs.md has its marks: drawn from the records too, so that a status changes in one place.
        int ti = text.indexOf(TABLE_BEGIN);
        int tj = text.indexOf(TABLE_END);
        if (ti >= 0 && tj > ti) text = text.substring(0, ti) + statusTable(dir, base, text) + text.substring(tj);
        BugBook.atomicWrite(bugsMd, text);
    }

    static final String TABLE_BEGIN = "<!-- yarpj bugs: status table begin (drawn from known-bugs/*/bug.json by yarpj bugs --recheck and --merge; edits here are lost) -->";
    static final String TABLE_END = "<!-- yarpj bugs: status table end -->";

    /**
     * The status table of bugs.md, one row per record: open bugs first, then fixed ones, each
     * group in the order of their entries in {@code text}. The compiler, the bug and the command
     * are the record's {@code table}; the status is its {@code status} (with {@code table.fixed_in},
     * the versions the record notes, and the date of its last recheck); a record without a
     * {@code table} (one {@code bugs --merge} added) shows its title and smallest configuration.
     */
    @SuppressWarnings("unchecked")
    static String statusTable(Path dir, Path base, String text) throws IOException {
        Map<String, Integer> headings = new LinkedHashMap<>();
        int pos = 0;
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("#")) headings.putIfAbsent(anchor(line.replaceFirst("^#+\\s*", "")), pos);
            pos += line.length() + 1;
        }
        record Row(boolean open, int at, String id, String line) {}
        List<Row> rows = new ArrayList<>();
        for (Known x : load(dir).bugs()) {
            Map<String, Object> j = JsonFiles.parseObject(Files.readString(x.dir().resolve("bug.json")));
            Map<String, Object> t = j.get("table") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
            String entry = String.valueOf(j.getOrDefault("entry", "")).replaceFirst("^bugs\\.md", "");
            String anchor = entry.startsWith("#") ? entry.substring(1) : "";
            boolean open = !x.status().startsWith("fixed");
            StringBuilder status = new StringBuilder("**").append(open ? x.status() : t.get("fixed_in") != null ? "fixed in " + t.get("fixed_in") : x.status()).append("**");
            if (j.get("lost") != null) status.append(" (its test is lost)");
            if (t.get("versions") != null) status.append("; ").append(t.get("versions"));
            if (j.get("rechecked") instanceof Map<?, ?> r && r.get("on") != null && String.valueOf(r.get("result")).matches("shows it|gets it right")) {
                status.append("; rechecked ").append(String.valueOf(r.get("on")), 0, 10);
            }
            String record = base.relativize(dir.toAbsolutePath().resolve(x.id())).toString();
            String links = (anchor.isEmpty() ? "" : "[entry](#" + anchor + "), ") + "[record](" + record + "/bug.json)";
            String line = "| " + cell(t.getOrDefault("compiler", "")) + " | " + cell(t.getOrDefault("bug", x.title())) + " | " + status + " | "
                    + cell(t.getOrDefault("command", "`" + j.getOrDefault("smallest_configuration", "") + "`")) + " | " + links + " |\n";
            rows.add(new Row(open, headings.getOrDefault(anchor, Integer.MAX_VALUE), x.id(), line));
        }
        rows.sort(java.util.Comparator.comparing((Row r) -> !r.open()).thenComparingInt(Row::at).thenComparing(Row::id));
        StringBuilder b = new StringBuilder(TABLE_BEGIN).append("\n\n| compiler | bug | status | smallest command | entry |\n|---|---|---|---|---|\n");
        for (Row r : rows) b.append(r.line());
        return b.append("\n").toString();
    }

    private static String cell(Object o) {
        return String.valueOf(o).replace("\n", " ");
    }

    /** The anchor GitHub gives a heading: lower case, punctuation but '-' and '_' dropped, spaces made '-'. */
    static String anchor(String heading) {
        return heading.strip().toLowerCase(java.util.Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
    }

    /** A key from its JSON form ({@link #json}), or null when it is none. */
    static BugKey key(Object json) {
        if (!(json instanceof Map<?, ?> m) || !(m.get("options") instanceof List<?> opts)) return null;
        return new BugKey(String.valueOf(m.get("kind")), m.get("target") == null ? BugKey.HOST : String.valueOf(m.get("target")),
                String.valueOf(m.get("family")), String.valueOf(m.get("blamed")), opts.stream().map(String::valueOf).toList(),
                m.get("crash") == null ? "" : String.valueOf(m.get("crash")));
    }

    /** Keys from a file of their JSON forms: an object with a list {@code keys}, or a bugs.json (its bugs' keys). */
    public static List<BugKey> keys(Path file) throws IOException {
        Map<String, Object> j = JsonFiles.parseObject(Files.readString(file));
        List<?> list = j == null ? null : j.get("keys") instanceof List<?> l ? l : j.get("bugs") instanceof List<?> b
                ? b.stream().map(x -> x instanceof Map<?, ?> bug ? bug.get("key") : null).toList() : null;
        if (list == null) throw new IOException(file + " holds no list of bug keys");
        List<BugKey> out = new ArrayList<>();
        for (Object k : list) {
            BugKey key = key(k);
            if (key == null) throw new IOException(file + ": a key needs kind, family, blamed and options");
            out.add(key);
        }
        return out;
    }

    /** Writes {@code keys} into {@code file} as {@link #keys} reads them, and the bugs' reduced tests as {@link #tests} does. */
    static void writeKeys(List<BugKey> keys, List<KnownSymptom.SeenTest> tests, Path file) throws IOException {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("keys", keys.stream().map(KnownBugs::json).toList());
        List<Map<String, Object>> ts = new ArrayList<>();
        for (KnownSymptom.SeenTest t : tests) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("key", json(t.key()));
            x.put("test", t.test().toAbsolutePath().toString());
            ts.add(x);
        }
        j.put("tests", ts);
        BugBook.atomicWrite(file, JsonFiles.writePretty(j) + "\n");
    }

    /** The reduced tests of the bugs seen so far that {@link #writeKeys} wrote into {@code file}; none in a file of keys alone. */
    public static List<KnownSymptom.SeenTest> tests(Path file) throws IOException {
        Map<String, Object> j = JsonFiles.parseObject(Files.readString(file));
        List<KnownSymptom.SeenTest> out = new ArrayList<>();
        if (j == null || !(j.get("tests") instanceof List<?> list)) return out;
        for (Object o : list) {
            if (!(o instanceof Map<?, ?> m) || key(m.get("key")) == null || m.get("test") == null) throw new IOException(file + ": a test needs a key and a path");
            out.add(new KnownSymptom.SeenTest(key(m.get("key")), Path.of(String.valueOf(m.get("test")))));
        }
        return out;
    }

    /** A key as bug.json holds it. */
    static Map<String, Object> json(BugKey k) {
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("kind", k.kind());
        key.put("target", k.target());
        key.put("family", k.family());
        key.put("blamed", k.blamed());
        key.put("options", k.options());
        if (!k.crash().isEmpty()) key.put("crash", k.crash());
        return key;
    }
}
