package dev.yarpj.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test: {@link Arith}'s C integer semantics against what gcc (and clang, when
 * present) actually compute. Random non-UB cases are emitted into one C file whose operands
 * are {@code volatile} variables of the exact C types, so the compiler applies its own
 * promotions and conversions and cannot fold anything; each case prints its result cast to
 * {@code unsigned long long}, which is exactly the bit pattern of the canonical long.
 *
 * <p>Arith's UB verdicts are checked against UndefinedBehaviorSanitizer in both directions,
 * with each compiler:
 * <ul>
 *   <li>the safe cases are also built with {@code -fsanitize=undefined
 *       -fno-sanitize-recover=all}: the binary must exit 0 without any report and print the
 *       same values (a report means Arith called something safe that is UB);
 *   <li>the cases Arith calls UB go into a second program, one case per source line in its own
 *       function, built with recoverable UBSan; every case's line must get a
 *       {@code runtime error} report of the kind Arith names. Each case runs in a forked child,
 *       because after reporting a division by zero or {@code INT_MIN / -1} the child goes on to
 *       execute the division and dies of SIGFPE; the parent just moves on to the next case.
 * </ul>
 * Both sanitizers diagnose every category Arith knows (including the C rule that a left shift
 * into or past the sign bit is UB), each with one narrow blind spot, which is then checked
 * with the other compiler only (gcc is required, so gcc-checked cases are always checked):
 * <ul>
 *   <li>gcc (12): when both operands of {@code /} or {@code %} are {@code bool}, gcc performs
 *       the operation in {@code _Bool} and its division check skips that type, so
 *       {@code (bool)0 % (bool)0} goes unreported (and then dies of SIGFPE). It is UB all the
 *       same (both operands promote to int): checked with clang only.
 *   <li>clang (14): for {@code >>} only, the shift exponent check compares the amount after
 *       truncating it to the (promoted) left operand's width, so {@code 1 >> 4294967301LL}
 *       (low 32 bits 5) goes unreported, while gcc, and clang itself for {@code <<}, report it
 *       (llvm/llvm-project#64849). Right shifts of a 32-bit promoted left operand by a 64-bit
 *       amount that is out of range but whose low 32 bits are in [0, 32) are checked with gcc
 *       only.
 * </ul>
 * Every other UB case is checked with both compilers.
 */
class ArithAgreesWithGccTest {

    private static final long SEED = 0x5EED_A217_C0DEL;
    private static final int BINARY_CASES = 4000;
    private static final int UNARY_CASES = 600;
    private static final int CONVERSION_CASES = 600;
    private static final int MINMAX_CASES = 400;
    private static final int MIN_COMPARED = 2000;
    private static final long TIMEOUT_SECONDS = 120;
    /** The random draw yields about 300 UB cases; fewer would make the UB check weak. */
    private static final int MIN_UB_CASES = 150;

    /** The UB checks UBSan must perform; all are in -fsanitize=undefined, named for certainty. */
    private static final List<String> UBSAN_FLAGS = List.of(
            "-fsanitize=undefined", "-fsanitize=signed-integer-overflow,shift,integer-divide-by-zero");
    /**
     * No stack traces, no symbolizer (reports carry their file:line:col anyway), and a SIGFPE
     * after a division report just kills the child, without UBSan's slow deadly-signal report.
     */
    private static final String UBSAN_OPTIONS = "print_stacktrace=0:symbolize=0:handle_sigfpe=0";
    private static final Pattern UBSAN_REPORT =
            Pattern.compile("^(.*?\\.c):(\\d+):(\\d+): runtime error: (.*)$");

    private static final String SAFE_HEADER = "#include <stdbool.h>\n#include <stdio.h>\n\nint main(void) {\n";
    private static final String UB_HEADER = "#define _POSIX_C_SOURCE 200809L\n"
            + "#include <stdbool.h>\n#include <stdio.h>\n#include <sys/types.h>\n"
            + "#include <sys/wait.h>\n#include <unistd.h>\n\n"
            + "volatile unsigned long long sink;\n";

    /** The integer types (floating point has its own rule, FloatArith). */
    private static final NumType[] TYPES = java.util.Arrays.stream(NumType.values()).filter(t -> !t.isFloat()).toArray(NumType[]::new);

    /** One compiled case: a C block printing one line, and what Arith predicts it prints. */
    private record Case(String description, String cBlock, long expected) {}

    /**
     * A case Arith calls UB: C statements performing it (the result goes to sink), the kind,
     * and the compiler ("gcc" or "clang") whose UBSan is known not to diagnose it, or null
     * (see the class comment).
     */
    private record UbCase(String description, String cBody, UbKind kind, String blindCompiler) {}

    @TempDir
    Path dir;

    @Test
    void arithmeticAgreesWithRealCompilers() throws Exception {
        Path gcc = onPath("gcc");
        if (gcc == null) {
            fail("gcc is not on PATH; the project requires gcc");
        }
        Path clang = onPath("clang");

        SplittableRandom rnd = new SplittableRandom(SEED);
        List<Case> cases = new ArrayList<>();
        List<UbCase> ubCases = new ArrayList<>();
        Set<BinOp> binOpsSeen = EnumSet.noneOf(BinOp.class);
        Set<UnOp> unOpsSeen = EnumSet.noneOf(UnOp.class);
        int skippedUb = 0;

        BinOp[] binOps = BinOp.values();
        for (int i = 0; i < BINARY_CASES; i++) {
            BinOp op = binOps[rnd.nextInt(binOps.length)];
            NumType lt = pick(rnd);
            NumType rt = pick(rnd);
            long a = op.isShift() ? shiftLhs(rnd, lt) : value(rnd, lt);
            long b = op.isShift() ? shiftAmount(rnd, rt) : value(rnd, rt);
            Case c = binaryCase(op, lt, a, rt, b, ubCases);
            if (c == null) {
                skippedUb++;
                continue;
            }
            binOpsSeen.add(op);
            cases.add(c);
        }

        UnOp[] unOps = UnOp.values();
        for (int i = 0; i < UNARY_CASES; i++) {
            UnOp op = unOps[rnd.nextInt(unOps.length)];
            NumType t = pick(rnd);
            long a = value(rnd, t);
            Case c = unaryCase(op, t, a, ubCases);
            if (c == null) {
                skippedUb++;
                continue;
            }
            unOpsSeen.add(op);
            cases.add(c);
        }

        for (int i = 0; i < CONVERSION_CASES; i++) {
            NumType from = pick(rnd);
            NumType to = pick(rnd);
            long a = value(rnd, from);
            cases.add(new Case(
                    "(" + cName(to) + ") " + describe(from, a),
                    decl(from, "a", a) + " printf(\"%llu\\n\", (unsigned long long)(" + cName(to) + ")a);",
                    Arith.convert(a, to)));
        }

        Set<Builtin> builtinsSeen = EnumSet.noneOf(Builtin.class);
        Builtin[] builtins = {Builtin.MIN, Builtin.MAX}; // the integer ones; FloatArithTest has the math library's
        for (int i = 0; i < MINMAX_CASES; i++) {
            Builtin fn = builtins[rnd.nextInt(builtins.length)];
            NumType at = pick(rnd);
            NumType bt = rnd.nextInt(3) == 0 ? at : pick(rnd);
            long a = value(rnd, at);
            long b = rnd.nextInt(8) == 0 ? Arith.convert(a, bt) : value(rnd, bt);
            NumType t = Arith.common(at, bt);
            long expected = Arith.builtin(fn, t, Arith.convert(a, t), Arith.convert(b, t));
            String cmp = fn == Builtin.MIN ? "<" : ">";
            builtinsSeen.add(fn);
            cases.add(new Case(
                    fn + "(" + describe(at, a) + ", " + describe(bt, b) + ") in " + t,
                    decl(at, "a", a) + " " + decl(bt, "b", b)
                            + " printf(\"%llu\\n\", (unsigned long long)(a " + cmp + " b ? a : b));",
                    expected));
        }

        // Not vacuous: enough cases, and every operator was actually compared.
        assertTrue(cases.size() >= MIN_COMPARED,
                "only " + cases.size() + " cases compared (" + skippedUb + " skipped as UB)");
        assertEquals(EnumSet.allOf(BinOp.class), binOpsSeen, "binary operators exercised without UB");
        assertEquals(EnumSet.allOf(UnOp.class), unOpsSeen, "unary operators exercised without UB");
        assertEquals(EnumSet.of(Builtin.MIN, Builtin.MAX), builtinsSeen, "builtins exercised");
        assertEquals(skippedUb, ubCases.size(), "every skipped case is kept as a UB case");

        // Hand-picked cases on both sides of every UB boundary, added after the random ones (so
        // the random draw and the checks above are unchanged); Arith sorts them like the others.
        addEdgeCases(cases, ubCases);
        assertTrue(ubCases.size() >= MIN_UB_CASES, "only " + ubCases.size() + " UB cases");
        Set<UbKind> ubKindsSeen = EnumSet.noneOf(UbKind.class);
        for (UbCase u : ubCases) ubKindsSeen.add(u.kind());
        // Every integer kind (the floating-point ones are FloatArith's, FloatArithTest's).
        assertEquals(EnumSet.complementOf(EnumSet.of(UbKind.FLOAT_CAST_OVERFLOW, UbKind.FP_INEXACT, UbKind.FP_DIVISOR)), ubKindsSeen,
                "UB kinds exercised");

        List<Path> compilers = new ArrayList<>();
        compilers.add(gcc);
        if (clang != null) compilers.add(clang);
        System.out.println("ArithAgreesWithGccTest: " + cases.size() + " cases compared ("
                + (cases.size() - (BINARY_CASES + UNARY_CASES + CONVERSION_CASES + MINMAX_CASES - skippedUb))
                + " of them hand-picked), " + ubCases.size() + " UB cases checked against UBSan ("
                + skippedUb + " random, " + (ubCases.size() - skippedUb) + " hand-picked), compilers: "
                + String.join(", ", compilers.stream().map(c -> c.getFileName().toString()).toList()));

        Path source = dir.resolve("arith_cases.c");
        Files.writeString(source, cSource(cases), StandardCharsets.UTF_8);
        Path ubSource = dir.resolve("ub_cases.c");
        Files.writeString(ubSource, ubSource(ubCases), StandardCharsets.UTF_8);

        // All builds first, concurrently (they dominate the runtime), then the checks in order.
        long buildStart = System.nanoTime();
        List<Build> builds = new ArrayList<>();
        for (Path cc : compilers) {
            String name = cc.getFileName().toString();
            builds.add(startCompile(cc, List.of(), source, exe(name, "plain")));
            builds.add(startCompile(cc, concat(UBSAN_FLAGS, List.of("-fno-sanitize-recover=all")),
                    source, exe(name, "ubsan")));
            builds.add(startCompile(cc, UBSAN_FLAGS, ubSource, exe(name, "ub")));
        }
        try {
            for (Build b : builds) {
                await(b);
            }
        } finally {
            for (Build b : builds) {
                b.process().destroyForcibly(); // only ours, and only if a failure left one running
            }
        }
        long runStart = System.nanoTime();

        for (Path cc : compilers) {
            checkCompiler(cc, cases);
            checkSanitizedSafeCases(cc, cases);
            checkUbCases(cc, ubCases);
        }
        System.out.printf("ArithAgreesWithGccTest: builds %.1f s, runs and checks %.1f s%n",
                (runStart - buildStart) / 1e9, (System.nanoTime() - runStart) / 1e9);
    }

    // ---------------------------------------------------------------- cases

    /**
     * The case {@code a op b} with a, b of types lt, rt (canonical); null if Arith calls it UB,
     * in which case it is added to {@code ubCases} instead.
     */
    private static Case binaryCase(BinOp op, NumType lt, long a, NumType rt, long b, List<UbCase> ubCases) {
        NumType lo = Arith.operandType(op, lt, rt, true);
        NumType ro = Arith.operandType(op, lt, rt, false);
        long ca = Arith.convert(a, lo);
        long cb = Arith.convert(b, ro);
        UbKind ub = Arith.binaryUb(op, lo, ca, ro, cb);
        if (ub != null) {
            ubCases.add(new UbCase(
                    describe(lt, a) + " " + op.symbol + " " + describe(rt, b)
                            + " [operands " + lo + "/" + ro + "]",
                    decl(lt, "a", a) + " " + decl(rt, "b", b)
                            + " sink = (unsigned long long)(a " + op.symbol + " b);",
                    ub,
                    ubsanBlindCompiler(op, lt, rt, lo, ro, cb, ub)));
            return null;
        }
        long expected = Arith.binary(op, lo, ca, ro, cb);
        NumType result = Arith.resultType(op, lt, rt);
        assertEquals(Arith.convert(expected, result), expected,
                () -> "Arith.binary result not canonical in " + result + " for "
                        + describe(lt, a) + " " + op.symbol + " " + describe(rt, b));
        return new Case(
                describe(lt, a) + " " + op.symbol + " " + describe(rt, b)
                        + " [operands " + lo + "/" + ro + ", result " + result + "]",
                decl(lt, "a", a) + " " + decl(rt, "b", b)
                        + " printf(\"%llu\\n\", (unsigned long long)(a " + op.symbol + " b));",
                expected);
    }

    /**
     * The case {@code op a} with a of type t (canonical); null if Arith calls it UB, in which
     * case it is added to {@code ubCases} instead.
     */
    private static Case unaryCase(UnOp op, NumType t, long a, List<UbCase> ubCases) {
        NumType p = Arith.promote(t);
        long ca = Arith.convert(a, p);
        UbKind ub = Arith.unaryUb(op, p, ca);
        if (ub != null) {
            ubCases.add(new UbCase(
                    op.symbol + " " + describe(t, a) + " [promoted " + p + "]",
                    decl(t, "a", a) + " sink = (unsigned long long)(" + op.symbol + " a);",
                    ub,
                    null));
            return null;
        }
        long expected = Arith.unary(op, p, ca);
        NumType result = Arith.resultType(op, t);
        assertEquals(Arith.convert(expected, result), expected,
                () -> "Arith.unary result not canonical in " + result + " for "
                        + op.symbol + describe(t, a));
        return new Case(
                op.symbol + " " + describe(t, a) + " [promoted " + p + ", result " + result + "]",
                decl(t, "a", a) + " printf(\"%llu\\n\", (unsigned long long)(" + op.symbol + " a));",
                expected);
    }

    /** The compiler whose UBSan misses this UB case, or null; see the class comment. */
    private static String ubsanBlindCompiler(
            BinOp op, NumType lt, NumType rt, NumType lo, NumType ro, long cb, UbKind ub) {
        if ((op == BinOp.DIV || op == BinOp.REM) && lt == NumType.BOOL && rt == NumType.BOOL) {
            return "gcc";
        }
        if (op == BinOp.SHR && ub == UbKind.SHIFT_AMOUNT && lo.bits == 32 && ro.bits == 64
                && Long.compareUnsigned(cb & 0xFFFF_FFFFL, 32) < 0) {
            return "clang";
        }
        return null;
    }

    /**
     * Hand-picked operands just inside and just outside each UB rule (every kind, promoted
     * narrow types, mixed signedness, shift amounts of other types), whatever the random draw
     * produced. They are not labelled safe or UB here: Arith decides, and the sanitizer checks
     * hold it to account either way.
     */
    private static void addEdgeCases(List<Case> cases, List<UbCase> ubCases) {
        final long imax = Integer.MAX_VALUE;
        final long imin = Integer.MIN_VALUE;
        final long lmax = Long.MAX_VALUE;
        final long lmin = Long.MIN_VALUE;
        final NumType I = NumType.INT, U = NumType.UINT, L = NumType.LLONG, UL = NumType.ULLONG;
        final NumType SC = NumType.SCHAR, UC = NumType.UCHAR, S = NumType.SHORT, US = NumType.USHORT;
        final NumType B = NumType.BOOL;
        Object[][] binary = {
            // + - *: signed overflow in int (also via promotion) and long long, or not
            {BinOp.ADD, I, imax, I, 0L}, {BinOp.ADD, I, imax, I, 1L}, {BinOp.ADD, I, imin, I, -1L},
            {BinOp.ADD, S, 32767L, S, 1L}, {BinOp.ADD, U, 0xFFFF_FFFFL, I, 1L},
            {BinOp.ADD, L, lmax, B, 1L}, {BinOp.ADD, L, lmax, I, -1L},
            {BinOp.SUB, I, imin, I, 1L}, {BinOp.SUB, I, -1L, I, imax}, {BinOp.SUB, L, 0L, L, lmin},
            {BinOp.SUB, L, -1L, L, lmax}, {BinOp.SUB, L, lmin, UC, 1L}, {BinOp.SUB, U, 0L, I, imin},
            {BinOp.MUL, I, 65536L, I, 32768L}, {BinOp.MUL, I, -65536L, I, 32768L},
            {BinOp.MUL, I, imin, I, -1L}, {BinOp.MUL, L, lmin, L, -1L},
            {BinOp.MUL, L, 1L << 32, L, 1L << 31}, {BinOp.MUL, L, -(1L << 32), L, 1L << 31},
            {BinOp.MUL, L, 3037000499L, L, 3037000499L}, {BinOp.MUL, L, 3037000500L, L, 3037000500L},
            {BinOp.MUL, US, 65535L, US, 65535L}, {BinOp.MUL, UC, 255L, UC, 255L},
            {BinOp.MUL, UL, -1L, L, -1L},
            // / %: by zero (any type), and the one overflowing quotient
            {BinOp.DIV, I, imin, I, -1L}, {BinOp.REM, I, imin, I, -1L},
            {BinOp.DIV, L, lmin, L, -1L}, {BinOp.REM, L, lmin, SC, -1L},
            {BinOp.DIV, S, -32768L, S, -1L}, {BinOp.REM, S, -32768L, S, -1L},
            {BinOp.DIV, I, imin, L, -1L}, {BinOp.DIV, U, 0x8000_0000L, I, -1L},
            {BinOp.REM, UL, lmin, L, -1L}, {BinOp.DIV, I, imin, I, 1L},
            {BinOp.DIV, I, 1L, B, 0L}, {BinOp.REM, UL, -1L, UC, 0L}, {BinOp.DIV, U, 7L, U, 0L},
            {BinOp.REM, I, 0L, I, 0L}, {BinOp.DIV, SC, -128L, S, 0L},
            {BinOp.DIV, B, 1L, B, 0L}, {BinOp.REM, B, 0L, B, 0L}, {BinOp.DIV, B, 1L, B, 1L},
            // <<: amount, negative left operand, result not representable (the C rule)
            {BinOp.SHL, I, 1L, I, 30L}, {BinOp.SHL, I, 1L, I, 31L}, {BinOp.SHL, I, 0L, I, 31L},
            {BinOp.SHL, I, 0x3FFF_FFFFL, I, 1L}, {BinOp.SHL, I, 0x4000_0000L, I, 1L},
            {BinOp.SHL, I, 0L, I, 32L}, {BinOp.SHL, I, 1L, L, 32L}, {BinOp.SHL, I, 1L, UL, -1L},
            {BinOp.SHL, I, 1L, I, -1L}, {BinOp.SHL, I, -1L, I, 0L}, {BinOp.SHL, I, -1L, I, 40L},
            {BinOp.SHL, SC, -1L, I, 1L}, {BinOp.SHL, SC, 1L, I, 31L},
            {BinOp.SHL, UC, 255L, I, 23L}, {BinOp.SHL, UC, 255L, I, 24L}, {BinOp.SHL, B, 1L, I, 31L},
            {BinOp.SHL, US, 65535L, I, 15L}, {BinOp.SHL, US, 65535L, I, 16L},
            {BinOp.SHL, U, 0xFFFF_FFFFL, I, 31L}, {BinOp.SHL, U, 1L, I, 32L},
            {BinOp.SHL, L, 1L, I, 62L}, {BinOp.SHL, L, 1L, I, 63L}, {BinOp.SHL, L, 0L, I, 63L},
            {BinOp.SHL, L, 1L, U, 64L}, {BinOp.SHL, L, -1L, I, 1L}, {BinOp.SHL, L, lmax >> 1, SC, 1L},
            {BinOp.SHL, L, (lmax >> 1) + 1, SC, 1L},
            {BinOp.SHL, UL, -1L, I, 63L}, {BinOp.SHL, UL, 1L, L, 64L},
            // >>: only the amount matters
            {BinOp.SHR, I, -1L, I, 31L}, {BinOp.SHR, I, -1L, I, 32L}, {BinOp.SHR, I, 1L, I, -1L},
            {BinOp.SHR, SC, -128L, I, 31L}, {BinOp.SHR, S, 1L, L, 32L}, {BinOp.SHR, L, lmin, I, 63L},
            {BinOp.SHR, L, lmin, I, 64L}, {BinOp.SHR, UL, -1L, UL, 63L}, {BinOp.SHR, UL, -1L, UL, 64L},
            {BinOp.SHR, UC, 1L, UL, lmin}, {BinOp.SHR, I, 1L, L, 4294967301L},
            {BinOp.SHR, U, 1L, L, -4294967296L}, {BinOp.SHR, I, 1L, L, 4294967336L},
        };
        for (Object[] e : binary) {
            Case c = binaryCase((BinOp) e[0], (NumType) e[1], (Long) e[2], (NumType) e[3], (Long) e[4], ubCases);
            if (c != null) cases.add(c);
        }
        Object[][] unary = {
            {UnOp.NEG, I, imin}, {UnOp.NEG, L, lmin}, {UnOp.NEG, I, imin + 1}, {UnOp.NEG, L, lmin + 1},
            {UnOp.NEG, SC, -128L}, {UnOp.NEG, S, -32768L}, {UnOp.NEG, U, 0x8000_0000L},
            {UnOp.NEG, UL, lmin}, {UnOp.BNOT, I, imin}, {UnOp.BNOT, L, lmax},
        };
        for (Object[] e : unary) {
            Case c = unaryCase((UnOp) e[0], (NumType) e[1], (Long) e[2], ubCases);
            if (c != null) cases.add(c);
        }
    }

    // ---------------------------------------------------------------- values

    private static NumType pick(SplittableRandom rnd) {
        return TYPES[rnd.nextInt(TYPES.length)];
    }

    /** A random canonical value of {@code t}, biased towards edge cases. */
    private static long value(SplittableRandom rnd, NumType t) {
        long v;
        switch (rnd.nextInt(10)) {
            case 0: v = 0; break;
            case 1: v = 1; break;
            case 2: v = -1; break;
            case 3: v = t.min(); break;
            case 4: v = t.max(); break;
            case 5: { // a power of two, or one off it
                long p = 1L << rnd.nextInt(t.bits);
                v = p + rnd.nextInt(3) - 1;
                break;
            }
            case 6: // near min / max
                v = rnd.nextBoolean() ? t.min() + rnd.nextInt(3) : t.max() - rnd.nextInt(3);
                break;
            case 7:
            case 8: v = rnd.nextInt(-20, 21); break;
            default: v = rnd.nextLong(); break;
        }
        return Arith.convert(v, t);
    }

    /** Shift left operands: mostly small non-negatives so that left shifts are not all UB. */
    private static long shiftLhs(SplittableRandom rnd, NumType t) {
        return switch (rnd.nextInt(3)) {
            case 0 -> Arith.convert(rnd.nextInt(0, 1000), t);
            case 1 -> Arith.convert(rnd.nextLong() >>> rnd.nextInt(64), t);
            default -> value(rnd, t);
        };
    }

    /** Shift amounts: mostly within [0, 64), sometimes anything. */
    private static long shiftAmount(SplittableRandom rnd, NumType t) {
        return rnd.nextInt(5) == 0 ? value(rnd, t) : Arith.convert(rnd.nextInt(0, 64), t);
    }

    // ---------------------------------------------------------------- C text

    private static String cName(NumType t) {
        return switch (t) {
            case BOOL -> "bool";
            case SCHAR -> "signed char";
            case UCHAR -> "unsigned char";
            case SHORT -> "short";
            case USHORT -> "unsigned short";
            case INT -> "int";
            case UINT -> "unsigned int";
            case LLONG -> "long long";
            case ULLONG -> "unsigned long long";
            case HALF, FLOAT, DOUBLE -> throw new IllegalArgumentException(t + ": integer types only");
        };
    }

    /** A C literal whose value is the canonical value {@code v} of type {@code t}. */
    private static String literal(NumType t, long v) {
        return switch (t) {
            case ULLONG -> Long.toUnsignedString(v) + "ULL";
            case LLONG -> v == Long.MIN_VALUE ? "(-9223372036854775807LL-1)" : v + "LL";
            case INT -> v == Integer.MIN_VALUE ? "(-2147483647-1)" : Long.toString(v);
            case UINT -> v + "U";
            default -> Long.toString(v);
        };
    }

    private static String decl(NumType t, String name, long v) {
        return "volatile " + cName(t) + " " + name + " = " + literal(t, v) + ";";
    }

    private static String describe(NumType t, long v) {
        return "(" + cName(t) + ")" + (t == NumType.ULLONG ? Long.toUnsignedString(v) : Long.toString(v));
    }

    private static String cSource(List<Case> cases) {
        StringBuilder sb = new StringBuilder(cases.size() * 120);
        sb.append(SAFE_HEADER);
        for (Case c : cases) {
            sb.append("  { ").append(c.cBlock()).append(" }\n");
        }
        sb.append("  return 0;\n}\n");
        return sb.toString();
    }

    /** The 1-based source line of safe case {@code i} in {@link #cSource}. */
    private static int safeCaseLine(int i) {
        return (int) SAFE_HEADER.lines().count() + 1 + i;
    }

    /**
     * The UB cases, each alone on one line in its own function (so a report's line names its
     * case), then a main that runs each one in a forked child and prints how many it ran.
     */
    private static String ubSource(List<UbCase> ubCases) {
        StringBuilder sb = new StringBuilder(ubCases.size() * 160);
        sb.append(UB_HEADER);
        for (int i = 0; i < ubCases.size(); i++) {
            sb.append("static void ub").append(i).append("(void) { ").append(ubCases.get(i).cBody()).append(" }\n");
        }
        sb.append("\nstatic void (*const ub_cases[])(void) = {\n");
        for (int i = 0; i < ubCases.size(); i++) {
            sb.append("  ub").append(i).append(",\n");
        }
        sb.append("};\n\n");
        sb.append("""
                int main(void) {
                  unsigned n = sizeof ub_cases / sizeof ub_cases[0];
                  for (unsigned i = 0; i < n; i++) {
                    fflush(stdout);
                    fflush(stderr);
                    pid_t pid = fork();
                    if (pid < 0) { perror("fork"); return 2; }
                    if (pid == 0) { ub_cases[i](); _exit(0); }
                    int status;
                    if (waitpid(pid, &status, 0) != pid) { perror("waitpid"); return 2; }
                  }
                  printf("ran %u\\n", n);
                  return 0;
                }
                """);
        return sb.toString();
    }

    /** The 1-based source line of UB case {@code i} in {@link #ubSource}. */
    private static int ubCaseLine(int i) {
        return (int) UB_HEADER.lines().count() + 1 + i;
    }

    // ---------------------------------------------------------------- running

    private Path exe(String compilerName, String variant) {
        return dir.resolve("arith_cases_" + compilerName + "_" + variant);
    }

    /** Plain build (built by the caller): every safe case prints the value Arith predicts. */
    private void checkCompiler(Path compiler, List<Case> cases) throws Exception {
        String name = compiler.getFileName().toString();
        Path out = dir.resolve(name + ".run.out");
        run(List.of(exe(name, "plain").toString()), out, name + " binary");
        compareOutputs(name, out, cases);
    }

    /**
     * The safe cases built with {@code -fsanitize=undefined -fno-sanitize-recover=all}: any
     * report means Arith called a UB operation safe; otherwise the values must agree as well.
     */
    private void checkSanitizedSafeCases(Path compiler, List<Case> cases) throws Exception {
        String name = compiler.getFileName().toString() + " -fsanitize=undefined";
        Path out = dir.resolve(compiler.getFileName() + ".ubsan.run.out");
        Path err = dir.resolve(compiler.getFileName() + ".ubsan.run.err");
        int exit = exec(List.of(exe(compiler.getFileName().toString(), "ubsan").toString()), out, err, name + " binary");
        String stderr = Files.readString(err, StandardCharsets.UTF_8);

        List<String> wrong = new ArrayList<>();
        for (String line : stderr.split("\n")) {
            Matcher m = UBSAN_REPORT.matcher(line.trim());
            if (!m.matches()) continue;
            int lineNo = Integer.parseInt(m.group(2));
            int i = lineNo - safeCaseLine(0);
            String what = i >= 0 && i < cases.size()
                    ? "#" + i + ": " + cases.get(i).description()
                    : "line " + lineNo + " (no case)";
            wrong.add("  " + what + "\n      " + compiler.getFileName() + ": " + m.group(4));
        }
        if (!wrong.isEmpty()) {
            fail(name + " reports UB in a case Arith calls safe:\n" + String.join("\n", wrong));
        }
        if (exit != 0 || !stderr.isBlank()) {
            fail(name + " binary exited with " + exit + " and stderr:\n" + head(stderr));
        }
        compareOutputs(name, out, cases);
        System.out.println("ArithAgreesWithGccTest: " + name + ": all " + cases.size()
                + " safe cases ran without a report and agree");
    }

    /**
     * The UB program built with recoverable UBSan: every case Arith calls UB must get a report
     * on its own line, of the kind Arith names.
     */
    private void checkUbCases(Path compiler, List<UbCase> ubCases) throws Exception {
        String cc = compiler.getFileName().toString();
        String name = cc + " -fsanitize=undefined (UB cases)";

        Path out = dir.resolve(cc + ".ub.run.out");
        Path err = dir.resolve(cc + ".ub.run.err");
        int exit = exec(List.of(exe(cc, "ub").toString()), out, err, name + " binary");
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        if (exit != 0 || !stdout.trim().equals("ran " + ubCases.size())) {
            fail(name + " binary exited with " + exit + ", stdout " + head(stdout)
                    + "\nstderr:\n" + head(stderr));
        }

        Map<Integer, List<String>> reports = new HashMap<>();
        Set<String> stray = new LinkedHashSet<>();
        for (String line : stderr.split("\n")) {
            Matcher m = UBSAN_REPORT.matcher(line.trim());
            if (!m.matches()) continue;
            int i = Integer.parseInt(m.group(2)) - ubCaseLine(0);
            if (m.group(1).endsWith("ub_cases.c") && i >= 0 && i < ubCases.size()) {
                reports.computeIfAbsent(i, k -> new ArrayList<>()).add(m.group(4));
            } else {
                stray.add(line.trim());
            }
        }
        if (!stray.isEmpty()) {
            fail(name + ": reports outside the case lines:\n  " + String.join("\n  ", stray));
        }

        List<String> unreported = new ArrayList<>();
        List<String> otherKind = new ArrayList<>();
        int unreportedCount = 0;
        int otherKindCount = 0;
        int checked = 0;
        for (int i = 0; i < ubCases.size(); i++) {
            UbCase u = ubCases.get(i);
            if (cc.equals(u.blindCompiler())) continue; // checked with the other compiler only
            checked++;
            List<String> got = reports.get(i);
            if (got == null) {
                if (unreportedCount++ < 10) {
                    unreported.add("  #" + i + ": " + u.description() + " -> Arith " + u.kind());
                }
            } else if (got.stream().noneMatch(msg -> reportedKind(msg) == u.kind())) {
                if (otherKindCount++ < 10) {
                    otherKind.add("  #" + i + ": " + u.description() + " -> Arith " + u.kind()
                            + ", " + cc + ": " + String.join(" | ", got));
                }
            }
        }
        if (unreportedCount > 0 || otherKindCount > 0) {
            StringBuilder msg = new StringBuilder(name + ": ");
            if (unreportedCount > 0) {
                msg.append(unreportedCount).append(" of ").append(checked)
                        .append(" cases Arith calls UB run without a sanitizer report; first ones:\n")
                        .append(String.join("\n", unreported)).append("\n");
            }
            if (otherKindCount > 0) {
                msg.append(otherKindCount).append(" of ").append(checked)
                        .append(" UB cases are reported as a different kind of UB; first ones:\n")
                        .append(String.join("\n", otherKind)).append("\n");
            }
            fail(msg.toString());
        }
        System.out.println("ArithAgreesWithGccTest: " + name + ": all " + checked
                + " UB cases reported with Arith's kind"
                + (checked < ubCases.size()
                        ? " (" + (ubCases.size() - checked) + " in its known blind spot left to the other compiler)"
                        : ""));
    }

    /** The UB kind a UBSan runtime-error message describes (the texts of the UBSan runtime). */
    private static UbKind reportedKind(String message) {
        if (message.startsWith("signed integer overflow") || message.startsWith("negation of")) {
            return UbKind.SIGNED_OVERFLOW;
        }
        if (message.startsWith("division by zero")) return UbKind.DIVISION_BY_ZERO;
        if (message.startsWith("division of")) return UbKind.DIVISION_OVERFLOW;
        if (message.startsWith("shift exponent")) return UbKind.SHIFT_AMOUNT;
        if (message.startsWith("left shift of negative value")) return UbKind.SHIFT_OF_NEGATIVE;
        if (message.startsWith("left shift of") && message.contains("cannot be represented")) {
            return UbKind.SHIFT_OVERFLOW;
        }
        return null;
    }

    private static void compareOutputs(String name, Path out, List<Case> cases) throws IOException {
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertEquals(cases.size(), lines.size(), name + ": number of output lines");
        List<String> mismatches = new ArrayList<>();
        int count = 0;
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            String want = Long.toUnsignedString(c.expected());
            String got = lines.get(i).trim();
            if (!want.equals(got)) {
                count++;
                if (mismatches.size() < 10) {
                    mismatches.add("  #" + i + ": " + c.description() + " -> Arith " + want
                            + " (" + c.expected() + "), " + name + " " + got);
                }
            }
        }
        if (count > 0) {
            fail(name + " disagrees with Arith on " + count + " of " + cases.size()
                    + " cases; first ones:\n" + String.join("\n", mismatches));
        }
    }

    /** A compiler run under way: the process, its command and where its output goes. */
    private record Build(Process process, List<String> command, Path output) {}

    private Build startCompile(Path compiler, List<String> extraFlags, Path source, Path exe)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(compiler.toString(), "-O0", "-w", "-std=c11"));
        command.addAll(extraFlags);
        command.addAll(List.of("-o", exe.toString(), source.toString()));
        Path output = dir.resolve(exe.getFileName() + ".compile.out");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        return new Build(p, command, output);
    }

    /** Waits for a build started by {@link #startCompile}; it must succeed. */
    private static void await(Build b) throws IOException, InterruptedException {
        if (!b.process().waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            b.process().destroyForcibly();
            fail("compile timed out after " + TIMEOUT_SECONDS + " s: " + b.command());
        }
        if (b.process().exitValue() != 0) {
            fail("compile failed with exit code " + b.process().exitValue() + ": " + b.command() + "\n"
                    + head(Files.readString(b.output(), StandardCharsets.UTF_8)));
        }
    }

    /** Runs a sanitized binary with stdout and stderr apart; returns its exit code. */
    private static int exec(List<String> command, Path out, Path err, String what)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("UBSAN_OPTIONS", UBSAN_OPTIONS);
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(what + " timed out after " + TIMEOUT_SECONDS + " s: " + command);
        }
        return p.exitValue();
    }

    private static String head(String text) {
        return text.length() <= 4000 ? text : text.substring(0, 4000) + "\n[...]";
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> r = new ArrayList<>(a);
        r.addAll(b);
        return r;
    }

    private static void run(List<String> command, Path output, String what)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(what + " timed out after " + TIMEOUT_SECONDS + " s: " + command);
        }
        if (p.exitValue() != 0) {
            fail(what + " failed with exit code " + p.exitValue() + ": " + command + "\n"
                    + Files.readString(output, StandardCharsets.UTF_8));
        }
    }

    private static Path onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) return null;
        for (String d : path.split(File.pathSeparator)) {
            if (d.isEmpty()) continue;
            Path candidate = Path.of(d, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) return candidate;
        }
        return null;
    }
}
