package dev.yarpj.harness;

/**
 * What the stats package still calls while it moves to Jackson itself (issue 39): both
 * delegate to {@link JsonFiles}, which every other JSON file of yarpj's goes through. Deprecated
 * in all but name; to be deleted when stats no longer calls it.
 */
public final class Json {
    private Json() {}

    /** {@link JsonFiles#writePretty}. */
    public static String writePretty(Object o) {
        return JsonFiles.writePretty(o);
    }

    /** {@link JsonFiles#number}. */
    public static String number(double d) {
        return JsonFiles.number(d);
    }
}
