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

    /**
     * A bit-field: an input field of a type that promotes to int, narrower than that type, and
     * wide enough for every value its fill holds (signed where one is negative), declared so in
     * C and C++; no helper takes its element by pointer (it has no address); ispc programs,
     * whose structs have no bit-fields, get none.
     */
    @Test
    void aBitFieldIsAnInputFieldNarrowerThanItsTypeThatHoldsEveryValueOfItsFill() {
        GenPolicy bits = PolicyLoader.parse("structs: {p_field: 0.8, p_bitfield: 1.0}\nfunctions: {p_call: 0.2, p_pointer: 0.6}\n", "bits.yaml", "bits");
        int bitFields = 0, signed = 0;
        for (Language lang : List.of(Language.C, Language.CPP, Language.ISPC)) {
            Generator g = new Generator(bits, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 8; seed++) {
                GeneratedTest t = g.generate(seed, "bits");
                for (ArrayVar a : t.program().inputArrays()) {
                    if (a.field() == null || !a.field().bitField()) continue;
                    assertTrue(lang != Language.ISPC, "an ispc struct has bit-field " + a.name() + " (seed " + seed + ")");
                    ArrayVar.Passing.Field f = a.field();
                    assertEquals(dev.yarpj.ir.NumType.INT, dev.yarpj.ir.Arith.promote(a.base()), a.name() + " is read as " + a.base());
                    assertTrue(f.bits() < a.base().bits, a.name() + " : " + f.bits() + " is no narrower than " + a.base());
                    long lo = f.signedBits() ? -(1L << (f.bits() - 1)) : 0, hi = f.signedBits() ? (1L << (f.bits() - 1)) - 1 : (1L << f.bits()) - 1;
                    ArrayVar.Fill fill = a.fill();
                    for (long v : fill.varies() ? List.of(fill.even(), fill.even() + fill.span() - 1) : List.of(fill.even(), fill.odd())) {
                        assertTrue(v >= lo && v <= hi, a.name() + " : " + f.bits() + " cannot hold " + v + " (seed " + seed + ")");
                    }
                    assertTrue(t.files().files().get("init.h").contains((f.signedBits() ? "signed int " : "unsigned int ") + a.name() + " : " + f.bits() + ";"),
                            a.name() + " is not declared a bit-field");
                    bitFields++;
                    if (f.signedBits()) signed++;
                }
                assertTrue(t.prediction().steps() > 0);
                new Stmt.Walker() {
                    @Override
                    protected void expr(Expr e) {
                        if (e == null) return;
                        new Expr.Walker() {
                            @Override
                            public Void helperCall(Expr.HelperCall c) {
                                for (int i = 0; i < c.args().size(); i++) {
                                    if (c.helper().params().get(i).byPointer() && ((Expr.Subscript) c.args().get(i)).array().field() != null) {
                                        assertTrue(!((Expr.Subscript) c.args().get(i)).array().field().bitField(), c.helper().name() + " takes a bit-field's address");
                                    }
                                }
                                return super.helperCall(c);
                            }
                        }.walk(e);
                    }
                }.all(t.program().body().stmts());
            }
        }
        assertTrue(bitFields >= 10, "only " + bitFields + " bit-fields in 16 C and C++ programs");
        assertTrue(signed >= 1 && signed < bitFields, signed + " signed of " + bitFields + " bit-fields");
    }

    /**
     * A local that copies a struct: declared from an element of an array of structs with an
     * input field, printed as a copy of the whole element, and read later as the field of the
     * copy; C and C++ only (StructEditsTest reduces such programs).
     */
    @Test
    void aLocalCopiesAWholeStructElementAndLaterStatementsReadItsInputField() {
        GenPolicy copying = PolicyLoader.parse("structs: {p_field: 0.8, p_copy: 1.0}\n", "copying.yaml", "copying");
        int copies = 0, reads = 0;
        for (Language lang : List.of(Language.C, Language.CPP, Language.ISPC, Language.SYCL)) {
            Generator g = new Generator(copying, lang, CheckMode.HASH);
            for (long seed = 1; seed <= 6; seed++) {
                GeneratedTest t = g.generate(seed, "copies");
                List<Stmt.LocalDecl> decls = new java.util.ArrayList<>();
                new Stmt.Walker() {
                    @Override
                    public Void localDecl(Stmt.LocalDecl d) {
                        if (d.var().isCopyField()) decls.add(d);
                        return super.localDecl(d);
                    }
                }.all(t.program().body().stmts());
                if (lang == Language.ISPC || lang == Language.SYCL) {
                    assertEquals(List.of(), decls, lang + " seed " + seed + " copies a struct");
                    continue;
                }
                String func = t.files().files().get(lang == Language.C ? "func.c" : "func.cpp");
                for (Stmt.LocalDecl d : decls) {
                    Expr.Subscript s = (Expr.Subscript) d.init();
                    assertTrue(s.array().isInput() && s.array().field() != null, d.var().name() + " copies " + s.array().name());
                    assertTrue(func.contains("struct " + s.array().field().type() + " " + d.var().copyName() + " = " + s.array().field().structs() + "["),
                            d.var().name() + " is not declared as a copy of its struct (seed " + seed + ")");
                    if (func.split(java.util.regex.Pattern.quote(d.var().name()), -1).length > 1) reads++;
                    copies++;
                }
            }
        }
        assertTrue(copies >= 10, "only " + copies + " struct copies in 12 C and C++ programs");
        // Like any local, many a copy is left unread; those read are the point.
        assertTrue(reads >= 5, "only " + reads + " of " + copies + " copies read later");
    }

    @Test
    void syclProgramsHaveStructsButNoBitFieldsAndWithoutTheSectionTheProgramsAreThoseOfBefore() {
        GenPolicy all = PolicyLoader.parse("structs: {p_field: 1.0, p_bitfield: 1.0}\n", "all.yaml", "all");
        Generator sycl = new Generator(all, Language.SYCL, CheckMode.HASH);
        for (long seed = 1; seed <= 3; seed++) {
            List<StructArray> structs = sycl.generate(seed, "sycl").program().structArrays();
            assertTrue(!structs.isEmpty(), "seed " + seed);
            // SYCL's structs are C++'s but for bit-fields (Flesher.flesh's cFamily).
            for (StructArray s : structs) for (ArrayVar f : s.fields()) assertTrue(!f.field().bitField(), f.name());
        }
        GenPolicy off = PolicyLoader.parse("structs: {p_field: 0}\n", "off.yaml", "off");
        for (long seed = 1; seed <= 3; seed++) {
            GeneratedTest t = new Generator(off, Language.C, CheckMode.HASH).generate(seed, "same");
            assertEquals(List.of(), t.program().structArrays());
            assertTrue(!t.files().files().get("init.h").contains("struct rec_"), "seed " + seed);
        }
    }
}
