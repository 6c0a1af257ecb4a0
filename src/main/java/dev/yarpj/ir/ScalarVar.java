package dev.yarpj.ir;

/**
 * A named scalar: a global input (read only, value known to the generator and opaque to
 * the compiler), a global output (written only), a local temporary of the test function, or
 * a parameter of a {@link Helper}.
 * {@code slot} is the variable's index in the interpreter's frame.
 */
public record ScalarVar(int slot, String name, VarType type, Role role, long initValue, boolean isParam) {
    public enum Role {
        INPUT, OUTPUT, LOCAL, PARAMETER,
        /**
         * A parameter of a {@link Helper} passed by pointer: the caller passes the address of an
         * element of an input array ({@code &a[i][j]}, which the program never writes), the body
         * reads {@code *p}. Its value is the element's, so only the printing differs from
         * {@link #PARAMETER}; what it gives the compilers is a load in the callee, the case of
         * argument promotion, IPA-SRA and SIMD clones with pointer arguments.
         */
        POINTER_PARAMETER,
        /**
         * A parameter of a {@link Helper} passed as an array and an index: the caller passes the
         * row of an element of an input array and the element's last subscript ({@code &a[i][0],
         * j}), the body reads {@code p[p_at]}. As for {@link
         * #POINTER_PARAMETER} its value is the element's and only the printing differs: the
         * callee computes the address, an indexed load the inliner hands back to the loop.
         */
        ARRAY_PARAMETER,
        /**
         * A field of a struct that a {@link Helper} takes, by value or by pointer ({@link
         * Helper.StructParam}): the caller passes an element of an array of structs, the body
         * reads the field, and its value is the field's in that element. Its name is how the
         * body reads it: {@code r_9.arr_5}, or {@code r_9->arr_5} through a pointer.
         */
        FIELD_PARAMETER,
        /**
         * A field of a local copy of an element of an array of structs: a {@link
         * Stmt.LocalDecl} whose init is the field's element declares the copy, {@code struct
         * rec_2 t_3 = recs_2[i][j];} (the whole struct, as C copies it), and the program reads
         * the field of the copy, {@code t_3.arr_5}, which is its name. Its value is the
         * element's field when copied; only input fields are copied for reading, which nothing
         * writes, so it is the element's as any read of it.
         */
        COPY_FIELD
    }

    /** Whether this is a parameter of a helper, by value, by pointer, or a field of a struct parameter. */
    public boolean isHelperParameter() {
        return role == Role.PARAMETER || role == Role.POINTER_PARAMETER || role == Role.ARRAY_PARAMETER || role == Role.FIELD_PARAMETER;
    }

    /** Whether this is the field of a local copy of a struct (see {@link Role#COPY_FIELD}). */
    public boolean isCopyField() {
        return role == Role.COPY_FIELD;
    }

    /** The name of the local copy whose field this is ({@link Role#COPY_FIELD}): {@code t_3} of {@code t_3.arr_5}. */
    public String copyName() {
        return name.substring(0, name.indexOf('.'));
    }

    /** Whether this is a field of a struct a helper takes (see {@link Role#FIELD_PARAMETER}). */
    public boolean isField() {
        return role == Role.FIELD_PARAMETER;
    }

    /**
     * Whether this is a helper's parameter that takes an element by pointer: to it ({@link
     * Role#POINTER_PARAMETER}) or to its row, with an index ({@link Role#ARRAY_PARAMETER}).
     */
    public boolean byPointer() {
        return role == Role.POINTER_PARAMETER || role == Role.ARRAY_PARAMETER;
    }

    /** Whether this is a helper's parameter passed as an array and an index (see {@link Role#ARRAY_PARAMETER}). */
    public boolean indexed() {
        return role == Role.ARRAY_PARAMETER;
    }

    /** The name of the index that goes with an {@link Role#ARRAY_PARAMETER}. */
    public String indexName() {
        return name + "_at";
    }

    public NumType base() {
        return type.base();
    }
}
