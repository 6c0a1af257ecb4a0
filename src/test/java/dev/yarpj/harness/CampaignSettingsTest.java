package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CampaignSettingsTest {
    private static final CampaignSettings SAVED = new CampaignSettings("c", "/p/default.yaml", false, "/h/testbeds.yaml", 100, 199L,
            3600.0, 60, 10, null);

    private static CampaignSettings.Given nothing() {
        return new CampaignSettings.Given(null, null, null, null, null, null, null, null, null);
    }

    @Test
    void theFirstToSaveWinsAndWhatItSavedReadsBack(@TempDir Path dir) throws Exception {
        Path file = CampaignSettings.file(dir);
        assertTrue(SAVED.saveIfAbsent(file));
        CampaignSettings other = new CampaignSettings("cpp", null, true, "/x.yaml", 5, null, null, 30, 5, 4);
        assertFalse(other.saveIfAbsent(file), "a campaign is there already");
        assertEquals(SAVED, CampaignSettings.read(file));
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no temporary file is left behind");
        }
    }

    @Test
    void damagedSettingsAreOneLine(@TempDir Path dir) throws Exception {
        Path file = CampaignSettings.file(dir);
        for (String text : new String[] {"{\"lang\": \"c\"", "{\"lang\": \"c\", \"first_seed\": \"one\"}", ""}) {
            Files.writeString(file, text);
            var e = assertThrows(CampaignSettings.Damaged.class, () -> CampaignSettings.read(file));
            assertTrue(e.getMessage().startsWith("cannot use " + file + ": it is damaged"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"));
        }
    }

    @Test
    void repeatingTheCampaignsOwnSettingsIsFineAndChangingOneIsRefusedByName() {
        Path out = Path.of("/r");
        SAVED.check(nothing(), null, out);
        SAVED.check(new CampaignSettings.Given("c", "/p/default.yaml", false, "/h/testbeds.yaml", 60.0, 10.0, 100L, "100..199", null), null, out);
        var e = assertThrows(HarnessException.class, () -> SAVED.check(
                new CampaignSettings.Given("cpp", null, null, null, 30.0, null, null, "100..150", null), null, out));
        assertTrue(e.getMessage().startsWith("--lang, --compile-timeout, --seeds differ from the campaign in /r"), e.getMessage());
        assertThrows(HarnessException.class, () -> SAVED.check(nothing(), 4, out), "a shard cannot join a campaign that is not sharded");
        var sharded = new CampaignSettings("c", null, false, "/t.yaml", 1, null, null, 60, 10, 4);
        sharded.check(nothing(), 4, out);
        var e2 = assertThrows(HarnessException.class, () -> sharded.check(nothing(), null, out));
        assertTrue(e2.getMessage().contains("resume each with --shard K/4 --resume"), e2.getMessage());
    }

    @Test
    void theGeneratorIsKeptAndAResumedRunWithAnotherIsRefused(@TempDir Path dir) throws Exception {
        var yarpgen = new CampaignSettings("c", null, false, "/h/testbeds.yaml", 1, 9L, null, 60, 10, null, "yarpgen", "/opt/yarpgen");
        Path file = CampaignSettings.file(dir);
        assertTrue(yarpgen.saveIfAbsent(file));
        String text = Files.readString(file);
        assertTrue(text.contains("\"generator\": \"yarpgen\"") && text.contains("\"generator_tool\": \"/opt/yarpgen\""), text);
        assertEquals(yarpgen, CampaignSettings.read(file));
        // A campaign.json from before there were other generators: yarpj's.
        Files.writeString(file, text.replaceAll(", \"generator\": \"yarpgen\"|, \"generator_tool\": \"/opt/yarpgen\"", ""));
        assertEquals("yarpj", CampaignSettings.read(file).generator(), Files.readString(file));
        assertEquals(null, CampaignSettings.read(file).generatorTool());

        Path out = Path.of("/r");
        yarpgen.check(new CampaignSettings.Given(null, null, null, null, null, null, null, null, null, "yarpgen", "/opt/yarpgen"), null, out);
        var e = assertThrows(HarnessException.class, () -> yarpgen.check(
                new CampaignSettings.Given(null, null, null, null, null, null, null, null, null, "csmith", null), null, out));
        assertTrue(e.getMessage().startsWith("--generator differ"), e.getMessage());
        var e2 = assertThrows(HarnessException.class, () -> yarpgen.check(
                new CampaignSettings.Given(null, null, null, null, null, null, null, null, null, null, "/opt/other/yarpgen"), null, out));
        assertTrue(e2.getMessage().startsWith("--yarpgen differ"), e2.getMessage());
        var e3 = assertThrows(HarnessException.class, () -> SAVED.check(
                new CampaignSettings.Given(null, null, null, null, null, null, null, null, null, "yarpgen", null), null, out));
        assertTrue(e3.getMessage().startsWith("--generator differ"), "yarpj's campaign: " + e3.getMessage());
    }

    @Test
    void seedOptionsGiveOneRange() {
        assertEquals(new CampaignSettings.SeedRange(5, 9), CampaignSettings.SeedRange.of(null, "5..9", null));
        assertEquals(new CampaignSettings.SeedRange(5, 7), CampaignSettings.SeedRange.of(5L, "5..9", 3L));
        assertEquals(new CampaignSettings.SeedRange(-1, -1), CampaignSettings.SeedRange.of(null, null, 3L), "a picked seed: no end yet");
        assertThrows(HarnessException.class, () -> CampaignSettings.SeedRange.of(null, "9..5", null));
        assertThrows(HarnessException.class, () -> CampaignSettings.SeedRange.of(4L, "5..9", null));
        assertThrows(HarnessException.class, () -> CampaignSettings.SeedRange.of(null, null, 0L));
    }
}
