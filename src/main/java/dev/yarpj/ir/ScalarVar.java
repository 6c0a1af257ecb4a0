package dev.yarpj.ir;

/**
 * A named scalar: a global input (read only, value known to the generator and opaque to
 * the compiler), a global output (written only), a local temporary of the test function, or
 * a parameter of a {@link Helper}.
 * {@code slot} is the variable's index in the interpreter's frame.
 */
public record ScalarVar(int slot, String name, VarType type, Role role, long initValue, boolean isParam) {
    public enum Role { INPUT, OUTPUT, LOCAL, PARAMETER }

    public IntType base() {
        return type.base();
    }
}
