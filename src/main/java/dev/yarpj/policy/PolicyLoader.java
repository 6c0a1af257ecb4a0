package dev.yarpj.policy;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Reads a policy file: a YAML mapping whose keys are the snake_case names of
 * {@link GenPolicy}'s components. Keys absent from the file keep their default; weight maps
 * are merged key by key. Every mistake is reported with file, line, column and key.
 */
public final class PolicyLoader {
    private PolicyLoader() {}

    public static GenPolicy load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new PolicyException("policy file not found: " + file);
        } catch (IOException e) {
            throw new PolicyException("cannot read policy file " + file + ": " + e.getMessage());
        }
        String base = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        return parse(text, file.toString(), base);
    }

    public static GenPolicy parse(String text, String fileName, String defaultName) {
        Node root;
        try (Reader r = new java.io.StringReader(text)) {
            root = new Yaml(new LoaderOptions()).compose(r);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark();
            throw new PolicyException(where(fileName, m) + ": malformed YAML: " + e.getProblem());
        } catch (Exception e) {
            throw new PolicyException(fileName + ": malformed YAML: " + e.getMessage());
        }
        GenPolicy d = GenPolicy.defaults();
        RecordComponent[] comps = GenPolicy.class.getRecordComponents();
        Object[] values = new Object[comps.length];
        for (int i = 0; i < comps.length; i++) {
            try {
                values[i] = comps[i].getAccessor().invoke(d);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        values[0] = defaultName;
        if (root != null) {
            if (!(root instanceof MappingNode map)) {
                throw new PolicyException(where(fileName, root.getStartMark()) + ": a policy must be a mapping of keys to values");
            }
            for (NodeTuple t : map.getValue()) {
                String key = scalar(t.getKeyNode(), fileName, "?");
                int idx = indexOf(comps, key);
                if (idx < 0) {
                    throw new PolicyException(where(fileName, t.getKeyNode().getStartMark())
                            + ": unknown key '" + key + "'");
                }
                values[idx] = convert(comps[idx], t.getValueNode(), fileName, key, values[idx]);
            }
        }
        GenPolicy p;
        try {
            p = (GenPolicy) GenPolicy.class.getDeclaredConstructors()[0].newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        validate(p, fileName);
        return p;
    }

    private static Object convert(RecordComponent c, Node n, String file, String key, Object old) {
        Class<?> t = c.getType();
        if (t == Map.class) {
            if (!(n instanceof MappingNode m)) throw typeError(file, n, key, "a mapping of names to weights");
            List<String> allowed = switch (key) {
                case "stmt_weights" -> GenPolicy.STMT_KINDS;
                case "type_weights" -> GenPolicy.TYPE_NAMES;
                default -> GenPolicy.OP_NAMES;
            };
            @SuppressWarnings("unchecked")
            Map<String, Integer> merged = new LinkedHashMap<>((Map<String, Integer>) old);
            for (NodeTuple e : m.getValue()) {
                String name = scalar(e.getKeyNode(), file, key);
                if (!allowed.contains(name)) {
                    throw new PolicyException(where(file, e.getKeyNode().getStartMark()) + ": unknown name '"
                            + name + "' in " + key + " (known: " + String.join(", ", allowed) + ")");
                }
                long w = integer(e.getValueNode(), file, key + "." + name);
                if (w < 0 || w > 1_000_000) {
                    throw new PolicyException(where(file, e.getValueNode().getStartMark()) + ": " + key + "."
                            + name + " must be a weight between 0 and 1000000, got " + w);
                }
                merged.put(name, (int) w);
            }
            return merged;
        }
        if (t == String.class) return scalar(n, file, key);
        if (t == int.class) {
            long v = integer(n, file, key);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) throw typeError(file, n, key, "an integer");
            return (int) v;
        }
        if (t == long.class) return integer(n, file, key);
        if (t == double.class) {
            String s = scalar(n, file, key);
            double v;
            try {
                v = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw typeError(file, n, key, "a probability between 0 and 1");
            }
            if (!(v >= 0 && v <= 1)) {
                throw new PolicyException(where(file, n.getStartMark()) + ": " + key
                        + " is a probability and must be between 0 and 1, got " + s);
            }
            return v;
        }
        throw new IllegalStateException("unsupported policy type " + t);
    }

    private static long integer(Node n, String file, String key) {
        String s = scalar(n, file, key).replace("_", "");
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw typeError(file, n, key, "an integer");
        }
    }

    private static String scalar(Node n, String file, String key) {
        if (!(n instanceof ScalarNode s)) throw typeError(file, n, key, "a single value");
        return s.getValue();
    }

    private static PolicyException typeError(String file, Node n, String key, String what) {
        String got = n instanceof ScalarNode s ? "'" + s.getValue() + "'" : "a " + n.getNodeId().name();
        return new PolicyException(where(file, n.getStartMark()) + ": " + key + " must be " + what + ", got " + got);
    }

    private static String where(String file, Mark m) {
        return m == null ? file : file + ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1);
    }

    private static int indexOf(RecordComponent[] comps, String key) {
        for (int i = 0; i < comps.length; i++) {
            if (snake(comps[i].getName()).equals(key)) return i;
        }
        return -1;
    }

    static String snake(String camel) {
        return camel.replaceAll("([A-Z])", "_$1").toLowerCase();
    }

    /** Cross-key checks; named by the key at fault. */
    private static void validate(GenPolicy p, String file) {
        List<String> errs = new ArrayList<>();
        if (p.maxTopStmts() < 1) errs.add("max_top_stmts must be at least 1");
        if (p.minBlockStmts() < 1 || p.minBlockStmts() > p.maxBlockStmts()) errs.add("min_block_stmts must be at least 1 and at most max_block_stmts");
        if (p.maxLoopDepth() < 0 || p.maxLoopDepth() > 8) errs.add("max_loop_depth must be between 0 and 8");
        if (p.maxNestDepth() < 1) errs.add("max_nest_depth must be at least 1");
        if (p.maxSeqLength() < 1) errs.add("max_seq_length must be at least 1");
        if (p.maxIfDepth() < 0) errs.add("max_if_depth must not be negative");
        if (p.minTrip() < 1 || p.minTrip() > p.maxTrip() || p.maxTrip() > 100) errs.add("min_trip must be at least 1, max_trip at most 100, and min_trip <= max_trip");
        if (p.maxStep() < 1 || p.maxStep() > 8) errs.add("max_step must be between 1 and 8");
        if (p.maxIterations() < 1) errs.add("max_iterations must be at least 1");
        if (p.maxArrayBytes() < 0 || p.maxArrayBytes() > GenPolicy.ARRAY_BYTES_CEILING) errs.add("max_array_bytes must be between 0 and " + GenPolicy.ARRAY_BYTES_CEILING);
        if (p.maxArrayRank() < 1 || p.maxArrayRank() > 6) errs.add("max_array_rank must be between 1 and 6");
        if (p.maxExprDepth() < 1 || p.maxExprDepth() > 12) errs.add("max_expr_depth must be between 1 and 12");
        if (p.loopNestingDecay() <= 0) errs.add("loop_nesting_decay must be above 0");
        if (sum(p.stmtWeights()) == 0) errs.add("stmt_weights must not all be zero");
        if (p.stmtWeights().get("assign") == 0) errs.add("stmt_weights.assign must not be zero");
        if (sum(p.typeWeights()) == 0) errs.add("type_weights must not all be zero");
        if (!errs.isEmpty()) throw new PolicyException(file + ": " + errs.get(0));
    }

    private static long sum(Map<String, Integer> m) {
        long s = 0;
        for (int v : m.values()) s += v;
        return s;
    }
}
