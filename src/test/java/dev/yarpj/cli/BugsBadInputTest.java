package dev.yarpj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bad record of known bugs, or a bad recheck, is a one-line error and exit code 2, never a stack trace. */
class BugsBadInputTest {
    private static String[] run(String... args) {
        var cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new String[] {Integer.toString(code), err.toString().strip()};
    }

    private static void oneLineError(String[] r, String expected) {
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains(expected) && !r[1].contains("\n") && !r[1].contains("Exception"), r[1]);
    }

    @Test
    void aMissingOrUnreadableRecordOfKnownBugsIsOneLine(@TempDir Path dir) throws Exception {
        Path results = Files.createDirectories(dir.resolve("results"));
        oneLineError(run("bugs", results.toString(), "--known-bugs", dir.resolve("nowhere").toString()), "--known-bugs: not a directory");
        Path record = Files.createDirectories(dir.resolve("record/abc"));
        Files.writeString(record.resolve("bug.json"), "{\"title\": \"no keys\"}");
        oneLineError(run("bugs", results.toString(), "--known-bugs", dir.resolve("record").toString()), "has no list 'keys'");
        oneLineError(run("triage", "--recheck-known", dir.resolve("nowhere").toString(), results.toString()), "--recheck-known: no bug.json");
        oneLineError(run("triage", "--recheck-known", record.toString(), results.toString(), results.toString()), "takes one FINDING");
    }
}
