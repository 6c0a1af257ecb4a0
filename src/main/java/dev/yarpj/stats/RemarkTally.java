package dev.yarpj.stats;

import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The optimization remarks of one compile, counted by (pass, kind) and by (pass, kind,
 * remark name). Not thread-safe; each compile fills its own.
 */
public final class RemarkTally {
    /** A pass and a kind of remark. */
    public record PassKind(String pass, RemarkKind kind) implements Comparable<PassKind> {
        private static final Comparator<PassKind> ORDER =
                Comparator.comparing(PassKind::pass).thenComparing(PassKind::kind);

        @Override
        public int compareTo(PassKind o) {
            return ORDER.compare(this, o);
        }
    }

    /** A pass, a kind and a remark name (clang's {@code Name:}, gcc's normalised message). */
    public record Key(String pass, RemarkKind kind, String name) implements Comparable<Key> {
        private static final Comparator<Key> ORDER =
                Comparator.comparing(Key::pass).thenComparing(Key::kind).thenComparing(Key::name);

        public PassKind passKind() {
            return new PassKind(pass, kind);
        }

        @Override
        public int compareTo(Key o) {
            return ORDER.compare(this, o);
        }
    }

    private final Map<PassKind, Integer> byPass = new TreeMap<>();
    private final Map<Key, Integer> byName = new TreeMap<>();
    /** The source lines of the loop vectorizer's remarks of loops it vectorized (clang's Vectorized, gcc's "loop vectorized"). */
    private final java.util.Set<Integer> vectorizedLoopLines = new java.util.TreeSet<>();
    /** The loops of the compiled test that leave early, and how many of them were vectorized ({@link EarlyExitLoops}). */
    private int earlyExitLoops;
    private int earlyExitLoopsVectorized;
    /** CPU seconds (user + system) of the compile that made these remarks; 0 when unknown. */
    private double cpuSeconds;

    public double cpuSeconds() {
        return cpuSeconds;
    }

    void setCpuSeconds(double s) {
        cpuSeconds = s;
    }

    java.util.Set<Integer> vectorizedLoopLines() {
        return java.util.Collections.unmodifiableSet(vectorizedLoopLines);
    }

    void addVectorizedLoop(int line) {
        vectorizedLoopLines.add(line);
    }

    /** Counts the loops of {@code source} (the compiled test) that leave early, and those of them vectorized. */
    void countEarlyExits(String source) {
        java.util.List<EarlyExitLoops.Loop> loops = EarlyExitLoops.loops(source);
        earlyExitLoops = (int) loops.stream().filter(EarlyExitLoops.Loop::leavesEarly).count();
        java.util.Set<EarlyExitLoops.Loop> vectorized = new java.util.HashSet<>();
        for (int line : vectorizedLoopLines) {
            EarlyExitLoops.Loop l = EarlyExitLoops.around(loops, line);
            if (l != null && l.leavesEarly()) vectorized.add(l);
        }
        earlyExitLoopsVectorized = vectorized.size();
    }

    public int earlyExitLoops() {
        return earlyExitLoops;
    }

    public int earlyExitLoopsVectorized() {
        return earlyExitLoopsVectorized;
    }

    public void add(String pass, RemarkKind kind, String name) {
        byPass.merge(new PassKind(pass, kind), 1, Integer::sum);
        byName.merge(new Key(pass, kind, name), 1, Integer::sum);
    }

    public int count(String pass, RemarkKind kind) {
        return byPass.getOrDefault(new PassKind(pass, kind), 0);
    }

    public int count(String pass, RemarkKind kind, String name) {
        return byName.getOrDefault(new Key(pass, kind, name), 0);
    }

    /** Counts by (pass, kind), sorted by pass then kind. */
    public Map<PassKind, Integer> byPass() {
        return Collections.unmodifiableMap(byPass);
    }

    /** Counts by (pass, kind, name), sorted by pass, kind, name. */
    public Map<Key, Integer> byName() {
        return Collections.unmodifiableMap(byName);
    }

    /** Passed remarks of every pass, or of the loop optimizations alone ({@code compiler}'s loop units). */
    long passed(RemarkCompiler compiler, boolean loopOnly) {
        long n = 0;
        for (var e : byName.entrySet()) {
            Key k = e.getKey();
            if (k.kind() == RemarkKind.PASSED && (!loopOnly || compiler.isLoopUnit(k.pass(), k.name()))) n += e.getValue();
        }
        return n;
    }

    public int total() {
        int n = 0;
        for (int c : byPass.values()) n += c;
        return n;
    }

    @Override
    public String toString() {
        return byPass.toString();
    }
}
