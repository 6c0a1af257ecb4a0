package dev.yarpj.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An edits.json written by yarpj before its JSON went through Jackson (the hand-written
 * codec, at commit 870d29c) reads, and writes back byte for byte: every kind of edit.
 */
class EditsFileTest {
    @TempDir
    Path dir;

    /** Every kind of edit, ToConst with longs that are numbers, one that is a string (past 10^17) and Long.MIN_VALUE (a number, as it always was). */
    @Test
    void editsFileWrittenByTheOldCodecReadsAndWritesBack() throws Exception {
        Path old = Path.of("src/test/resources/program-files/edits.json");
        List<Edit> edits = IrReducer.readEdits(old);
        assertEquals(14, edits.size());
        assertEquals(new Edit.ToConst(10, Long.MIN_VALUE), edits.get(7));
        assertEquals(new Edit.ToConst(11, 1L << 62), edits.get(8));
        assertEquals(new Edit.DropUnused(), edits.get(13));
        assertTrue(Files.readString(old).contains("\"value\": \"4611686018427387904\""));
        Path again = dir.resolve("edits.json");
        IrReducer.writeEdits(edits, again);
        assertEquals(Files.readString(old), Files.readString(again));
    }

    /** A damaged edits.json says so on one line. */
    @Test
    void aDamagedEditsFileSaysSoOnOneLine() throws Exception {
        Path bad = dir.resolve("edits.json");
        Files.writeString(bad, "{\"edits\": [{\"edit\": {\"@\": \"Teleport\", \"stmt\": 1}}]}\n");
        String m = org.junit.jupiter.api.Assertions.assertThrows(Reducer.ReduceException.class, () -> IrReducer.readEdits(bad)).getMessage();
        assertTrue(m.startsWith("cannot read " + bad) && m.contains("Teleport") && !m.contains("\n"), m);
        Files.writeString(bad, "{\"edits\": [{\"edit\": {\"@\": \"ToConst\", \"expr\": 1, \"value\": \"x\"}}]}\n");
        m = org.junit.jupiter.api.Assertions.assertThrows(Reducer.ReduceException.class, () -> IrReducer.readEdits(bad)).getMessage();
        assertTrue(m.contains("not an integer: x") && !m.contains("\n"), m);
        Files.writeString(bad, "{\"edits\": 3}\n");
        m = org.junit.jupiter.api.Assertions.assertThrows(Reducer.ReduceException.class, () -> IrReducer.readEdits(bad)).getMessage();
        assertTrue(m.startsWith("not an edits file"), m);
    }
}
