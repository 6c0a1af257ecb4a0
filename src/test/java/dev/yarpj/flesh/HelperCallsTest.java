package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Helper;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.Stmt;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Helper functions (policy section {@code functions:}): their call graph is acyclic (a body
 * calls only helpers listed before it), a body reads nothing but its own parameters (so
 * {@code __attribute__((const))} is true of every helper), helpers are reused by later calls
 * with other values, and the interpreter runs every program UB-free (generating one runs it).
 * An extern helper's body calls extern helpers only. A parameter passed by pointer gets the
 * address of an element of an input array, which no statement writes, and makes its helper
 * pure rather than const. With {@code p_call: 0} a program has no helpers.
 */
class HelperCallsTest {
    private static final GenPolicy CALLING = PolicyLoader.parse("functions: {p_call: 0.3}\n", "calling.yaml", "calling");

    /** The calls in a program's body (not inside helper bodies), by helper. */
    private static Map<Helper, Integer> callsInBody(GeneratedTest t) {
        Map<Helper, Integer> calls = new HashMap<>();
        walkBody(t, new Expr.Walker() {
            @Override
            public Void helperCall(Expr.HelperCall c) {
                calls.merge(c.helper(), 1, Integer::sum);
                return super.helperCall(c);
            }
        });
        return calls;
    }

    /** Walks every expression of a program's body (not of helper bodies) with {@code w}. */
    private static void walkBody(GeneratedTest t, Expr.Walker w) {
        new Stmt.Walker() {
            @Override
            protected void expr(Expr e) {
                if (e != null) w.walk(e);
            }
        }.all(t.program().body().stmts());
    }

    @Test
    void helpersFormAnAcyclicCallGraphReadOnlyTheirParametersAndAreReusedWithOtherValues() {
        int helpers = 0, reused = 0, nested = 0;
        int[] externCallsExtern = {0};
        for (Language lang : List.of(Language.C, Language.ISPC)) {
            Generator g = new Generator(CALLING, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 10; seed++) {
                GeneratedTest t = g.generate(seed, "calls");
                List<Helper> hs = t.program().helpers();
                helpers += hs.size();
                for (int k = 0; k < hs.size(); k++) {
                    Helper h = hs.get(k);
                    Set<Helper> before = new HashSet<>(hs.subList(0, k));
                    Set<ScalarVar> own = new HashSet<>(h.params());
                    int at = k;
                    boolean[] callsOther = {false};
                    Expr.Walker checks = new Expr.Walker() {
                        @Override
                        public Void scalar(Expr.ScalarRef r) {
                            assertTrue(own.contains(r.var()), h.name() + " reads " + r.var().name() + ", not its parameter");
                            return null;
                        }

                        @Override
                        public Void iter(Expr.IterRef r) {
                            throw new AssertionError(h.name() + " reads an iterator");
                        }

                        @Override
                        public Void subscript(Expr.Subscript s) {
                            throw new AssertionError(h.name() + " reads an array");
                        }

                        @Override
                        public Void helperCall(Expr.HelperCall c) {
                            assertTrue(before.contains(c.helper()), h.name() + " (helper " + at + ") calls " + c.helper().name()
                                    + ", not a helper before it");
                            // The second file defines extern helpers alone: their bodies call nothing else.
                            if (h.linkage() == Helper.Linkage.EXTERN) {
                                assertEquals(Helper.Linkage.EXTERN, c.helper().linkage(), "extern " + h.name() + " calls " + c.helper().name());
                                externCallsExtern[0]++;
                            }
                            callsOther[0] = true;
                            return super.helperCall(c);
                        }
                    };
                    for (Expr r : h.results()) checks.walk(r);
                    if (callsOther[0]) nested++;
                    assertEquals("fn_" + k, h.name());
                }
                for (int n : callsInBody(t).values()) if (n > 1) reused++;
                // The prediction exists: the interpreter ran the program, every call checked for UB.
                assertTrue(t.prediction().steps() > 0);
            }
        }
        assertTrue(helpers >= 40, "only " + helpers + " helpers in 20 programs");
        assertTrue(reused >= 5, "only " + reused + " helpers called more than once from test()");
        assertTrue(nested >= 5, "only " + nested + " helpers call another");
        assertTrue(externCallsExtern[0] >= 1, "no extern helper calls another");
    }

    @Test
    void aParameterPassedByPointerOrAStructGetsElementsOfArraysNoStatementWritesAndAPointerMakesItsHelperPure() {
        GenPolicy pointing = PolicyLoader.parse("functions: {p_call: 0.3, p_pointer: 0.5, p_array_param: 0.4, p_struct: 0.3, p_const: 1}\n"
                + "structs: {p_field: 0.6}\n", "pointing.yaml", "pointing");
        int pointerArgs = 0, pureHelpers = 0, structArgs = 0, byValue = 0, byPointer = 0, indexed = 0, readAsArray = 0, syclArgs = 0;
        for (Language lang : List.of(Language.C, Language.ISPC, Language.SYCL)) {
            Generator g = new Generator(pointing, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 8; seed++) {
                GeneratedTest t = g.generate(seed, "pointers");
                Set<dev.yarpj.ir.ArrayVar> written = new HashSet<>();
                new Stmt.Walker() {
                    @Override
                    public Void assign(Stmt.Assign s) {
                        if (s.target() instanceof Expr.Subscript e) written.add(e.array());
                        return super.assign(s);
                    }

                    @Override
                    public Void reduce(Stmt.Reduce s) {
                        if (s.target() instanceof Expr.Subscript e) written.add(e.array());
                        return super.reduce(s);
                    }
                }.all(t.program().body().stmts());
                int[] args = {0, 0, 0};
                walkBody(t, new Expr.Walker() {
                    @Override
                    public Void helperCall(Expr.HelperCall c) {
                        for (int i = 0; i < c.args().size(); i++) {
                            ScalarVar p = c.helper().params().get(i);
                            if (!p.byPointer() && !p.isField()) continue;
                            Expr.Subscript s = (Expr.Subscript) c.args().get(i);
                            assertTrue(!written.contains(s.array()), c.helper().name() + " gets an element of " + s.array().name() + ", which is written");
                            if (p.byPointer()) args[0]++;
                            if (p.indexed()) {
                                // A row is an array of the element's type only where it is no struct's field.
                                assertEquals(null, s.array().field(), p.name() + " gets a row of " + s.array().name() + ", a struct's field");
                                args[2]++;
                            }
                            if (p.isField()) {
                                // The arguments of a struct's fields are those fields of one element (HelperCall checks it too).
                                Helper.StructParam sp = c.helper().structOf(p);
                                assertTrue(p.name().endsWith(s.array().name()) && s.array().field().type().equals(sp.type()), p.name() + " gets " + s.array().name());
                                if (c.helper().structStartingAt(p) != null) args[1]++;
                            }
                        }
                        return super.helperCall(c);
                    }
                });
                if (lang == Language.SYCL) syclArgs += args[0] + args[1]; // addresses of accessors' or USM elements
                pointerArgs += args[0];
                structArgs += args[1];
                indexed += args[2];
                // The body indexes the row with the index the call passes beside it.
                String text = String.join("\n", t.files().files().values());
                for (Helper h : t.program().helpers()) {
                    for (ScalarVar p : h.params()) {
                        if (!p.indexed()) continue;
                        assertTrue(!text.contains("(*" + p.name() + ")"), p.name() + " is read through as a pointer (" + lang + ", seed " + seed + ")");
                        if (text.contains(p.name() + "[" + p.indexName() + "]")) readAsArray++;
                        assertTrue(java.util.regex.Pattern.compile("\\* ?(uniform |varying )?" + p.name() + ", [a-z0-9 ]*int(32)? " + p.indexName() + "[,)]")
                                .matcher(text).find(), p.name() + " and its index are not parameters (" + lang + ", seed " + seed + ")");
                    }
                }
                for (Helper h : t.program().helpers()) {
                    for (Helper.StructParam sp : h.structParams()) {
                        if (sp.byPointer()) byPointer++;
                        else byValue++;
                    }
                }
                if (lang != Language.C) continue;
                String func = t.files().files().get("func.c") + t.files().files().getOrDefault("helpers.c", "");
                for (Helper h : t.program().helpers()) {
                    if (!h.readsMemory()) continue;
                    pureHelpers++;
                    assertTrue(java.util.regex.Pattern.compile("__attribute__\\(\\(pure\\)\\) [a-z_0-9 ]+ " + h.name() + "\\(").matcher(func).find(),
                            h.name() + " takes a pointer and is not declared pure (seed " + seed + ")");
                }
            }
        }
        assertTrue(syclArgs >= 5, "only " + syclArgs + " elements or structs passed in 8 SYCL programs");
        assertTrue(pointerArgs >= 20, "only " + pointerArgs + " elements passed by pointer in 24 programs");
        assertTrue(structArgs >= 10, "only " + structArgs + " structs passed in 24 programs");
        assertTrue(byValue >= 3 && byPointer >= 3, byValue + " struct parameters by value, " + byPointer + " by pointer");
        assertTrue(indexed >= 5 && indexed < pointerArgs, indexed + " of " + pointerArgs + " elements passed as a row and an index");
        assertTrue(readAsArray >= 3, "only " + readAsArray + " bodies read a row at its index");
        assertTrue(pureHelpers >= 5, "only " + pureHelpers + " helpers that take a pointer in 8 C programs");
    }

    /**
     * A helper that returns a struct: two or more fields, each a value its body computes from
     * the parameters; calls read different fields of it; the lowerings declare the struct and
     * read the field of the call (C, the C++ of SYCL, ISPC's overloads). Its programs are
     * UB-free for every field (the interpreter computes them all; InterpreterTest shows a
     * field no call reads refused).
     */
    @Test
    void aHelperReturningAStructHasSeveralFieldsAndItsCallsReadDifferentOnes() {
        GenPolicy returning = PolicyLoader.parse("functions: {p_call: 0.3, p_struct_result: 0.6, max_result_fields: 3}\n", "returning.yaml", "returning");
        int structs = 0, fieldsRead = 0, twoRead = 0;
        for (Language lang : List.of(Language.C, Language.ISPC, Language.SYCL)) {
            Generator g = new Generator(returning, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 4; seed++) {
                GeneratedTest t = g.generate(seed, "returning");
                Map<Helper, Set<Integer>> read = new HashMap<>();
                Expr.Walker reads = new Expr.Walker() {
                    @Override
                    public Void helperCall(Expr.HelperCall c) {
                        read.computeIfAbsent(c.helper(), k -> new HashSet<>()).add(c.field());
                        assertEquals(c.helper().result(c.field()), c.type());
                        return super.helperCall(c);
                    }
                };
                walkBody(t, reads);
                for (Helper h : t.program().helpers()) for (Expr r : h.results()) reads.walk(r);
                String text = String.join("\n", t.files().files().values());
                for (Helper h : t.program().helpers()) {
                    if (!h.returnsStruct()) {
                        assertEquals(1, h.results().size());
                        continue;
                    }
                    structs++;
                    assertTrue(h.results().size() >= 2 && h.results().size() <= 3, h.name() + " returns " + h.results().size() + " fields");
                    assertTrue(text.contains("struct " + h.resultStruct() + " {"), h.name() + "'s struct is not declared (" + lang + ", seed " + seed + ")");
                    Set<Integer> fields = read.getOrDefault(h, Set.of());
                    fieldsRead += fields.size();
                    if (fields.size() >= 2) twoRead++;
                    for (int f : fields) {
                        assertTrue(java.util.regex.Pattern.compile(h.name() + "\\([^;]*\\)\\.v" + f + "\\b").matcher(text).find(),
                                "no call of " + h.name() + " reads v" + f + " in the " + lang + " files (seed " + seed + ")");
                    }
                }
                assertTrue(t.prediction().steps() > 0);
            }
        }
        assertTrue(structs >= 15, "only " + structs + " helpers return a struct in 12 programs");
        assertTrue(fieldsRead >= structs, fieldsRead + " fields read of " + structs + " structs");
        assertTrue(twoRead >= 3, "only " + twoRead + " helpers have calls that read two fields");
    }

    @Test
    void withoutCallsAProgramHasNoHelpers() {
        GenPolicy off = PolicyLoader.parse("functions: {p_call: 0}\n", "off.yaml", "off");
        Generator g = new Generator(off, Language.C, CheckMode.HASH);
        for (long seed = 1; seed <= 10; seed++) {
            GeneratedTest t = g.generate(seed, "no calls");
            assertEquals(List.of(), t.program().helpers());
            assertTrue(!t.files().files().get("func.c").contains("fn_"));
        }
    }
}
