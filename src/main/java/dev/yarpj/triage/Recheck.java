package dev.yarpj.triage;

import dev.yarpj.harness.CompilerVersion;
import dev.yarpj.harness.Finding;
import dev.yarpj.harness.JsonFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A known bug's reduced test, built again on the compilers of a campaign that met the bug: a
 * finding whose key is a known bug's says only that the campaign's compiler shows some bug
 * with that key; the record's own test says whether the bug the record holds is still there.
 * It is built at the record's smallest configuration with the compiler of the campaign's
 * finding (its version, target, emulator and reference), then with every other installed
 * version of the family as triage checks a finding: open or fixed on trunk, or on the newest
 * release installed. What it finds goes to {@code FINDING/triage/recheck-<id>.json}, which
 * {@link BugBook} reads into the bug's entry in bugs.json.
 *
 * <p>It runs the record's test only under the record's own configuration and run (its
 * {@code run}, which an emulated target's record must have), and calls the bug fixed only when
 * a compiler newer than the one the record shows it on ({@code shown_on}) gets it right;
 * anything else is {@code not rechecked}, with the reason. A recheck under the finding's run
 * once called an open RVV bug fixed: its test needs qemu's freedoms at VLEN 1024.
 */
public final class Recheck {
    private Recheck() {}

    /** Where the recheck of known bug {@code id} is kept in the finding it was made from. */
    public static Path file(Path finding, String id) {
        return finding.resolve("triage").resolve("recheck-" + id + ".json");
    }

    /**
     * Rechecks the known bug of record directory {@code record} (its bug.json and reduced test)
     * on the compilers of {@code finding}, and writes {@link #file}. A recheck that cannot be
     * made (no reduced test in the record, a test the reference cannot build) is written too,
     * with its reason, so that it is not tried again.
     */
    public static Map<String, Object> known(Path record, Path finding, double compileTimeout, String searchPath) throws IOException {
        String id = record.getFileName().toString();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("known", id);
        try {
            out.putAll(check(record, finding, compileTimeout, searchPath));
        } catch (Triage.TriageException | Finding.Unreadable e) {
            out.put("result", "not rechecked: " + e.getMessage());
        }
        Path file = file(finding, id);
        Files.createDirectories(file.getParent());
        BugBook.atomicWrite(file, JsonFiles.writePretty(out) + "\n");
        return out;
    }

    /** The record's bug.json, or a TriageException. */
    private static Map<String, Object> bugJson(Path record) throws IOException {
        try {
            Map<String, Object> bug = JsonFiles.parseObject(Files.readString(record.resolve("bug.json")));
            if (bug == null) throw new RuntimeException();
            return bug;
        } catch (RuntimeException e) {
            throw new Triage.TriageException(record.resolve("bug.json") + " is not a JSON object");
        }
    }

    /** The record's reduced test's file name and its smallest configuration, or a TriageException when it lacks one. */
    private static String[] testAndConfiguration(Path record, Map<String, Object> bug) {
        Object test = bug.get("test");
        Object configuration = bug.get("smallest_configuration");
        if (test == null || !Files.exists(record.resolve(String.valueOf(test)))) throw new Triage.TriageException("the record has no reduced test");
        if (configuration == null || String.valueOf(configuration).isBlank()) throw new Triage.TriageException("the record has no smallest configuration");
        return new String[] {String.valueOf(test), String.valueOf(configuration).strip()};
    }

    private static Map<String, Object> check(Path record, Path finding, double compileTimeout, String searchPath) throws IOException {
        Map<String, Object> bug = bugJson(record);
        String[] tc = testAndConfiguration(record, bug);
        Finding f = Finding.read(finding);
        Symptom.Kind kind = Triage.symptomKind(f);
        if (kind == null) throw new Triage.TriageException("cannot recheck a " + f.kind().dir + " finding");
        // The record's configuration with the campaign's compiler in place of the one it was found with.
        List<String> cmd = new ArrayList<>(Arrays.asList(tc[1].split("\\s+")));
        cmd.set(0, f.compileCommand().get(0));
        // A compile-time bug's test is timed against the reference, as bugs --recheck does, within the campaign's limit.
        Path work = finding.resolve("triage").resolve("recheck-" + record.getFileName());
        if (kind == Symptom.Kind.COMPILE_HANG) return compileTime(record, bug, tc[0], cmd, compileTimeout, work);
        // A record names the run its test needs (an SVE bug wrong at 128 bits only, an RVV one under qemu's freedoms). Under
        // the finding's run instead, a test that needs other settings would be right, and the bug called fixed.
        List<String> run = bug.get("run") instanceof List<?> r ? r.stream().map(String::valueOf).toList() : null;
        if (run == null && kind.runsTheProgram() && !f.emulator().isEmpty()) {
            throw new Triage.TriageException("the record names no run for its test, which may need other emulator settings than the finding's ("
                    + String.join(" ", f.emulator()) + ")");
        }
        // A link failure's record names the symbol its own test leaves undefined, which the finding's (another test) does not.
        String symptom = kind == Symptom.Kind.LINK_FAILURE && bug.get("link_error") != null ? String.valueOf(bug.get("link_error")) : Triage.symptomText(f, kind);
        return checkWith(record, bug, tc[0], cmd, kind, symptom, String.valueOf(f.reference()), run == null ? List.of() : run,
                Triage.compileLimit(f, compileTimeout), searchPath, work);
    }

    /**
     * Rechecks the record alone on the compilers installed here: its reduced test at its smallest
     * configuration, with the compiler that names (found on PATH), under its run, then with every
     * other installed version of the family; the reference is the record's {@code reference}, else
     * the same compiler at -O0. What it finds is also written into the record's bug.json
     * ({@code rechecked}: the date, the result and the versions; its {@code status} when the
     * recheck tells it). A record that cannot be rechecked says why.
     */
    public static Map<String, Object> record(Path record, double compileTimeout, String searchPath, java.time.Instant now) throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("known", record.getFileName().toString());
        Map<String, Object> bug;
        try {
            bug = bugJson(record);
        } catch (Triage.TriageException e) {
            out.put("result", "not rechecked: " + e.getMessage());
            return out;
        }
        try {
            // A bug whose test is lost is recorded so, and never matched nor rechecked.
            if (bug.get("lost") != null) throw new Triage.TriageException("its test is lost: " + bug.get("lost"));
            out.putAll(checkRecord(record, bug, compileTimeout, searchPath));
        } catch (Triage.TriageException e) {
            out.put("result", "not rechecked: " + e.getMessage());
        }
        Map<String, Object> rechecked = new LinkedHashMap<>();
        rechecked.put("on", now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        for (String k : List.of("result", "configuration", "campaign_compiler", "standing", "versions")) {
            if (out.get(k) != null) rechecked.put(k.equals("campaign_compiler") ? "compiler" : k, out.get(k));
        }
        bug.put("rechecked", rechecked);
        if (out.get("status") != null && !out.get("status").equals("unknown")) bug.put("status", out.get("status"));
        BugBook.atomicWrite(record.resolve("bug.json"), JsonFiles.writePretty(bug).strip() + "\n");
        return out;
    }

    private static Map<String, Object> checkRecord(Path record, Map<String, Object> bug, double compileTimeout, String searchPath) throws IOException {
        String[] tc = testAndConfiguration(record, bug);
        // A compiler that is not here is the first reason: a record without a key yet (AdaptiveCpp's) says so too.
        String compiler = tc[1].split("\\s+")[0];
        if (CompilerVersion.firstLine(compiler).equals("?")) throw new Triage.TriageException(compiler + " is not installed here");
        List<BugKey> keys = new ArrayList<>();
        if (bug.get("keys") instanceof List<?> ks) for (Object k : ks) if (KnownBugs.key(k) != null) keys.add(KnownBugs.key(k));
        if (keys.isEmpty()) throw new Triage.TriageException("the record has no key");
        BugKey key = keys.get(0);
        List<String> cmd = new ArrayList<>(Arrays.asList(tc[1].split("\\s+")));
        Path work = Files.createTempDirectory("yarpj-recheck-" + record.getFileName());
        try {
            return key.kind().equals("compile-hang") ? compileTime(record, bug, tc[0], cmd, compileTimeout, work)
                    : checkRecord(record, bug, tc, key, cmd, compileTimeout, searchPath, work);
        } finally {
            dev.yarpj.harness.ScratchDir.delete(work);
        }
    }

    /** A record of a wrong code or a crash, rechecked alone in {@code work}. */
    private static Map<String, Object> checkRecord(Path record, Map<String, Object> bug, String[] tc, BugKey key, List<String> cmd,
            double compileTimeout, String searchPath, Path work) throws IOException {
        Symptom.Kind kind = switch (key.kind()) {
            case "wrong-code" -> Symptom.Kind.WRONG_CODE;
            case "runtime-crash" -> Symptom.Kind.RUNTIME_CRASH;
            case "compiler-crash" -> Symptom.Kind.COMPILER_CRASH;
            case "link-failure" -> Symptom.Kind.LINK_FAILURE;
            default -> throw new Triage.TriageException("a " + key.kind() + " record is not rechecked yet");
        };
        if (kind == Symptom.Kind.LINK_FAILURE && bug.get("link_error") == null) {
            throw new Triage.TriageException("the record of a link failure names no link_error (the undefined reference its test shows)");
        }
        List<String> run = bug.get("run") instanceof List<?> r ? r.stream().map(String::valueOf).toList() : null;
        // Only a test that is run needs the run; a compile's crash or failed link shows without one.
        if (run == null && kind.runsTheProgram() && !key.target().equals(BugKey.HOST)) {
            throw new Triage.TriageException("the record of a bug on " + key.target() + " names no run for its test (the emulator and its settings)");
        }
        // A crash repeats the place the key names (Signature.crashPoint): gcc's "in FUNC", clang's assertion, its message.
        String crashText = kind == Symptom.Kind.COMPILER_CRASH ? key.crash() : kind == Symptom.Kind.LINK_FAILURE ? String.valueOf(bug.get("link_error")) : null;
        String reference = bug.get("reference") != null ? String.valueOf(bug.get("reference")) : cmd.get(0);
        return checkWith(record, bug, tc[0], cmd, kind, crashText, reference, run == null ? List.of() : run, compileTimeout, searchPath, work);
    }

    /** How many times the reference's compile time makes a compile-time bug show: the factor of a campaign's outliers. */
    static final double SLOWER = 10;

    /** What the reference compile of a compile-time record's test is compiled with, when the record names none. */
    static final String RATIO_REFERENCE = "gcc";

    /**
     * A compile-time bug's test, rechecked by a ratio, as the campaign finds it: compiled
     * ({@code -c}) at the record's configuration with at most {@code limit} CPU seconds, and by
     * the reference (the record's {@code reference}, else gcc) at the same level. It shows
     * when it takes at least {@link #SLOWER} times the
     * reference's time and at least 3 CPU-s (or runs to the limit).
     */
    private static Map<String, Object> compileTime(Path record, Map<String, Object> bug, String test, List<String> cmd, double limit,
            Path workDir) throws IOException {
        Path work = Files.createDirectories(workDir);
        Files.copy(record.resolve(test), work.resolve(test), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String level = cmd.stream().filter(a -> Triage.LEVEL.matcher(a).matches()).reduce((a, b) -> b).orElse("-O2");
        String reference = bug.get("reference") != null ? String.valueOf(bug.get("reference")) : RATIO_REFERENCE;
        List<String> own = new ArrayList<>(cmd);
        own.addAll(List.of("-w", "-c", test, "-o", "own.o"));
        dev.yarpj.harness.ProcessRunner.Result ref = dev.yarpj.harness.ProcessRunner.run(work, "reference",
                List.of(reference, level, "-w", "-c", test, "-o", "ref.o"), dev.yarpj.harness.CampaignConfig.compileLimits(limit));
        if (!ref.ok()) throw new Triage.TriageException("the reference " + reference + " " + level + " does not compile the test");
        dev.yarpj.harness.ProcessRunner.Result r = dev.yarpj.harness.ProcessRunner.run(work, "own", own,
                dev.yarpj.harness.CampaignConfig.hangCheckLimits(limit));
        // The CPU limit alone says it is slow: the wall clock stops a compile that waits (a loaded machine), which says nothing.
        if (r.timedOut()) throw new Triage.TriageException("the compile was stopped by the wall clock at " + Math.round(r.wallSeconds())
                + " s before it used its " + limit + " CPU-s: the machine is too busy to tell");
        boolean atLimit = r.reachedCpuLimit(limit);
        if (!atLimit && !r.ok()) throw new Triage.TriageException(String.join(" ", cmd) + " does not compile the test: exit " + r.exitCode());
        double ratio = r.cpuSeconds() / Math.max(0.01, ref.cpuSeconds());
        String version = CompilerVersion.shortForm(CompilerVersion.firstLine(cmd.get(0)));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("test", testName(record, test));
        out.put("configuration", String.join(" ", cmd));
        out.put("campaign_compiler", Path.of(cmd.get(0)).getFileName() + " " + version);
        String times = String.format(java.util.Locale.ROOT, "%s%.2f CPU-s against %.2f by %s %s (%.0f times)", atLimit ? "still compiling at " : "",
                r.cpuSeconds(), ref.cpuSeconds(), reference, level, ratio);
        boolean shows = atLimit || (ratio >= SLOWER && r.cpuSeconds() >= 3);
        String shownOn = bug.get("shown_on") == null ? null : String.valueOf(bug.get("shown_on"));
        if (shows) {
            out.put("result", "shows it");
            out.put("status", cmd.get(0).endsWith("-newest") || cmd.get(0).endsWith("-trunk") ? "open" : "unknown");
            out.put("standing", "slow: " + times + "; other versions not timed");
        } else if (CompilerVersion.newer(version, shownOn)) {
            out.put("result", "gets it right");
            out.put("status", "fixed");
            out.put("standing", "fixed: " + times + " on " + out.get("campaign_compiler") + ", newer than " + shownOn);
        } else {
            out.put("result", "not rechecked: not slow here (" + times + "), on a version "
                    + (shownOn == null ? "the record does not say is newer than the one that showed it" : "not newer than " + shownOn));
            out.put("status", "unknown");
        }
        return out;
    }

    /** The record's test as the record names it (known-bugs/<id>/test.c), never by a path of this machine: bugs.json is pasted. */
    private static String testName(Path record, String test) {
        Path named = record.getParent() == null ? record.getFileName() : record.getParent().getFileName().resolve(record.getFileName());
        return named.resolve(test).toString();
    }

    private static Map<String, Object> checkWith(Path record, Map<String, Object> bug, String test, List<String> cmd, Symptom.Kind kind,
            String crashText, String reference, List<String> run, double compileLimit, String searchPath, Path workDir) throws IOException {
        String ext = test.replaceFirst("^.*\\.", "");
        Path work = Files.createDirectories(workDir);
        String file = "test." + ext;
        Files.copy(record.resolve(test), work.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // A test of several translation units (the missing simd clone: the caller, the definition, main): its other files.
        List<String> inputs = bug.get("inputs") instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of();
        for (String in : inputs) {
            if (!Files.exists(record.resolve(in))) throw new Triage.TriageException("the record's test has no file " + in);
            Files.copy(record.resolve(in), work.resolve(in), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Symptom s = new Symptom(kind, work, file, inputs, reference, crashText, compileLimit, run);
        Symptom.Effect own = s.effect(cmd);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("test", testName(record, test));
        out.put("configuration", String.join(" ", cmd));
        if (!run.isEmpty()) out.put("run", String.join(" ", run));
        String version = dev.yarpj.harness.CompilerVersion.shortForm(dev.yarpj.harness.CompilerVersion.firstLine(cmd.get(0)));
        out.put("campaign_compiler", Path.of(cmd.get(0)).getFileName() + " " + version);
        out.put("result", Versions.Result.of(own).text);
        if (own == Symptom.Effect.SHOWS) {
            String family = Triage.family(s, cmd.get(0));
            Versions.Standing st = Versions.check(s, family, ext, cmd, cmd, searchPath);
            // With no other version installed, the campaign's compiler is the newest there is here.
            out.put("status", st.newest() == null ? "open" : st.status());
            out.put("standing", st.newest() == null ? "open on " + out.get("campaign_compiler") + ", the only " + family + " for the target here"
                    : st.sentence(family));
            out.put("versions", Versions.json(st));
        } else if (own == Symptom.Effect.FIXES) {
            // Right here: fixed only on a compiler newer than the one the record showed it on; on that one or an older, the
            // record's test, configuration or run does not show the bug here, which says nothing of the bug.
            String shownOn = bug.get("shown_on") == null ? null : String.valueOf(bug.get("shown_on"));
            if (dev.yarpj.harness.CompilerVersion.newer(version, shownOn)) {
                out.put("status", "fixed");
                out.put("standing", "fixed: the record's test is right on " + out.get("campaign_compiler") + ", newer than " + shownOn
                        + ", where the record shows it");
            } else {
                out.put("result", "not rechecked: the record's test gets it right on " + out.get("campaign_compiler") + ", "
                        + (shownOn == null ? "and the record does not say which version showed it"
                        : "which is not newer than " + shownOn + ", where the record shows it: its configuration or run does not show the bug here"));
                out.put("status", "unknown");
                out.put("standing", out.get("result"));
            }
        } else {
            // The campaign's findings with this key are then some other bug, or the record's test no longer tells it.
            out.put("status", "unknown");
            out.put("standing", "the record's test: " + out.get("campaign_compiler") + " " + out.get("result"));
        }
        out.put("builds", s.builds);
        return out;
    }
}
