package dev.yarpj.triage;

import dev.yarpj.harness.CompileRecheck;
import dev.yarpj.harness.Finding;
import dev.yarpj.harness.JsonFiles;
import dev.yarpj.harness.Outcome;
import dev.yarpj.harness.ProcessRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Labels a compile-time outlier with a compile-time bug already known (in the record, or met
 * earlier in the campaign) by one timed build, where a quick triage takes minutes: it bisects
 * the passes, measures every installed release and builds an {@code opt} timing, on a test
 * whose every slow try costs the outlier's bar.
 *
 * <p>A key names the pass that is slow and the options the slowness needs. The finding fits
 * a key when its compile has those options and, compiled again with that pass disabled alone
 * ({@code -mllvm -opt-disable=PASS} for clang, the pass's {@code -fno-} or {@code -fdisable-}
 * flag for gcc), it finishes under its bar: the slowness is that pass's, under that bug's
 * options. A finding that fits no key, or whose compiler cannot disable the pass (clang before
 * 21), goes to the quick triage as before. What the label gives up is what the quick triage
 * would have added: the smallest configuration (here the finding's level and the key's
 * options) and the other versions; the bug's record or its first finding has those.
 */
final class KnownOutlier {
    /** A label: the key it fits, the build that showed it and its CPU seconds, and the CPU all its tries took. */
    record Label(BugKey key, List<String> build, double buildCpuSeconds, double cpuSeconds) {}

    private KnownOutlier() {}

    /**
     * The key of {@code keys} the compile-time outlier in {@code finding} fits, with the CPU
     * its builds took; null when it fits none (or is no outlier this can judge). The label's
     * triage.json and report.md are written into {@code finding/triage/}.
     *
     * @param spent receives the CPU seconds of the builds tried, whether or not one labels it
     */
    static Label label(Path finding, List<BugKey> keys, double[] spent) throws IOException {
        Finding f;
        try {
            f = Finding.read(finding);
        } catch (Finding.Unreadable e) {
            return null;
        }
        if (f.kind() != Outcome.COMPILE_HANG || !(f.lang().equals("c") || f.lang().equals("cpp"))) return null;
        if (!(f.meta().get("outlier_from_cpu_s") instanceof Number bar) || f.commands().isEmpty()) return null;
        List<String> compile = f.commands().get(f.commands().size() - 1);
        List<String> flags = f.compileCommand();
        String family = family(flags.get(0));
        String target = f.target() == null ? BugKey.HOST : f.target();
        Set<String> names = new LinkedHashSet<>(BugKey.optionNames(String.join(" ", flags)));
        Path scratch = finding.resolve("triage").resolve("known-check");
        int builds = 0;
        // The keys that need more options first: of two bugs of one pass, the finding is the one whose options it has.
        List<BugKey> byOptions = new ArrayList<>(keys);
        byOptions.sort(java.util.Comparator.comparingInt((BugKey k) -> -k.options().size()));
        java.util.Map<List<String>, ProcessRunner.Result> off = new java.util.HashMap<>(); // one build per pass turned off
        double limit = bar.doubleValue();
        for (BugKey k : byOptions) {
            if (!k.kind().equals("compile-hang") || !k.family().equals(family) || !k.target().equals(target)) continue;
            if (!names.containsAll(k.options())) continue;
            List<String> disable = disabling(family, k.blamed());
            if (disable == null) continue;
            ProcessRunner.Result r = off.get(disable);
            if (r == null) {
                if (builds++ >= MAX_BUILDS) break;
                List<String> cmd = new ArrayList<>(compile);
                cmd.addAll(1, disable);
                r = build(finding, scratch, cmd, limit, spent);
                off.put(disable, r);
            }
            // With the pass off it must finish under its bar: the slowness is that pass's.
            if (!r.ok() || r.cpuSeconds() >= limit) continue;
            // And in the configuration the key names (the finding's level and the key's options alone) it must still be slow:
            // else the finding needs options the key does not, and may be another bug of the same pass.
            List<String> configured = configured(compile, flags, k);
            if (!configured.equals(compile)) {
                if (builds++ >= MAX_BUILDS) break;
                ProcessRunner.Result c = build(finding, scratch, configured, limit, spent);
                if (!(c.reachedCpuLimit(limit) || (c.ok() && c.cpuSeconds() >= limit))) continue;
            }
            List<String> cmd = new ArrayList<>(compile);
            cmd.addAll(1, disable);
            Label label = new Label(k, cmd, r.cpuSeconds(), spent[0]);
            write(finding, f, flags, k, label, limit);
            return label;
        }
        return null;
    }

    /** How many builds one finding is given, in all: each is a build of up to its bar. */
    static final int MAX_BUILDS = 4;

    private static ProcessRunner.Result build(Path finding, Path scratch, List<String> cmd, double bar, double[] spent) throws IOException {
        CompileRecheck.prepare(finding, scratch);
        ProcessRunner.Result r = ProcessRunner.run(scratch, "known-check", cmd, dev.yarpj.harness.CampaignConfig.hangCheckLimits(bar));
        spent[0] += r.cpuSeconds();
        return r;
    }

    /** The finding's compile command with only the options the key's configuration keeps ({@link #configuration}), files as they were. */
    static List<String> configured(List<String> compile, List<String> flags, BugKey k) {
        List<String> keep = configuration(flags, k);
        List<String> out = new ArrayList<>(keep);
        // What compileCommand left out of the flags: the files, -c or -r, -w, and the output.
        for (int i = 1; i < compile.size(); i++) {
            String a = compile.get(i);
            if (a.equals("-o") && i + 1 < compile.size()) {
                out.add(a);
                out.add(compile.get(++i));
            } else if (a.equals("-c") || a.equals("-r") || a.equals("-w") || a.matches("[^-].*\\.(c|cpp)")) {
                out.add(a);
            }
        }
        return out;
    }

    /** The options that turn off the blamed pass of a key alone, or null when the key's blame names no one pass. */
    static List<String> disabling(String family, String blamed) {
        if (family.equals("clang")) {
            // The pass names -opt-bisect-limit prints, which bisection blames; codegen passes are named in words.
            return blamed.matches("[a-z][a-z0-9-]*") ? List.of("-mllvm", "-opt-disable=" + blamed) : null;
        }
        if (family.equals("gcc")) {
            if (blamed.equals("tree-vect")) return List.of("-fno-tree-loop-vectorize", "-fno-tree-vectorize");
            if (blamed.equals("tree-slp")) return List.of("-fno-tree-slp-vectorize");
            if (blamed.startsWith("-fdisable-") || blamed.startsWith("-fno-")) return List.of(blamed);
            if (blamed.matches("-f[a-z0-9-]+")) return List.of("-fno-" + blamed.substring(2));
        }
        return null;
    }

    /** clang or gcc by the compiler's name, as the testbeds name them; unknown otherwise. */
    static String family(String compiler) {
        String n = Path.of(compiler).getFileName().toString();
        if (n.contains("clang")) return "clang";
        if (n.contains("gcc") || n.contains("g++")) return "gcc";
        return "unknown";
    }

    /** The finding's level and its options that the key names: the configuration the label vouches for. */
    static List<String> configuration(List<String> flags, BugKey k) {
        List<String> out = new ArrayList<>(List.of(flags.get(0)));
        for (int i = 1; i < flags.size(); i++) {
            String x = flags.get(i);
            if (Triage.LEVEL.matcher(x).matches() || x.startsWith("--target=")) {
                out.add(x);
            } else if ((x.equals("-mllvm") || x.equals("-Xclang") || x.equals("--param")) && i + 1 < flags.size()) {
                String pair = x + " " + flags.get(i + 1);
                if (k.options().containsAll(BugKey.optionNames("cc " + pair))) {
                    out.add(x);
                    out.add(flags.get(i + 1));
                }
                i++;
            } else if (k.options().containsAll(BugKey.optionNames("cc " + x))) {
                out.add(x);
            }
        }
        return out;
    }

    private static void write(Path finding, Finding f, List<String> flags, BugKey k, Label l, double bar) throws IOException {
        List<String> minimal = configuration(flags, k);
        String compiler = Path.of(flags.get(0)).getFileName().toString();
        String version = f.meta().get("compilers") instanceof Map<?, ?> m && m.get(flags.get(0)) != null ? String.valueOf(m.get(flags.get(0))) : "";
        boolean newest = compiler.endsWith("-newest") || compiler.endsWith("-trunk");
        String how = String.format(Locale.ROOT, "with %s alone turned off (%s) it compiled in %.2f CPU-s, under the %.1f CPU-s of its bar",
                k.blamed(), String.join(" ", disabling(k.family(), k.blamed())), l.buildCpuSeconds(), bar);
        String standing = (newest ? "open on " : "shows on ") + compiler + (version.isEmpty() ? "" : " (" + version + ")")
                + ", the finding's own compiler; labelled by one timed build, other versions not checked";
        int lines = (int) Files.readString(finding.resolve("func." + f.ext())).lines().count();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kind", f.kind().dir);
        json.put("target", k.target());
        json.put("family", k.family());
        json.put("buggy", String.join(" ", flags));
        json.put("minimal", String.join(" ", minimal));
        json.put("blame", k.blamed());
        json.put("group", k.family() + ": " + k.blamed());
        json.put("status", newest ? "open" : "unknown");
        json.put("standing", standing);
        Map<String, Object> label = new LinkedHashMap<>();
        label.put("key", k.line());
        label.put("build", String.join(" ", l.build()));
        label.put("cpu_s", Math.round(l.buildCpuSeconds() * 100) / 100.0);
        label.put("bar_cpu_s", bar);
        label.put("why", how);
        json.put("labelled_by_one_build", label);
        json.put("lines", lines);
        json.put("builds", 1);
        Path work = finding.resolve("triage");
        Files.writeString(work.resolve("report.md"), "# Compile-time outlier: " + k.line() + "\n\n"
                + "Labelled as a bug already seen by one timed build, not triaged: " + how + ".\n\n"
                + "- Finding: `" + f.signature() + "` (seed " + f.seed() + ", " + lines + " lines of func." + f.ext() + ")\n"
                + "- Its compile: `" + String.join(" ", flags) + "`\n"
                + "- The configuration the key names: `" + String.join(" ", minimal) + "`\n"
                + "- Where it stands: " + standing + "\n\n"
                + "`yarpj triage` on this finding gives the smallest configuration, the bisected pass and the versions.\n");
        // Last: a triage.json is what tells the lane and bugs.json that the finding is labelled.
        Files.writeString(work.resolve("triage.json"), JsonFiles.write(json) + "\n");
    }
}
