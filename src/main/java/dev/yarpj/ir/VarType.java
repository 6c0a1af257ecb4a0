package dev.yarpj.ir;

/** The declared type of a data item: its integer type and its ISPC variability. */
public record VarType(NumType base, Variability variability) {
    public static VarType uniform(NumType t) {
        return new VarType(t, Variability.UNIFORM);
    }
}
