package dev.yarpj.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which ISPC targets this CPU can run. A test built for a target the CPU lacks dies of an
 * illegal instruction, which says nothing about ISPC, so such testbeds are skipped. The
 * CPU's features are the {@code flags} of /proc/cpuinfo; a target is named
 * {@code <isa>-<width>} (avx2-i32x8, avx512skx-x16) and its ISA decides what it needs.
 */
public final class IspcTargets {
    private static final List<String> SKX = List.of("avx512f", "avx512bw", "avx512dq", "avx512vl");
    private static final List<String> ICL = concat(SKX, List.of("avx512vbmi", "avx512_vbmi2", "avx512_vnni", "avx512_bitalg",
            "avx512_vpopcntdq"));

    /** The /proc/cpuinfo flags each ISA needs; an ISA not listed here (generic, neon, avx10.2, ...) is not checked. */
    private static final Map<String, List<String>> NEEDS = Map.of(
            "sse2", List.of("sse2"),
            "sse4.1", List.of("sse4_1"),
            "sse4", List.of("sse4_2"),
            "sse4.2", List.of("sse4_2"),
            "avx1", List.of("avx"),
            "avx2", List.of("avx2"),
            "avx2vnni", List.of("avx2", "avx_vnni"),
            "avx512skx", SKX,
            "avx512icl", ICL,
            "avx512spr", concat(ICL, List.of("avx512_bf16", "avx512_fp16")));

    private IspcTargets() {}

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> l = new ArrayList<>(a);
        l.addAll(b);
        return List.copyOf(l);
    }

    /** The flags this CPU has, or null when /proc/cpuinfo cannot be read (then no target is refused). */
    static Set<String> hostFlags() {
        try {
            return parseFlags(Files.readString(Path.of("/proc/cpuinfo")));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The flags of the first processor listed in a /proc/cpuinfo text, or null when it lists none. */
    static Set<String> parseFlags(String cpuinfo) {
        for (String line : cpuinfo.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equals("flags")) {
                return new TreeSet<>(List.of(line.substring(colon + 1).trim().split("\\s+")));
            }
        }
        return null;
    }

    /** Whether this machine's CPU runs programs built for {@code target}. */
    public static boolean runsHere(String target) {
        return missing(target, hostFlags()).isEmpty();
    }

    /** The flags {@code target} needs that {@code cpuFlags} lacks; empty when it can run (or is not checked). */
    static List<String> missing(String target, Set<String> cpuFlags) {
        int dash = target.indexOf('-');
        String isa = dash < 0 ? target : target.substring(0, dash);
        List<String> missing = new ArrayList<>();
        for (String f : NEEDS.getOrDefault(isa, List.of())) if (!cpuFlags.contains(f)) missing.add(f);
        return missing;
    }
}
