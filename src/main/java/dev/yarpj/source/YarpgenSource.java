package dev.yarpj.source;

import dev.yarpj.lower.Language;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * YARPGen v2's programs, from a binary the user built ({@code --yarpgen PATH}): its
 * {@code init.h}, {@code func.EXT} and {@code driver.EXT} are split as yarpj's are (the driver
 * built once at -O0, func by every testbed), and its driver prints its own checksum of the
 * results. There is no prediction: the reference's build at -O0 decides.
 */
final class YarpgenSource implements TestSource {
    static final String NAME = "yarpgen";

    private final Path yarpgen;
    private final Language lang;
    private final String version;

    YarpgenSource(TestSources.Setup setup) {
        if (setup.tool() == null) throw new TestSources.SourceException("--generator yarpgen needs --yarpgen PATH, a YARPGen v2 binary you built");
        Path found = Tool.find(setup.tool());
        if (found == null) throw new TestSources.SourceException("--yarpgen: not an executable file: " + setup.tool());
        this.yarpgen = found;
        this.lang = setup.lang();
        this.version = Tool.firstLine(List.of(found.toString(), "--version"), "yarpgen");
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
        return lang == Language.C || lang == Language.CPP;
    }

    @Override
    public SourcedTest make(long seed) {
        // YARPGen takes seed 0 for "pick one at random".
        if (seed <= 0) throw new Unusable("yarpgen has no test of seed " + seed);
        try {
            // Run in the directory it writes to, always with "-o .": func's header has YARPGen's command line in it.
            return Tool.runAlone(regenerate(seed), (r, dir) -> {
                if (!r.ok()) throw new Unusable("yarpgen gave no program: " + r.why());
                String ext = lang.extension;
                Map<String, String> files = new LinkedHashMap<>();
                for (String f : List.of("func." + ext, "driver." + ext, "init.h")) {
                    Path p = dir.resolve(f);
                    if (!Files.isRegularFile(p)) throw new Unusable("yarpgen wrote no " + f);
                    files.put(f, Files.readString(p, StandardCharsets.ISO_8859_1));
                }
                return new SourcedTest(files, null, null, r.cpuSeconds());
            });
        } catch (IOException e) {
            throw new Unusable("cannot read yarpgen's files: " + e.getMessage());
        }
    }

    /** YARPGen writes to an existing directory: this command, run in it, writes the test of {@code seed} there. */
    @Override
    public List<String> regenerate(long seed) {
        return List.of(yarpgen.toString(), "--std=" + (lang == Language.C ? "c" : "c++"), "-s", Long.toString(seed), "-o", ".");
    }
}
