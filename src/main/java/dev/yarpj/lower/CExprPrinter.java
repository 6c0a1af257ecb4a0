package dev.yarpj.lower;

import dev.yarpj.ir.Helper;
import dev.yarpj.ir.NumType;
import dev.yarpj.ir.ScalarVar;
import java.util.ArrayList;
import java.util.List;

/**
 * Expressions as C and C++ (and C++ in SYCL kernels) spell them: C's type names and
 * literals, and the conversions C applies silently printed as nothing. A language adds its
 * min and max, and may reach variables its own way.
 */
abstract class CExprPrinter extends ExprPrinter {
    /** Whether 64-bit types are spelt as in stdint.h (the C++ half of an ISPC test). */
    private final boolean fixedWidth64;

    CExprPrinter(boolean fixedWidth64) {
        this.fixedWidth64 = fixedWidth64;
    }

    @Override
    String type(NumType t) {
        return CFamilyLowerer.cType(t, fixedWidth64);
    }

    @Override
    String literal(NumType t, long v) {
        return cLiteral(t, v);
    }

    @Override
    boolean printsImplicitCasts() {
        return false;
    }

    /**
     * GCC makes SIMD clones of a function with {@code __attribute__((simd))}, so that a loop
     * calling it out of line can still be vectorized; clang does not know the attribute (it
     * warns), so it is spelt through a macro. {@code #pragma omp declare simd} asks both for
     * the clones when the testbed passes {@code -fopenmp-simd}.
     */
    static final String SIMD_MACRO = "#ifdef __clang__\n#define YARPJ_SIMD\n#else\n#define YARPJ_SIMD __attribute__((simd))\n#endif\n";

    /** Where the helpers of a program go, for a lowering with one file of test code or two. */
    enum HelperFile {
        /** Every helper in the one file, extern ones out of line there (ISPC's C++ twin, SYCL). */
        ONLY,
        /** The file of test(): every helper but the extern ones, which it declares. */
        TEST,
        /** The second file (helpers.c): the extern helpers' definitions alone. */
        SECOND
    }

    /**
     * The definitions of {@code helpers}, callees first, each on one line: its linkage and
     * attributes, then {@code { return body; }}; or for an extern helper in the file of
     * test(), its declaration with the same attributes (they tell the caller that the
     * helper is const and has SIMD clones, which the definition makes).
     *
     * @param simdClones whether a helper marked for SIMD clones asks for them (not in SYCL
     *                   device code, which has no such attribute)
     */
    String helperDefinitions(List<Helper> helpers, boolean simdClones, HelperFile file) {
        // The second file holds the extern helpers alone; the file of test() only declares them.
        List<Helper> printed = file == HelperFile.SECOND ? helpers.stream().filter(h -> h.linkage() == Helper.Linkage.EXTERN).toList() : helpers;
        StringBuilder sb = new StringBuilder();
        boolean clones = simdClones && printed.stream().anyMatch(Helper::simd);
        if (clones) sb.append(SIMD_MACRO);
        for (Helper h : printed) {
            boolean define = file != HelperFile.TEST || h.linkage() != Helper.Linkage.EXTERN;
            if (clones && h.simd()) sb.append("#pragma omp declare simd\n");
            sb.append(switch (h.linkage()) {
                case STATIC -> "static ";
                case INLINE -> "static inline ";
                case NOINLINE -> "static __attribute__((noinline)) ";
                case ALWAYS_INLINE -> "static inline __attribute__((always_inline)) ";
                case EXTERN -> file == HelperFile.ONLY ? "static __attribute__((noinline)) " : "";
            });
            if (clones && h.simd()) sb.append("YARPJ_SIMD ");
            // A helper that reads through a pointer is pure, not const: it reads memory (input arrays, never written).
            if (h.pure()) sb.append(h.readsMemory() ? "__attribute__((pure)) " : "__attribute__((const)) ");
            List<String> ps = new ArrayList<>();
            for (ScalarVar v : h.params()) {
                if (v.isField()) {
                    // A struct parameter stands for its fields, which the body reads as r.f or r->f.
                    Helper.StructParam g = h.structStartingAt(v);
                    if (g != null) ps.add(g.byPointer() ? "const struct " + g.type() + " *" + g.name() : "struct " + g.type() + " " + g.name());
                } else {
                    ps.add(v.byPointer() ? "const " + type(v.base()) + " *" + v.name() : type(v.base()) + " " + v.name());
                    if (v.indexed()) ps.add("int " + v.indexName());
                }
            }
            if (h.returnsStruct()) {
                sb.append("struct ").append(h.resultStruct());
            } else {
                sb.append(type(h.result(0)));
            }
            sb.append(' ').append(h.name()).append('(').append(ps.isEmpty() ? "void" : String.join(", ", ps)).append(')');
            sb.append(define ? " { " + returnStatement(h) + " }\n" : ";\n");
        }
        return sb.toString();
    }

    /**
     * The declaration of the struct {@code h} returns, on one line: in init.h, which the file of
     * test(), the second file and SYCL's kernels all include (once each, so a merged file for
     * C-Vise declares it once).
     */
    String resultStruct(Helper h) {
        return "struct " + h.resultStruct() + " " + resultFields(h) + ";\n";
    }

    /** {@code return body;}, or for a struct its fields assigned and the struct returned ({@link #structReturn}). */
    private String returnStatement(Helper h) {
        return h.returnsStruct() ? structReturn(h, "struct " + h.resultStruct()) : "return " + expr(h.results().get(0)) + ";";
    }
}
