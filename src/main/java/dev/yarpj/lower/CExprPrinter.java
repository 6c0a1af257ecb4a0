package dev.yarpj.lower;

import dev.yarpj.ir.Helper;
import dev.yarpj.ir.IntType;
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
    String type(IntType t) {
        return CFamilyLowerer.cType(t, fixedWidth64);
    }

    @Override
    String literal(IntType t, long v) {
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

    /**
     * The definitions of {@code helpers}, callees first, each on one line: its linkage and
     * attributes, then {@code { return body; }}.
     *
     * @param simdClones whether a helper marked for SIMD clones asks for them (not in SYCL
     *                   device code, which has no such attribute)
     */
    String helperDefinitions(List<Helper> helpers, boolean simdClones) {
        StringBuilder sb = new StringBuilder();
        boolean clones = simdClones && helpers.stream().anyMatch(Helper::simd);
        if (clones) sb.append(SIMD_MACRO);
        for (Helper h : helpers) {
            if (clones && h.simd()) sb.append("#pragma omp declare simd\n");
            sb.append(switch (h.linkage()) {
                case STATIC -> "static ";
                case INLINE -> "static inline ";
                case NOINLINE -> "static __attribute__((noinline)) ";
                case ALWAYS_INLINE -> "static inline __attribute__((always_inline)) ";
            });
            if (clones && h.simd()) sb.append("YARPJ_SIMD ");
            if (h.pure()) sb.append("__attribute__((const)) ");
            List<String> ps = new ArrayList<>();
            for (ScalarVar v : h.params()) ps.add(type(v.base()) + " " + v.name());
            sb.append(type(h.result())).append(' ').append(h.name()).append('(').append(ps.isEmpty() ? "void" : String.join(", ", ps))
                    .append(") { return ").append(expr(h.body())).append("; }\n");
        }
        return sb.toString();
    }
}
