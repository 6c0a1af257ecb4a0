package dev.yarpj.policy;

/** A policy file that cannot be used; the message is one line naming file, line, column and key. */
public final class PolicyException extends RuntimeException {
    public PolicyException(String message) {
        super(message);
    }
}
