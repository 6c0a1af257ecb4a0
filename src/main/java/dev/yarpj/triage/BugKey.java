package dev.yarpj.triage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What tells one compiler bug from another among findings, as triage establishes it: the
 * kind of symptom, the compiler family, the blamed pass or option (triage's group: clang's
 * bisected pass, gcc's culprit flags and passes), and the options of the smallest
 * configuration by name. A signature keys on the drawn options themselves, so every
 * configuration of one bug is a new signature; the key keeps only the options the bug needs,
 * and of those only their names ({@code -march=*}, {@code -mllvm -force-vector-width=*}):
 * the same bug under another vector width or another {@code -march} is one bug. Two bugs
 * that share a key (the same pass and the same options) are told apart only by their
 * reduced tests, which a person reads: the key errs on the side of grouping.
 *
 * @param kind    the kind of symptom: wrong-code (a wrong result or a crash of the program built:
 *                the same miscompilation shows as either, test by test), compiler-crash, compile-hang
 * @param target  the machine the testbed builds for ({@value #HOST}, riscv64-rvv, aarch64-sve...):
 *                one vectorizer's bug on two targets is two bugs here, which errs on the side of
 *                splitting, where keys of pass and option names alone would group the bugs of
 *                every target's back end
 * @param family  gcc, clang, ispc, or unknown
 * @param blamed  triage's group without the family: the pass or flags it blames
 * @param options the smallest configuration's options by name, sorted, without the compiler and its -O level
 * @param crash   for a compiler crash, where it crashed ({@link dev.yarpj.harness.Signature#crashPoint}: gcc's
 *                function, clang's assertion, else the top frames): two crashes of one pass under the same
 *                options are two bugs when they crash in two places; empty for the other kinds
 */
public record BugKey(String kind, String target, String family, String blamed, List<String> options, String crash) {
    /** The target of a testbed that builds for this machine. */
    public static final String HOST = "host";
    /** How triage.json's {@code symptom} begins when triage followed a crash of the program for a wrong-code finding. */
    static final String CRASH_SYMPTOM = "a crash of the program built";

    public BugKey {
        options = List.copyOf(options);
        crash = crash == null ? "" : crash;
    }

    /** A key with no crash point: of a bug that is no compiler crash. */
    public BugKey(String kind, String target, String family, String blamed, List<String> options) {
        this(kind, target, family, blamed, options, "");
    }

    /** The key of a finding from its triage/triage.json. */
    static BugKey of(Map<String, Object> triage) {
        // A finding labelled by a seen bug's reduced test has that bug's key, which its own configuration need not give.
        BugKey labelled = KnownBugs.key(triage.get("key"));
        if (labelled != null) return labelled;
        String family = String.valueOf(triage.get("family"));
        String group = String.valueOf(triage.get("group"));
        String blamed = group.startsWith(family + ": ") ? group.substring(family.length() + 2) : group;
        if (family.equals("gcc")) blamed = gccCulprit(blamed);
        String kind = String.valueOf(triage.get("kind"));
        // A crash of the program built, whether the harness saw one or only triage's build of a wrong code did, is keyed apart
        // from a wrong result: the SVE gather that segfaults and the SVE compare that stores wrongly are two bugs of one pass
        // under the same options. The program-rejected findings triage takes are link failures.
        boolean crashed = kind.equals("runtime-crash") || String.valueOf(triage.get("symptom")).startsWith(CRASH_SYMPTOM);
        kind = crashed ? "runtime-crash" : kind.equals("program-rejected") ? "link-failure" : kind;
        String crash = kind.equals("compiler-crash") && triage.get("crash") != null ? String.valueOf(triage.get("crash")) : "";
        return new BugKey(kind, String.valueOf(triage.getOrDefault("target", HOST)), family, blamed.strip(), optionNames(String.valueOf(triage.get("minimal"))),
                crash);
    }

    /**
     * Of gcc's flags and passes whose disabling alone hides the bug, the one a bug keys on: the
     * vectorizer when any of them is one ({@code tree-vect} for the loop vectorizer, whether
     * {@code -fno-tree-loop-vectorize}, {@code -fno-tree-vectorize} or {@code -fdisable-tree-vect}
     * named it; {@code tree-slp} for the SLP vectorizer alone), else the last pass disabled, else
     * the last flag. The others are mostly what the culprit needs upstream (loop header copying,
     * the loop optimizer as a whole), and which of them a test needs varies from test to test
     * of one bug; so does which name of the vectorizer the search stops at (an unreduced test
     * gave {@code -fno-tree-loop-vectorize}, its reduction {@code -fdisable-tree-vect}).
     */
    static String gccCulprit(String disablers) {
        String[] w = disablers.strip().split("\\s+");
        if (!disablers.strip().startsWith("-f")) return disablers.strip();
        boolean loop = false;
        boolean slp = false;
        for (String x : w) {
            if (x.contains("slp")) slp = true;
            else if (x.contains("vect")) loop = true;
        }
        if (loop) return "tree-vect";
        if (slp) return "tree-slp";
        String pick = null;
        for (String x : w) if (x.startsWith("-fdisable-")) pick = x;
        return pick != null ? pick : w[w.length - 1];
    }

    /**
     * The options of a compile command by name: the compiler (first word), -O levels and the
     * target triple ({@code --target=}, which the key's target says) left out, a value after
     * {@code =} replaced by {@code *}, the words an option takes (after {@code -mllvm},
     * {@code -Xclang}, {@code --param}) kept with it.
     */
    static List<String> optionNames(String command) {
        String[] w = command.strip().split("\\s+");
        TreeSet<String> out = new TreeSet<>();
        for (int i = 1; i < w.length; i++) {
            String x = w[i];
            if (Triage.LEVEL.matcher(x).matches() || x.startsWith("--target=")) continue;
            if (x.equals("-target") && i + 1 < w.length) {
                i++;
                continue;
            }
            if ((x.equals("-mllvm") || x.equals("-Xclang") || x.equals("--param")) && i + 1 < w.length) {
                out.add(x + " " + named(w[++i]));
            } else {
                out.add(named(x));
            }
        }
        return new ArrayList<>(out);
    }

    private static String named(String option) {
        int eq = option.indexOf('=');
        return eq > 0 ? option.substring(0, eq + 1) + "*" : option;
    }

    /** A short stable name for the bug: 10 hex digits of the key's SHA-256. */
    public String id() {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(line().getBytes(StandardCharsets.UTF_8));
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < 5; i++) b.append(String.format("%02x", h[i]));
            return b.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The key in one line. */
    public String line() {
        return kind + (target.equals(HOST) ? "" : " on " + target) + ", " + family + ", blamed: " + (blamed.isEmpty() ? "(nothing)" : blamed) + ", options: "
                + (options.isEmpty() ? "(the level alone)" : String.join(" ", options)) + (crash.isEmpty() ? "" : ", crash: " + crash);
    }
}
