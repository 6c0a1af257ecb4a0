package dev.yarpj.triage;

import dev.yarpj.harness.CompilerVersion;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every installed version of a finding's compiler, and where the bug stands on the newest
 * one: a bug report against a compiler that is fixed in a later release is closed as such,
 * so what counts is whether GCC trunk ({@code gcc-trunk}, installed by
 * scripts/install-compilers.sh) still shows it, or for clang, of which Debian packages no
 * trunk, the newest release installed. Where several releases are installed, the release in
 * which the bug first goes away is named too, or for an open bug the one it first shows in.
 */
final class Versions {
    /** What one compiler does with the minimal flags, or failing that with more of the finding's. */
    enum Result {
        SHOWS("shows it"), RIGHT("gets it right"), FAILS("cannot build it right"),
        /**
         * Right with the minimal flags, wrong with more of the finding's: the smallest configuration
         * is smallest for the compiler that showed it only (a newer release's cost model may
         * turn down at -O2 a loop that the finding's -fno-vect-cost-model still vectorizes wrong).
         */
        SHOWS_WITH_MORE_FLAGS("shows it only with more of the finding's flags");

        final String text;

        Result(String text) {
            this.text = text;
        }

        /** What one build did with the test, as a result. */
        static Result of(Symptom.Effect e) {
            return switch (e) {
                case SHOWS -> SHOWS;
                case FIXES -> RIGHT;
                case OTHER -> FAILS;
            };
        }

        /** Showing or not, whichever flags it took: a bug is open on a version that shows it with either. */
        Result shown() {
            return this == SHOWS_WITH_MORE_FLAGS ? SHOWS : this;
        }
    }

    /** One compiler: its command, its version ({@link CompilerVersion#shortForm}: a snapshot has a date). */
    record Check(String command, String version, Result result, String shownWith) {
        Check(String command, String version, Result result) {
            this(command, version, result, null);
        }

        boolean trunk() {
            return version.matches(".*-\\d{8}");
        }
    }

    /**
     * Where the bug stands: {@code status} is open or fixed on {@code newest} (trunk when it is
     * installed, else the newest release), unknown when that compiler cannot build the test;
     * {@code fixedIn} is the first release that gets it right after the last that shows it,
     * with every later one right too (null when none is, or the bug is open); for an open bug,
     * {@code regressedIn} is the first release that shows it after the last that gets it right
     * ({@code lastRight}), with every later one showing it too (both null when no installed
     * release gets it right); {@code regressedIn} is trunk itself when the newest release gets
     * it right. Of the versions installed: the regression lies between the two.
     */
    record Standing(List<Check> checks, Check newest, String status, Check fixedIn, Check lastRight, Check regressedIn) {
        boolean onTrunk() {
            return newest != null && newest.trunk();
        }

        /** One line for people: "open on GCC trunk (gcc-trunk 17.0.0-20261020)", "fixed in gcc-13 13.3.0 ...". */
        String sentence(String family) {
            if (newest == null) return "not checked: no " + family + " installed beside the testbed's";
            String where = onTrunk() ? (family.equals("gcc") ? "GCC" : family) + " trunk (" + newest.command() + " " + newest.version() + ")"
                    : "the newest " + family + " release installed (" + newest.command() + " " + newest.version() + ")";
            return switch (status) {
                case "open" -> "open on " + where + (newest.result() == Result.SHOWS_WITH_MORE_FLAGS
                        ? " with `" + newest.shownWith() + "` (not with the smallest configuration)" : "") + (regressedIn == null ? ""
                        : regressedIn.trunk() ? "; a regression on trunk: the newest release installed, " + lastRight.command() + " "
                        + lastRight.version() + ", gets it right"
                        : "; first shown in " + regressedIn.command() + " " + regressedIn.version() + " of the releases installed, "
                        + lastRight.command() + " " + lastRight.version() + " gets it right");
                case "fixed" -> "fixed on " + where + (fixedIn == null ? "" : "; first right in " + fixedIn.command() + " " + fixedIn.version());
                default -> "unknown: " + where + " cannot build the test";
            };
        }
    }

    /** A cross gcc's name: its target triple, then gcc or g++ (aarch64-linux-gnu-gcc-16). */
    private static final Pattern CROSS = Pattern.compile("([a-z0-9_]+-[a-z0-9_]+-[a-z0-9_]+-)(gcc|g\\+\\+).*");

    private Versions() {}

    /**
     * Runs the minimal command with every other installed compiler of the family (on the
     * PATH as gcc-N, gcc-trunk, clang-N, or their C++ names), each version once; where that
     * gets it right, the commands of {@link #withMoreFlags} too, so that a bug that needs
     * more of the finding's flags ({@code buggy}) on another version is not called fixed there.
     */
    static Standing check(Symptom s, String family, String ext, List<String> minimal, List<String> buggy, String searchPath)
            throws IOException {
        boolean cpp = ext.equals("cpp");
        String own = minimal.get(0);
        List<Check> checks = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String ownVersion = CompilerVersion.shortForm(CompilerVersion.firstLine(own));
        seen.add(ownVersion);
        checks.add(new Check(own, ownVersion, Result.SHOWS)); // the testbed's own
        // A cross compiler's other versions carry its target's prefix: aarch64-linux-gnu-gcc-N.
        java.util.regex.Matcher cross = CROSS.matcher(Path.of(own).getFileName().toString());
        String triple = cross.matches() ? Pattern.quote(cross.group(1)) : "";
        Pattern names = switch (family) {
            case "gcc" -> Pattern.compile(triple + (cpp ? "g\\+\\+-(\\d+|trunk)" : "gcc-(\\d+|trunk)"));
            case "clang" -> Pattern.compile(cpp ? "clang\\+\\+-\\d+" : "clang-\\d+");
            default -> null;
        };
        if (names == null) return standing(checks);
        for (Path n : installed(names, searchPath)) {
            String line = CompilerVersion.firstLine(n.toString());
            if (line.equals("?") || !seen.add(CompilerVersion.shortForm(line))) continue;
            List<String> cmd = new ArrayList<>(minimal);
            cmd.set(0, n.toString());
            Result r = Result.of(s.effect(cmd));
            String shownWith = null;
            if (r == Result.RIGHT) {
                for (List<String> more : withMoreFlags(minimal, buggy)) {
                    more.set(0, n.toString());
                    if (s.effect(more) == Symptom.Effect.SHOWS) {
                        r = Result.SHOWS_WITH_MORE_FLAGS;
                        shownWith = String.join(" ", more.subList(1, more.size()));
                        break;
                    }
                }
            }
            checks.add(new Check(n.getFileName().toString(), CompilerVersion.shortForm(line), r, shownWith));
        }
        return standing(checks);
    }

    /**
     * The commands to try where the minimal one gets the test right: the minimal one with each
     * option minimizing took away put back, one at a time, then the finding's own. gcc 16 for
     * SVE crashes on a test of gcc 14's with `-O2 -march=armv8.2-a+sve` only when
     * `-fno-vect-cost-model` is put back, and not with the finding's own flags, whose
     * `-msve-vector-bits=512` makes other code.
     */
    static List<List<String>> withMoreFlags(List<String> minimal, List<String> buggy) {
        List<String> ownFlags = buggy.subList(1, buggy.size());
        List<List<String>> kept = Triage.options(minimal.subList(1, minimal.size()));
        List<List<String>> out = new ArrayList<>();
        for (List<String> o : Triage.options(ownFlags)) {
            if (kept.contains(o) || Triage.LEVEL.matcher(String.join(" ", o)).matches()) continue;
            List<String> more = new ArrayList<>(minimal);
            more.addAll(o);
            out.add(more);
        }
        // The finding's own flags last, unless the minimal command or one put back is them already.
        boolean tried = ownFlags.equals(minimal.subList(1, minimal.size()))
                || out.stream().anyMatch(c -> c.subList(1, c.size()).equals(ownFlags));
        if (!tried) out.add(new ArrayList<>(buggy));
        return out;
    }

    /** The commands in the directories of {@code searchPath} (as PATH) whose names match: the first of each name. */
    private static java.util.Collection<Path> installed(Pattern names, String searchPath) {
        Map<String, Path> found = new java.util.TreeMap<>();
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isEmpty() || !Files.isDirectory(Path.of(dir))) continue;
            try (var files = Files.list(Path.of(dir))) {
                files.filter(p -> names.matcher(p.getFileName().toString()).matches() && Files.isExecutable(p))
                        .forEach(p -> found.putIfAbsent(p.getFileName().toString(), p));
            } catch (IOException e) {
                // an unreadable PATH entry holds no compiler for us
            }
        }
        return found.values();
    }

    /** The standing of the bug given what each compiler did; checks are sorted oldest first, trunk last. */
    static Standing standing(List<Check> unsorted) {
        List<Check> checks = new ArrayList<>(unsorted);
        checks.sort(Comparator.comparing(Check::trunk).thenComparing(c -> c.version(), Versions::compareVersions));
        if (checks.size() < 2) return new Standing(checks, null, "unknown", null, null, null);
        Check newest = checks.get(checks.size() - 1);
        String status = switch (newest.result().shown()) {
            case SHOWS -> "open";
            case RIGHT -> "fixed";
            default -> "unknown";
        };
        List<Check> releases = checks.stream().filter(c -> !c.trunk()).toList();
        Check fixedIn = null, lastRight = null, regressedIn = null;
        if (status.equals("fixed")) {
            int t = turn(releases, Result.SHOWS, Result.RIGHT);
            if (t > 0 && t < releases.size()) fixedIn = releases.get(t);
        } else if (status.equals("open")) {
            // The release after the last one right; none after it (every release right, trunk not): trunk itself.
            int t = turn(releases, Result.RIGHT, Result.SHOWS);
            if (t > 0 && (t < releases.size() || newest.trunk())) {
                lastRight = releases.get(t - 1);
                regressedIn = t < releases.size() ? releases.get(t) : newest;
            }
        }
        return new Standing(checks, newest, status, fixedIn, lastRight, regressedIn);
    }

    /**
     * Where {@code releases} (oldest first) turn for good: the index after the last release
     * whose result is {@code from}, provided every later one's is {@code to} (the size when
     * that last one is the newest); -1 when no release's result is {@code from}, or a later
     * one is neither. A fix is a turn from showing to right, a regression the other way.
     */
    private static int turn(List<Check> releases, Result from, Result to) {
        int last = -1;
        for (int i = 0; i < releases.size(); i++) if (releases.get(i).result().shown() == from) last = i;
        if (last < 0) return -1;
        return releases.subList(last + 1, releases.size()).stream().allMatch(c -> c.result().shown() == to) ? last + 1 : -1;
    }

    /** Numeric comparison of dotted versions ("9.5.0" before "16.2.0"); a snapshot's date last. */
    static int compareVersions(String a, String b) {
        String[] x = a.split("[.-]");
        String[] y = b.split("[.-]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            long p = i < x.length && x[i].matches("\\d{1,18}") ? Long.parseLong(x[i]) : -1;
            long q = i < y.length && y[i].matches("\\d{1,18}") ? Long.parseLong(y[i]) : -1;
            if (p != q) return Long.compare(p, q);
        }
        return 0;
    }

    /** The checks as a map for triage.json: command, version and result of each. */
    static List<Map<String, Object>> json(Standing st) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Check c : st.checks()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("compiler", c.command());
            m.put("version", c.version());
            m.put("result", c.result().text);
            if (c.shownWith() != null) m.put("shown_with", c.shownWith());
            out.add(m);
        }
        return out;
    }
}
