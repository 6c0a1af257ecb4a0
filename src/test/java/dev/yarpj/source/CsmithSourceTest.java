package dev.yarpj.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.harness.Finding;
import dev.yarpj.lower.Language;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Csmith's programs as the harness gets them: the same files for the same seed, func.c with
 * the joined runtime headers as init.h (no header outside the test directory), a program that
 * builds as the harness builds a test and prints Csmith's checksum, and one that still builds
 * once merged into the single file C-Vise reduces. Needs csmith (the Debian packages csmith and
 * libcsmith-dev); skipped without it.
 */
class CsmithSourceTest {
    /** Seed 1's program runs in milliseconds with gcc 12 and clang 14 at -O0 (a Csmith program may loop for minutes). */
    private static final long SEED = 1;

    /** csmith writes platform.info where it runs, even for --version: not in the user's directory, where yarpj runs. */
    private static final Path INFO = Path.of("platform.info").toAbsolutePath();
    private static FileTime INFO_BEFORE;

    private static FileTime lastModified(Path p) throws java.io.IOException {
        return Files.exists(p) ? Files.getLastModifiedTime(p) : null;
    }

    @BeforeAll
    static void csmithInstalled() throws Exception {
        INFO_BEFORE = lastModified(INFO);
        Assumptions.assumeTrue(Tool.find("csmith") != null, "csmith is not on the PATH");
        try {
            csmith(Language.C);
        } catch (TestSources.SourceException e) {
            Assumptions.abort(e.getMessage()); // csmith without its headers (libcsmith-dev)
        }
    }

    private static TestSource csmith(Language lang) {
        return TestSources.of("csmith", new TestSources.Setup(lang, null, null, false, "yarpj", null));
    }

    /** Runs {@code cmd} in {@code dir}; fails unless it exits 0 within a minute; returns its standard output. */
    private static String run(Path dir, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd) + " ran past a minute");
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + " in " + dir);
        return out;
    }

    private static void write(Path dir, Map<String, String> files) throws Exception {
        for (Map.Entry<String, String> f : files.entrySet()) Files.writeString(dir.resolve(f.getKey()), f.getValue());
    }

    @Test
    void aSeedGivesTheSameThreeFilesTwiceWithTheRuntimeHeadersJoinedAsInitH() throws Exception {
        TestSource s = csmith(Language.C);
        assertTrue(s.version().startsWith("csmith "), s.version());
        SourcedTest a = s.make(SEED);
        SourcedTest b = s.make(SEED);
        assertEquals(a.files(), b.files(), "the same seed, the same files");
        assertEquals(List.of("driver.c", "func.c", "init.h"), a.files().keySet().stream().sorted().toList());
        assertNull(a.expected(), "no prediction: the reference decides");
        assertNull(a.generated());
        assertEquals(List.of(Tool.find("csmith").toString(), "--seed", "1"), s.regenerate(SEED));

        String func = a.files().get("func.c");
        assertTrue(func.contains("#include \"init.h\"") && !func.contains("csmith.h\""), "func.c includes init.h in place of csmith.h");
        assertTrue(func.contains("Seed:      1"), "Csmith's own header says the seed");
        String init = a.files().get("init.h");
        assertTrue(init.startsWith("#ifndef YARPJ_INIT_H\n#define YARPJ_INIT_H\n") && init.endsWith("#endif\n"), "yarpj's guard");
        for (String hosted : List.of("csmith.h", "random_inc.h", "platform_generic.h", "safe_math.h")) {
            assertFalse(init.matches("(?s).*#\\s*include\\s+\"" + hosted.replace(".", "\\.") + "\".*"), hosted + " is joined in, not included");
        }
        assertTrue(init.contains("FUNC_NAME(add_func_int32_t_s_s)") && init.contains("platform_main_end(uint32_t crc, int flag)"),
                "safe_math.h's and platform_generic.h's functions are in");
        assertTrue(a.files().get("driver.c").lines().allMatch(l -> l.isBlank() || l.startsWith("/*")), "the driver is empty");
        assertNotEquals(a.files().get("func.c"), s.make(SEED + 1).files().get("func.c"), "another seed, another program");
        assertEquals(INFO_BEFORE, lastModified(INFO), "csmith wrote " + INFO);
    }

    @Test
    void itBuildsAsATestAndAsTheOneFileCviseReducesAndPrintsCsmithsChecksumBothWays(@TempDir Path dir) throws Exception {
        write(dir, csmith(Language.C).make(SEED).files());
        // As the harness builds a test: driver.c at -O0 by the reference, func.c by a testbed, linked by the reference.
        run(dir, "gcc", "-O0", "-w", "-c", "driver.c", "-o", "driver.o");
        run(dir, "gcc", "-O2", "-w", "-c", "func.c", "-o", "func.o");
        run(dir, "gcc", "driver.o", "func.o", "-o", "test", "-lm");
        String out = run(dir, "./test");
        assertTrue(out.startsWith("checksum = "), out);

        // Merged into one file, as C-Vise reduces it: every compiler builds it alone, and it prints the same.
        Files.writeString(dir.resolve("merged.c"), Finding.merge(dir, "c"));
        for (String cc : List.of("gcc", "clang")) {
            if (Tool.find(cc) == null) continue;
            run(dir, cc, "-O1", "-w", "merged.c", "-o", "merged-" + cc, "-lm");
            assertEquals(out, run(dir, "./merged-" + cc), cc + "'s build of the merged file");
        }
    }

    @Test
    void anUnknownGeneratorAndALanguageCsmithDoesNotWriteAreRefusedInOneLine() {
        List<TestSources.SourceException> refused = new ArrayList<>();
        refused.add(assertThrows(TestSources.SourceException.class,
                () -> TestSources.of("csmith2", new TestSources.Setup(Language.C, null, null, false, "yarpj", null))));
        refused.add(assertThrows(TestSources.SourceException.class, () -> csmith(Language.CPP)));
        assertEquals("unknown generator csmith2 (known: yarpj, csmith, yarpgen)", refused.get(0).getMessage());
        assertEquals("csmith does not write --lang=cpp tests", refused.get(1).getMessage());
        for (var e : refused) assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
