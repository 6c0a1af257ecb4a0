package dev.yarpj.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyLoaderTest {

    private static String error(String yaml) {
        return assertThrows(PolicyException.class, () -> PolicyLoader.parse(yaml, "p.yaml", "p")).getMessage();
    }

    @Test
    void keysOverrideDefaultsAndWeightsMerge() {
        GenPolicy p = PolicyLoader.parse("max_trip: 20\np_split: 0.0\ntype_weights:\n  int: 50\n", "p.yaml", "mine");
        assertEquals("mine", p.name());
        assertEquals(20, p.maxTrip());
        assertEquals(0.0, p.pSplit());
        assertEquals(50, p.typeWeights().get("int"));
        assertEquals(GenPolicy.defaults().typeWeights().get("short"), p.typeWeights().get("short"));
    }

    @Test
    void malformedYamlNamesFileLineAndColumn() {
        String m = error("max_trip: 20\np_split: [0.1\n");
        assertTrue(m.startsWith("p.yaml:"), m);
        assertTrue(m.contains("malformed YAML"), m);
    }

    @Test
    void unknownKeyIsNamedWithItsPosition() {
        assertEquals("p.yaml:2:1: unknown key 'max_tirp'", error("max_trip: 20\nmax_tirp: 3\n"));
    }

    @Test
    void wrongTypeIsNamed() {
        assertEquals("p.yaml:1:11: max_trip must be an integer, got 'lots'", error("max_trip: lots\n"));
    }

    @Test
    void probabilityOutOfRangeIsNamed() {
        assertEquals("p.yaml:1:10: p_split is a probability and must be between 0 and 1, got 1.5", error("p_split: 1.5\n"));
    }

    @Test
    void unknownWeightNameIsNamed() {
        String m = error("op_weights:\n  pow: 3\n");
        assertTrue(m.startsWith("p.yaml:2:3: unknown name 'pow' in op_weights"), m);
    }

    @Test
    void theLoopFormKnobsAreProbabilitiesFewByDefault() {
        GenPolicy p = PolicyLoader.parse("exits:\n  p_while: 0.4\n  p_do_while: 0.2\n", "p.yaml", "p");
        assertEquals(0.4, p.exits().pWhile());
        assertEquals(0.2, p.exits().pDoWhile());
        assertEquals(0.1, GenPolicy.defaults().exits().pWhile(), "a few in the default policy");
        assertEquals(0.05, GenPolicy.defaults().exits().pDoWhile(), "a few in the default policy");
        GenPolicy none = PolicyLoader.load(Path.of("policies/no-idioms.yaml"));
        assertEquals(0.0, none.exits().pWhile() + none.exits().pDoWhile(), "none in no-idioms.yaml");
        assertEquals("p.yaml:2:12: exits.p_while is a probability and must be between 0 and 1, got 1.5", error("exits:\n  p_while: 1.5\n"));
        assertEquals("p.yaml:2:15: exits.p_do_while is a probability and must be between 0 and 1, got -0.1",
                error("exits:\n  p_do_while: -0.1\n"));
        assertEquals("p.yaml:2:18: exits.p_header_exit is a probability and must be between 0 and 1, got 2",
                error("exits:\n  p_header_exit: 2\n"));
    }

    @Test
    void theCarriedSectionIsCheckedWithPositions() {
        GenPolicy p = PolicyLoader.parse("carried:\n  p_carried: 0.4\n  kind_weights: {recurrence: 0}\n", "p.yaml", "p");
        assertEquals(0.4, p.carried().pCarried());
        assertEquals(0, p.carried().kindWeights().get("recurrence"));
        assertEquals(1, p.carried().kindWeights().get("find_last"));
        assertEquals(0.15, GenPolicy.defaults().carried().pCarried(), "a few in the default policy");
        assertEquals(0.0, PolicyLoader.load(java.nio.file.Path.of("policies/no-idioms.yaml")).carried().pCarried(), "none in no-idioms.yaml");
        assertEquals("p.yaml:2:13: carried.max_span must be between 2 and 1000, got 1", error("carried:\n  max_span: 1\n"));
        assertEquals("p.yaml:2:12: carried.p_alone is a probability and must be between 0 and 1, got 2.0",
                error("carried:\n  p_alone: 2.0\n"));
        assertTrue(error("carried:\n  kind_weights: {find_first: 1}\n").startsWith("p.yaml:2:18: unknown name 'find_first' in carried.kind_weights"),
                error("carried:\n  kind_weights: {find_first: 1}\n"));
        assertTrue(error("carried:\n  form_weights: {branch: 0, select: 0}\n").contains("carried.form_weights must not all be zero"));
    }

    @Test
    void negativeWeightIsRejected() {
        assertTrue(error("stmt_weights:\n  if: -1\n").contains("stmt_weights.if must be a weight"));
    }

    @Test
    void inconsistentRangesAreRejected() {
        assertTrue(error("min_trip: 50\nmax_trip: 10\n").contains("min_trip"));
    }

    @Test
    void missingFileIsOneLine(@TempDir Path dir) {
        String m = assertThrows(PolicyException.class, () -> PolicyLoader.load(dir.resolve("nope.yaml"))).getMessage();
        assertTrue(m.startsWith("policy file not found"), m);
        assertFalse(m.contains("\n"));
    }

    @Test
    void shippedDefaultPolicyEqualsTheBuiltInOne() throws Exception {
        Path file = Path.of("policies/default.yaml");
        assertTrue(Files.exists(file), "policies/default.yaml is shipped");
        assertEquals(GenPolicy.defaults(), PolicyLoader.load(file));
    }

    @Test
    void duplicateKeyIsNamed() {
        assertEquals("p.yaml:2:1: duplicate key 'max_trip'", error("max_trip: 20\nmax_trip: 30\n"));
        assertEquals("p.yaml:1:28: duplicate name 'memset' in idiom_weights", error("idiom_weights: {memset: 1, memset: 2}\n"));
    }

    @Test
    void idiomWeightsThatAllVanishAreRejected() {
        String m = error("idiom_weights: {plain: 0, vectorizable: 0, reduction: 0, stencil: 0, memset: 0, memcpy: 0}\n");
        assertEquals("p.yaml: idiom_weights must not all be zero", m);
    }

    @Test
    void unknownPragmaIsNamedWithTheKnownOnes() {
        String m = error("pragma_weights:\n  omp_simd: 2\n");
        assertTrue(m.startsWith("p.yaml:2:3: unknown name 'omp_simd' in pragma_weights (known: none, clang_vectorize"), m);
    }

    @Test
    void stencilLimitsAreChecked() {
        assertEquals("p.yaml: max_stencil_taps must be between 2 and 16", error("max_stencil_taps: 1\n"));
    }

    @Test
    void everyShippedPolicyLoadsAndDiffersFromTheDefault() throws Exception {
        try (var files = Files.list(Path.of("policies"))) {
            for (Path f : files.filter(x -> x.toString().endsWith(".yaml")).toList()) {
                GenPolicy p = PolicyLoader.load(f);
                assertEquals(f.getFileName().toString().replace(".yaml", ""), p.name());
                if (!p.name().equals("default")) {
                    assertFalse(PolicyLoader.with(p, java.util.Map.of("name", "default")).equals(GenPolicy.defaults()),
                            f + " changes something");
                }
            }
        }
    }

    @Test
    void noIdiomsSwitchesEveryIdiomOff() throws Exception {
        GenPolicy p = PolicyLoader.load(Path.of("policies/no-idioms.yaml"));
        for (String k : GenPolicy.IDIOM_NAMES) assertEquals(k.equals("plain") ? 1 : 0, p.idiomWeights().get(k), k);
        for (String k : GenPolicy.ACCESS_NAMES) assertEquals(k.equals("random") ? 1 : 0, p.accessWeights().get(k), k);
        for (String k : GenPolicy.PRAGMA_NAMES) assertEquals(k.equals("none") ? 1 : 0, p.pragmaWeights().get(k), k);
        for (String k : java.util.List.of("invariant_if", "guarded_div", "redundant_expr")) assertEquals(0, p.stmtWeights().get(k), k);
        assertEquals(0, p.opWeights().get("mask"));
        assertEquals(0.0, p.pSharedSpace());
        assertEquals(0.0, p.pSpecialConst());
        assertEquals(0.0, p.pInvariantGuard());
    }

    @Test
    void builtInEmitSectionHoldsTodaysValues() {
        assertEquals(EmitPolicy.DEFAULT, GenPolicy.defaults().emit());
    }

    @Test
    void oneNestedKeyKeepsTheOthers() {
        GenPolicy p = PolicyLoader.parse("emit:\n  sycl:\n    p_nd_range: 1.0\n", "p.yaml", "p");
        EmitPolicy d = EmitPolicy.DEFAULT;
        assertEquals(1.0, p.emit().sycl().pNdRange());
        assertEquals(d.sycl().groupSizes(), p.emit().sycl().groupSizes());
        assertEquals(d.sycl().pInOrder(), p.emit().sycl().pInOrder());
        assertEquals(d.ispc(), p.emit().ispc());
    }

    @Test
    void listsReplaceAndAreChecked() {
        GenPolicy p = PolicyLoader.parse("emit: {ispc: {gang_forms: [foreach]}, sycl: {group_sizes: [4, 4, 8]}}\n", "p.yaml", "p");
        assertEquals(java.util.List.of("foreach"), p.emit().ispc().gangForms());
        assertEquals(java.util.List.of(4, 4, 8), p.emit().sycl().groupSizes());
        assertEquals("p.yaml:1:27: emit.ispc.gang_forms must not be empty", error("emit: {ispc: {gang_forms: []}}\n"));
        assertTrue(error("emit:\n  ispc:\n    gang_forms: [foreach, vmap]\n")
                .startsWith("p.yaml:3:27: unknown name 'vmap' in emit.ispc.gang_forms (known: foreach, foreach_tiled, program_index)"));
        assertTrue(error("emit:\n  sycl:\n    memory: [pinned]\n").startsWith("p.yaml:3:14: unknown name 'pinned' in emit.sycl.memory"));
        assertEquals("p.yaml:3:18: emit.sycl.group_sizes must be a list, got '4'", error("emit:\n  sycl:\n    group_sizes: 4\n"));
    }

    @Test
    void nestedMistakesAreNamedWithTheirPosition() {
        assertEquals("p.yaml:3:13: emit.ispc.p_gang is a probability and must be between 0 and 1, got 2",
                error("emit:\n  ispc:\n    p_gang: 2\n"));
        assertEquals("p.yaml:3:5: unknown key 'emit.ispc.p_gnag'", error("emit:\n  ispc:\n    p_gnag: 0.5\n"));
        assertEquals("p.yaml:2:3: unknown key 'emit.cuda'", error("emit:\n  cuda: {}\n"));
        assertEquals("p.yaml:1:7: emit must be a mapping of keys to values, got '3'", error("emit: 3\n"));
        assertEquals("p.yaml:3:18: emit.sycl.group_sizes must be between 1 and 1024, got 2048",
                error("emit:\n  sycl:\n    group_sizes: [1, 2048]\n"));
    }

    @Test
    void reductionGroupSizesArePowersOfTwoForAdaptiveCpp() {
        String m = error("emit:\n  sycl:\n    reduction_group_sizes: [2, 6]\n");
        assertTrue(m.startsWith("p.yaml:3:28: emit.sycl.reduction_group_sizes must be powers of two from 2"), m);
        assertTrue(m.contains("AdaptiveCpp issue 1789"), m);
        assertFalse(m.contains("\n"));
    }
    @Test
    void generationSectionsOverrideOneKeyAndKeepTheRest() {
        GenPolicy d = GenPolicy.defaults();
        GenPolicy p = PolicyLoader.parse("dead_code:\n  p_int: 0.25\nexpressions:\n  leaf_weights: {array: 5}\n", "p.yaml", "p");
        assertEquals(0.25, p.deadCode().pInt());
        assertEquals(d.deadCode().kindWeights(), p.deadCode().kindWeights());
        assertEquals(5, p.expressions().leafWeights().get("array"));
        assertEquals(d.expressions().leafWeights().get("input"), p.expressions().leafWeights().get("input"));
        assertEquals(d.skeleton(), p.skeleton());
        assertEquals(d.loops(), p.loops());
        assertEquals(d.statements(), p.statements());
    }

    @Test
    void generationSectionMistakesAreOneLineWithTheirPosition() {
        assertEquals("p.yaml:2:15: dead_code.min_stores must be at most dead_code.max_stores, got 3 > 2",
                error("dead_code:\n  min_stores: 3\n"));
        assertEquals("p.yaml:1:25: loops.up_cmp_weights must not all be zero",
                error("loops: {up_cmp_weights: {lt: 0, le: 0, ne: 0}}\n"));
        assertEquals("p.yaml:1:30: skeleton.inner_preference must be between 1 and 1024, got 0",
                error("skeleton: {inner_preference: 0}\n"));
        assertEquals("p.yaml:1:23: skeleton.max_group must be between 2 and 64, got 65",
                error("skeleton: {max_group: 65}\n"));
        assertEquals("p.yaml:1:28: unknown name 'lt' in loops.down_cmp_weights (known: ge, gt, ne)",
                error("loops: {down_cmp_weights: {lt: 1}}\n"));
        assertEquals("p.yaml:1:28: statements.p_read_first is a probability and must be between 0 and 1, got -1",
                error("statements: {p_read_first: -1}\n"));
        assertEquals("p.yaml:1:32: statements.far_view_offsets must be rows between 0 and 4096, got -7",
                error("statements: {far_view_offsets: [8, -7]}\n"));
        String m = error("expressions: {leaf_weights: {array: 0}}\n");
        assertTrue(m.startsWith("p.yaml:1:29: expressions.array_leaf_weight_outside_loops must be between 0 and"), m);
    }

    @Test
    void swarmLeavesTheSectionsAlone() {
        GenPolicy d = GenPolicy.defaults();
        GenPolicy s = d.swarm(7);
        assertEquals(d.emit(), s.emit());
        assertEquals(d.skeleton(), s.skeleton());
        assertEquals(d.loops(), s.loops());
        assertEquals(d.expressions(), s.expressions());
        assertEquals(d.statements(), s.statements());
        assertEquals(d.deadCode(), s.deadCode());
    }
}
