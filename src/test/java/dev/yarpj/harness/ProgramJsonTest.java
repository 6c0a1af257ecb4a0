package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.Recipe;
import dev.yarpj.lower.LoweredTest;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by yarpj before its JSON went through Jackson (by the hand-written codec,
 * RecordTree over Json, at commit 870d29c) still read, and write back byte for byte. The
 * fixtures under {@code src/test/resources/program-files/} are what that yarpj wrote:
 * program.json.gz of {@code generate(1)} under policies/control-flow.yaml in C++ and ISPC and
 * of {@code generate(4)} under policies/vectorize.yaml in C (between them every kind of
 * statement, expression and array passing); EditsFileTest reads the edits.json there. Should a
 * record of the IR gain a field, the byte comparison fails: the file still reads, but the
 * fixture is to be written again (as they were when Program gained its helpers, when a loop head gained its reach, and when a
 * call's lhs and rhs became its args; the file of before that is kept beside them). A program
 * that calls helpers writes and reads back equal, calls and bodies alike.
 */
class ProgramJsonTest {
    private static final Path FIXTURES = Path.of("src/test/resources/program-files");

    @TempDir
    Path dir;

    @Test
    void programFilesWrittenByTheOldCodecReadAndWriteBackByteForByte() throws Exception {
        for (String name : List.of("control-flow-CPP-1", "control-flow-ISPC-1", "vectorize-C-4")) {
            Path old = FIXTURES.resolve(name + ".json.gz");
            ProgramFile p = ProgramFile.read(old);
            // Read back, it is a test: it interprets and lowers.
            Recipe r = p.recipe();
            LoweredTest files = r.lower(p.program(), r.interpret(p.program()));
            assertTrue(!files.files().isEmpty(), name);
            // Written again, the same JSON (gzip's header aside), and read again, equal records.
            Path again = dir.resolve(name + ".json.gz");
            p.write(again);
            assertEquals(gunzip(old), gunzip(again), name);
            ProgramFile back = ProgramFile.read(again);
            assertEquals(p.program(), back.program(), name);
            assertEquals(p.recipe().tape().kinds(), back.recipe().tape().kinds());
            assertEquals(p.recipe().tape().values(), back.recipe().tape().values());
            assertEquals(p.version(), back.version());
            // The same bytes every time.
            assertTrue(java.util.Arrays.equals(p.bytes(), back.bytes()), name);
        }
    }

    /** A min or max call written as {@code lhs} and {@code rhs} (before calls took one to three operands) reads as its {@code args}. */
    @Test
    void aCallWrittenWithTwoOperandsByAnOlderYarpjReadsAsToday() throws Exception {
        ProgramFile old = ProgramFile.read(FIXTURES.resolve("vectorize-C-4-two-operand-calls.json.gz"));
        ProgramFile now = ProgramFile.read(FIXTURES.resolve("vectorize-C-4.json.gz"));
        assertEquals(now.program(), old.program());
        assertTrue(gunzip(FIXTURES.resolve("vectorize-C-4-two-operand-calls.json.gz")).contains("\"lhs\": {\"@\": \"Cast\""), "the fixture is the old layout");
    }

    @Test
    void aProgramWithHelperCallsAndArraysOfStructsReadsBackEqual() throws Exception {
        dev.yarpj.policy.GenPolicy calls = dev.yarpj.policy.PolicyLoader.parse("functions: {p_call: 0.3}\nstructs: {p_field: 0.8}\n", "calls.yaml", "calls");
        dev.yarpj.gen.GeneratedTest t = new dev.yarpj.gen.Generator(calls, dev.yarpj.lower.Language.C, dev.yarpj.lower.CheckMode.HASH)
                .generate(2, "calls");
        assertTrue(!t.program().helpers().isEmpty(), "seed 2 defines no helper");
        assertTrue(!t.program().structArrays().isEmpty(), "seed 2 has no array of structs");
        Path f = dir.resolve("calls.json.gz");
        new ProgramFile(t.program(), t.recipe()).write(f);
        ProgramFile back = ProgramFile.read(f);
        assertEquals(t.program(), back.program());
        assertEquals(t.prediction().checksums(), back.recipe().interpret(back.program()).checksums());
    }

    /** Input sets that change scalars, move sentinels and fill arrays otherwise read back as the same sets, predicting the same checksums. */
    @Test
    void aProgramWhoseInputSetsFillArraysOtherwiseReadsBackEqual() throws Exception {
        dev.yarpj.gen.GeneratedTest t = new dev.yarpj.gen.Generator(dev.yarpj.policy.GenPolicy.defaults(), dev.yarpj.lower.Language.C,
                dev.yarpj.lower.CheckMode.HASH).generate(1, "sets");
        assertTrue(t.program().inputSets().stream().anyMatch(x -> !x.fills().isEmpty()), "seed 1 has no set that fills an array otherwise");
        Path f = dir.resolve("sets.json.gz");
        new ProgramFile(t.program(), t.recipe()).write(f);
        ProgramFile back = ProgramFile.read(f);
        assertEquals(t.program().inputSets(), back.program().inputSets());
        assertEquals(t.program(), back.program());
        assertEquals(t.prediction().checksums(), back.recipe().interpret(back.program()).checksums());
    }

    /**
     * A file written before helpers returned structs spells a helper's result {@code "body"}
     * (one expression) and {@code "result"} (its type): it still reads, as the same program.
     */
    @Test
    void aHelperSavedWithOneBodyBeforeStructResultsReadsAsTheSameProgram() throws Exception {
        dev.yarpj.policy.GenPolicy calls = dev.yarpj.policy.PolicyLoader.parse("functions: {p_call: 0.3, p_struct_result: 0}\n", "calls.yaml", "calls");
        dev.yarpj.gen.GeneratedTest t = new dev.yarpj.gen.Generator(calls, dev.yarpj.lower.Language.C, dev.yarpj.lower.CheckMode.HASH)
                .generate(2, "calls");
        assertTrue(!t.program().helpers().isEmpty(), "seed 2 defines no helper");
        Path f = dir.resolve("new.json.gz");
        new ProgramFile(t.program(), t.recipe()).write(f);
        // The same file as the older codec wrote it: every helper with "result" and "body", no "results" or "resultStruct".
        com.fasterxml.jackson.databind.JsonNode tree = ProgramJson.readTree(gunzip(f));
        int[] helpers = {0};
        java.util.function.Consumer<com.fasterxml.jackson.databind.JsonNode>[] old = new java.util.function.Consumer[1];
        old[0] = n -> {
            if (n instanceof com.fasterxml.jackson.databind.node.ObjectNode o && o.has("results") && o.has("resultStruct")) {
                com.fasterxml.jackson.databind.JsonNode body = o.remove("results").get(0);
                o.remove("resultStruct");
                o.put("result", t.program().helpers().stream().filter(h -> h.name().equals(o.get("name").asText())).findFirst().orElseThrow()
                        .result(0).name());
                o.set("body", body);
                helpers[0]++;
            }
            n.elements().forEachRemaining(old[0]);
        };
        old[0].accept(tree);
        assertTrue(helpers[0] >= t.program().helpers().size());
        Path g = dir.resolve("old.json.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(g))) {
            out.write(tree.toString().getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(t.program(), ProgramFile.read(g).program());
    }

    private static String gunzip(Path file) throws java.io.IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
