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

    // Seed 2: a program whose output depends on a constant of test() the fake pass changes, and
    // that still runs with it changed (seed 1 has no such constant; seed 6 crashes since the math library's calls).
    @Test
    void aPlantedMiscompilationIsBlamedOnThePassThatMakesIt() throws Exception {
        Path f = finding(2, List.of(FAKE.toString(), "-O3", "-fno-inline"));
        StringWriter log = new StringWriter();
        List<Triage.Verdict> vs = Triage.triage(List.of(f), new Triage.Options(60, 50, ""), new PrintWriter(log));
        Triage.Verdict v = vs.get(0);
        assertEquals("clang", v.family(), log.toString());
        // -O1 does not run the bad pass; -fno-inline is not needed.
        assertEquals(List.of(FAKE.toString(), "-O2"), v.minimal(), log.toString());
        assertTrue(v.blame().startsWith("FakeLoopManglePass on function (test) (pass 7)"), v.blame());
        assertEquals("clang: FakeLoopManglePass", v.group());
        assertTrue(log.toString().contains("1 finding(s), 1 distinct bug(s)"), log.toString());
        String report = Files.readString(f.resolve("triage/report.md"));
        assertTrue(report.startsWith("# [FakeLoopMangle] Miscompilation at -O2"), report);
        assertTrue(report.contains("gcc -O0 -g -fsanitize=undefined,address,float-cast-overflow,float-divide-by-zero -fno-sanitize-recover=all -w test.c -o san.bin -lm && ./san.bin`: runs clean"),
                report);
        assertTrue(Files.readString(f.resolve("triage/triage.json")).contains("\"blame\": \"FakeLoopManglePass"), "triage.json written as JSON");
    }

    @Test
    void aGccMiscompilationIsBlamedOnTheFlagAndThePassThatSwitchItOff() throws Exception {
        // The fake also makes other wrong code under -fno-tree-ccp, one of the disabling options tried:
        // a group holding it and a true disabler prints neither the right output nor the bug's.
        Path gcc = FAKE.resolveSibling("pass-gcc-other-wrong.sh");
        gcc.toFile().setExecutable(true);
        Path f = finding(2, List.of(gcc.toString(), "-O3"));
        // A reduced test (as 'yarpj reduce' leaves it) is what triage works on: small, so every flag is cheap to try.
        Files.createDirectories(f.resolve("reduced"));
        Files.writeString(f.resolve("reduced/merged.c"), String.join("\n", "#include <stdio.h>", "int a[8];",
                "void test(void) {", "    for (int i = 0; i < 8; i++)", "        a[i] = 3;", "}",
                "int main(void) { test(); printf(\"%d\\n\", a[5]); return 0; }", ""));
        Triage.Verdict v = Triage.triage(List.of(f), new Triage.Options(60, 600, ""), new PrintWriter(new StringWriter())).get(0);
        assertEquals("gcc", v.family());
        assertEquals(List.of(gcc.toString(), "-O2"), v.minimal());
        assertEquals(List.of("-fno-tree-loop-distribute-patterns", "-fdisable-tree-ldist"), v.disablers());
        assertEquals("gcc: -fno-tree-loop-distribute-patterns -fdisable-tree-ldist", v.group());
        assertTrue(Files.readString(f.resolve("triage/report.md")).startsWith("# wrong code at -O2 on x86_64-linux-gnu"));
    }

    /** A fake compiler in {@code bin}: says {@code version} to --version, else runs {@code body} (a shell command taking "$@"). */
    private static void fakeVersion(Path bin, String name, String version, String body) throws Exception {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '" + version + "'; exit 0; fi\n" + body + "\n");
        p.toFile().setExecutable(true);
    }

    /** A small gcc finding, reduced, that pass-gcc.sh miscompiles at -O2 and above. */
    private Path reducedGccFinding(long seed) throws Exception {
        Path gcc = FAKE.resolveSibling("pass-gcc.sh");
        gcc.toFile().setExecutable(true);
        Path f = finding(seed, List.of(gcc.toString(), "-O2"));
        Files.createDirectories(f.resolve("reduced"));
        Files.writeString(f.resolve("reduced/merged.c"), String.join("\n", "#include <stdio.h>", "int a[8];",
                "void test(void) {", "    for (int i = 0; i < 8; i++)", "        a[i] = 3;", "}",
                "int main(void) { test(); printf(\"%d\\n\", a[5]); return 0; }", ""));
        return f;
    }

    @Test
    void aBugFixedOnTrunkSaysSoAndNamesTheReleaseThatFirstGetsItRight() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        String bad = "exec " + FAKE.resolveSibling("pass-gcc.sh") + " \"$@\"";
        fakeVersion(bin, "gcc-13", "gcc-13 (Debian 13.3.0-1) 13.3.0", bad);
        fakeVersion(bin, "gcc-14", "gcc-14 (Debian 14.2.0-1) 14.2.0", "exec gcc \"$@\"");
        fakeVersion(bin, "gcc-trunk", "gcc (Debian 20261020-1) 17.0.0 20261020 (experimental)", "exec gcc \"$@\"");
        fakeVersion(bin, "gcc-9", "gcc-9 (Debian 9.5.0-1) 9.5.0", "exit 1"); // cannot build anything
        fakeVersion(bin, "clang-23", "Debian clang version 23.1.4", bad); // another family: not tried
        Path f = reducedGccFinding(3);
        Triage.Verdict v = Triage.triage(List.of(f), new Triage.Options(60, 0, bin.toString()), new PrintWriter(new StringWriter())).get(0);
        assertEquals(List.of("gcc-9 9.5.0 cannot build it right", "pass-gcc.sh 12.2.0 shows it", "gcc-13 13.3.0 shows it",
                        "gcc-14 14.2.0 gets it right", "gcc-trunk 17.0.0-20261020 gets it right"),
                v.standing().checks().stream().map(c -> c.command().replaceAll(".*/", "") + " " + c.version() + " " + c.result().text).toList());
        assertEquals("fixed on GCC trunk (gcc-trunk 17.0.0-20261020); first right in gcc-14 14.2.0", v.newest());
        String json = Files.readString(f.resolve("triage/triage.json"));
        assertTrue(json.contains("\"on_trunk\": true, \"status\": \"fixed\", \"fixed_in\": \"gcc-14 14.2.0\""), json);
        assertTrue(Files.readString(f.resolve("triage/report.md")).contains("- On the newest compilers: fixed on GCC trunk"));

        // The same bug still on trunk: open, and no release is named as the fix.
        fakeVersion(bin, "gcc-trunk", "gcc (Debian 20261020-1) 17.0.0 20261020 (experimental)", bad);
        v = Triage.triage(List.of(f), new Triage.Options(60, 0, bin.toString()), new PrintWriter(new StringWriter())).get(0);
        // gcc-14, the newest release, gets it right: the bug came back on trunk.
        assertEquals("open on GCC trunk (gcc-trunk 17.0.0-20261020); a regression on trunk: the newest release installed, "
                + "gcc-14 14.2.0, gets it right", v.newest());
        assertTrue(Files.readString(f.resolve("triage/triage.json")).contains("\"status\": \"open\", \"fixed_in\": null"));
    }

    @Test
    void aNewerVersionThatNeedsTheFindingsOwnFlagsStillShowsTheBugAndKeepsItOpen() throws Exception {
        // As gcc 14 and 16 did on AArch64: 14 miscompiles at plain -O2, so -O2 is the smallest
        // configuration; 16 does at -O2 only with the finding's -fno-vect-cost-model.
        Path bin = Files.createDirectories(dir.resolve("bin"));
        String pass = FAKE.resolveSibling("pass-gcc.sh").toString();
        fakeVersion(bin, "gcc-16", "gcc-16 (Debian 16.2.0-3) 16.2.0",
                "case \" $* \" in *\" -fno-vect-cost-model \"*) exec " + pass + " \"$@\" ;; esac\nexec gcc \"$@\"");
        fakeVersion(bin, "gcc-15", "gcc-15 (Debian 15.2.0-1) 15.2.0", "exec gcc \"$@\""); // right with either
        FAKE.resolveSibling("pass-gcc.sh").toFile().setExecutable(true);
        Path f = reducedGccFinding(3);
        String meta = Files.readString(f.resolve("meta.json"));
        Files.writeString(f.resolve("meta.json"), meta.replace("\"-O2\", ", "\"-O2\", \"-fno-vect-cost-model\", "));
        Triage.Verdict v = Triage.triage(List.of(f), new Triage.Options(60, 0, bin.toString()), new PrintWriter(new StringWriter())).get(0);
        assertTrue(v.minimal().contains("-O2") && !v.minimal().contains("-fno-vect-cost-model"), "smallest: " + v.minimal());
        assertEquals(List.of("pass-gcc.sh 12.2.0 shows it", "gcc-15 15.2.0 gets it right",
                        "gcc-16 16.2.0 shows it only with more of the finding's flags"),
                v.standing().checks().stream().map(c -> c.command().replaceAll(".*/", "") + " " + c.version() + " " + c.result().text).toList());
        assertEquals("open on the newest gcc release installed (gcc-16 16.2.0) with `-O2 -fno-vect-cost-model` (not with the smallest "
                + "configuration); first shown in gcc-16 16.2.0 of the releases installed, gcc-15 15.2.0 gets it right", v.newest());
    }

    @Test
    void aFindingOnAnotherTargetRunsUnderItsEmulatorAndComparesOnlyThatTargetsCompilers() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        String bad = "exec " + FAKE.resolveSibling("pass-gcc.sh") + " \"$@\"";
        // Stand-ins: a "cross" gcc 15 that miscompiles, its gcc 16 that does not, and the host's gcc-16 (not this target's).
        fakeVersion(bin, "aarch64-linux-gnu-gcc-15", "aarch64-linux-gnu-gcc-15 (Debian 15.2.0-1) 15.2.0", bad);
        fakeVersion(bin, "aarch64-linux-gnu-gcc-16", "aarch64-linux-gnu-gcc-16 (Debian 16.2.0-3) 16.2.0", "exec gcc \"$@\"");
        fakeVersion(bin, "gcc-16", "gcc-16 (Debian 16.2.0-4) 16.2.0", bad);
        Path emu = bin.resolve("emu.sh");
        Files.writeString(emu, "#!/bin/sh\necho \"$@\" >> " + dir.resolve("emulated.txt") + "\nshift 2\nexec \"$@\"\n");
        emu.toFile().setExecutable(true);
        Path f = reducedGccFinding(4);
        String meta = Files.readString(f.resolve("meta.json")).replace(FAKE.resolveSibling("pass-gcc.sh").toString(),
                bin.resolve("aarch64-linux-gnu-gcc-15").toString());
        Files.writeString(f.resolve("meta.json"), meta.replaceFirst("\\}$", ", \"target\": \"aarch64-sve\", \"run\": [\"" + emu + "\", \"-cpu\", \"max\"]}"));
        Triage.Verdict v = Triage.triage(List.of(f), new Triage.Options(60, 0, bin.toString()), new PrintWriter(new StringWriter())).get(0);
        assertEquals("fixed on the newest gcc release installed (aarch64-linux-gnu-gcc-16 16.2.0); first right in aarch64-linux-gnu-gcc-16 16.2.0",
                v.newest());
        assertTrue(Files.readAllLines(dir.resolve("emulated.txt")).containsAll(List.of("-cpu max ./ref.bin", "-cpu max ./bug.bin")));
        String report = Files.readString(f.resolve("triage/report.md"));
        assertTrue(report.contains("on aarch64-sve") && report.contains("run under `" + emu + " -cpu max`"), report);
    }

    @Test
    void withoutTrunkTheNewestReleaseDecidesAndAReleaseThatRegressesNamesNoFix() {
        var shows = Versions.Result.SHOWS;
        var right = Versions.Result.RIGHT;
        // clang: no trunk installed; the newest release gets it right, the one before shows it.
        var st = Versions.standing(List.of(new Versions.Check("clang-23", "23.1.4", right), new Versions.Check("clang-14", "14.0.6", shows),
                new Versions.Check("clang-19", "19.1.7", shows)));
        assertEquals("fixed on the newest clang release installed (clang-23 23.1.4); first right in clang-23 23.1.4", st.sentence("clang"));
        // Right in 13, wrong again in 14, right in 15: the fix is 15, the release after the last that shows it.
        st = Versions.standing(List.of(new Versions.Check("gcc-13", "13.3.0", right), new Versions.Check("gcc-14", "14.2.0", shows),
                new Versions.Check("gcc-15", "15.2.0", right), new Versions.Check("gcc-12", "12.2.0", shows)));
        assertEquals("gcc-15", st.fixedIn().command());
        // Open on trunk, right in 12 and 13, wrong from 14 on: it regressed in 14 (of the releases installed).
        st = Versions.standing(List.of(new Versions.Check("gcc-trunk", "17.0.0-20261020", shows), new Versions.Check("gcc-14", "14.2.0", shows),
                new Versions.Check("gcc-12", "12.2.0", right), new Versions.Check("gcc-16", "16.2.0", shows), new Versions.Check("gcc-13", "13.3.0", right)));
        assertEquals("open on GCC trunk (gcc-trunk 17.0.0-20261020); first shown in gcc-14 14.2.0 of the releases installed, gcc-13 13.3.0 gets it right",
                st.sentence("gcc"));
        // Right in the newest release, wrong on trunk: a regression on trunk.
        st = Versions.standing(List.of(new Versions.Check("gcc-trunk", "17.0.0-20261020", shows), new Versions.Check("gcc-16", "16.2.0", right)));
        assertEquals("open on GCC trunk (gcc-trunk 17.0.0-20261020); a regression on trunk: the newest release installed, gcc-16 16.2.0, "
                + "gets it right", st.sentence("gcc"));
        // Back and forth (wrong in 12, right in 13, wrong in 14): the regression named is the last, in 14.
        st = Versions.standing(List.of(new Versions.Check("gcc-trunk", "17.0.0-20261020", shows), new Versions.Check("gcc-12", "12.2.0", shows),
                new Versions.Check("gcc-13", "13.3.0", right), new Versions.Check("gcc-14", "14.2.0", shows)));
        assertEquals("gcc-14", st.regressedIn().command());
        // Never right on any release installed: nothing regressed that we can see.
        st = Versions.standing(List.of(new Versions.Check("gcc-trunk", "17.0.0-20261020", shows), new Versions.Check("gcc-12", "12.2.0", shows)));
        assertEquals(null, st.regressedIn());
        assertEquals("open on GCC trunk (gcc-trunk 17.0.0-20261020)", st.sentence("gcc"));
        // Only the testbed's compiler: nothing to compare with.
        st = Versions.standing(List.of(new Versions.Check("gcc", "12.2.0", shows)));
        assertEquals("not checked: no gcc installed beside the testbed's", st.sentence("gcc"));
        // A version that cannot build the test decides nothing.
        st = Versions.standing(List.of(new Versions.Check("gcc", "12.2.0", shows), new Versions.Check("gcc-trunk", "17.0.0-20261020",
                Versions.Result.FAILS)));
        assertEquals("unknown", st.status());
        assertTrue(Versions.compareVersions("9.5.0", "16.2.0") < 0 && Versions.compareVersions("16.2.0", "16.10.0") < 0);
    }

    @Test
    void aFindingWithoutTheSymptomIsRefusedInOneLine() throws Exception {
        // At -O1 the fake compiler is right: nothing to triage.
        Path f = finding(1, List.of(FAKE.toString(), "-O1"));
        Triage.TriageException e = assertThrows(Triage.TriageException.class,
                () -> Triage.triage(List.of(f), new Triage.Options(60, 50, ""), new PrintWriter(new StringWriter())));
        assertTrue(e.getMessage().startsWith("the symptom does not show"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }
}
