package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Triage with a fake clang (src/test/resources/fake-compilers/bisect-clang.sh: gcc with ten
 * fake optional passes that honour -opt-bisect-limit, the seventh of which miscompiles at
 * -O2 and above): a planted wrong code is blamed on that pass, at the lowest level that
 * shows it, without the testbed's flag it does not need, and its report draft says so.
 */
class TriageTest {
    static final Path FAKE = Path.of("src/test/resources/fake-compilers/bisect-clang.sh").toAbsolutePath();

    @TempDir
    Path dir;

    /** A wrong-code finding as 'yarpj fuzz' saves it, for the C test of {@code seed} built by {@code compile}. */
    private Path finding(long seed, List<String> compile) throws Exception {
        FAKE.toFile().setExecutable(true);
        GeneratedTest t = new Generator(GenPolicy.defaults(), Language.C, CheckMode.HASH).generate(seed, "test");
        Path f = Files.createDirectories(dir.resolve("wrong-code/abc/" + seed));
        for (Map.Entry<String, String> e : t.files().files().entrySet()) Files.writeString(f.resolve(e.getKey()), e.getValue());
        StringBuilder cmd = new StringBuilder("[");
        for (String a : compile) cmd.append('"').append(a).append("\", ");
        cmd.append("\"-w\", \"-c\", \"func.c\", \"-o\", \"func-fake.o\"]");
        Files.writeString(f.resolve("meta.json"), "{\"kind\": \"wrong-code\", \"lang\": \"c\", \"seed\": " + seed
                + ", \"testbed\": \"fake-O3\", \"reference\": \"gcc\", \"commands\": [[\"gcc\", \"-O0\", \"-w\", \"-c\", \"driver.c\", \"-o\", \"driver.o\"], "
                + cmd + "]}");
        return f;
    }

    @Test
    void aPlantedMiscompilationIsBlamedOnThePassThatMakesIt() throws Exception {
        Path f = finding(1, List.of(FAKE.toString(), "-O3", "-fno-inline"));
        StringWriter log = new StringWriter();
        List<Triage.Verdict> vs = Triage.triage(List.of(f), new Triage.Options(60, 50), new PrintWriter(log));
        Triage.Verdict v = vs.get(0);
        assertEquals("clang", v.family(), log.toString());
        // -O1 does not run the bad pass; -fno-inline is not needed.
        assertEquals(List.of(FAKE.toString(), "-O2"), v.minimal(), log.toString());
        assertTrue(v.blame().startsWith("FakeLoopManglePass on function (test) (pass 7)"), v.blame());
        assertEquals("clang: FakeLoopManglePass", v.group());
        assertTrue(log.toString().contains("1 finding(s), 1 distinct bug(s)"), log.toString());
        String report = Files.readString(f.resolve("triage/report.md"));
        assertTrue(report.startsWith("# [FakeLoopMangle] Miscompilation at -O2"), report);
        assertTrue(report.contains("gcc -O0 -g -fsanitize=undefined,address -fno-sanitize-recover=all -w test.c -o san.bin && ./san.bin`: runs clean"),
                report);
        assertTrue(Files.readString(f.resolve("triage/triage.json")).contains("\"blame\": \"FakeLoopManglePass"), "triage.json written as JSON");
    }

    @Test
    void aGccMiscompilationIsBlamedOnTheFlagAndThePassThatSwitchItOff() throws Exception {
        Path gcc = FAKE.resolveSibling("pass-gcc.sh");
        gcc.toFile().setExecutable(true);
        Path f = finding(2, List.of(gcc.toString(), "-O3"));
        // A reduced test (as 'yarpj reduce' leaves it) is what triage works on: small, so every flag is cheap to try.
        Files.createDirectories(f.resolve("reduced"));
        Files.writeString(f.resolve("reduced/merged.c"), String.join("\n", "#include <stdio.h>", "int a[8];",
                "void test(void) {", "    for (int i = 0; i < 8; i++)", "        a[i] = 3;", "}",
                "int main(void) { test(); printf(\"%d\\n\", a[5]); return 0; }", ""));
        Triage.Verdict v = Triage.triage(List.of(f), new Triage.Options(60, 600), new PrintWriter(new StringWriter())).get(0);
        assertEquals("gcc", v.family());
        assertEquals(List.of(gcc.toString(), "-O2"), v.minimal());
        assertEquals(List.of("-fno-tree-loop-distribute-patterns", "-fdisable-tree-ldist"), v.disablers());
        assertEquals("gcc: -fno-tree-loop-distribute-patterns -fdisable-tree-ldist", v.group());
        assertTrue(Files.readString(f.resolve("triage/report.md")).startsWith("# wrong code at -O2 on x86_64-linux-gnu"));
    }

    @Test
    void aFindingWithoutTheSymptomIsRefusedInOneLine() throws Exception {
        // At -O1 the fake compiler is right: nothing to triage.
        Path f = finding(1, List.of(FAKE.toString(), "-O1"));
        Triage.TriageException e = assertThrows(Triage.TriageException.class,
                () -> Triage.triage(List.of(f), new Triage.Options(60, 50), new PrintWriter(new StringWriter())));
        assertTrue(e.getMessage().startsWith("the symptom does not show"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }
}
