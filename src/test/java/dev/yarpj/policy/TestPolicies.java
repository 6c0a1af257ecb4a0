package dev.yarpj.policy;

import dev.yarpj.ir.Idiom;
import dev.yarpj.skeleton.Shape;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** Policies for tests: policies/no-idioms.yaml with a few keys changed. */
public final class TestPolicies {
    private TestPolicies() {}

    /**
     * no-idioms with {@code overrides} (YAML) on top: scalar keys replace, weight maps merge
     * name by name, as a policy file's keys do over the built-in policy. One input set unless
     * the overrides say otherwise: the tests that use these policies look at the program,
     * which input sets never change, and the sets' interpreter runs would be most of their time.
     */
    @SuppressWarnings("unchecked")
    public static GenPolicy noIdiomsWith(String name, String overrides) {
        String base;
        try {
            base = Files.readString(Path.of("policies/no-idioms.yaml"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("policies/no-idioms.yaml must be readable from the repo root", e);
        }
        Yaml yaml = new Yaml();
        Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) yaml.load(base));
        m.put("inputs", new LinkedHashMap<>(Map.of("count", 1)));
        if (!overrides.isBlank()) {
            for (Map.Entry<String, Object> e : ((Map<String, Object>) yaml.load(overrides)).entrySet()) {
                if (e.getValue() instanceof Map<?, ?> add && m.get(e.getKey()) instanceof Map<?, ?> old) {
                    Map<String, Object> merged = new LinkedHashMap<>((Map<String, Object>) old);
                    merged.putAll((Map<String, Object>) add);
                    m.put(e.getKey(), merged);
                } else {
                    m.put(e.getKey(), e.getValue());
                }
            }
        }
        return PolicyLoader.parse(yaml.dump(m), "test.yaml", name);
    }

    /** no-idioms with only {@code idiom}'s nests, plus the {@code more} keys. */
    public static GenPolicy only(Idiom idiom, String more) {
        StringBuilder w = new StringBuilder("idiom_weights: {");
        for (Idiom i : Idiom.values()) {
            if (i.ordinal() > 0) w.append(", ");
            w.append(i.name().toLowerCase()).append(": ").append(i == idiom ? 1 : 0);
        }
        w.append("}\n").append(more);
        return noIdiomsWith(idiom.name().toLowerCase(), w.toString());
    }
}
