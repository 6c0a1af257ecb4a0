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
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test: {@link Arith}'s C integer semantics against what gcc (and clang, when
 * present) actually compute. Random non-UB cases are emitted into one C file whose operands
 * are {@code volatile} variables of the exact C types, so the compiler applies its own
 * promotions and conversions and cannot fold anything; each case prints its result cast to
 * {@code unsigned long long}, which is exactly the bit pattern of the canonical long.
 */
class ArithAgreesWithGccTest {

    private static final long SEED = 0x5EED_A217_C0DEL;
    private static final int BINARY_CASES = 4000;
    private static final int UNARY_CASES = 600;
    private static final int CONVERSION_CASES = 600;
    private static final int MINMAX_CASES = 400;
    private static final int MIN_COMPARED = 2000;
    private static final long TIMEOUT_SECONDS = 120;

    private static final IntType[] TYPES = IntType.values();

    /** One compiled case: a C block printing one line, and what Arith predicts it prints. */
    private record Case(String description, String cBlock, long expected) {}

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
        Set<BinOp> binOpsSeen = EnumSet.noneOf(BinOp.class);
        Set<UnOp> unOpsSeen = EnumSet.noneOf(UnOp.class);
        int skippedUb = 0;

        BinOp[] binOps = BinOp.values();
        for (int i = 0; i < BINARY_CASES; i++) {
            BinOp op = binOps[rnd.nextInt(binOps.length)];
            IntType lt = pick(rnd);
            IntType rt = pick(rnd);
            long a = op.isShift() ? shiftLhs(rnd, lt) : value(rnd, lt);
            long b = op.isShift() ? shiftAmount(rnd, rt) : value(rnd, rt);
            Case c = binaryCase(op, lt, a, rt, b);
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
            IntType t = pick(rnd);
            long a = value(rnd, t);
            Case c = unaryCase(op, t, a);
            if (c == null) {
                skippedUb++;
                continue;
            }
            unOpsSeen.add(op);
            cases.add(c);
        }

        for (int i = 0; i < CONVERSION_CASES; i++) {
            IntType from = pick(rnd);
            IntType to = pick(rnd);
            long a = value(rnd, from);
            cases.add(new Case(
                    "(" + cName(to) + ") " + describe(from, a),
                    decl(from, "a", a) + " printf(\"%llu\\n\", (unsigned long long)(" + cName(to) + ")a);",
                    Arith.convert(a, to)));
        }

        Set<Builtin> builtinsSeen = EnumSet.noneOf(Builtin.class);
        Builtin[] builtins = Builtin.values();
        for (int i = 0; i < MINMAX_CASES; i++) {
            Builtin fn = builtins[rnd.nextInt(builtins.length)];
            IntType at = pick(rnd);
            IntType bt = rnd.nextInt(3) == 0 ? at : pick(rnd);
            long a = value(rnd, at);
            long b = rnd.nextInt(8) == 0 ? Arith.convert(a, bt) : value(rnd, bt);
            IntType t = Arith.common(at, bt);
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
        assertEquals(EnumSet.allOf(Builtin.class), builtinsSeen, "builtins exercised");

        System.out.println("ArithAgreesWithGccTest: " + cases.size() + " cases compared, "
                + skippedUb + " skipped as UB, compilers: gcc" + (clang != null ? ", clang" : ""));

        Path source = dir.resolve("arith_cases.c");
        Files.writeString(source, cSource(cases), StandardCharsets.UTF_8);

        checkCompiler(gcc, source, cases);
        if (clang != null) {
            checkCompiler(clang, source, cases);
        }
    }

    // ---------------------------------------------------------------- cases

    /** The case {@code a op b} with a, b of types lt, rt (canonical); null if it is UB. */
    private static Case binaryCase(BinOp op, IntType lt, long a, IntType rt, long b) {
        IntType lo = Arith.operandType(op, lt, rt, true);
        IntType ro = Arith.operandType(op, lt, rt, false);
        long ca = Arith.convert(a, lo);
        long cb = Arith.convert(b, ro);
        if (Arith.binaryUb(op, lo, ca, ro, cb) != null) return null;
        long expected = Arith.binary(op, lo, ca, ro, cb);
        IntType result = Arith.resultType(op, lt, rt);
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

    /** The case {@code op a} with a of type t (canonical); null if it is UB. */
    private static Case unaryCase(UnOp op, IntType t, long a) {
        IntType p = Arith.promote(t);
        long ca = Arith.convert(a, p);
        if (Arith.unaryUb(op, p, ca) != null) return null;
        long expected = Arith.unary(op, p, ca);
        IntType result = Arith.resultType(op, t);
        assertEquals(Arith.convert(expected, result), expected,
                () -> "Arith.unary result not canonical in " + result + " for "
                        + op.symbol + describe(t, a));
        return new Case(
                op.symbol + " " + describe(t, a) + " [promoted " + p + ", result " + result + "]",
                decl(t, "a", a) + " printf(\"%llu\\n\", (unsigned long long)(" + op.symbol + " a));",
                expected);
    }

    // ---------------------------------------------------------------- values

    private static IntType pick(SplittableRandom rnd) {
        return TYPES[rnd.nextInt(TYPES.length)];
    }

    /** A random canonical value of {@code t}, biased towards edge cases. */
    private static long value(SplittableRandom rnd, IntType t) {
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
    private static long shiftLhs(SplittableRandom rnd, IntType t) {
        return switch (rnd.nextInt(3)) {
            case 0 -> Arith.convert(rnd.nextInt(0, 1000), t);
            case 1 -> Arith.convert(rnd.nextLong() >>> rnd.nextInt(64), t);
            default -> value(rnd, t);
        };
    }

    /** Shift amounts: mostly within [0, 64), sometimes anything. */
    private static long shiftAmount(SplittableRandom rnd, IntType t) {
        return rnd.nextInt(5) == 0 ? value(rnd, t) : Arith.convert(rnd.nextInt(0, 64), t);
    }

    // ---------------------------------------------------------------- C text

    private static String cName(IntType t) {
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
        };
    }

    /** A C literal whose value is the canonical value {@code v} of type {@code t}. */
    private static String literal(IntType t, long v) {
        return switch (t) {
            case ULLONG -> Long.toUnsignedString(v) + "ULL";
            case LLONG -> v == Long.MIN_VALUE ? "(-9223372036854775807LL-1)" : v + "LL";
            case INT -> v == Integer.MIN_VALUE ? "(-2147483647-1)" : Long.toString(v);
            case UINT -> v + "U";
            default -> Long.toString(v);
        };
    }

    private static String decl(IntType t, String name, long v) {
        return "volatile " + cName(t) + " " + name + " = " + literal(t, v) + ";";
    }

    private static String describe(IntType t, long v) {
        return "(" + cName(t) + ")" + (t == IntType.ULLONG ? Long.toUnsignedString(v) : Long.toString(v));
    }

    private static String cSource(List<Case> cases) {
        StringBuilder sb = new StringBuilder(cases.size() * 120);
        sb.append("#include <stdbool.h>\n#include <stdio.h>\n\nint main(void) {\n");
        for (Case c : cases) {
            sb.append("  { ").append(c.cBlock()).append(" }\n");
        }
        sb.append("  return 0;\n}\n");
        return sb.toString();
    }

    // ---------------------------------------------------------------- running

    private void checkCompiler(Path compiler, Path source, List<Case> cases) throws Exception {
        String name = compiler.getFileName().toString();
        Path exe = dir.resolve("arith_cases_" + name);
        run(List.of(compiler.toString(), "-O0", "-w", "-std=c11", "-o", exe.toString(), source.toString()),
                dir.resolve(name + ".compile.out"), name + " compile");
        Path out = dir.resolve(name + ".run.out");
        run(List.of(exe.toString()), out, name + " binary");

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
