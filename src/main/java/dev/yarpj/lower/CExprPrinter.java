package dev.yarpj.lower;

import dev.yarpj.ir.IntType;

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
}
