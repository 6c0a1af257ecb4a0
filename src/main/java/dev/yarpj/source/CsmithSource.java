package dev.yarpj.source;

import dev.yarpj.lower.Language;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Csmith's programs (the {@code csmith} and {@code libcsmith-dev} packages): one C file with
 * its own {@code main}, which prints a checksum of the globals. It goes in {@code func.c}, which
 * every testbed compiles, with Csmith's header as {@code init.h} (see {@link #header}) and an
 * empty {@code driver.c}: the harness builds and links a test as it does yarpj's, and a
 * finding holds all it needs. There is no prediction: the reference's build at -O0 decides.
 */
final class CsmithSource implements TestSource {
    static final String NAME = "csmith";

    /**
     * The headers of Csmith's runtime on a hosted, generic platform, in the order csmith.h
     * includes them. The others are for embedded targets or other configurations of the
     * runtime, behind #if branches that a hosted compiler never takes.
     */
    private static final List<String> HOSTED = List.of("csmith.h", "random_inc.h", "platform_generic.h", "safe_math.h");

    /** The driver: nothing, since Csmith's program has its main. */
    static final String DRIVER = "/* yarpj: a Csmith program is whole: func.c holds its main; this file is empty. */\n";

    private final Path csmith;
    private final String version;
    private final String header;

    CsmithSource(TestSources.Setup setup) {
        Path found = Tool.find(setup.tool() != null ? setup.tool() : "csmith");
        if (found == null) throw new TestSources.SourceException("csmith is not installed (the Debian package csmith; scripts/setup.sh installs it)");
        this.csmith = found;
        Path include = includeDir(found);
        if (include == null) {
            throw new TestSources.SourceException("csmith.h is not installed beside " + found + " (the Debian package libcsmith-dev)");
        }
        this.version = Tool.firstLine(List.of(found.toString(), "--version"), "csmith");
        try {
            this.header = header(include);
        } catch (IOException e) {
            throw new TestSources.SourceException("cannot read Csmith's headers in " + include + ": " + e.getMessage());
        }
    }

    /** Where csmith.h is: {@code ../include/csmith} of the program's directory (Debian: /usr/include/csmith). */
    private static Path includeDir(Path csmith) {
        for (Path d : List.of(csmith.getParent().resolveSibling("include").resolve("csmith"), Path.of("/usr/include/csmith"))) {
            if (Files.isRegularFile(d.resolve("csmith.h"))) return d;
        }
        return null;
    }

    private static final Pattern QUOTED = Pattern.compile("^\\s*#\\s*include\\s+\"([^\"]+)\"\\s*$");

    /**
     * csmith.h with the hosted headers it includes written in place, once each, as one header
     * in yarpj's guard: the compilers installed in a private root do not see /usr/include/csmith,
     * and C-Vise reduces one file ({@code Finding.merge} joins init.h, func.c and driver.c).
     * #if branches stay as they are; an include of another header stays where it is, in a branch
     * never taken on a hosted target.
     */
    static String header(Path include) throws IOException {
        StringBuilder out = new StringBuilder("#ifndef YARPJ_INIT_H\n#define YARPJ_INIT_H\n");
        out.append("/* Csmith's runtime headers (").append(String.join(", ", HOSTED)).append("), joined by yarpj */\n");
        inline(include, "csmith.h", new HashSet<>(), out);
        return out.append("#endif\n").toString();
    }

    private static void inline(Path include, String name, Set<String> done, StringBuilder out) throws IOException {
        if (!done.add(name)) return;
        for (String line : Files.readAllLines(include.resolve(name), java.nio.charset.StandardCharsets.ISO_8859_1)) {
            Matcher m = QUOTED.matcher(line);
            if (m.matches() && HOSTED.contains(m.group(1))) {
                inline(include, m.group(1), done, out);
            } else {
                out.append(line).append('\n');
            }
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String version() {
        return version;
    }

    @Override
    public boolean writes(Language lang) {
        return lang == Language.C;
    }

    @Override
    public SourcedTest make(long seed) {
        // In a directory of its own: csmith writes platform.info where it runs (the user's directory, by every worker at once).
        Tool.Ran r;
        try {
            r = Tool.runAlone(regenerate(seed), (ran, dir) -> ran);
        } catch (IOException e) {
            throw new Unusable("cannot make a directory for csmith: " + e.getMessage());
        }
        if (!r.ok() || !r.stdout().contains("int main")) throw new Unusable("csmith gave no program: " + r.why());
        String program = r.stdout().replaceFirst("(?m)^#include \"csmith.h\"$", "#include \"init.h\"");
        Map<String, String> files = new LinkedHashMap<>();
        files.put("func.c", program);
        files.put("driver.c", DRIVER);
        files.put("init.h", header);
        return new SourcedTest(files, null, null, r.cpuSeconds());
    }

    @Override
    public List<String> regenerate(long seed) {
        return List.of(csmith.toString(), "--seed", Long.toString(seed));
    }
}
