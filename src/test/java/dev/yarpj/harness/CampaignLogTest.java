package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CampaignLogTest {
    @Test
    void aTornDoneLineDoesNotMarkItsSeedFinished(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("campaign.jsonl");
        // Seed 1 finished; the run was killed while writing seed 2's done line.
        Files.writeString(file, "{\"event\": \"done\", \"seed\": 1}\n{\"event\": \"done\", \"seed\": 2");
        try (CampaignLog log = new CampaignLog(file)) {
            log.append(List.of(Map.of("seed", 3, "testbed", "x", "outcome", "pass")));
        }
        assertEquals(Set.of(1L), CampaignLog.finishedSeeds(file));
        List<String> lines = Files.readAllLines(file);
        assertEquals(3, lines.size(), lines.toString());
        assertEquals("{\"event\": \"done\", \"seed\": 2", lines.get(1));
    }
}
