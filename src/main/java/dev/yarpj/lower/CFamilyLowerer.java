package dev.yarpj.lower;

import dev.yarpj.interp.Checksum;
import dev.yarpj.interp.Prediction;
import dev.yarpj.ir.ArrayVar;
import dev.yarpj.ir.Builtin;
import dev.yarpj.ir.Expr;
import dev.yarpj.ir.Helper;
import dev.yarpj.ir.InputSet;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.Program;
import dev.yarpj.ir.ScalarVar;
import dev.yarpj.ir.StructArray;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Prints a program as C or C++ (YARPGen v2, 3.6 and 3.8): {@code func} holds {@code test},
 * {@code driver} defines the globals, calls {@code test} and checks the outputs,
 * {@code init.h} declares what both share. It only prints: every semantic decision is
 * already in the IR, implicit conversions included (they print as nothing).
 */
public final class CFamilyLowerer implements Lowerer {
    private final Language lang;
    /**
     * The C++ half of an ISPC test: {@code test} has C linkage, as ispc's exported function
     * has, and 64-bit types are spelt as in the header ispc writes, so that one driver calls
     * either; init.h includes that header when the driver is built with YARPJ_ISPC.
     */
    private final boolean ispcCompanion;
    /**
     * Whether extern helpers go to a second file, {@code helpers.c} (a test of its own, in C or
     * C++), or stay in the one file, out of line (the C++ twin of an ISPC or SYCL test: their
     * harness builds one file).
     */
    private final boolean secondFile;
    private String banner;
    /** Helper functions for min/max used by the function being printed. */
    private final TreeSet<String> helpers = new TreeSet<>();
    /** The headers its math library calls need. */
    private final TreeSet<String> includes = new TreeSet<>();
    /** The names of the program's bit-fields (field names are unique in a program). */
    private final java.util.Set<String> bitFields = new java.util.HashSet<>();
    private final CExprPrinter printer;

    CFamilyLowerer(Language lang, boolean ispcCompanion, boolean secondFile) {
        this.lang = lang;
        this.ispcCompanion = ispcCompanion;
        this.secondFile = secondFile;
        this.printer = new CExprPrinter(ispcCompanion) {
            @Override
            String minMax(boolean min, NumType t, String a, String b) {
                return CFamilyLowerer.this.minMax(min, t, a, b);
            }

            @Override
            String mathCall(Builtin fn, NumType t, List<String> args) {
                return CFamilyLowerer.this.mathCall(fn, t, args);
            }

            @Override
            String arm(Expr e) {
                // g++ gives `c ? s.f : k`, s.f an unsigned bit-field, the field's declared type
                // (unsigned int), where C and clang++ promote it to int as the IR does (any g++,
                // bugs.md): in C++ a bit-field arm is printed converted to the arm's type, its
                // implicit promotion or, where its IR type is int already, that type.
                Expr read = e instanceof Expr.Cast c && c.implicit() ? c.operand() : e;
                if (lang == Language.CPP && readsBitField(read)) return cast(e.type(), expr(read));
                return expr(e);
            }
        };
    }

    /** @param banner comment lines (without comment markers) put at the top of every file */
    public static LoweredTest lower(Program p, Prediction expected, Language lang, CheckMode check, String banner) {
        return new CFamilyLowerer(lang, false, true).lower(p, expected, check, banner);
    }

    @Override
    public LoweredTest lower(Program p, Prediction expected, CheckMode check, String banner) {
        this.banner = banner;
        helpers.clear();
        includes.clear();
        bitFields.clear();
        for (ArrayVar a : p.inputArrays()) if (a.field() != null && a.field().bitField()) bitFields.add(a.name());
        Map<String, String> files = new LinkedHashMap<>();
        files.put("func." + lang.extension, func(p));
        files.put("driver." + lang.extension, driver(p, expected, check));
        files.put("init.h", header(p));
        if (secondFile && p.helpers().stream().anyMatch(h -> h.linkage() == Helper.Linkage.EXTERN)) files.put(HELPERS + lang.extension, helpersFile(p));
        return new LoweredTest(files);
    }

    private CodeWriter start() {
        CodeWriter w = new CodeWriter();
        w.line("/*");
        for (String s : banner.split("\n")) w.line(" * " + s);
        w.line(" */");
        return w;
    }

    // ---- init.h ---------------------------------------------------------------------

    private String header(Program p) {
        CodeWriter w = start();
        w.line("#ifndef YARPJ_INIT_H").line("#define YARPJ_INIT_H");
        if (lang == Language.C) w.line("#include <stdbool.h>");
        if (ispcCompanion) w.line("#include <stdint.h>");
        w.blank();
        for (ScalarVar v : p.inputs()) if (!v.isParam()) w.line("extern " + decl(v) + ";");
        for (ScalarVar v : p.outputs()) w.line("extern " + decl(v) + ";");
        for (ArrayVar a : p.inputArrays()) if (!a.isParam() && a.field() == null) w.line("extern " + decl(a) + ";");
        for (ArrayVar a : p.outputArrays()) if (!a.isParam() && a.field() == null) w.line("extern " + decl(a) + ";");
        for (StructArray s : p.structArrays()) {
            w.open("struct " + s.type());
            for (ArrayVar f : s.fields()) {
                ArrayVar.Passing.Field at = f.field();
                w.line(at.bitField() ? (at.signedBits() ? "signed int " : "unsigned int ") + f.name() + " : " + at.bits() + ";" : decl(f.base(), f.name()) + ";");
            }
            w.closeWith("};");
            w.line("extern " + decl(s) + ";");
        }
        for (Helper h : p.helpers()) if (h.returnsStruct()) w.raw(printer.resultStruct(h));
        w.blank();
        if (ispcCompanion) {
            // Built with YARPJ_ISPC, the driver calls ispc's test through the header ispc -h writes.
            w.line("#ifdef YARPJ_ISPC").line("#include \"func_ispc.h\"").line("using namespace ispc;").line("#else");
            w.line("extern \"C\" void test(" + params(p) + ");").line("#endif");
        } else {
            w.line("void test(" + params(p) + ");");
        }
        w.line("#endif");
        return w.toString();
    }

    private String params(Program p) {
        if (p.params().isEmpty() && p.arrayParams().isEmpty()) return lang == Language.C ? "void" : "";
        List<String> ps = new ArrayList<>();
        for (ScalarVar v : p.params()) ps.add(decl(v));
        for (ArrayVar a : p.arrayParams()) ps.add(pointerDecl(a));
        return String.join(", ", ps);
    }

    /** An array parameter: a pointer to its first element (a row, for more than one dimension). */
    private String pointerDecl(ArrayVar a) {
        boolean restrict = lang == Language.C && a.passing() instanceof ArrayVar.Passing.Pointer ptr && ptr.mayRestrict();
        String name = (restrict ? "restrict " : "") + a.name();
        StringBuilder sb = new StringBuilder(type(a.base()));
        if (a.rank() == 1) return sb.append(" *").append(name).toString();
        sb.append(" (*").append(name).append(')');
        for (int d = 1; d < a.rank(); d++) sb.append('[').append(a.dims().get(d)).append(']');
        return sb.toString();
    }

    /** What the driver passes for an array parameter: the array itself, or its storage at the view's offset. */
    private static String argument(ArrayVar a) {
        if (a.passing() instanceof ArrayVar.Passing.View v) {
            return v.rowOffset() == 0 ? v.storage().name() : v.storage().name() + " + " + v.rowOffset();
        }
        return a.name();
    }

    private String decl(ScalarVar v) {
        return type(v.base()) + " " + v.name();
    }

    private String decl(ArrayVar a) {
        StringBuilder sb = new StringBuilder(type(a.base())).append(' ').append(a.name());
        for (int d : a.dims()) sb.append('[').append(d).append(']');
        return sb.toString();
    }

    private String decl(NumType t, String name) {
        return type(t) + " " + name;
    }

    private static String decl(StructArray s) {
        StringBuilder sb = new StringBuilder("struct ").append(s.type()).append(' ').append(s.name());
        for (int d : s.dims()) sb.append('[').append(d).append(']');
        return sb.toString();
    }

    // ---- func -----------------------------------------------------------------------

    private String func(Program p) {
        CodeWriter body = new CodeWriter();
        body.open((ispcCompanion ? "extern \"C\" " : "") + "void test(" + params(p) + ")");
        new CStatements(printer).stmts(body, p.body().stmts());
        body.close();
        // Printed after test(), whose min and max they may share, before it in the file.
        String functions = printer.helperDefinitions(p.helpers(), true, secondFile ? CExprPrinter.HelperFile.TEST : CExprPrinter.HelperFile.ONLY);
        CodeWriter w = start();
        for (String i : includes) w.line(i);
        w.line("#include \"init.h\"").blank();
        for (String h : helpers) w.line(h);
        if (!helpers.isEmpty()) w.blank();
        if (!functions.isEmpty()) w.raw(functions).blank();
        w.raw(body.toString());
        return w.toString();
    }

    /** The name of the second file, without its extension: {@link Helper.Linkage#EXTERN} helpers. */
    public static final String HELPERS = "helpers.";

    /**
     * The second file: the extern helpers alone, compiled on its own and linked with func, so
     * that inlining or propagating across the call needs link-time optimization. Of init.h
     * it needs only C's bool: a body reads its parameters and calls extern helpers only.
     */
    private String helpersFile(Program p) {
        helpers.clear();
        includes.clear();
        String functions = printer.helperDefinitions(p.helpers(), true, CExprPrinter.HelperFile.SECOND);
        CodeWriter w = start();
        for (String i : includes) w.line(i);
        w.line("#include \"init.h\"").blank();
        for (String h : helpers) w.line(h);
        if (!helpers.isEmpty()) w.blank();
        w.raw(functions);
        return w.toString();
    }

    private String minMax(boolean min, NumType t, String a, String b) {
        String fn = min ? "min" : "max";
        // A static inline function per type, in C and C++ alike: C has no std::min (and a macro
        // would duplicate its operands' text, exponentially in nesting depth), and C++'s needs
        // <algorithm>, whose parsing cost more CPU than the optimizers spent on a median test
        // (g++ -O3: 0.37 of 0.49 CPU-s for an empty file; clang++: 0.1 of 0.26).
        String name = fn + "_" + shortName(t);
        String tn = type(t);
        helpers.add("static inline " + tn + " " + name + "(" + tn + " a, " + tn + " b) { return a "
                + (min ? "<" : ">") + " b ? a : b; }");
        return name + "(" + a + ", " + b + ")";
    }

    /**
     * The math library's {@code fn}: {@code fminf} or {@code fmin} by type in C (math.h; the
     * test links with -lm), {@code std::fmin} in C++ (cmath), which overloads it by type. A
     * half's is the float one, on its operands converted and with its result converted back:
     * glibc has no {@code _Float16} functions, nor C++ before C++23 overloads, and every
     * result is exact (FloatArith), so converting back never rounds.
     */
    private String mathCall(Builtin fn, NumType t, List<String> args) {
        includes.add(lang == Language.C ? "#include <math.h>" : "#include <cmath>");
        if (t == NumType.HALF) {
            List<String> floats = args.stream().map(a -> "(float) (" + a + ")").toList();
            return "((_Float16) " + mathCall(fn, NumType.FLOAT, floats) + ")";
        }
        String callee = lang == Language.C ? fn.cName() + (t == NumType.FLOAT ? "f" : "") : "std::" + fn.cName();
        return callee + "(" + String.join(", ", args) + ")";
    }

    /**
     * Whether {@code e} reads a bit-field: an element of one, or a field of a struct copy or of
     * a helper's struct parameter ({@code t_3.arr_5}, {@code r_9->arr_5}) that is one.
     */
    private boolean readsBitField(Expr e) {
        if (e instanceof Expr.Subscript s) return s.array().field() != null && s.array().field().bitField();
        if (e instanceof Expr.ScalarRef r && (r.var().isCopyField() || r.var().isField())) {
            String name = r.var().name();
            return bitFields.contains(name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf('>')) + 1));
        }
        return false;
    }

    private static String shortName(NumType t) {
        return (t.isFloat() ? "f" : t.signed ? "i" : "u") + t.bits;
    }

    String type(NumType t) {
        return cType(t, ispcCompanion);
    }

    /** C's and C++'s name of {@code t}; 64-bit types as in stdint.h where {@code fixedWidth64}. */
    static String cType(NumType t, boolean fixedWidth64) {
        return switch (t) {
            case BOOL -> "bool";
            case SCHAR -> "signed char";
            case UCHAR -> "unsigned char";
            case SHORT -> "short";
            case USHORT -> "unsigned short";
            case INT -> "int";
            case UINT -> "unsigned int";
            case LLONG -> fixedWidth64 ? "int64_t" : "long long";
            case ULLONG -> fixedWidth64 ? "uint64_t" : "unsigned long long";
            case HALF -> "_Float16";
            case FLOAT -> "float";
            case DOUBLE -> "double";
        };
    }

    /**
     * A literal of type {@code t} (int, unsigned int, long long or unsigned long long; values
     * of narrower types print as int literals and convert on use). The most negative value
     * has no literal and is written as a subtraction.
     */
    static String literal(NumType t, long v) {
        return ExprPrinter.cLiteral(t, v);
    }

    // ---- driver ---------------------------------------------------------------------

    private String driver(Program p, Prediction expected, CheckMode check) {
        CodeWriter w = start();
        w.line("#include <stdio.h>");
        boolean floatOutputs = hasFloatOutputs(p);
        if (floatOutputs) w.line("#include <string.h>");
        w.line("#include \"init.h\"").blank();
        for (ScalarVar v : p.inputs()) w.line(decl(v) + " = " + literal(litType(v.base()), v.initValue()) + ";");
        for (ScalarVar v : p.outputs()) w.line(decl(v) + " = " + literal(litType(v.base()), v.initValue()) + ";");
        for (ArrayVar a : p.inputArrays()) if (a.field() == null) w.line(decl(a) + ";");
        for (ArrayVar a : p.outputArrays()) if (a.field() == null) w.line(decl(a) + ";");
        for (StructArray s : p.structArrays()) w.line(decl(s) + ";");
        w.blank();

        List<InputSet> sets = p.inputSets();
        w.open("static void init(void)");
        for (ArrayVar a : p.inputArrays()) fillLoop(w, a);
        for (ArrayVar a : p.outputArrays()) fillLoop(w, a);
        // With several input sets test() runs again: every output starts where the prediction has it.
        if (sets.size() > 1) for (ScalarVar v : p.outputs()) w.line(v.name() + " = " + literal(litType(v.base()), v.initValue()) + ";");
        w.close().blank();

        w.line("static unsigned long long seed = 0;");
        w.open("static void hash(unsigned long long v)");
        w.line("seed ^= v + 0x" + Long.toHexString(Checksum.SALT) + "ULL + (seed << 6) + (seed >> 2);");
        w.close().blank();
        if (floatOutputs) {
            // A floating output is hashed as its double's bits, every zero as +0.0 (see FloatArith).
            w.open("static unsigned long long fp_bits(double x)");
            w.line("unsigned long long b = 0;");
            w.line("if (x != 0) memcpy(&b, &x, sizeof b);");
            w.line("return b;");
            w.close().blank();
        }

        List<String> args = new ArrayList<>();
        for (ScalarVar v : p.params()) args.add(v.name());
        for (ArrayVar a : p.arrayParams()) args.add(argument(a));
        String call = "test(" + String.join(", ", args) + ");";
        if (sets.size() > 1 && check == CheckMode.HASH) {
            w.open("static void checksum(void)");
            w.line("seed = 0;");
            for (ScalarVar v : p.outputs()) w.line(hash(v.base(), v.name()));
            for (ArrayVar a : p.outputArrays()) walk(w, a, hash(a.base(), element(a)));
            w.line("printf(\"%llu\\n\", seed);");
            w.close().blank();
        }
        // The inputs some set changes: before each call after the first, every one gets that set's value.
        List<ScalarVar> changed = p.inputs().stream().filter(v -> sets.stream().anyMatch(x -> x.values().containsKey(v.name()))).toList();

        w.open("int main(void)");
        for (int k = 0; k < sets.size(); k++) {
            if (sets.size() > 1) w.line("/* input set " + k + (k == 0 ? ": the planned values */" : " */"));
            w.line("init();");
            if (k > 0) for (ScalarVar v : changed) w.line(v.name() + " = " + literal(litType(v.base()), sets.get(k).valueOf(v)) + ";");
            // An array this set fills otherwise: filled again with the set's contents.
            if (k > 0) for (ArrayVar a : p.inputArrays()) {
                ArrayVar.Fill f = sets.get(k).fills().get(a.name());
                if (f != null) fillLoop(w, a, f);
            }
            // A sentinel array this set moves the special element of: back to the fill where init() put it, then where the set has it.
            if (k > 0) {
                for (ArrayVar a : p.inputArrays()) {
                    InputSet.Plant moved = sets.get(k).plants().get(a.name());
                    if (moved == null) continue;
                    NumType lt = litType(a.base());
                    if (a.fill().plantAt() >= 0) w.line(elementAt(a, a.fill().plantAt()) + " = " + literal(lt, a.fill().even()) + ";");
                    if (moved.at() >= 0) w.line(elementAt(a, moved.at()) + " = " + literal(lt, moved.value()) + ";");
                }
            }
            w.line(call);
            if (check == CheckMode.HASH) {
                if (sets.size() > 1) {
                    w.line("checksum();");
                    continue;
                }
                for (ScalarVar v : p.outputs()) w.line(hash(v.base(), v.name()));
                for (ArrayVar a : p.outputArrays()) walk(w, a, hash(a.base(), element(a)));
                w.line("printf(\"%llu\\n\", seed);");
            } else {
                asserts(w, p, expected.set(k), sets.size() > 1 ? "set " + k + ": " : "");
            }
        }
        if (check != CheckMode.HASH) w.line("printf(\"OK\\n\");");
        w.line("return 0;");
        w.close();
        return w.toString();
    }

    /** The driver's comparisons of each output with {@code expected}, failing with "FAIL {@code set}name: ...". */
    private void asserts(CodeWriter w, Program p, Prediction expected, String set) {
        for (int i = 0; i < p.outputs().size(); i++) {
            ScalarVar v = p.outputs().get(i);
            String want = literal(litType(v.base()), expected.scalars().get(i));
            String fmt = v.base().isFloat() ? "%a" : v.base().signed ? "%lld" : "%llu";
            String cast = v.base().isFloat() ? "(double)" : v.base().signed ? "(long long)" : "(unsigned long long)";
            w.open("if (" + v.name() + " != " + want + ")");
            w.line("printf(\"FAIL " + set + v.name() + ": got " + fmt + ", expected " + fmt + "\\n\", " + cast + v.name()
                    + ", " + cast + want + ");");
            w.line("return 1;");
            w.close();
        }
        for (int i = 0; i < p.outputArrays().size(); i++) {
            ArrayVar a = p.outputArrays().get(i);
            long want = Checksum.of(expected.arrays().get(i));
            w.line("seed = 0;");
            walk(w, a, hash(a.base(), element(a)));
            w.open("if (seed != " + Long.toUnsignedString(want) + "ULL)");
            w.line("printf(\"FAIL " + set + a.name() + ": checksum %llu, expected " + Long.toUnsignedString(want)
                    + "\\n\", seed);");
            w.line("return 1;");
            w.close();
        }
    }

    /** The statement that folds output value {@code value} of type {@code t} into the checksum. */
    private static String hash(NumType t, String value) {
        return "hash(" + (t.isFloat() ? "fp_bits(" + value + ")" : value) + ");";
    }

    private static boolean hasFloatOutputs(Program p) {
        return p.outputs().stream().anyMatch(v -> v.base().isFloat()) || p.outputArrays().stream().anyMatch(a -> a.base().isFloat());
    }

    private static NumType litType(NumType t) {
        return t.rank < NumType.INT.rank ? NumType.INT : t;
    }

    /** The element of {@code a} at the driver's loop indices i0, i1, ... */
    private static String element(ArrayVar a) {
        List<String> is = new ArrayList<>();
        for (int d = 0; d < a.rank(); d++) is.add("i" + d);
        return ExprPrinter.elementText(a, is);
    }

    /** Nested loops over every element of {@code a}, row-major, around {@code body}. */
    private void walk(CodeWriter w, ArrayVar a, String body) {
        for (int d = 0; d < a.rank(); d++) {
            w.open("for (int i" + d + " = 0; i" + d + " < " + a.dims().get(d) + "; ++i" + d + ")");
        }
        w.line(body);
        for (int d = 0; d < a.rank(); d++) w.close();
    }

    /** The element of {@code a} at row-major offset {@code offset}, with constant subscripts. */
    private static String elementAt(ArrayVar a, long offset) {
        List<String> at = new ArrayList<>();
        long rest = offset;
        for (int d = a.rank() - 1; d >= 0; d--) {
            at.add(0, Long.toString(rest % a.dims().get(d)));
            rest /= a.dims().get(d);
        }
        return ExprPrinter.elementText(a, at);
    }

    private void fillLoop(CodeWriter w, ArrayVar a) {
        fillLoop(w, a, a.fill());
    }

    private void fillLoop(CodeWriter w, ArrayVar a, ArrayVar.Fill f) {
        NumType lt = litType(a.base());
        String value;
        if (f.varies()) {
            // base + (k * mul + add) % span, k the row-major offset, computed in long long (the
            // base an integer, in a floating array too).
            StringBuilder k = new StringBuilder("(long long)i0");
            for (int d = 1; d < a.rank(); d++) k = new StringBuilder("(" + k + " * " + a.dims().get(d) + " + i" + d + ")");
            value = "(" + type(a.base()) + ")(" + literal(NumType.LLONG, f.even()) + " + (" + k + " * " + f.mul() + " + "
                    + f.add() + ") % " + f.span() + ")";
        } else if (f.alternating()) {
            value = "(i" + f.axis() + " % 2 == 0) ? " + literal(lt, f.even()) + " : " + literal(lt, f.odd());
        } else {
            value = literal(lt, f.even());
        }
        walk(w, a, element(a) + " = " + value + ";");
        if (f.planted() && f.plantAt() < a.elements()) w.line(elementAt(a, f.plantAt()) + " = " + literal(lt, f.plant()) + ";");
    }
}
