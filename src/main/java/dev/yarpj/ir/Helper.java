package dev.yarpj.ir;

import java.util.List;

/**
 * A helper function that test() calls: scalar parameters (by value, or by pointer to an
 * element of an input array) and structs (elements of arrays of structs, by value or by
 * pointer), and a body that returns one
 * expression over them, constants and calls of helpers defined before it (so the call graph
 * is acyclic and a program lists its helpers callees first), or a struct of several such
 * expressions ({@link #resultStruct}), whose fields a call reads one of. Every call passes arguments
 * the generator knows the values of, and the body is defined for those values: the UB check
 * is per call, on that call's values, as for any other expression.
 *
 * <p>How a helper is declared is what the inliner, IPSCCP and the vectorizer of calls look
 * at: its linkage, whether it is {@code const} (its result depends on its arguments alone,
 * which the body makes true: it reads nothing else), and whether the compiler is asked for
 * SIMD clones of it (gcc's {@code __attribute__((simd))}).
 */
public record Helper(String name, List<Expr> results, String resultStruct, List<ScalarVar> params, Linkage linkage,
                     boolean pure, boolean simd, List<StructParam> structParams) {
    /**
     * A parameter that is a struct, {@code struct type name} or {@code const struct type
     * *name}: its fields the body reads are the parameters {@code fields}, which stand next to
     * each other in {@link #params} (a call's arguments for them are those fields of one
     * element of an array of structs, which the call passes, or its address).
     */
    public record StructParam(String name, String type, boolean byPointer, List<ScalarVar> fields) {
        public StructParam {
            fields = List.copyOf(fields);
            if (fields.isEmpty()) throw new IllegalArgumentException("struct parameter " + name + " with no fields");
        }
    }

    /** How a helper is declared; the languages spell each their own way. */
    public enum Linkage {
        /** {@code static}: the compiler decides whether to inline it. */
        STATIC,
        /** {@code static inline}. */
        INLINE,
        /** {@code static __attribute__((noinline))}: kept out of line, the call stays in the loop. */
        NOINLINE,
        /** {@code static inline __attribute__((always_inline))}. */
        ALWAYS_INLINE,
        /**
         * Defined in a second file, compiled on its own ({@code helpers.c}): the caller sees only
         * its declaration, so only link-time optimization can inline it or propagate into it.
         * Its body calls only helpers of this linkage, which that file defines too. Where a
         * language has one file of test code (ISPC, SYCL, ISPC's C++ twin) it is out of line
         * in that file, as {@link #NOINLINE} is.
         */
        EXTERN
    }

    /** A helper that returns one value, {@code body} converted to {@code result}. */
    public Helper(String name, NumType result, List<ScalarVar> params, Expr body, Linkage linkage, boolean pure, boolean simd,
                  List<StructParam> structParams) {
        this(name, List.of(checked(name, result, body)), null, params, linkage, pure, simd, structParams);
    }

    public Helper(String name, NumType result, List<ScalarVar> params, Expr body, Linkage linkage, boolean pure, boolean simd) {
        this(name, result, params, body, linkage, pure, simd, List.of());
    }

    private static Expr checked(String name, NumType result, Expr body) {
        if (body.type() != result) throw new IllegalArgumentException("helper " + name + " returns " + result + ", its body is " + body.type());
        return body;
    }

    /**
     * @param results      what the helper returns: one expression, or with {@code resultStruct}
     *                     the fields {@code v0, v1, ...} of a struct, each of its expression's
     *                     type; every one of them is computed at every call, whichever a call reads
     * @param resultStruct the tag of the struct returned, or null for one value
     */
    public Helper {
        results = List.copyOf(results);
        if (results.isEmpty() || resultStruct == null && results.size() != 1) {
            throw new IllegalArgumentException("helper " + name + " returns " + results.size() + " values" + (resultStruct == null ? ", not a struct" : ""));
        }
        params = List.copyOf(params);
        structParams = List.copyOf(structParams);
        int inGroups = 0;
        for (StructParam g : structParams) {
            int at = params.indexOf(g.fields().get(0));
            if (at < 0 || at + g.fields().size() > params.size() || !params.subList(at, at + g.fields().size()).equals(g.fields())) {
                throw new IllegalArgumentException("the fields of " + g.name() + " are not parameters of " + name + " next to each other");
            }
            inGroups += g.fields().size();
        }
        if (inGroups != params.stream().filter(ScalarVar::isField).count()) {
            throw new IllegalArgumentException(name + " has a field parameter of no struct parameter");
        }
        for (ScalarVar p : params) {
            if (!p.isHelperParameter()) throw new IllegalArgumentException(p.name() + " is not a parameter");
        }
    }

    /** Whether the helper returns a struct, whose fields its calls read. */
    public boolean returnsStruct() {
        return resultStruct != null;
    }

    /** The type of the value returned, or of field {@code field} of the struct returned. */
    public NumType result(int field) {
        return results.get(field).type();
    }

    /** The name of field {@code field} of the struct a helper returns. */
    public static String resultField(int field) {
        return "v" + field;
    }

    /**
     * Whether the body reads memory: through a parameter passed by pointer. Such a helper is
     * at most {@code pure} in gcc's sense, never {@code const}: it reads elements of input
     * arrays, which no code writes, so it returns the same for the same arguments all the same.
     */
    public boolean readsMemory() {
        return params.stream().anyMatch(ScalarVar::byPointer) || structParams.stream().anyMatch(StructParam::byPointer);
    }

    /** Whether a call passes elements of arrays: a parameter by pointer, or a struct. */
    public boolean takesElements() {
        return params.stream().anyMatch(p -> p.byPointer() || p.isField());
    }

    /** The struct parameter whose first field is {@code p}, or null (not a field, or not the first). */
    public StructParam structStartingAt(ScalarVar p) {
        for (StructParam g : structParams) if (g.fields().get(0).equals(p)) return g;
        return null;
    }

    /** The struct parameter {@code p} is a field of, or null. */
    public StructParam structOf(ScalarVar p) {
        for (StructParam g : structParams) if (g.fields().contains(p)) return g;
        return null;
    }
}
