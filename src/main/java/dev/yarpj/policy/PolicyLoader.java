package dev.yarpj.policy;

import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
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
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads a policy file: a YAML mapping whose keys are the snake_case names of
 * {@link GenPolicy}'s components. Keys absent from the file keep their default; weight maps
 * are merged key by key; a component that is a record (a section such as {@code emit:}) is a
 * nested mapping read by the same rules, so a file may set one key of it and keep the others;
 * lists replace. Every mistake is reported with file, line, column and key.
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

    /** Where the build puts policies/default.yaml inside the jar. */
    private static final String BUILTIN_RESOURCE = "/dev/yarpj/policy/default.yaml";
    private static GenPolicy builtin;

    /** The built-in policy: every key must be present, since there is nothing to fall back on. */
    static synchronized GenPolicy builtin() {
        if (builtin == null) {
            try (var in = PolicyLoader.class.getResourceAsStream(BUILTIN_RESOURCE)) {
                if (in == null) throw new IllegalStateException("built-in policy " + BUILTIN_RESOURCE + " missing from the jar");
                builtin = parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "built-in policies/default.yaml",
                        "default", null);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return builtin;
    }

    public static GenPolicy parse(String text, String fileName, String defaultName) {
        return parse(text, fileName, defaultName, builtin());
    }

    /** @param base the policy whose values absent keys keep, or null when every key is required */
    private static GenPolicy parse(String text, String fileName, String defaultName, GenPolicy base) {
        Node root;
        try (Reader r = new java.io.StringReader(text)) {
            root = new Yaml(new LoaderOptions()).compose(r);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark();
            throw new PolicyException(where(fileName, m) + ": malformed YAML: " + e.getProblem());
        } catch (Exception e) {
            throw new PolicyException(fileName + ": malformed YAML: " + e.getMessage());
        }
        Object[] values = base == null ? emptyValues(GenPolicy.class) : componentValues(base);
        values[0] = defaultName;
        Map<String, Mark> marks = new HashMap<>();
        if (root != null) {
            if (!(root instanceof MappingNode map)) {
                throw new PolicyException(where(fileName, root.getStartMark()) + ": a policy must be a mapping of keys to values");
            }
            read(GenPolicy.class, values, map, fileName, "", base == null, marks);
        } else if (base == null) {
            read(GenPolicy.class, values, new MappingNode(org.yaml.snakeyaml.nodes.Tag.MAP, new ArrayList<>(),
                    org.yaml.snakeyaml.DumperOptions.FlowStyle.AUTO), fileName, "", true, marks);
        }
        GenPolicy p = (GenPolicy) construct(GenPolicy.class, values);
        validate(p, fileName);
        validateSections(p, fileName, marks);
        return p;
    }

    /**
     * Reads {@code map} onto {@code values}, the components of record type {@code type}: each key
     * is a component's snake_case name, and keys absent keep the value already there. A component
     * that is itself a record is read from a nested mapping by the same rules, recursively.
     *
     * @param prefix   the dotted path of this mapping ("" at the top, "emit.ispc." below)
     * @param required every key must be given (the built-in policy)
     * @param marks    where each key given was, by its dotted path, for the checks that follow
     */
    private static void read(Class<?> type, Object[] values, MappingNode map, String file, String prefix,
            boolean required, Map<String, Mark> marks) {
        RecordComponent[] comps = type.getRecordComponents();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (NodeTuple t : map.getValue()) {
            String key = scalar(t.getKeyNode(), file, prefix.isEmpty() ? "?" : prefix.substring(0, prefix.length() - 1));
            if (!seen.add(key)) {
                throw new PolicyException(where(file, t.getKeyNode().getStartMark()) + ": duplicate key '" + prefix + key + "'");
            }
            int idx = indexOf(comps, key);
            if (idx < 0) {
                throw new PolicyException(where(file, t.getKeyNode().getStartMark()) + ": unknown key '" + prefix + key + "'");
            }
            values[idx] = convert(comps[idx], t.getValueNode(), file, prefix + key, values[idx], marks);
            marks.put(prefix + key, t.getValueNode().getStartMark());
        }
        if (required) {
            for (int i = prefix.isEmpty() ? 1 : 0; i < comps.length; i++) {
                String key = prefix + snake(comps[i].getName());
                boolean missing = values[i] == null
                        || (values[i] instanceof Map<?, ?> m && m.size() != GenPolicy.WEIGHT_NAMES.get(key).size());
                if (missing) throw new PolicyException(file + ": key '" + key + "' (or one of its names) is missing");
            }
        }
    }

    /** The components of a record type not read yet: null, or an empty map for a weight map. */
    private static Object[] emptyValues(Class<?> type) {
        RecordComponent[] comps = type.getRecordComponents();
        Object[] values = new Object[comps.length];
        for (int i = 0; i < comps.length; i++) {
            if (comps[i].getType() == Map.class) values[i] = new LinkedHashMap<String, Integer>();
        }
        return values;
    }

    /** {@code p} with some keys (snake_case, as in a policy file) given new values. */
    static GenPolicy with(GenPolicy p, Map<String, Object> changes) {
        RecordComponent[] comps = GenPolicy.class.getRecordComponents();
        Object[] values = componentValues(p);
        for (Map.Entry<String, Object> e : changes.entrySet()) {
            int idx = indexOf(comps, e.getKey());
            if (idx < 0) throw new IllegalArgumentException("unknown policy key " + e.getKey());
            values[idx] = e.getValue();
        }
        return (GenPolicy) construct(GenPolicy.class, values);
    }

    private static Object[] componentValues(Record p) {
        RecordComponent[] comps = p.getClass().getRecordComponents();
        Object[] values = new Object[comps.length];
        for (int i = 0; i < comps.length; i++) {
            try {
                values[i] = comps[i].getAccessor().invoke(p);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return values;
    }

    private static Record construct(Class<?> type, Object[] values) {
        try {
            Class<?>[] types = java.util.Arrays.stream(type.getRecordComponents()).map(RecordComponent::getType)
                    .toArray(Class<?>[]::new);
            var ctor = type.getDeclaredConstructor(types);
            ctor.setAccessible(true);
            return (Record) ctor.newInstance(values);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object convert(RecordComponent c, Node n, String file, String key, Object old, Map<String, Mark> marks) {
        Class<?> t = c.getType();
        if (t.isRecord()) {
            if (!(n instanceof MappingNode m)) throw typeError(file, n, key, "a mapping of keys to values");
            Object[] values = old == null ? emptyValues(t) : componentValues((Record) old);
            read(t, values, m, file, key + ".", old == null, marks);
            return construct(t, values);
        }
        if (t == List.class) {
            if (!(n instanceof SequenceNode seq)) throw typeError(file, n, key, "a list");
            if (seq.getValue().isEmpty()) throw new PolicyException(where(file, n.getStartMark()) + ": " + key + " must not be empty");
            boolean ints = c.getGenericType() instanceof ParameterizedType pt && pt.getActualTypeArguments()[0] == Integer.class;
            List<String> allowed = GenPolicy.LIST_NAMES.get(key);
            List<Object> out = new ArrayList<>();
            for (Node e : seq.getValue()) {
                if (ints) {
                    long v = integer(e, file, key);
                    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) throw typeError(file, e, key, "a list of integers");
                    out.add((int) v);
                } else {
                    String name = scalar(e, file, key);
                    if (allowed != null && !allowed.contains(name)) {
                        throw new PolicyException(where(file, e.getStartMark()) + ": unknown name '" + name + "' in " + key
                                + " (known: " + String.join(", ", allowed) + ")");
                    }
                    out.add(name);
                }
            }
            return List.copyOf(out);
        }
        if (t == Map.class) {
            if (!(n instanceof MappingNode m)) throw typeError(file, n, key, "a mapping of names to weights");
            List<String> allowed = GenPolicy.WEIGHT_NAMES.get(key);
            @SuppressWarnings("unchecked")
            Map<String, Integer> merged = new LinkedHashMap<>((Map<String, Integer>) old);
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (NodeTuple e : m.getValue()) {
                String name = scalar(e.getKeyNode(), file, key);
                if (!seen.add(name)) {
                    throw new PolicyException(where(file, e.getKeyNode().getStartMark()) + ": duplicate name '" + name + "' in " + key);
                }
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
            // Keep the canonical order of names whatever order the file uses.
            Map<String, Integer> ordered = new LinkedHashMap<>();
            for (String name : allowed) if (merged.containsKey(name)) ordered.put(name, merged.get(name));
            return ordered;
        }
        if (t == String.class) return scalar(n, file, key);
        if (t == boolean.class) {
            String v = scalar(n, file, key);
            if (v.equals("true")) return true;
            if (v.equals("false")) return false;
            throw typeError(file, n, key, "true or false");
        }
        if (t == int.class) {
            long v = integer(n, file, key);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) throw typeError(file, n, key, "an integer");
            return (int) v;
        }
        if (t == long.class) return integer(n, file, key);
        if (t == double.class) {
            String s = scalar(n, file, key);
            double v;
            boolean seconds = key.endsWith("_s");
            try {
                v = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw typeError(file, n, key, seconds ? "a number of seconds" : "a probability between 0 and 1");
            }
            if (seconds) {
                if (!(v >= 0 && v <= 1e6)) throw typeError(file, n, key, "a number of seconds between 0 and 1000000");
                return v;
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
        if (p.minTrip() < 1 || p.minTrip() > p.maxTrip() || p.maxTrip() > 4096) errs.add("min_trip must be at least 1, max_trip at most 4096, and min_trip <= max_trip");
        if (p.maxStep() < 1 || p.maxStep() > 8) errs.add("max_step must be between 1 and 8");
        if (p.maxIterations() < 1) errs.add("max_iterations must be at least 1");
        if (p.maxCompileS() > 0 && !(p.minCompileS() > 0 && p.minCompileS() <= p.maxCompileS())) {
            errs.add("min_compile_s must be above 0 and at most max_compile_s (or max_compile_s 0: no compile budget)");
        }
        if (p.maxArrayBytes() < 0 || p.maxArrayBytes() > GenPolicy.ARRAY_BYTES_CEILING) errs.add("max_array_bytes must be between 0 and " + GenPolicy.ARRAY_BYTES_CEILING);
        if (p.maxArrayRank() < 1 || p.maxArrayRank() > 6) errs.add("max_array_rank must be between 1 and 6");
        if (p.maxExprDepth() < 1 || p.maxExprDepth() > 12) errs.add("max_expr_depth must be between 1 and 12");
        if (p.loopNestingDecay() <= 0) errs.add("loop_nesting_decay must be above 0");
        if (sum(p.stmtWeights()) == 0) errs.add("stmt_weights must not all be zero");
        if (p.stmtWeights().get("assign") == 0) errs.add("stmt_weights.assign must not be zero");
        if (sum(p.typeWeights()) == 0) errs.add("type_weights must not all be zero");
        if (sum(p.idiomWeights()) == 0) errs.add("idiom_weights must not all be zero");
        if (sum(p.accessWeights()) == 0) errs.add("access_weights must not all be zero");
        if (sum(p.reductionWeights()) == 0) errs.add("reduction_weights must not all be zero");
        if (sum(p.pragmaWeights()) == 0) errs.add("pragma_weights must not all be zero");
        if (sum(p.iteratorTypeWeights()) == 0) errs.add("iterator_type_weights must not all be zero");
        if (sum(p.idiomIteratorTypeWeights()) == 0) errs.add("idiom_iterator_type_weights must not all be zero");
        if (sum(p.tripMultipleWeights()) == 0 && p.pVectorTrip() > 0) errs.add("trip_multiple_weights must not all be zero while p_vector_trip is above 0");
        if (p.minIdiomTrip() < 1 || p.minIdiomTrip() > p.maxIdiomTrip() || p.maxIdiomTrip() > 4096) errs.add("min_idiom_trip must be at least 1, max_idiom_trip at most 4096, and min_idiom_trip <= max_idiom_trip");
        if (p.maxStencilReach() < 1 || p.maxStencilReach() > 8) errs.add("max_stencil_reach must be between 1 and 8");
        if (p.maxStencilStride() < 1 || p.maxStencilStride() > 4) errs.add("max_stencil_stride must be between 1 and 4");
        if (p.maxStencilTaps() < 2 || p.maxStencilTaps() > 16) errs.add("max_stencil_taps must be between 2 and 16");
        if (p.maxStencilArrays() < 1 || p.maxStencilArrays() > 4) errs.add("max_stencil_arrays must be between 1 and 4");
        if (p.maxStencilDims() < 1 || p.maxStencilDims() > 3) errs.add("max_stencil_dims must be between 1 and 3");
        if (!errs.isEmpty()) throw new PolicyException(file + ": " + errs.get(0));
    }

    /**
     * The checks of the sections (emit and the generation sections): each names the key at
     * fault with its line and column when this file gave it (else the file only, when the
     * value came from the policy it overrides).
     */
    private static void validateSections(GenPolicy p, String file, Map<String, Mark> marks) {
        Checks c = new Checks(file, marks);
        EmitPolicy.Sycl sycl = p.emit().sycl();
        for (int g : sycl.groupSizes()) {
            c.check(g >= 1 && g <= 1024, "emit.sycl.group_sizes", "emit.sycl.group_sizes must be between 1 and 1024, got " + g);
        }
        for (int g : sycl.reductionGroupSizes()) {
            c.check(g >= 2 && g <= 1024 && Integer.bitCount(g) == 1, "emit.sycl.reduction_group_sizes",
                    "emit.sycl.reduction_group_sizes must be powers of two from 2 to 1024 (AdaptiveCpp 24.06 computes"
                            + " a sycl::reduction wrongly over other work-group sizes, AdaptiveCpp issue 1789), got " + g);
        }
        SkeletonPolicy sk = p.skeleton();
        c.between(sk.maxBigTestFactor(), 1, 4096, "skeleton.max_big_test_factor");
        c.positive(sk.minLevelStmts(), "skeleton.min_level_stmts");
        c.range(sk.minLevelStmts(), sk.maxLevelStmts(), "skeleton.min_level_stmts", "skeleton.max_level_stmts");
        c.between(sk.maxLevelStmts(), 1, 16, "skeleton.max_level_stmts");
        c.between(sk.innerPreference(), 1, 1024, "skeleton.inner_preference");
        // Exprs.groupOf recognises groups of up to 64 elements: a larger one would quietly make its nest serial.
        c.between(sk.maxGroup(), 2, 64, "skeleton.max_group");
        LoopPolicy lp = p.loops();
        c.between(lp.maxStart(), 0, 64, "loops.max_start");
        c.between(lp.maxLowMargin(), 0, 64, "loops.max_low_margin");
        c.weights(lp.upCmpWeights(), "loops.up_cmp_weights");
        c.weights(lp.downCmpWeights(), "loops.down_cmp_weights");
        c.weights(lp.idiomCmpWeights(), "loops.idiom_cmp_weights");
        c.between(lp.maxOpaqueOffset(), 1, 64, "loops.max_opaque_offset");
        ExprPolicy ep = p.expressions();
        c.weights(ep.leafWeights(), "expressions.leaf_weights");
        c.check(ep.arrayLeafWeightOutsideLoops() >= 0 && ep.arrayLeafWeightOutsideLoops() <= ep.leafWeights().get("array"),
                "expressions.array_leaf_weight_outside_loops,expressions.leaf_weights",
                "expressions.array_leaf_weight_outside_loops must be between 0 and expressions.leaf_weights.array, got "
                        + ep.arrayLeafWeightOutsideLoops());
        c.between(ep.rankSpread(), 0, 6, "expressions.rank_spread");
        c.between(ep.maxArrayPadding(), 0, 64, "expressions.max_array_padding");
        c.between(ep.maxUnwalkedDim(), 1, 4096, "expressions.max_unwalked_dim");
        c.weights(ep.specialConstWeights(), "expressions.special_const_weights");
        c.check(ep.maxSmallConst() >= 0 && ep.maxSmallConst() <= 1 << 20, "expressions.max_small_const",
                "expressions.max_small_const must be between 0 and 1048576, got " + ep.maxSmallConst());
        c.weights(ep.maskWeights(), "expressions.mask_weights");
        c.weights(ep.maskOpWeights(), "expressions.mask_op_weights");
        c.weights(ep.parityFormWeights(), "expressions.parity_form_weights");
        StmtPolicy st = p.statements();
        c.weights(st.aliasedFormWeights(), "statements.aliased_form_weights");
        c.between(st.maxNearViewOffset(), 0, 4096, "statements.max_near_view_offset");
        for (int o : st.farViewOffsets()) {
            c.check(o >= 0 && o <= 4096, "statements.far_view_offsets",
                    "statements.far_view_offsets must be rows between 0 and 4096, got " + o);
        }
        c.between(st.maxDividendDepth(), 0, 12, "statements.max_dividend_depth");
        c.positive(st.minRedundantDepth(), "statements.min_redundant_depth");
        c.range(st.minRedundantDepth(), st.maxRedundantDepth(), "statements.min_redundant_depth", "statements.max_redundant_depth");
        c.between(st.maxRedundantDepth(), 1, 12, "statements.max_redundant_depth");
        c.between(st.maxStencilPadding(), 0, 8, "statements.max_stencil_padding");
        DeadCodePolicy dc = p.deadCode();
        c.positive(dc.minStores(), "dead_code.min_stores");
        c.range(dc.minStores(), dc.maxStores(), "dead_code.min_stores", "dead_code.max_stores");
        c.between(dc.maxStores(), 1, 16, "dead_code.max_stores");
        c.weights(dc.kindWeights(), "dead_code.kind_weights");
        c.weights(dc.overflowWeights(), "dead_code.overflow_weights");
        c.weights(dc.combineOpWeights(), "dead_code.combine_op_weights");
        c.weights(p.exits().kindWeights(), "exits.kind_weights");
        c.weights(p.exits().positionWeights(), "exits.position_weights");
        CarriedPolicy cp = p.carried();
        c.weights(cp.kindWeights(), "carried.kind_weights");
        c.weights(cp.minMaxCmpWeights(), "carried.min_max_cmp_weights");
        c.weights(cp.condCmpWeights(), "carried.cond_cmp_weights");
        c.weights(cp.formWeights(), "carried.form_weights");
        c.weights(cp.recurrenceOpWeights(), "carried.recurrence_op_weights");
        c.weights(cp.typeWeights(), "carried.type_weights");
        c.between(cp.maxSpan(), 2, 1000, "carried.max_span");
        SwitchPolicy sw = p.switches();
        c.between(sw.maxCases(), 1, 64, "switches.max_cases");
        c.between(sw.maxLabelsPerCase(), 1, 16, "switches.max_labels_per_case");
        c.between(sw.maxCaseStmts(), 1, 8, "switches.max_case_stmts");
        FunctionPolicy fp = p.functions();
        c.between(fp.maxHelpers(), 1, 64, "functions.max_helpers");
        c.between(fp.maxParams(), 1, 8, "functions.max_params");
        c.between(fp.maxBodyDepth(), 1, 8, "functions.max_body_depth");
        c.between(fp.maxResultFields(), 2, 8, "functions.max_result_fields");
        c.weights(fp.linkageWeights(), "functions.linkage_weights");
        c.between(p.structs().maxFields(), 1, 16, "structs.max_fields");
        c.between(p.floats().maxDepth(), 1, 6, "floats.max_depth");
        c.between(p.inputs().count(), 1, 16, "inputs.count");
        c.between(p.inputs().reach(), 0, 4096, "inputs.reach");
        c.weights(st.invariantPartOpWeights(), "statements.invariant_part_op_weights");
        c.weights(st.guardedDivOpWeights(), "statements.guarded_div_op_weights");
        c.weights(st.redundantOpWeights(), "statements.redundant_op_weights");
        c.weights(st.redundantCombineOpWeights(), "statements.redundant_combine_op_weights");
        c.weights(st.aliasedCompareOpWeights(), "statements.aliased_compare_op_weights");
        c.weights(st.aliasedArithOpWeights(), "statements.aliased_arith_op_weights");
        c.throwFirst();
    }

    /** Problems found so far, each with the place of the key at fault. */
    private static final class Checks {
        private final String file;
        private final Map<String, Mark> marks;
        private final List<String> errs = new ArrayList<>();

        Checks(String file, Map<String, Mark> marks) {
            this.file = file;
            this.marks = marks;
        }

        /** @param keys the keys at fault, dotted; the first of them this file gave is named */
        void check(boolean ok, String keys, String message) {
            if (ok) return;
            Mark m = null;
            for (String k : keys.split(",")) {
                if (m == null) m = marks.get(k.trim());
            }
            errs.add(where(file, m) + ": " + message);
        }

        void positive(int v, String key) {
            check(v >= 1, key, key + " must be at least 1, got " + v);
        }

        void between(int v, int lo, int hi, String key) {
            check(v >= lo && v <= hi, key, key + " must be between " + lo + " and " + hi + ", got " + v);
        }

        void range(int min, int max, String minKey, String maxKey) {
            check(min <= max, maxKey + "," + minKey, minKey + " must be at most " + maxKey + ", got " + min + " > " + max);
        }

        void weights(Map<String, Integer> w, String key) {
            check(sum(w) > 0, key, key + " must not all be zero");
        }

        void throwFirst() {
            if (!errs.isEmpty()) throw new PolicyException(errs.get(0));
        }
    }

    private static long sum(Map<String, Integer> m) {
        long s = 0;
        for (int v : m.values()) s += v;
        return s;
    }
}
