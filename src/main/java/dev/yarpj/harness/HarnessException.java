package dev.yarpj.harness;

/** The harness itself cannot go on (a compiler that cannot be run, a full disk): the campaign stops. */
public final class HarnessException extends RuntimeException {
    public HarnessException(String message) {
        super(message, null, false, false);
    }
}
