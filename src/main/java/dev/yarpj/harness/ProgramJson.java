package dev.yarpj.harness;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.deser.impl.PropertyValueBuffer;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.AnnotatedClass;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedMethod;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.jsontype.TypeResolverBuilder;
import com.fasterxml.jackson.databind.jsontype.impl.StdTypeResolverBuilder;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.yarpj.policy.Rng;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How records (the IR, the policy's emit: odds, a recipe; the reducer's edits) are JSON, in
 * the layout program.json.gz and edits.json have always had: Jackson's record support, with
 * what it needs told here rather than in annotations on the IR. A record is an object of its
 * components by name; a value whose declared type is a sealed interface carries the simple
 * name of its record under {@code "@"} (first); enums are their names; longs too long for a
 * JSON number that every reader keeps exact, and every double, are strings. Generic over the
 * components, so a new kind of statement needs nothing here.
 */
public final class ProgramJson {
    private ProgramJson() {}

    /** A tree that is not what its type needs; the message is one line. */
    public static final class Malformed extends RuntimeException {
        Malformed(String m) {
            super(m, null, false, false);
        }
    }

    private static final ObjectMapper MAPPER = JsonFiles.configure(JsonFiles.builder()
            .annotationIntrospector(new Sealed())
            .addMixIn(Rng.Tape.class, TapeMixin.class)
            .addModule(module())
            .build());

    private static final ObjectWriter ONE_LINE = JsonFiles.lineWriter(MAPPER);
    private static final ObjectWriter PRETTY = JsonFiles.prettyWriter(MAPPER);

    /** {@code value} as JSON on one line, as {@code declared} (whose being a sealed interface puts the tag in). */
    public static String write(Object value, Class<?> declared) {
        try {
            return ONE_LINE.forType(declared).writeValueAsString(value);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot write a " + declared.getSimpleName() + ": " + JsonFiles.oneLine(e), e);
        }
    }

    /** {@code value} laid out for people ({@link JsonFiles#writePretty}), ending in a newline. */
    public static String writePretty(Object value, Class<?> declared) {
        try {
            return PRETTY.forType(declared).writeValueAsString(value) + "\n";
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot write a " + declared.getSimpleName() + ": " + JsonFiles.oneLine(e), e);
        }
    }

    /** The JSON text {@code json} as a tree, or null when it is not one JSON object. */
    public static JsonNode readTree(String json) {
        try {
            JsonNode n = MAPPER.readTree(json);
            return n != null && n.isObject() ? n : null;
        } catch (JacksonException e) {
            return null;
        }
    }

    /** {@code tree} (a part of a file) as a {@code type}; {@link Malformed} with a one-line message when it is not one. */
    public static <T> T fromTree(JsonNode tree, Class<T> type) {
        try {
            if (tree == null || tree.isMissingNode()) throw new Malformed("no " + type.getSimpleName());
            return MAPPER.treeToValue(upgraded(tree), type);
        } catch (JacksonException e) {
            throw malformed(e);
        }
    }

    /**
     * {@code tree} with what older files spelt otherwise spelt as now: a helper's one result
     * ({@code body}, of type {@code result}, before helpers returned structs) is its list of
     * results; a call's two operands ({@code lhs}, {@code rhs}, before the math library's
     * calls of one or three) are its {@code args}. Changes the tree in place.
     */
    private static JsonNode upgraded(JsonNode tree) {
        if (tree instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
            if (o.has("body") && o.has("linkage") && o.has("params") && !o.has("results")) {
                o.set("results", o.arrayNode().add(o.remove("body")));
                o.remove("result");
                o.putNull("resultStruct");
            }
            if (o.path("@").asText().equals("Call") && o.has("lhs") && o.has("rhs") && !o.has("args")) {
                o.set("args", o.arrayNode().add(o.remove("lhs")).add(o.remove("rhs")));
            }
            o.elements().forEachRemaining(ProgramJson::upgraded);
        } else if (tree != null && tree.isArray()) {
            tree.elements().forEachRemaining(ProgramJson::upgraded);
        }
        return tree;
    }

    private static Malformed malformed(JacksonException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof Malformed m) return m;
        }
        Throwable cause = e.getCause();
        String why = cause instanceof RuntimeException r && r.getMessage() != null && !(cause instanceof JacksonException)
                ? "not a valid " + target(e) + ": " + r.getMessage().replaceAll("\\s*\\R\\s*", " ")
                : JsonFiles.oneLine(e);
        return new Malformed(why);
    }

    private static String target(JacksonException e) {
        return e instanceof com.fasterxml.jackson.databind.exc.ValueInstantiationException v && v.getType() != null
                ? v.getType().getRawClass().getSimpleName() : "value";
    }

    /**
     * Fields added since files were first written whose absence means "none" (their records
     * take null for it: a loop without a form is a for loop, one without a guard has no header
     * exit). Any other missing object (a recipe's language, a loop's condition) is a damaged
     * file, not an old one.
     */
    private static final Set<String> ADDED_OPTIONAL = Set.of("LoopHead.form", "LoopHead.guard");

    /** The value of field {@code field} ("Record.component") a file does not have: zero of a number, false, nothing in a list or map, or null for an added optional object. */
    private static Object absent(Class<?> type, String field) {
        if (type == long.class) return 0L;
        if (type == int.class) return 0;
        if (type == double.class) return 0.0;
        if (type == boolean.class) return false;
        if (List.class.isAssignableFrom(type)) return List.of();
        if (Map.class.isAssignableFrom(type)) return Map.of();
        if (ADDED_OPTIONAL.contains(field)) return null;
        throw new Malformed(field.replace(".", " has no "));
    }

    /**
     * What annotations would otherwise say: a sealed interface's values are tagged with their
     * record's simple name under {@code "@"}, and its records (at any depth of sealed
     * interfaces) are its subtypes; a record's properties are its components.
     */
    private static final class Sealed extends JacksonAnnotationIntrospector {
        @Override
        public TypeResolverBuilder<?> findTypeResolver(MapperConfig<?> config, AnnotatedClass ac, JavaType baseType) {
            if (isSealedInterface(ac.getRawType())) {
                return new StdTypeResolverBuilder(JsonTypeInfo.Value.construct(JsonTypeInfo.Id.NAME, JsonTypeInfo.As.PROPERTY, "@",
                        null, false, null));
            }
            return super.findTypeResolver(config, ac, baseType);
        }

        @Override
        public List<NamedType> findSubtypes(Annotated a) {
            if (a instanceof AnnotatedClass ac && isSealedInterface(ac.getRawType())) {
                List<NamedType> out = new ArrayList<>();
                records(ac.getRawType(), out);
                return out;
            }
            return super.findSubtypes(a);
        }

        /** A record's properties are its components, not whatever else it answers (ArrayVar.isParam()). */
        @Override
        public boolean hasIgnoreMarker(AnnotatedMember m) {
            if (m instanceof AnnotatedMethod method && method.getDeclaringClass().isRecord() && method.getParameterCount() == 0) {
                boolean component = false;
                for (RecordComponent c : method.getDeclaringClass().getRecordComponents()) component |= c.getName().equals(method.getName());
                if (!component) return true;
            }
            return super.hasIgnoreMarker(m);
        }

        /**
         * A program with the planned input set alone leaves {@code inputSets} out, as every
         * program file did before input sets: such a file reads and writes back byte for byte.
         */
        @Override
        public com.fasterxml.jackson.annotation.JsonInclude.Value findPropertyInclusion(Annotated a) {
            if (a instanceof AnnotatedMember m && m.getDeclaringClass() == dev.yarpj.ir.Program.class && m.getName().equals("inputSets")) {
                return com.fasterxml.jackson.annotation.JsonInclude.Value.construct(com.fasterxml.jackson.annotation.JsonInclude.Include.CUSTOM,
                        com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS, PlannedOnly.class, null);
            }
            return super.findPropertyInclusion(a);
        }

        @Override
        public String findTypeName(AnnotatedClass ac) {
            return ac.getRawType().isRecord() ? ac.getRawType().getSimpleName() : super.findTypeName(ac);
        }

        private static boolean isSealedInterface(Class<?> c) {
            return c.isInterface() && c.isSealed();
        }

        private static void records(Class<?> sealed, List<NamedType> out) {
            for (Class<?> s : sealed.getPermittedSubclasses()) {
                if (s.isRecord()) out.add(new NamedType(s, s.getSimpleName()));
                else if (isSealedInterface(s)) records(s, out);
            }
        }
    }

    private static SimpleModule module() {
        SimpleModule m = new SimpleModule("yarpj-records") {
            @Override
            public void setupModule(SetupContext context) {
                super.setupModule(context);
                context.addValueInstantiators((DeserializationConfig config, BeanDescription desc, ValueInstantiator d) ->
                        desc.getBeanClass().isRecord() ? new OldFields(d, desc.getBeanClass().getSimpleName()) : d);
            }
        };
        StdSerializer<Long> longs = new StdSerializer<>(Long.class) {
            @Override
            public void serialize(Long l, JsonGenerator g, SerializerProvider p) throws IOException {
                // Math.abs(Long.MIN_VALUE) is negative: that one has always been a number.
                if (Math.abs(l) < 100_000_000_000_000_000L) g.writeNumber(l);
                else g.writeString(Long.toString(l));
            }
        };
        StdSerializer<Double> doubles = new StdSerializer<>(Double.class) {
            @Override
            public void serialize(Double d, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeString(Double.toString(d));
            }
        };
        m.addSerializer(Long.class, longs);
        m.addSerializer(long.class, longs);
        m.addSerializer(Double.class, doubles);
        m.addSerializer(double.class, doubles);
        m.addDeserializer(Long.class, new Longs(Long.class));
        m.addDeserializer(long.class, new Longs(long.class));
        m.addDeserializer(Double.class, new Doubles(Double.class));
        m.addDeserializer(double.class, new Doubles(double.class));
        return m;
    }

    /** A long: a number, or a string of digits (those too long for every reader's numbers). */
    private static final class Longs extends StdDeserializer<Long> {
        Longs(Class<?> c) {
            super(c);
        }

        @Override
        public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() == JsonToken.VALUE_NUMBER_INT) return p.getLongValue();
            if (p.currentToken() == JsonToken.VALUE_NUMBER_FLOAT) return (long) p.getDoubleValue();
            if (p.currentToken() == JsonToken.VALUE_STRING) {
                try {
                    return Long.parseLong(p.getText());
                } catch (NumberFormatException e) {
                    throw new Malformed("not an integer: " + p.getText());
                }
            }
            throw new Malformed("expected a Long, found " + p.currentToken());
        }
    }

    /** A double: its Java text as a string ({@link Double#toString}), or a number. */
    private static final class Doubles extends StdDeserializer<Double> {
        Doubles(Class<?> c) {
            super(c);
        }

        @Override
        public Double deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken().isNumeric()) return p.getDoubleValue();
            if (p.currentToken() == JsonToken.VALUE_STRING) {
                try {
                    return Double.parseDouble(p.getText());
                } catch (NumberFormatException e) {
                    throw new Malformed("not a number: " + p.getText());
                }
            }
            throw new Malformed("expected a Double, found " + p.currentToken());
        }
    }

    /**
     * A record's constructor given the components a file has, and for one it does not have
     * ({@link #absent}: added since the file was written) zero, so a finding saved by an older
     * yarpj still loads; whoever loads it checks that it lowers to the finding's files, which
     * catches a zero that is wrong.
     */
    private static final class OldFields extends ValueInstantiator.Delegating {
        private final String record;

        OldFields(ValueInstantiator delegate, String record) {
            super(delegate);
            this.record = record;
        }

        @Override
        public Object createFromObjectWith(DeserializationContext ctxt, SettableBeanProperty[] props, PropertyValueBuffer buffer) throws IOException {
            Object[] args = buffer.getParameters(props);
            for (SettableBeanProperty p : props) {
                if (p != null && !buffer.hasParameter(p)) args[p.getCreatorIndex()] = absent(p.getType().getRawClass(), record + "." + p.getName());
            }
            return delegate().createFromObjectWith(ctxt, args);
        }
    }

    /** A tape: its kinds and its values. */
    @JsonAutoDetect(getterVisibility = JsonAutoDetect.Visibility.NONE, isGetterVisibility = JsonAutoDetect.Visibility.NONE,
            fieldVisibility = JsonAutoDetect.Visibility.NONE)
    @JsonPropertyOrder({"kinds", "values"})
    /** Jackson's filter of {@code Program.inputSets}: true (left out) for the planned input set alone. */
    static final class PlannedOnly {
        @Override
        public boolean equals(Object o) {
            return o instanceof List<?> l && l.equals(List.of(dev.yarpj.ir.InputSet.PLANNED));
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    private abstract static class TapeMixin {
        @JsonCreator
        TapeMixin(@JsonProperty("kinds") String kinds, @JsonProperty("values") List<Long> values) {}

        @JsonProperty("kinds")
        abstract String kinds();

        @JsonProperty("values")
        abstract List<Long> values();
    }
}
