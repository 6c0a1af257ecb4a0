package dev.yarpj.source;

import dev.yarpj.gen.GeneratedTest;
import java.util.Map;

/**
 * One test as a source gives it to the harness.
 *
 * @param files     its files by name: {@code init.h}, {@code func.EXT} (what every testbed compiles) and
 *                  {@code driver.EXT} (built once at -O0 by the reference), and for yarpj's tests the others it lowers to
 * @param expected  the output it must print, or null when the source does not know: then the reference's build
 *                  at -O0 decides, and a second compiler at -O0 and the sanitizers confirm it before a finding is saved
 * @param generated yarpj's generated test (its IR, prediction and recipe), or null for another generator's
 * @param childCpuSeconds the CPU time of the generator's process, for another generator (yarpj's runs in this thread)
 */
public record SourcedTest(Map<String, String> files, String expected, GeneratedTest generated, double childCpuSeconds) {
    public SourcedTest {
        files = Map.copyOf(files);
    }
}
