package dev.yarpj.triage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bugs.md's status table is drawn from the record: a status changes in the record's bug.json
 * alone, and the table follows it, open bugs first, each group in the order of the entries.
 */
class KnownBugsTest {
    private static void record(Path dir, String id, String json) throws Exception {
        Files.createDirectories(dir.resolve(id));
        Files.writeString(dir.resolve(id).resolve("bug.json"), json);
    }

    @Test
    void theStatusTableIsDrawnFromTheRecordOpenBugsFirstInTheOrderOfTheirEntries(@TempDir Path dir) throws Exception {
        Path record = dir.resolve("known-bugs");
        record(record, "aaa", "{\"title\": \"gcc 12: old\", \"status\": \"fixed\", \"entry\": \"bugs.md#gcc-12-old\", \"keys\": [],"
                + " \"table\": {\"compiler\": \"gcc 12\", \"bug\": \"an old one\", \"command\": \"`gcc-12 -O3`\", \"fixed_in\": \"16.2\"}}");
        record(record, "bbb", "{\"title\": \"clang 23: second\", \"status\": \"open\", \"entry\": \"bugs.md#clang-23-second\", \"keys\": [],"
                + " \"lost\": \"gone\", \"table\": {\"compiler\": \"clang 23\", \"bug\": \"second\", \"command\": \"`clang -O1`\", \"versions\": \"22 right\"}}");
        record(record, "ccc", "{\"title\": \"clang 23: first\", \"status\": \"open\", \"entry\": \"bugs.md#clang-23-first\", \"keys\": [],"
                + " \"smallest_configuration\": \"clang-newest -O2\"}");
        Path md = dir.resolve("bugs.md");
        Files.writeString(md, String.join("\n", "# Bugs", "", KnownBugs.TABLE_BEGIN, "| stale | row |", KnownBugs.TABLE_END, "",
                "### gcc 12: old", "", "### clang 23: first", "", "### clang 23: second", "prose a person wrote", ""));
        KnownBugs.writeIndex(record, md);
        String text = Files.readString(md);
        List<String> rows = text.lines().filter(l -> l.startsWith("| ") && l.contains("[record]")).toList();
        assertEquals(3, rows.size(), text);
        assertTrue(rows.get(0).startsWith("|  | clang 23: first | **open** | `clang-newest -O2` | [entry](#clang-23-first)"), rows.get(0));
        assertTrue(rows.get(1).startsWith("| clang 23 | second | **open** (its test is lost); 22 right | `clang -O1` |"), rows.get(1));
        assertTrue(rows.get(2).startsWith("| gcc 12 | an old one | **fixed in 16.2** |"), rows.get(2));
        assertTrue(!text.contains("stale") && text.contains("prose a person wrote"), text);
        // One place: the record's status changes, and the table with it.
        Files.writeString(record.resolve("ccc/bug.json"), Files.readString(record.resolve("ccc/bug.json")).replace("\"open\"", "\"fixed\""));
        KnownBugs.writeIndex(record, md);
        List<String> again = Files.readString(md).lines().filter(l -> l.startsWith("| ") && l.contains("[record]")).toList();
        assertTrue(again.get(2).contains("clang 23: first | **fixed**"), again.toString());
    }
}
