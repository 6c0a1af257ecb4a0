package dev.yarpj.ir;

/**
 * The operators a reduction nest folds its values with (policy reduction_weights), each with
 * the identity an accumulator starts from when it must not change the result.
 */
public enum ReductionOp {
    SUM, MIN, MAX, AND, OR, XOR;

    /** The operator a policy file names: {@code sum}, {@code min}, ... */
    public static ReductionOp byPolicyName(String name) {
        return valueOf(name.toUpperCase());
    }

    /** The value of type {@code t} that this operator leaves unchanged. */
    public long identity(NumType t) {
        if (t.isFloat()) {
            double largest = t.largest();
            return switch (this) {
                case SUM -> 0;
                case MIN -> FloatArith.bits(largest);
                case MAX -> FloatArith.bits(-largest);
                case AND, OR, XOR -> throw new IllegalArgumentException(this + " of " + t);
            };
        }
        return switch (this) {
            case MIN -> t.max();
            case MAX -> t.min();
            case AND -> Arith.convert(-1, t);
            case SUM, OR, XOR -> 0;
        };
    }
}
