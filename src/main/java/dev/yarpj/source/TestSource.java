package dev.yarpj.source;

import dev.yarpj.lower.Language;
import java.util.List;

/**
 * Where a campaign's tests come from: yarpj's generator, or another one (Csmith, YARPGen). The
 * harness takes a test's files from a source and does not know which generator wrote them; a
 * source says whether it predicted the output ({@link SourcedTest#expected}) or leaves it to
 * the reference build. A new generator is one class here and one line in {@link TestSources}.
 */
public interface TestSource {
    /** The name {@code yarpj fuzz --generator} takes and every finding records. */
    String name();

    /** The generator's version as findings and the summary record it, e.g. {@code csmith 2.3.0}. */
    String version();

    /** Whether it writes tests in {@code lang}. */
    boolean writes(Language lang);

    /**
     * The test of {@code seed}: the same seed, settings and version give the same files.
     *
     * @throws Unusable when this seed gives no test to run (the generator failed or ran too long): a dropped test
     */
    SourcedTest make(long seed);

    /** The command that writes the program of {@code seed} again, for a finding's notes. */
    List<String> regenerate(long seed);

    /**
     * A seed for which another generator gives no test: counted as a dropped test, never a
     * finding, since it is not a compiler's doing. yarpj's own generator never throws it (its
     * failures are findings: they are yarpj's bugs).
     */
    final class Unusable extends RuntimeException {
        public Unusable(String why) {
            super(why, null, false, false);
        }
    }
}
