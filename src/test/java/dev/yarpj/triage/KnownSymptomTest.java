package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.harness.JsonFiles;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wrong code of a bug already seen costs a few builds, not a triage: with a fake gcc whose
 * loop distribution miscompiles unless it is turned off (pass-gcc.sh), the finding fits the
 * key that blames that pass, by one build with it off and one in the key's configuration; a
 * key of another pass, of options the finding lacks, or of another kind does not fit it.
 */
class KnownSymptomTest {
    static final Path GCC = Path.of("src/test/resources/fake-compilers/pass-gcc.sh").toAbsolutePath();

    /** A wrong-code finding built by the fake with {@code flags}, its test reduced to a few lines, as the lane would meet it. */
    private static Path finding(Path dir, String flags) throws Exception {
        GCC.toFile().setExecutable(true);
        Path f = Files.createDirectories(dir.resolve("wrong-code/abc/7"));
        Files.createDirectories(f.resolve("reduced"));
        Files.writeString(f.resolve("reduced/merged.c"), String.join("\n", "#include <stdio.h>", "int a[8];",
                "void test(void) {", "    for (int i = 0; i < 8; i++)", "        a[i] = 3;", "}",
                "int main(void) { test(); printf(\"%d\\n\", a[5]); return 0; }", ""));
        StringBuilder cmd = new StringBuilder("[\"" + GCC + "\", ");
        for (String a : flags.split(" ")) cmd.append('"').append(a).append("\", ");
        cmd.append("\"-w\", \"-c\", \"func.c\", \"-o\", \"func-fake.o\"]");
        Files.writeString(f.resolve("meta.json"), "{\"kind\": \"wrong-code\", \"lang\": \"c\", \"seed\": 7, \"testbed\": \"fake\", \"reference\": \"gcc\","
                + " \"commands\": [[\"gcc\", \"-O0\", \"-w\", \"-c\", \"driver.c\", \"-o\", \"driver.o\"], " + cmd + "]}");
        return f;
    }

    private static BugKey key(String blamed, List<String> options) {
        return new BugKey("wrong-code", BugKey.HOST, "gcc", blamed, options);
    }

    @Test
    void aWrongCodeOfASeenPassIsLabelledByItsPassOffAndItsKeysConfiguration(@TempDir Path dir) throws Exception {
        Path f = finding(dir, "-O3 -funroll-loops");
        Triage.Options o = new Triage.Options(30, 0, "");
        BugKey ldist = key("-fdisable-tree-ldist", List.of());
        // Keys that cannot fit are passed over without a build: another kind, options the finding lacks.
        BugKey hang = new BugKey("compile-hang", BugKey.HOST, "gcc", "-fdisable-tree-ldist", List.of());
        BugKey needsOption = key("-fdisable-tree-ldist", List.of("-march=*"));
        assertNull(KnownSymptom.label(f, List.of(hang, needsOption), o));
        assertTrue(Files.notExists(f.resolve("triage/test.c")), "no build was made");
        // The vectorizer off leaves it wrong: not that key; loop distribution off makes it right, and -O3 without -funroll-loops
        // (the key's configuration) still wrong: that key.
        StringWriter log = new StringWriter();
        List<Triage.Verdict> verdicts = Triage.triage(List.of(f), o, new PrintWriter(log), List.of(key("tree-vect", List.of()), ldist, hang));
        assertEquals(List.of(), verdicts, "labelled, not triaged");
        assertTrue(log.toString().contains("labelled by 5 builds: wrong-code, gcc, blamed: -fdisable-tree-ldist, options: (the level alone)"), log.toString());
        Map<String, Object> t = JsonFiles.parseObject(Files.readString(f.resolve("triage/triage.json")));
        assertEquals(GCC + " -O3", t.get("minimal"), "the key's configuration: the finding's level and the key's options");
        assertEquals(ldist, BugKey.of(t), "keys the finding as the label says");
        assertTrue(String.valueOf(t.get("labelled_by_builds")).contains("-fdisable-tree-ldist " ), t.toString());
        assertTrue(Files.readString(f.resolve("triage/report.md")).contains("comes out right"));

        // A key that needs an option the finding has, but that the bug does not need, still fits (the finding's level and that option).
        Files.delete(f.resolve("triage/triage.json"));
        KnownSymptom.Label l = KnownSymptom.label(f, List.of(key("-fdisable-tree-ldist", List.of("-funroll-loops"))), o);
        assertEquals(3, l.builds(), "the reference, the finding's build, the pass off; the key's configuration is the finding's");
    }

    @Test
    void aFindingThatFitsNoKeyIsLabelledByASeenBugsTestThatGoesWrongInItsConfiguration(@TempDir Path dir) throws Exception {
        Path f = finding(dir, "-O3 -funroll-loops");
        Triage.Options o = new Triage.Options(30, 0, "");
        // The seen bug's key needs -march, which this finding's compile lacks: by the key alone it would be a second bug.
        BugKey seen = key("-fdisable-tree-ldist", List.of("-march=*"));
        Path right = Files.writeString(dir.resolve("right.c"), String.join("\n", "#include <stdio.h>", "int a[8];",
                "void test(void) {", "    for (int i = 0; i < 8; i++)", "        a[i] = i;", "}",
                "int main(void) { test(); printf(\"%d\\n\", a[5]); return 0; }", ""));
        // A seen test this configuration gets right is not that bug's.
        assertNull(KnownSymptom.label(f, List.of(seen), List.of(new KnownSymptom.SeenTest(seen, right)), o));
        Path wrong = Files.writeString(dir.resolve("wrong.c"), String.join("\n", "#include <stdio.h>", "int b[4];",
                "void test(void) {", "    for (int i = 0; i < 4; i++)", "        b[i] = i * 2;", "}",
                "int main(void) { test(); printf(\"%d\\n\", b[3]); return 0; }", ""));
        KnownSymptom.Label l = KnownSymptom.label(f, List.of(seen), List.of(new KnownSymptom.SeenTest(seen, wrong)), o);
        assertEquals(seen, l == null ? null : l.key(), "the seen bug's test goes wrong in the finding's configuration, and its pass off fixes the finding");
        Map<String, Object> t = JsonFiles.parseObject(Files.readString(f.resolve("triage/triage.json")));
        assertEquals(seen, BugKey.of(t), "keyed as the seen bug, so bugs.json puts the two findings in one bug");
        assertTrue(String.valueOf(t.get("labelled_by_builds")).contains("by_test"), t.toString());
        // The pass off must fix the finding too: a seen bug of another pass is not tried by its test.
        Files.delete(f.resolve("triage/triage.json"));
        BugKey vect = key("tree-vect", List.of());
        assertNull(KnownSymptom.label(f, List.of(), List.of(new KnownSymptom.SeenTest(vect, wrong)), o));
    }
}
