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
}
