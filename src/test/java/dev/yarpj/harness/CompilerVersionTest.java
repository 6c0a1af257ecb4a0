package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.lower.Language;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Testbed names carry their compiler's version: the short form of its --version line. */
class CompilerVersionTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "gcc (Debian 20261020-1) 17.0.0 20261020 (experimental) [trunk r17-5409-g5a4f77eb6af] | 17.0.0-20261020",
        "gcc-16 (Debian 16.2.0-4) 16.2.0 | 16.2.0",
        "gcc (Debian 12.2.0-14+deb12u1) 12.2.0 | 12.2.0",
        "Debian clang version 23.1.4 (2) | 23.1.4",
        "Debian clang version 14.0.6 | 14.0.6",
        "Intel(r) Implicit SPMD Program Compiler (Intel(r) ISPC), 1.28.2 (build  @ 20251211, LLVM 21.1.7) | 1.28.2",
        "? | unknown"})
    void theShortFormIsTheVersionNumberAndASnapshotsDate(String line, String shortForm) {
        assertEquals(shortForm, CompilerVersion.shortForm(line));
    }

    @Test
    void versionInATestbedNameIsFilledInAndTwoNamesThatMeetAreRefused() throws Exception {
        Path file = dir.resolve("tb.yaml");
        Files.writeString(file, "reference: {c: gcc, cpp: g++}\ntestbeds:\n"
                + "  - {name: \"gcc-{version}-O3\", c: gcc, flags: [-O3]}\n"
                + "  - {name: \"clang-{version}-O3\", c: cc, flags: [-O3]}\n");
        List<String> warnings = new ArrayList<>();
        List<Testbed> tbs = Testbeds.load(file).usable(Language.C, null,
                cc -> cc.equals("gcc") ? "gcc (Debian 20261020-1) 17.0.0 20261020 (experimental)" : "Debian clang version 23.1.4 (2)", warnings::add);
        assertEquals(List.of("gcc-17.0.0-20261020-O3", "clang-23.1.4-O3"), tbs.stream().map(Testbed::name).toList());
        assertTrue(warnings.isEmpty(), warnings.toString());

        // Two compilers of one version under one name pattern would mix their results: refused.
        Files.writeString(file, "reference: {c: gcc, cpp: g++}\ntestbeds:\n"
                + "  - {name: \"cc-{version}-O3\", c: gcc, flags: [-O3]}\n"
                + "  - {name: \"cc-{version}-O3\", c: cc, flags: [-O3]}\n");
        Testbeds both = Testbeds.load(file);
        Testbeds.TestbedException e = assertThrows(Testbeds.TestbedException.class,
                () -> both.usable(Language.C, null, cc -> "version 1.0.0", w -> { }));
        assertEquals("two testbeds are named cc-1.0.0-O3 once their compilers' versions are filled in", e.getMessage());
    }

    @Test
    void aVersionIsNewerByItsNumbersAndASnapshotByItsDateAfterThem() {
        assertTrue(CompilerVersion.newer("16.2.1", "16.2.0"));
        assertTrue(CompilerVersion.newer("17.0.0-20261020", "16.2.0"));
        assertTrue(CompilerVersion.newer("17.0.0-20261120", "17.0.0-20261020"));
        org.junit.jupiter.api.Assertions.assertFalse(CompilerVersion.newer("16.2.0", "16.2.0"));
        org.junit.jupiter.api.Assertions.assertFalse(CompilerVersion.newer("15.1.0", "16.2.0"));
        org.junit.jupiter.api.Assertions.assertFalse(CompilerVersion.newer("unknown", "16.2.0"));
        org.junit.jupiter.api.Assertions.assertFalse(CompilerVersion.newer("23.1.4", null));
    }
}
