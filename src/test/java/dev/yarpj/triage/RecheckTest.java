package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recheck never says fixed wrongly: the record of a bug on an emulated target must name the
 * run its test needs, or it is not rechecked (under the finding's run, an RVV bug that needs
 * qemu's freedoms at VLEN 1024 was called fixed).
 */
class RecheckTest {
    @Test
    void aRecordOfAnEmulatedTargetWithoutItsRunIsNotRechecked(@TempDir Path dir) throws Exception {
        Path record = Files.createDirectories(dir.resolve("known").resolve("4d95896040"));
        Files.writeString(record.resolve("bug.json"), "{\"title\": \"t\", \"status\": \"open\", \"keys\": [], \"test\": \"test.c\","
                + " \"smallest_configuration\": \"riscv64-linux-gnu-gcc-newest -O2 -march=rv64gcv_zvl1024b\"}\n");
        Files.writeString(record.resolve("test.c"), "int main(void) { return 0; }\n");
        Path finding = Files.createDirectories(dir.resolve("results/wrong-code/abc/7"));
        Files.writeString(finding.resolve("meta.json"), "{\"kind\": \"wrong-code\", \"signature\": \"s\", \"seed\": 7, \"lang\": \"c\","
                + " \"testbed\": \"rvv\", \"reference\": \"gcc\", \"target\": \"riscv64-rvv\","
                + " \"run\": [\"qemu-riscv64\", \"-cpu\", \"rv64,v=true,vlen=256,rvv_ta_all_1s=false\"],"
                + " \"commands\": [[\"riscv64-linux-gnu-gcc-newest\", \"-O2\", \"-march=rv64gcv\", \"-c\", \"func.c\", \"-o\", \"f.o\"]]}\n");
        Map<String, Object> r = Recheck.known(record, finding, 10, System.getenv("PATH"));
        assertTrue(String.valueOf(r.get("result")).startsWith("not rechecked: the record names no run for its test"), r.toString());
        assertEquals(null, r.get("status"), r.toString());
        assertTrue(Files.exists(Recheck.file(finding, "4d95896040")), "written, so that it is not tried again");
    }

    /**
     * yarpj bugs --recheck: every record alone, on the compilers here. A host record whose test a fake gcc miscompiles
     * shows it, and its bug.json says so with the date; a record of an emulated target without its run, or of a compiler
     * not installed, is not rechecked, with the reason.
     */
    @Test
    void theWholeRecordIsRecheckedOnTheCompilersHereAndEachBugSaysWhatItGot(@TempDir Path dir) throws Exception {
        Path gcc = Path.of("src/test/resources/fake-compilers/pass-gcc.sh").toAbsolutePath();
        gcc.toFile().setExecutable(true);
        Path known = dir.resolve("known");
        String test = "#include <stdio.h>\nint a[8];\nvoid test(void) {\n    for (int i = 0; i < 8; i++)\n        a[i] = 3;\n}\n"
                + "int main(void) { test(); printf(\"%d\\n\", a[5]); return 0; }\n";
        String key = "\"keys\": [{\"kind\": \"wrong-code\", \"family\": \"gcc\", \"blamed\": \"-fdisable-tree-ldist\", \"options\": []}]";
        Path ldist = Files.createDirectories(known.resolve("aaa"));
        Files.writeString(ldist.resolve("bug.json"), "{\"title\": \"ldist\", \"status\": \"open\", " + key + ", \"test\": \"test.c\","
                + " \"smallest_configuration\": \"" + gcc + " -O2\", \"reference\": \"gcc\", \"shown_on\": \"12.2.0\"}\n");
        Files.writeString(ldist.resolve("test.c"), test);
        Path gone = Files.createDirectories(known.resolve("bbb"));
        Files.writeString(gone.resolve("bug.json"), "{\"title\": \"gone\", " + key + ", \"test\": \"test.c\", \"smallest_configuration\": \"gcc-0-none -O2\"}\n");
        Files.writeString(gone.resolve("test.c"), test);
        Path rvv = Files.createDirectories(known.resolve("ccc"));
        Files.writeString(rvv.resolve("bug.json"), "{\"title\": \"rvv\", \"keys\": [{\"kind\": \"wrong-code\", \"target\": \"riscv64-rvv\","
                + " \"family\": \"gcc\", \"blamed\": \"tree-vect\", \"options\": []}], \"test\": \"test.c\", \"smallest_configuration\": \"gcc -O2\"}\n");
        Files.writeString(rvv.resolve("test.c"), test);
        // A compile-time bug, rechecked by a ratio: the fake spins on its test until the CPU limit, where gcc takes a moment.
        Path hang = Path.of("src/test/resources/fake-compilers/hang.sh").toAbsolutePath();
        hang.toFile().setExecutable(true);
        Path slow = Files.createDirectories(known.resolve("ddd"));
        Files.writeString(slow.resolve("bug.json"), "{\"title\": \"slow\", \"keys\": [{\"kind\": \"compile-hang\", \"family\": \"clang\","
                + " \"blamed\": \"loop-vectorize\", \"options\": []}], \"test\": \"func.c\", \"smallest_configuration\": \"" + hang + " -O2\"}\n");
        Files.writeString(slow.resolve("func.c"), "int f(int x) { return x + 1; }\n");
        // A link failure whose test is three files, built in one command: the undefined reference it names shows with all of them.
        Path link = Files.createDirectories(known.resolve("eee"));
        Files.writeString(link.resolve("bug.json"), "{\"title\": \"link\", \"keys\": [{\"kind\": \"link-failure\", \"family\": \"gcc\","
                + " \"blamed\": \"tree-vect\", \"options\": []}], \"test\": \"test.c\", \"inputs\": [\"b.c\", \"m.c\"],"
                + " \"link_error\": \"undefined reference to missing_fn\", \"smallest_configuration\": \"gcc -O2\"}\n");
        Files.writeString(link.resolve("test.c"), "int missing_fn(int);\nint h(int);\nint g(int x) { return missing_fn(x) + h(x); }\n");
        Files.writeString(link.resolve("b.c"), "int h(int x) { return x; }\n");
        Files.writeString(link.resolve("m.c"), "int g(int);\nint main(void) { return g(1); }\n");
        java.io.StringWriter out = new java.io.StringWriter();
        var cl = dev.yarpj.cli.Main.commandLine();
        cl.setOut(new java.io.PrintWriter(out));
        cl.setErr(new java.io.PrintWriter(new java.io.StringWriter()));
        assertEquals(0, cl.execute("bugs", "--recheck", "--known-bugs", known.toString(), "--bugs-md", dir.resolve("bugs.md").toString(),
                "--compile-timeout", "3"));
        String said = out.toString();
        assertTrue(said.contains("aaa (ldist): shows it on pass-gcc.sh "), said);
        assertTrue(said.contains("bbb (gone): not rechecked: gcc-0-none is not installed here"), said);
        assertTrue(said.contains("ccc (rvv): not rechecked: the record of a bug on riscv64-rvv names no run"), said);
        // The real gcc of this machine, another version, gets the fake's bug right: fixed there, where one is installed.
        assertTrue(said.contains("ddd (slow): shows it on hang.sh ") && said.contains("slow: still compiling at "), said);
        assertTrue(said.contains("eee (link): shows it on gcc "), said);
        assertTrue(said.matches("(?s).*5 bug\\(s\\) in " + java.util.regex.Pattern.quote(known.toString()) + ": (3 show it, 0 fixed|2 show it, 1 fixed), 2 not rechecked.*"), said);
        Map<String, Object> bug = dev.yarpj.harness.JsonFiles.parseObject(Files.readString(ldist.resolve("bug.json")));
        Map<?, ?> rechecked = (Map<?, ?>) bug.get("rechecked");
        assertEquals("shows it", rechecked.get("result"), bug.toString());
        assertTrue(String.valueOf(rechecked.get("on")).matches("\\d{4}-\\d\\d-\\d\\dT.*"), bug.toString());
        assertEquals(said.contains(", 1 fixed") ? "fixed" : "open", bug.get("status"), "the status the recheck found");
        assertTrue(Files.readString(dir.resolve("bugs.md")).contains("| ldist | " + bug.get("status") + " |"), "the index drawn from the record");
    }
    /**
     * An ISPC record is built as the harness builds an ISPC test: ispc compiles it to an object, the C compiler links
     * that with the record's C main; a wrong code is told against ispc at -O0. The record's own two ispc bugs, as they
     * stand in known-bugs/, show on the ispc installed here (1.28.2, the only one to be had).
     */
    @Test
    void theRecordsIspcBugsAreBuiltWithTheirMainAndShowOnTheIspcHere(@TempDir Path dir) throws Exception {
        Path known = Files.createDirectories(dir.resolve("known"));
        for (String id : new String[] {"ispc-gather-segfault", "ispc-16-bit-shift-on-x32"}) {
            Path to = Files.createDirectories(known.resolve(id));
            try (var files = Files.list(Path.of("known-bugs", id))) {
                for (Path f : files.toList()) Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        java.io.StringWriter out = new java.io.StringWriter();
        var cl = dev.yarpj.cli.Main.commandLine();
        cl.setOut(new java.io.PrintWriter(out));
        cl.setErr(new java.io.PrintWriter(new java.io.StringWriter()));
        assertEquals(0, cl.execute("bugs", "--recheck", "--known-bugs", known.toString(), "--bugs-md", dir.resolve("bugs.md").toString()));
        String said = out.toString();
        assertTrue(said.matches("(?s).*ispc-gather-segfault \\([^\\n]*\\): shows it on ispc 1\\..*"), said);
        assertTrue(said.matches("(?s).*ispc-16-bit-shift-on-x32 \\([^\\n]*\\): shows it on ispc 1\\..*"), said);
        assertTrue(said.contains("2 show it, 0 fixed, 0 not rechecked"), said);
    }
}
