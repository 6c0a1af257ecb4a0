package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgramFileTest {
    @TempDir
    Path dir;

    /** Read back, the program and its recipe give the test's files byte for byte, in every language. */
    @Test
    void savedProgramLowersAgainToTheSameFiles() throws Exception {
        GenPolicy control = PolicyLoader.load(Path.of("policies/control-flow.yaml"));
        for (Language lang : Language.values()) {
            for (GenPolicy policy : new GenPolicy[] {GenPolicy.defaults(), control}) {
                for (long seed = 1; seed <= 6; seed++) {
                    GeneratedTest t = new Generator(policy, lang, CheckMode.HASH).generate(seed, "seed " + seed);
                    Path file = dir.resolve(lang + "-" + seed + ".json.gz");
                    new ProgramFile(t.program(), t.recipe()).write(file);
                    ProgramFile back = ProgramFile.read(file);
                    assertEquals(t.program(), back.program(), lang + " seed " + seed);
                    assertEquals(t.prediction().checksum(), back.recipe().interpret(back.program()).checksum());
                    assertEquals(t.files().files(), back.recipe().lower(back.program(), back.recipe().interpret(back.program())).files(),
                            lang + " seed " + seed);
                }
            }
        }
    }

    @Test
    void aFileThatIsNotAProgramGivesOneLine() throws Exception {
        Path junk = dir.resolve("junk.gz");
        Files.writeString(junk, "hello");
        String m = assertThrows(Finding.Unreadable.class, () -> ProgramFile.read(junk)).getMessage();
        assertTrue(m.startsWith("not a gzipped program file"), m);
    }
}
