package dev.yarpj.policy;

/**
 * The {@code structs:} section of a policy: arrays of structs ({@code flesh.StructFields}). A
 * new global array may become a field of an array of structs with the same dimensions, so
 * that a loop reading or writing several of them accesses memory in interleaved groups of
 * the struct's stride, which the vectorizers and SLP handle apart from contiguous arrays.
 */
public record StructPolicy(
        /* Chance that a new global array is a field of an array of structs (0: none, and the programs of a seed are those without this section). */
        double pField,
        /* At most this many fields in one struct; past it, a new array of structs is started. */
        int maxFields,
        /* Chance that a new input field whose values all fit fewer bits than its type is a bit-field of that width (plus up to two bits): signed or unsigned int name : w, read as int. C and C++ only (0: none; the same programs as before them). */
        double pBitfield,
        /* Chance that a local declaration copies an element of an array of structs instead, struct rec_2 t_3 = recs_2[i][j], where an input field follows the context, and later statements read the field t_3.arr_5. C and C++ only (0: none; the same programs as before them). */
        double pCopy) {
}
