package dev.yarpj.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.lower.Language;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * JSON through Jackson ({@link JsonFiles}) is laid out as yarpj's hand-written codec laid it
 * out: the expected texts are what that codec wrote for the same values (at commit 870d29c),
 * so meta.json, the campaign log, triage.json and the reducer's files keep their bytes.
 */
class JsonFilesTest {
    /** Every kind of value a meta.json or a log line holds, and some it might. */
    private static Map<String, Object> meta() {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("kind", "wrong-code");
        meta.put("seed", 7L);
        meta.put("n", 3);
        meta.put("t", 1.5);
        meta.put("small", 0.0004);
        meta.put("big", 123456789.123456);
        meta.put("neg", -2.0);
        meta.put("ok", true);
        meta.put("none", null);
        meta.put("text", "a \"q\" \\ b\nc\td\r\u0001\u001b[0m\b\f/ \u00e9 \u2211 \ud83d\ude00");
        meta.put("list", List.of(1L, "x", List.of(), Map.of()));
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("gcc", Map.of("rc", 0));
        inner.put("flags", List.of("-O2", "-march=native"));
        meta.put("nested", inner);
        meta.put("path", Path.of("/tmp/x y"));
        meta.put("lang", Language.ISPC);
        meta.put("huge", Long.MAX_VALUE);
        return meta;
    }

    @Test
    void oneLineAsTheOldCodecWroteIt() {
        String old = "{\"kind\": \"wrong-code\", \"seed\": 7, \"n\": 3, \"t\": 1.500, \"small\": 0.000, \"big\": 123456789.123, \"neg\": -2.000, \"ok\": true, \"none\": null, \"text\": \"a \\\"q\\\" \\\\ b\\nc\\td\\r\\u0001\\u001b[0m\\u0008\\u000c/ \u00e9 \u2211 \ud83d\ude00\", \"list\": [1, \"x\", [], {}], \"nested\": {\"gcc\": {\"rc\": 0}, \"flags\": [\"-O2\", \"-march=native\"]}, \"path\": \"/tmp/x y\", \"lang\": \"ISPC\", \"huge\": 9223372036854775807}";
        assertEquals(old, JsonFiles.write(meta()));
        assertEquals(JsonFiles.write(meta()), JsonFiles.write(meta()));
    }

    @Test
    void forPeopleAsTheOldCodecWroteIt() {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("func_lines_before", 120);
        info.put("seconds", 42L);
        info.put("built_per_second", 1.23456789);
        info.put("zero", 0.0);
        Map<String, Object> ol = new LinkedHashMap<>();
        ol.put("cpp", Map.of("symptom", "shows"));
        ol.put("ispc", new LinkedHashMap<>(Map.of("symptom", "no")));
        info.put("other_languages", ol);
        info.put("empty", Map.of());
        info.put("rows", List.of(Map.of("a", 1), Map.of("b", List.of(Map.of("c", 2)))));
        info.put("nums", List.of(1, 2, 3));
        String old = "{\n  \"func_lines_before\": 120,\n  \"seconds\": 42,\n  \"built_per_second\": 1.23457,\n  \"zero\": 0.0,\n  \"other_languages\": {\"cpp\": {\"symptom\": \"shows\"}, \"ispc\": {\"symptom\": \"no\"}},\n  \"empty\": {},\n  \"rows\": [\n    {\"a\": 1},\n    {\"b\": [{\"c\": 2}]}\n  ],\n  \"nums\": [1, 2, 3]\n}\n";
        assertEquals(old, JsonFiles.writePretty(info));
        assertEquals("{}\n", JsonFiles.writePretty(Map.of()));
        assertEquals("[\n  {\"a\": [\n      {\"b\": 1}\n    ]}\n]\n", JsonFiles.writePretty(List.of(Map.of("a", List.of(Map.of("b", 1))))));
        assertEquals("[1, {\"x\": 1}]\n", JsonFiles.writePretty(List.of(1, Map.of("x", 1))));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("l", List.of(Map.of("k", List.of(Map.of("z", List.of(Map.of("q", 1)))))));
        m.put("e", List.of());
        m.put("f", 1.0f);
        m.put("nan", Double.NaN);
        assertEquals("{\n  \"l\": [\n    {\"k\": [{\"z\": [{\"q\": 1}]}]}\n  ],\n  \"e\": [],\n  \"f\": 1.0,\n  \"nan\": null\n}\n", JsonFiles.writePretty(m));
    }

    /** Read back, a line gives what was written: integers as Longs, other numbers as Doubles, objects in order; anything else is null. */
    @Test
    void readsWhatItWrites() {
        Map<String, Object> back = JsonFiles.parseObject(JsonFiles.write(meta()));
        assertEquals(List.copyOf(meta().keySet()), List.copyOf(back.keySet()));
        assertEquals(7L, back.get("seed"));
        assertEquals(3L, back.get("n"));
        assertEquals(1.5, back.get("t"));
        assertEquals(Long.MAX_VALUE, back.get("huge"));
        assertEquals(meta().get("text"), back.get("text"));
        assertEquals(List.of(1L, "x", List.of(), Map.of()), back.get("list"));
        assertTrue(back.containsKey("none") && back.get("none") == null);
        assertEquals("/tmp/x y", back.get("path"));
        assertEquals(Map.of("a", 1L), JsonFiles.parseObject("  {\"a\":1}\n"));
        assertNull(JsonFiles.parseObject("{\"a\": 1} {"));
        assertNull(JsonFiles.parseObject("{\"a\": 1"));
        assertNull(JsonFiles.parseObject("[1]"));
        assertNull(JsonFiles.parseObject("null"));
        assertNull(JsonFiles.parseObject(""));
        assertNull(JsonFiles.parseObject("{\"a\": NaN}"));
    }
}
