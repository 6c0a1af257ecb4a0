package dev.yarpj.flesh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Stmt;
import dev.yarpj.ir.StructArray;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyLoader;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Arrays of structs (policy section {@code structs:}): the fields of one struct have its
 * dimensions and distinct places, no struct has more than max_fields, and loops touch
 * several fields of one struct in one statement (the interleaved groups the section is
 * for). SYCL programs have none; with {@code p_field: 0} the programs are those without
 * the section.
 */
class StructFieldsTest {
    private static final GenPolicy STRUCTS = PolicyLoader.parse("structs: {p_field: 0.6, max_fields: 3}\n", "structs.yaml", "structs");

    @Test
    void fieldsShareTheirStructsDimensionsAndLoopsTouchSeveralInOneStatement() {
        int structs = 0, wide = 0, grouped = 0;
        for (Language lang : List.of(Language.C, Language.ISPC)) {
            Generator g = new Generator(STRUCTS, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 10; seed++) {
                GeneratedTest t = g.generate(seed, "structs");
                for (StructArray s : t.program().structArrays()) {
                    structs++;
                    assertTrue(s.fields().size() <= 3, s.name() + " has " + s.fields().size() + " fields");
                    if (s.fields().size() > 1) wide++;
                    Set<Integer> places = new HashSet<>();
                    for (ArrayVar f : s.fields()) {
                        assertEquals(s.dims(), f.dims(), f.name() + " in " + s.name());
                        assertTrue(places.add(f.field().index()), "two fields at one place in " + s.name());
                        assertTrue(!f.isParam(), f.name() + " is a field and a parameter");
                    }
                }
                // A statement that names two fields of one struct: an interleaved group of accesses.
                int[] found = {0};
                new Stmt.Walker() {
                    @Override
                    public Void assign(Stmt.Assign a) {
                        Map<String, Set<String>> fields = new java.util.HashMap<>();
                        Expr.Walker w = new Expr.Walker() {
                            @Override
                            public Void subscript(Expr.Subscript e) {
                                if (e.array().field() != null) fields.computeIfAbsent(e.array().field().structs(), k -> new HashSet<>()).add(e.array().name());
                                return super.subscript(e);
                            }
                        };
                        w.walk(a.target());
                        w.walk(a.value());
                        if (fields.values().stream().anyMatch(f -> f.size() > 1)) found[0]++;
                        return super.assign(a);
                    }
                }.all(t.program().body().stmts());
                grouped += found[0];
            }
        }
        assertTrue(structs >= 10, "only " + structs + " arrays of structs in 20 programs");
        assertTrue(wide >= 5, "only " + wide + " structs of more than one field");
        assertTrue(grouped >= 5, "only " + grouped + " statements touch two fields of one struct");
    }

    @Test
    void syclProgramsHaveNoStructsAndWithoutTheSectionTheProgramsAreThoseOfBefore() {
        GenPolicy all = PolicyLoader.parse("structs: {p_field: 1.0}\n", "all.yaml", "all");
        Generator sycl = new Generator(all, Language.SYCL, CheckMode.HASH);
        for (long seed = 1; seed <= 3; seed++) assertEquals(List.of(), sycl.generate(seed, "sycl").program().structArrays());
        GenPolicy off = PolicyLoader.parse("structs: {p_field: 0}\n", "off.yaml", "off");
        for (long seed = 1; seed <= 3; seed++) {
            GeneratedTest t = new Generator(off, Language.C, CheckMode.HASH).generate(seed, "same");
            assertEquals(List.of(), t.program().structArrays());
            assertTrue(!t.files().files().get("init.h").contains("struct "), "seed " + seed);
        }
    }
}
