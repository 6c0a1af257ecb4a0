package dev.yarpj.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.lower.Language;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YARPGen's programs as the harness gets them, from a fake YARPGen ({@link FakeYarpgen}, a
 * shell script with the real one's interface): its three files as it wrote them, the command
 * that writes them again, and every way it can give no test (seed 0, a failing run, a missing
 * file) an {@link TestSource.Unusable} that says why; a missing binary is refused in one line.
 */
class YarpgenSourceTest {
    private static TestSource yarpgen(Language lang, String tool) {
        return TestSources.of("yarpgen", new TestSources.Setup(lang, null, null, false, "yarpj", tool));
    }

    @Test
    void itsThreeFilesAreReadAsWrittenAndItsCommandWritesThemAgain(@TempDir Path dir) throws Exception {
        Path fake = FakeYarpgen.write(dir);
        TestSource s = yarpgen(Language.C, fake.toString());
        assertEquals("yarpgen", s.name());
        assertEquals(FakeYarpgen.VERSION, s.version());
        List<String> regen = s.regenerate(5);
        assertEquals(List.of(fake.toString(), "--std=c", "-s", "5", "-o", "."), regen);

        SourcedTest t = s.make(5);
        assertEquals(List.of("driver.c", "func.c", "init.h"), t.files().keySet().stream().sorted().toList());
        assertNull(t.expected(), "no prediction: the reference decides");
        assertNull(t.generated());
        assertTrue(t.files().get("func.c").contains("Seed: 5\nInvocation: " + fake + " --std=c -s 5 -o .\n"), t.files().get("func.c"));
        assertTrue(t.files().get("driver.c").contains("int var_0 = 5;"), t.files().get("driver.c"));
        assertTrue(t.childCpuSeconds() >= 0);
        // The same seed twice, the same files; the command, run by hand in an empty directory, writes them too.
        assertEquals(t.files(), s.make(5).files());
        Path again = Files.createDirectory(dir.resolve("again"));
        Process p = new ProcessBuilder(regen).directory(again.toFile()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        for (String f : t.files().keySet()) assertEquals(t.files().get(f), Files.readString(again.resolve(f)), f);

        TestSource cpp = yarpgen(Language.CPP, fake.toString());
        assertEquals("--std=c++", cpp.regenerate(5).get(1));
        assertEquals(List.of("driver.cpp", "func.cpp", "init.h"), cpp.make(5).files().keySet().stream().sorted().toList());
        // What runs the program builds it as the harness does: driver at -O0, func, linked.
        for (String f : t.files().keySet()) Files.writeString(dir.resolve(f), t.files().get(f));
        Process b = new ProcessBuilder("sh", "-c", "gcc -O0 -c driver.c && gcc -O2 -c func.c && gcc driver.o func.o -o t && ./t")
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(b.getInputStream().readAllBytes());
        assertTrue(b.waitFor(60, TimeUnit.SECONDS));
        assertTrue(out.strip().matches("\\d+"), "it prints its checksum: " + out);
    }

    @Test
    void aSeedWithNoTestIsUnusableAndSaysWhy(@TempDir Path dir) throws Exception {
        TestSource s = yarpgen(Language.C, FakeYarpgen.write(dir).toString());
        // YARPGen takes 0 for a random seed: not one a campaign can write again.
        assertEquals("yarpgen has no test of seed 0", assertThrows(TestSource.Unusable.class, () -> s.make(0)).getMessage());
        assertEquals("yarpgen has no test of seed -1", assertThrows(TestSource.Unusable.class, () -> s.make(-1)).getMessage());
        assertEquals("yarpgen gave no program: exit 3: ERROR: fake yarpgen cannot write seed 13",
                assertThrows(TestSource.Unusable.class, () -> s.make(FakeYarpgen.FAILS)).getMessage(), "its first line of error");
        assertEquals("yarpgen wrote no driver.c", assertThrows(TestSource.Unusable.class, () -> s.make(FakeYarpgen.NO_DRIVER)).getMessage());
    }

    @Test
    void noBinaryOrOneThatIsNotThereIsRefusedInOneLine(@TempDir Path dir) {
        var none = assertThrows(TestSources.SourceException.class, () -> yarpgen(Language.C, null));
        assertEquals("--generator yarpgen needs --yarpgen PATH, a YARPGen v2 binary you built", none.getMessage());
        Path missing = dir.resolve("no-such-yarpgen");
        var absent = assertThrows(TestSources.SourceException.class, () -> yarpgen(Language.C, missing.toString()));
        assertEquals("--yarpgen: not an executable file: " + missing, absent.getMessage());
        var ispc = assertThrows(TestSources.SourceException.class, () -> yarpgen(Language.ISPC, "/bin/true"));
        assertEquals("yarpgen does not write --lang=ispc tests", ispc.getMessage());
    }
}
