package dev.yarpj.stats;

/**
 * How the programs were made and compiled; {@code compiler} and {@code cc} are null when
 * no remarks were collected. {@code ispcBuild}: for ISPC tests built and run to measure
 * their execution masks, how ("ispc 1.28.2 ... --target=avx2-i32x8 -O0"; {@code cc} is then
 * the ispc binary, {@code ccVersion} its version); else null. {@code flags}: options the
 * remark compiles add to -O3 ({@code --flag}).
 */
record RunInfo(RemarkCompiler compiler, String cc, String ccVersion, String lang, long firstSeed, long lastSeed,
               boolean swarm, String ispcBuild, java.util.List<String> flags) {
    RunInfo(RemarkCompiler compiler, String cc, String ccVersion, String lang, long firstSeed, long lastSeed, boolean swarm) {
        this(compiler, cc, ccVersion, lang, firstSeed, lastSeed, swarm, null, java.util.List.of());
    }

    RunInfo(RemarkCompiler compiler, String cc, String ccVersion, String lang, long firstSeed, long lastSeed, boolean swarm,
            String ispcBuild) {
        this(compiler, cc, ccVersion, lang, firstSeed, lastSeed, swarm, ispcBuild, java.util.List.of());
    }

    /** The options of the remark compiles: -O3 and the --flag options. */
    String options() {
        return String.join(" ", java.util.stream.Stream.concat(java.util.stream.Stream.of("-O3"), flags.stream()).toList());
    }

    boolean compiled() {
        return compiler != null;
    }

    /** Whether ISPC tests were built and run to measure their masks. */
    boolean measuredMasks() {
        return ispcBuild != null;
    }
}
