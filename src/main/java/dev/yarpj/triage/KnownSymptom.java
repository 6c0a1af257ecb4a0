package dev.yarpj.triage;

import dev.yarpj.harness.Finding;
import dev.yarpj.harness.JsonFiles;
import dev.yarpj.harness.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Labels a wrong code, a compiler crash or a link failure with a bug already seen (in the
 * record, or earlier in the campaign) by a few builds, where a quick triage makes dozens: it
 * drops the options one at a time, bisects the passes and builds with every installed
 * version, and under qemu every one of those builds is also a run in the emulator.
 *
 * <p>The finding fits a key of its kind, compiler family and target (and, for a crash, of the
 * place it crashed in) when its compile has the key's options, and two builds agree: with the
 * key's blamed pass turned off alone ({@link KnownOutlier#disabling}) the test comes out
 * right, and in the key's configuration (the finding's level and the key's options alone) it
 * still goes wrong. The symptom is then that pass's, under that bug's options. A finding that
 * fits no key goes to the quick triage, and so does one whose compiler cannot turn the pass
 * off (clang before 21 knows no {@code -opt-disable}).
 *
 * <p>The builds cannot tell two bugs of one pass under the same options apart; the key
 * cannot either, and a record's reduced test does ({@link Recheck}, {@link BugBook}): a
 * finding whose compiler gets the record's test right is not that bug.
 */
public final class KnownSymptom {
    /** A label: the key it fits, the build with the pass off, the builds the label took and their CPU seconds. */
    record Label(BugKey key, List<String> build, int builds, double cpuSeconds) {}

    /**
     * A bug already seen with its reduced test: {@code test} is a test file with its main, or a
     * directory of a finding's files (the IR phase's) that {@link Finding#merge} makes one of.
     */
    public record SeenTest(BugKey key, Path test) {}

    /** How many seen bugs' reduced tests one finding tries, each one build (and run) in the finding's configuration. */
    static final int MAX_TESTS = 3;

    private KnownSymptom() {}

    /** How many keys' passes one finding tries, each one build (and run) with that pass off. */
    static final int MAX_PASSES = 3;

    /**
     * The key of {@code keys} the finding fits, or null; its triage.json and report.md are
     * written into {@code finding/triage/} when it fits one.
     */
    static Label label(Path finding, List<BugKey> keys, Triage.Options o) throws IOException {
        return label(finding, keys, List.of(), o);
    }

    /**
     * As {@link #label(Path, List, Triage.Options)}; a finding that fits no key may fit a bug of
     * {@code tests} by its reduced test: with that bug's pass off the finding comes out right, and
     * the bug's own test, built and run as the finding was, goes wrong the same way (a compiler
     * crash: in the same place). Two findings of one bug whose tests need other options (the RVV
     * recurrence at one LMUL or another), another target (a vectorizer bug shown on x86-64 and on
     * SVE) or another -mcpu, where the back end crashes on another node, have two keys; the bug's
     * test shows they are one.
     */
    static Label label(Path finding, List<BugKey> keys, List<SeenTest> tests, Triage.Options o) throws IOException {
        return label(finding, keys, tests, o, null);
    }

    /**
     * As {@link #label(Path, List, List, Triage.Options)}; {@code setUp[0]}, when given, receives
     * the finding's test as set up for the builds, for the quick triage of a finding that fits
     * nothing to go on from rather than set it up again.
     */
    static Label label(Path finding, List<BugKey> keys, List<SeenTest> tests, Triage.Options o, Triage.Prepared[] setUp) throws IOException {
        Finding f;
        String kind;
        String crash = "";
        try {
            f = Finding.read(finding);
            if (!(f.lang().equals("c") || f.lang().equals("cpp")) || f.commands().isEmpty()) return null;
            kind = keyKind(f);
            if (kind == null) return null;
            if (kind.equals("compiler-crash")) crash = f.crashPoint();
        } catch (Finding.Unreadable e) {
            return null;
        }
        List<String> flags = f.compileCommand();
        String family = KnownOutlier.family(flags.get(0));
        String target = f.target() == null ? BugKey.HOST : f.target();
        Set<String> names = new LinkedHashSet<>(BugKey.optionNames(String.join(" ", flags)));
        List<BugKey> fitting = new ArrayList<>();
        for (BugKey k : keys) {
            // A wrong code whose test triage builds may crash instead: both kinds, until the test is set up.
            boolean kindFits = k.kind().equals(kind) || (kind.equals("wrong-code") && k.kind().equals("runtime-crash"));
            if (kindFits && k.family().equals(family) && k.target().equals(target) && k.crash().equals(crash)
                    && names.containsAll(k.options()) && KnownOutlier.disabling(family, k.blamed()) != null && !fitting.contains(k)) {
                fitting.add(k);
            }
        }
        String ext = f.ext();
        List<SeenTest> byTest = new ArrayList<>();
        for (SeenTest t : tests) {
            BugKey k = t.key();
            boolean kindFits = k.kind().equals(kind) || (kind.equals("wrong-code") && k.kind().equals("runtime-crash"));
            boolean ownTest = t.test().toAbsolutePath().startsWith(finding.toAbsolutePath());
            boolean crashes = kind.equals("compiler-crash");
            // A compiler crash, which no pass off confirms: only a bug of the finding's target whose options its compile has (a
            // compiler that crashes in one place on every test would otherwise take every record's crash test for its own).
            boolean crashFits = !crashes || (k.target().equals(target) && names.containsAll(k.options()));
            if (kindFits && crashFits && !kind.equals("link-failure") && k.family().equals(family) && !ownTest
                    && (crashes || KnownOutlier.disabling(family, k.blamed()) != null)
                    && (Files.isDirectory(t.test()) ? Files.exists(t.test().resolve("func." + ext)) : t.test().toString().endsWith("." + ext) && Files.exists(t.test()))
                    && byTest.stream().noneMatch(x -> x.key().equals(k))) {
                byTest.add(t);
            }
        }
        // The finding's own target first, then the keys that need fewer options.
        byTest.sort(Comparator.comparing((SeenTest t) -> !t.key().target().equals(target)).thenComparingInt(t -> t.key().options().size()));
        if (fitting.isEmpty() && byTest.isEmpty()) return null; // nothing to build: the quick triage takes it
        // The keys that need fewer options first, as the quick triage drops every option it can: of two keys that fit, the
        // finding's smallest configuration is the one with fewer options (a compile-time outlier is labelled the other way
        // round, KnownOutlier, where each build in a key's configuration costs the outlier's bar).
        fitting.sort(Comparator.comparingInt((BugKey k) -> k.options().size()));
        double start = cpuOfChildren();
        Triage.Prepared p;
        try {
            p = Triage.prepare(finding, o);
        } catch (Triage.TriageException e) {
            return null; // the quick triage says why, in its refusal
        }
        if (setUp != null) setUp[0] = p;
        Symptom s = p.s();
        String shown = s.kind() == Symptom.Kind.RUNTIME_CRASH ? "runtime-crash" : kind;
        fitting.removeIf(k -> !k.kind().equals(shown));
        Map<List<String>, Symptom.Effect> off = new HashMap<>();
        for (BugKey k : fitting) {
            List<String> disable = KnownOutlier.disabling(family, k.blamed());
            Symptom.Effect e = off.get(disable);
            if (e == null) {
                if (off.size() >= MAX_PASSES) break;
                e = s.effect(with(p.buggy(), disable));
                off.put(disable, e);
            }
            if (e != Symptom.Effect.FIXES) continue; // with the pass off it must come out right: the symptom is that pass's
            List<String> configured = KnownOutlier.configuration(p.buggy(), k);
            // In the configuration the key names it must still go wrong, else it needs options the key does not.
            if (!configured.equals(p.buggy()) && !s.shows(configured)) continue;
            // The builds: the reference's, the finding's, and those with passes off and in the key's configuration.
            Label l = new Label(k, with(p.buggy(), disable), s.builds + 1, cpuOfChildren() - start);
            write(finding, f, p, k, l, configured, null);
            return l;
        }
        byTest.removeIf(t -> !t.key().kind().equals(shown));
        int tried = 0;
        int builds = 0;
        for (SeenTest t : byTest) {
            if (tried >= MAX_TESTS) break;
            BugKey k = t.key();
            List<String> disable = KnownOutlier.disabling(family, k.blamed());
            // A compiler crash needs no pass off: the place it crashes in says which bug it is, and a back end's crash (the
            // POWER -mno-vsx one) is no IR pass's to turn off, whatever the bisection blamed at the lowest level.
            if (s.kind() != Symptom.Kind.COMPILER_CRASH) {
                Symptom.Effect e = off.get(disable);
                if (e == null) {
                    if (off.size() >= MAX_PASSES) continue;
                    e = s.effect(with(p.buggy(), disable));
                    off.put(disable, e);
                }
                if (e != Symptom.Effect.FIXES) continue;
            }
            tried++;
            Path dir = Files.createDirectories(p.work().resolve("seen-" + k.id()));
            String file = "test." + ext;
            Files.writeString(dir.resolve(file), Files.isDirectory(t.test()) ? Finding.merge(t.test(), ext) : Files.readString(t.test()));
            Symptom ts;
            try {
                // A crash is matched by its place, which the seen test's message (another node, other addresses) may share.
                String crashText = s.kind() == Symptom.Kind.COMPILER_CRASH && !crash.isEmpty() ? crash : p.crashText();
                ts = new Symptom(s.kind(), dir, file, String.valueOf(f.reference()), crashText, s.compileTimeout(), f.emulator());
            } catch (Triage.TriageException x) {
                continue; // the reference cannot build or run that test here
            }
            StringBuilder err = new StringBuilder();
            boolean shows = ts.shows(p.buggy(), err);
            builds += ts.builds + (s.kind() == Symptom.Kind.WRONG_CODE ? 1 : 0);
            // A compiler crash of the seen bug's test counts only in the place the finding's crashed in.
            if (shows && s.kind() == Symptom.Kind.COMPILER_CRASH && !dev.yarpj.harness.Signature.crashPoint(err.toString()).equals(crash)) shows = false;
            if (!shows) continue;
            Label l = new Label(k, s.kind() == Symptom.Kind.COMPILER_CRASH ? p.buggy() : with(p.buggy(), disable), s.builds + 1 + builds,
                    cpuOfChildren() - start);
            write(finding, f, p, k, l, p.buggy(), t.test());
            return l;
        }
        return null;
    }

    /** The kind of bug key a finding would have, or null when this cannot label it: compile hangs are {@link KnownOutlier}'s. */
    static String keyKind(Finding f) throws IOException {
        return switch (f.kind()) {
            case WRONG_CODE -> "wrong-code";
            case RUNTIME_CRASH -> "runtime-crash";
            case COMPILER_CRASH -> "compiler-crash";
            case PROGRAM_REJECTED -> f.undefinedReference() != null ? "link-failure" : null;
            default -> null;
        };
    }

    private static List<String> with(List<String> buggy, List<String> disable) {
        List<String> cmd = new ArrayList<>(buggy);
        cmd.addAll(1, disable);
        return cmd;
    }

    /** The CPU seconds of this process's finished children: the builds and runs the label made. */
    private static double cpuOfChildren() {
        return dev.yarpj.harness.ProcessRunner.procCpu("self")[1];
    }

    /**
     * Writes the label: {@code test} null when the finding fits the key by its configuration,
     * else the seen bug's reduced test that goes wrong in the finding's configuration.
     */
    private static void write(Path finding, Finding f, Triage.Prepared p, BugKey k, Label l, List<String> configured, Path test) throws IOException {
        List<String> flags = p.buggy();
        String compiler = Path.of(flags.get(0)).getFileName().toString();
        String version = f.meta().get("compilers") instanceof Map<?, ?> m && m.get(flags.get(0)) != null ? String.valueOf(m.get(flags.get(0))) : "";
        boolean newest = compiler.endsWith("-newest") || compiler.endsWith("-trunk");
        String symptom = k.kind().equals("wrong-code") ? "goes wrong" : k.kind().equals("runtime-crash") ? "crashes" : k.kind().equals("compiler-crash")
                ? "crashes the compiler" + (f.crashPoint().isEmpty() ? "" : " (" + f.crashPoint() + ")") : "fails to link";
        List<String> disable = KnownOutlier.disabling(k.family(), k.blamed());
        String passOff = "with " + k.blamed() + " alone turned off (" + (disable == null ? "" : String.join(" ", disable)) + ") the test comes out right, and ";
        String how = test == null ? passOff + "in the key's configuration (" + String.join(" ", configured) + ") it still " + symptom
                : (k.kind().equals("compiler-crash") ? "" : passOff) + "that bug's reduced test, built and run as this finding was, " + symptom + " too";
        String standing = (newest ? "open on " : "shows on ") + compiler + (version.isEmpty() ? "" : " (" + version + ")")
                + ", the finding's own compiler; labelled by " + l.builds() + " builds, other versions not checked";
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kind", f.kind().dir);
        if (p.s().kind() != p.kind()) json.put("symptom", BugKey.CRASH_SYMPTOM + " in one step (the harness's build printed a wrong result)");
        json.put("target", test == null ? k.target() : f.target() == null ? BugKey.HOST : f.target());
        json.put("family", k.family());
        if (test != null) json.put("key", KnownBugs.json(k));
        json.put("buggy", String.join(" ", flags));
        json.put("minimal", String.join(" ", configured));
        json.put("blame", k.blamed());
        json.put("group", k.family() + ": " + k.blamed());
        String crashedIn = test == null ? k.crash() : f.crashPoint(); // a label by test: the finding's own place, the key's is the seen bug's
        if (!crashedIn.isEmpty()) json.put("crash", crashedIn);
        json.put("status", newest ? "open" : "unknown");
        json.put("standing", standing);
        Map<String, Object> label = new LinkedHashMap<>();
        label.put("key", k.line());
        label.put("build", String.join(" ", l.build()));
        label.put("builds", l.builds());
        label.put("cpu_s", Math.round(l.cpuSeconds() * 100) / 100.0);
        label.put("why", how);
        if (test != null) label.put("by_test", "the reduced test of bug " + k.id() + ", built in seen-" + k.id() + "/");
        json.put("labelled_by_builds", label);
        int lines = (int) p.text().lines().count();
        json.put("lines", lines);
        json.put("builds", l.builds());
        Files.writeString(p.work().resolve("report.md"), "# " + k.line() + "\n\n"
                + "Labelled as a bug already seen by " + l.builds() + " builds, not triaged: " + how + ".\n\n"
                + "- Finding: `" + f.signature() + "` (seed " + f.seed() + ", " + lines + " lines)\n"
                + "- Its compile: `" + String.join(" ", flags) + "`\n"
                + (f.emulator().isEmpty() ? "" : "- Its run: `" + String.join(" ", f.emulator()) + "`\n")
                + "- The configuration the key names: `" + String.join(" ", configured) + "`\n"
                + "- Where it stands: " + standing + "\n\n"
                + "`yarpj triage` on this finding gives the smallest configuration, the bisected pass and the versions.\n");
        // Last: a triage.json is what tells the lane and bugs.json that the finding is labelled.
        Files.writeString(p.work().resolve("triage.json"), JsonFiles.write(json) + "\n");
    }
}
