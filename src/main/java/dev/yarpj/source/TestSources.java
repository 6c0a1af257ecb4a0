package dev.yarpj.source;

import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** The generators {@code yarpj fuzz --generator} knows, by name. */
public final class TestSources {
    private TestSources() {}

    /**
     * What a source may need to know of the campaign.
     *
     * @param policyFile the policy file, or null for the built-in default (yarpj's generator)
     * @param yarpj      the yarpj launcher, for the command that regenerates a test
     * @param tool       the generator's program as the user named it (--yarpgen PATH), or null: its usual name
     */
    public record Setup(Language lang, GenPolicy policy, Path policyFile, boolean swarm, String yarpj, String tool) {}

    /** One line per generator: its name, and how it is made. */
    private static final Map<String, Function<Setup, TestSource>> ALL = new LinkedHashMap<>();

    static {
        ALL.put(YarpjSource.NAME, YarpjSource::new);
        ALL.put(CsmithSource.NAME, CsmithSource::new);
        ALL.put(YarpgenSource.NAME, YarpgenSource::new);
    }

    /** The names of the generators, yarpj's first. */
    public static Set<String> names() {
        return ALL.keySet();
    }

    /**
     * The source named {@code name} for a campaign.
     *
     * @throws SourceException when the name is unknown or the generator cannot be used here (one line)
     */
    public static TestSource of(String name, Setup setup) {
        Function<Setup, TestSource> make = ALL.get(name);
        if (make == null) throw new SourceException("unknown generator " + name + " (known: " + String.join(", ", ALL.keySet()) + ")");
        TestSource s = make.apply(setup);
        if (!s.writes(setup.lang())) throw new SourceException(name + " does not write --lang=" + setup.lang().cliName() + " tests");
        return s;
    }

    /** yarpj's generator with tests made by {@code generate} (the harness's tests make theirs by hand). */
    public static TestSource yarpj(Setup setup, java.util.function.LongFunction<dev.yarpj.gen.GeneratedTest> generate) {
        return new YarpjSource(setup, generate);
    }

    /** A generator that cannot be used; the message is one line. */
    public static final class SourceException extends RuntimeException {
        public SourceException(String m) {
            super(m, null, false, false);
        }
    }
}
