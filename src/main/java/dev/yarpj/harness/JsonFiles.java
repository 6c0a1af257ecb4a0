package dev.yarpj.harness;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.Instantiatable;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.std.BeanSerializerBase;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.databind.type.TypeFactory;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Every JSON file yarpj writes or reads goes through Jackson, configured here once: meta.json,
 * the campaign log, campaign.json, summary.json, triage.json, reduce.json, the reducer's
 * files and (through {@link ProgramJson}) program.json.gz. The layout is the one yarpj has
 * always written, so files on disk keep their bytes: on one line with {@code ", "} and
 * {@code ": "} between entries ({@link #write}), or for people ({@link #writePretty}); a
 * control character other than newline, return and tab is a lower-case {@code &#92;u00xx}.
 */
public final class JsonFiles {
    private JsonFiles() {}

    /** (Before the writers, which take it.) Control characters but newline, return and tab as a lower-case {@code &#92;u00xx}, as yarpj has always written them. */
    private static final CharacterEscapes ESCAPES = new CharacterEscapes() {
        private final int[] codes = codes();

        private static int[] codes() {
            int[] c = standardAsciiEscapesForJSON();
            for (int i = 0; i < 0x20; i++) c[i] = ESCAPE_CUSTOM;
            c['\n'] = 'n';
            c['\r'] = 'r';
            c['\t'] = 't';
            return c;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return codes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            // Asked of every character past ASCII too: those are written as they are.
            return ch < 0x20 ? new SerializedString(String.format("\\u%04x", ch)) : null;
        }
    };

    /** What every mapper of yarpj's shares: integers read as Longs, nothing after the value, unknown keys ignored. */
    static JsonMapper.Builder builder() {
        return JsonMapper.builder()
                .enable(DeserializationFeature.USE_LONG_FOR_INTS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    }

    /** Applies the stream limits (larger than Jackson's defaults: a compiler's stderr, a deep expression) of yarpj's files to {@code m}. */
    static <M extends ObjectMapper> M configure(M m) {
        m.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(Integer.MAX_VALUE).maxNestingDepth(100_000).build());
        m.getFactory().setStreamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(100_000).build());
        return m;
    }

    /** For maps, lists, strings, numbers, booleans and null; anything else is written as its toString(), as a string. */
    private static ObjectMapper mapper(java.util.function.DoubleFunction<String> doubles, boolean floatsToo) {
        SimpleModule module = new SimpleModule("yarpj-json");
        module.addSerializer(Double.class, numbers(Double.class, doubles));
        if (floatsToo) module.addSerializer(Float.class, numbers(Float.class, doubles));
        module.addSerializer(Path.class, ToStringSerializer.instance);
        module.setSerializerModifier(new BeanSerializerModifier() {
            @Override
            public JsonSerializer<?> modifySerializer(SerializationConfig config, BeanDescription desc, JsonSerializer<?> serializer) {
                return serializer instanceof BeanSerializerBase ? ToStringSerializer.instance : serializer;
            }
        });
        return configure(builder().enable(SerializationFeature.WRITE_ENUMS_USING_TO_STRING).addModule(module).build());
    }

    /** Doubles with three decimals, on one line. */
    private static final ObjectMapper LINE = mapper(d -> String.format(Locale.ROOT, "%.3f", d), false);
    /** Doubles and floats with 6 significant digits ({@link #number}), for people. */
    private static final ObjectMapper PEOPLE = mapper(JsonFiles::number, true);

    private static final ObjectWriter ONE_LINE = lineWriter(LINE);
    private static final ObjectWriter PRETTY = prettyWriter(PEOPLE);
    private static final ObjectReader OBJECT = LINE.readerFor(TypeFactory.defaultInstance().constructMapType(LinkedHashMap.class, String.class, Object.class));

    /** {@code o} as JSON on one line (a log line, a meta.json); doubles with three decimals. */
    public static String write(Object o) {
        try {
            return ONE_LINE.writeValueAsString(o);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot write JSON: " + oneLine(e), e);
        }
    }

    /**
     * {@code o} as JSON for people to read, ending in a newline: the top-level object and its
     * lists of objects get a line per entry, anything deeper is on one line; doubles keep 6
     * significant digits ({@link #number}).
     */
    public static String writePretty(Object o) {
        try {
            return PRETTY.writeValueAsString(o) + "\n";
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot write JSON: " + oneLine(e), e);
        }
    }

    /**
     * How {@link #writePretty} lays out {@code mapper}'s JSON, for documents of records: files
     * of the IR ({@link ProgramJson}), the stats report.
     */
    public static ObjectWriter prettyWriter(ObjectMapper mapper) {
        return mapper.writer(new Pretty()).with(ESCAPES);
    }

    /** How {@link #write} lays out {@code mapper}'s JSON. */
    static ObjectWriter lineWriter(ObjectMapper mapper) {
        return mapper.writer(new OneLine()).with(ESCAPES);
    }

    /**
     * The JSON object that is the whole of {@code text} (surrounding whitespace aside), or
     * null when it is not one (a line torn by a killed writer, a damaged file): integers are
     * Longs, other numbers Doubles, objects keep their order.
     */
    public static Map<String, Object> parseObject(String text) {
        try {
            return OBJECT.readValue(text);
        } catch (JacksonException e) {
            return null;
        }
    }

    /** 6 significant digits, with a decimal point; null for NaN and infinities. */
    public static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return "null";
        if (d == 0) return "0.0";
        double a = Math.abs(d);
        if (a < 1e-4 || a >= 1e15) return String.format(Locale.ROOT, "%.5e", d);
        String s = new BigDecimal(d).round(new MathContext(6)).stripTrailingZeros().toPlainString();
        return s.contains(".") ? s : s + ".0";
    }

    /** Jackson's message without its source location, on one line. */
    static String oneLine(JacksonException e) {
        String m = e.getOriginalMessage();
        return m == null ? e.getClass().getSimpleName() : m.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    private static <N extends Number> JsonSerializer<N> numbers(Class<N> type, java.util.function.DoubleFunction<String> format) {
        return new StdSerializer<>(type) {
            @Override
            public void serialize(N d, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeNumber(format.apply(d.doubleValue()));
            }
        };
    }

    /** One line, {@code ", "} between entries and {@code ": "} after a key. */
    private static final class OneLine extends MinimalPrettyPrinter {
        @Override
        public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
            g.writeRaw(", ");
        }

        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(", ");
        }
    }

    /**
     * The layout for people: the top-level object has a line per entry, indented by two; a list
     * whose first value is an object, at most two levels down, has a line per value; the rest
     * is on one line as {@link OneLine} writes it.
     */
    private static final class Pretty implements PrettyPrinter, Instantiatable<Pretty> {
        /** For each open object or list: whether its entries are on lines of their own. */
        private final Deque<Boolean> lines = new ArrayDeque<>();
        /** Whether the innermost open list has no value yet. */
        private boolean listStarted;

        @Override
        public Pretty createInstance() {
            return new Pretty();
        }

        private void newline(JsonGenerator g, int depth) throws IOException {
            g.writeRaw('\n');
            g.writeRaw("  ".repeat(depth));
        }

        @Override
        public void writeRootValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(' ');
        }

        @Override
        public void writeStartObject(JsonGenerator g) throws IOException {
            // The first value of a list at most two below the top (the stack: the list and what holds it) decides that it has lines.
            if (listStarted && lines.size() <= 3) {
                lines.pop();
                lines.push(true);
                newline(g, lines.size());
            }
            listStarted = false;
            g.writeRaw('{');
            lines.push(lines.isEmpty());
        }

        @Override
        public void beforeObjectEntries(JsonGenerator g) throws IOException {
            if (lines.peek()) newline(g, lines.size());
        }

        @Override
        public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
            g.writeRaw(',');
            if (lines.peek()) newline(g, lines.size());
            else g.writeRaw(' ');
        }

        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }

        @Override
        public void writeEndObject(JsonGenerator g, int entries) throws IOException {
            listStarted = false;
            boolean l = lines.pop();
            if (l && entries > 0) newline(g, lines.size());
            g.writeRaw('}');
        }

        @Override
        public void writeStartArray(JsonGenerator g) throws IOException {
            listStarted = false;
            g.writeRaw('[');
            lines.push(false);
        }

        @Override
        public void beforeArrayValues(JsonGenerator g) {
            listStarted = true;
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            listStarted = false;
            g.writeRaw(',');
            if (lines.peek()) newline(g, lines.size());
            else g.writeRaw(' ');
        }

        @Override
        public void writeEndArray(JsonGenerator g, int values) throws IOException {
            listStarted = false;
            boolean l = lines.pop();
            if (l) newline(g, lines.size());
            g.writeRaw(']');
        }
    }
}
