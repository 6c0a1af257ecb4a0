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
                for (long seed = 1; seed <= 4; seed++) {
                    GeneratedTest t = new Generator(policy, lang, CheckMode.HASH).generate(seed, "seed " + seed);
                    Path file = dir.resolve(lang + "-" + seed + ".json.gz");
                    new ProgramFile(t.program(), t.recipe()).write(file);
                    ProgramFile back = ProgramFile.read(file);
                    assertEquals(t.program(), back.program(), lang + " seed " + seed);
                    var again = back.recipe().interpret(back.program());
                    assertEquals(t.prediction().checksums(), again.checksums());
                    assertEquals(t.files().files(), back.recipe().lower(back.program(), again).files(), lang + " seed " + seed);
                }
            }
        }
    }

    /**
     * A file written before a field was added (here ArrayVar.Fill's mul, add and span, which the
     * carried-scalar idioms brought) still loads: the field reads as zero, and the program lowers
     * to the same files.
     */
    @Test
    void aProgramSavedBeforeAFieldWasAddedStillLoads() throws Exception {
        // A policy without forms: every loop a for loop, as every program was then.
        GenPolicy noForms = dev.yarpj.policy.PolicyLoader.load(Path.of("policies/no-idioms.yaml"));
        GeneratedTest t = new Generator(noForms, Language.C, CheckMode.HASH).generate(3, "seed 3");
        Path file = dir.resolve("new.json.gz");
        new ProgramFile(t.program(), t.recipe()).write(file);
        String json = readGzip(file);
        String old = json.replaceAll(",\\s*\"(mul|add|span)\":\\s*0", "");
        assertTrue(old.length() < json.length(), "the file has Fill fields to take away");
        Path oldFile = dir.resolve("old.json.gz");
        writeGzip(oldFile, old);
        ProgramFile back = ProgramFile.read(oldFile);
        assertEquals(t.program(), back.program());
        assertEquals(t.files().files(), back.recipe().lower(back.program(), back.recipe().interpret(back.program())).files());
    }

    /**
     * A file written before loops had forms (LoopHead's form and guard) still loads: a missing
     * form reads as FOR (an enum's first constant), a missing header exit as none.
     */
    @Test
    void aProgramSavedBeforeLoopFormsLoadsWithForLoops() throws Exception {
        // A policy without forms: every loop a for loop, as every program was then.
        GenPolicy noForms = dev.yarpj.policy.PolicyLoader.load(Path.of("policies/no-idioms.yaml"));
        GeneratedTest t = new Generator(noForms, Language.C, CheckMode.HASH).generate(3, "seed 3");
        Path file = dir.resolve("new.json.gz");
        new ProgramFile(t.program(), t.recipe()).write(file);
        String json = readGzip(file);
        String old = json.replaceAll(",\\s*\"form\":\\s*\"FOR\"", "").replaceAll(",\\s*\"guard\":\\s*null", "");
        assertTrue(json.contains("\"form\"") && !old.contains("\"form\"") && !old.contains("\"guard\""), "the file has forms to take away");
        Path oldFile = dir.resolve("old.json.gz");
        writeGzip(oldFile, old);
        ProgramFile back = ProgramFile.read(oldFile);
        assertEquals(t.program(), back.program());
        assertEquals(t.files().files(), back.recipe().lower(back.program(), back.recipe().interpret(back.program())).files());
    }

    /** Only fields added since files were first written may be missing: a file without a recipe's language is damaged, and says so. */
    @Test
    void aFileMissingAFieldOlderThanItIsDamaged() throws Exception {
        GeneratedTest t = new Generator(GenPolicy.defaults(), Language.C, CheckMode.HASH).generate(2, "seed 2");
        Path file = dir.resolve("full.json.gz");
        new ProgramFile(t.program(), t.recipe()).write(file);
        String json = readGzip(file);
        String damaged = json.replaceFirst("\"lang\":\\s*\"C\",?", "");
        assertTrue(!damaged.equals(json), "the file names its language");
        Path bad = dir.resolve("bad.json.gz");
        writeGzip(bad, damaged);
        String m = assertThrows(Finding.Unreadable.class, () -> ProgramFile.read(bad)).getMessage();
        assertTrue(m.contains("has no lang") && !m.contains("\n"), m);
    }

    @Test
    void aFileThatIsNotAProgramGivesOneLine() throws Exception {
        Path junk = dir.resolve("junk.gz");
        Files.writeString(junk, "hello");
        String m = assertThrows(Finding.Unreadable.class, () -> ProgramFile.read(junk)).getMessage();
        assertTrue(m.startsWith("not a gzipped program file"), m);
    }

    /** The text of a gzipped file (a program file's JSON). */
    private static String readGzip(Path file) throws java.io.IOException {
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(file))) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** Writes {@code text} to {@code file}, gzipped, as a program file is. */
    private static void writeGzip(Path file, String text) throws java.io.IOException {
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }
}
