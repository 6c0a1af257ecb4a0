package dev.yarpj.interp;

/**
 * The interpreter met undefined behaviour (or ran past its step budget) while executing a
 * generated program. Fleshing is meant to make this impossible: it is always a generator bug.
 */
public final class UndefinedBehaviorException extends RuntimeException {
    public UndefinedBehaviorException(String message) {
        super(message, null, false, false);
    }
}
