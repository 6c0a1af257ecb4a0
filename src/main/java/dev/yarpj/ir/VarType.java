package dev.yarpj.ir;

/** The declared type of a data item: its integer type and its ISPC variability. */
public record VarType(IntType base, Variability variability) {
    public static VarType uniform(IntType t) {
        return new VarType(t, Variability.UNIFORM);
    }
}
