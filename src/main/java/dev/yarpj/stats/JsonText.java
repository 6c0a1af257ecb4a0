package dev.yarpj.stats;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the JSON of {@code yarpj stats}: maps, lists, strings, numbers, booleans, null.
 * The top-level object and its lists get a line per entry; anything deeper is on one line.
 * Doubles keep 6 significant digits and always show a decimal point; NaN and infinities are
 * null.
 */
final class JsonText {
    private JsonText() {}

    static String write(Object o) {
        StringBuilder sb = new StringBuilder();
        value(sb, o, 0);
        return sb.append('\n').toString();
    }

    private static void value(StringBuilder sb, Object o, int depth) {
        if (o == null) {
            sb.append("null");
        } else if (o instanceof String s) {
            string(sb, s);
        } else if (o instanceof Double || o instanceof Float) {
            sb.append(number(((Number) o).doubleValue()));
        } else if (o instanceof Number || o instanceof Boolean) {
            sb.append(o);
        } else if (o instanceof Map<?, ?> m) {
            boolean lines = depth == 0;
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) sb.append(',');
                if (lines) newline(sb, depth + 1);
                else if (!first) sb.append(' ');
                first = false;
                string(sb, String.valueOf(e.getKey()));
                sb.append(": ");
                value(sb, e.getValue(), depth + 1);
            }
            if (lines && !m.isEmpty()) newline(sb, depth);
            sb.append('}');
        } else if (o instanceof List<?> l) {
            boolean lines = depth <= 2 && !l.isEmpty() && l.get(0) instanceof Map;
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) sb.append(',');
                if (lines) newline(sb, depth + 1);
                else if (i > 0) sb.append(' ');
                value(sb, l.get(i), depth + 1);
            }
            if (lines) newline(sb, depth);
            sb.append(']');
        } else {
            string(sb, o.toString());
        }
    }

    private static void newline(StringBuilder sb, int depth) {
        sb.append('\n');
        sb.append("  ".repeat(depth));
    }

    /** 6 significant digits, with a decimal point; null for NaN and infinities. */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return "null";
        if (d == 0) return "0.0";
        double a = Math.abs(d);
        if (a < 1e-4 || a >= 1e15) return String.format(Locale.ROOT, "%.5e", d);
        String s = new BigDecimal(d).round(new MathContext(6)).stripTrailingZeros().toPlainString();
        return s.contains(".") ? s : s + ".0";
    }

    private static void string(StringBuilder sb, String s) {
        dev.yarpj.harness.Json.string(sb, s);
    }
}
