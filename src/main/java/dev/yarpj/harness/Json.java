package dev.yarpj.harness;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * yarpj's one JSON codec, for every file it writes or reads as JSON (meta.json, the campaign
 * log, triage.json, campaign.json, the stats): the shapes it uses (maps, lists, strings,
 * numbers, booleans, null), written on one line ({@link #write}: a log line, a meta.json) or
 * for people ({@link #writePretty}), and read back line by line ({@link #parseObject}).
 */
public final class Json {
    /** {@code o} as JSON on one line; doubles with three decimals. */
    public static String write(Object o) {
        StringBuilder sb = new StringBuilder();
        value(sb, o);
        return sb.toString();
    }

    private static void value(StringBuilder sb, Object o) {
        if (o == null) {
            sb.append("null");
        } else if (o instanceof String s) {
            string(sb, s);
        } else if (o instanceof Double d) {
            sb.append(String.format(java.util.Locale.ROOT, "%.3f", d));
        } else if (o instanceof Number || o instanceof Boolean) {
            sb.append(o);
        } else if (o instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) sb.append(", ");
                first = false;
                string(sb, String.valueOf(e.getKey()));
                sb.append(": ");
                value(sb, e.getValue());
            }
            sb.append('}');
        } else if (o instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) sb.append(", ");
                value(sb, l.get(i));
            }
            sb.append(']');
        } else {
            string(sb, o.toString());
        }
    }

    /** Appends {@code s} as a JSON string literal, quoted and escaped. */
    public static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }

    /**
     * {@code o} as JSON for people to read, ending in a newline (what {@code yarpj stats
     * --format=json} prints): the top-level object and its lists get a line per entry,
     * anything deeper is on one line; doubles keep 6 significant digits ({@link #number}).
     */
    public static String writePretty(Object o) {
        StringBuilder sb = new StringBuilder();
        pretty(sb, o, 0);
        return sb.append('\n').toString();
    }

    private static void pretty(StringBuilder sb, Object o, int depth) {
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
                pretty(sb, e.getValue(), depth + 1);
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
                pretty(sb, l.get(i), depth + 1);
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
    public static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return "null";
        if (d == 0) return "0.0";
        double a = Math.abs(d);
        if (a < 1e-4 || a >= 1e15) return String.format(Locale.ROOT, "%.5e", d);
        String s = new BigDecimal(d).round(new MathContext(6)).stripTrailingZeros().toPlainString();
        return s.contains(".") ? s : s + ".0";
    }

    private final String s;
    private int i;

    private Json(String s) {
        this.s = s;
    }

    /**
     * The JSON object that is the whole of {@code line} (surrounding whitespace aside), or
     * null when it is not one: a report reads millions of campaign log lines, so this is a
     * small strict reader rather than SnakeYAML's general (and some fifty times slower) one,
     * and a line torn by a killed writer gives null.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String line) {
        Json p = new Json(line);
        try {
            p.ws();
            if (p.i >= line.length() || line.charAt(p.i) != '{') return null;
            Object o = p.value();
            p.ws();
            return p.i == line.length() ? (Map<String, Object>) o : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private void ws() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    private Object value() {
        ws();
        char c = s.charAt(i);
        switch (c) {
            case '{' -> {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = string();
                    ws();
                    expect(':');
                    m.put(k, value());
                    ws();
                    if (s.charAt(i) == ',') i++;
                    else {
                        expect('}');
                        return m;
                    }
                }
            }
            case '[' -> {
                i++;
                List<Object> l = new ArrayList<>();
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(i) == ',') i++;
                    else {
                        expect(']');
                        return l;
                    }
                }
            }
            case '"' -> {
                return string();
            }
            default -> {
                if (s.startsWith("true", i)) return word(4, Boolean.TRUE);
                if (s.startsWith("false", i)) return word(5, Boolean.FALSE);
                if (s.startsWith("null", i)) return word(4, null);
                return number();
            }
        }
    }

    private Object word(int n, Object v) {
        i += n;
        return v;
    }

    private void expect(char c) {
        if (s.charAt(i) != c) throw new IllegalArgumentException("expected " + c + " at " + i);
        i++;
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = s.charAt(i++);
            if (c == '"') return sb.toString();
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                default -> sb.append(e);
            }
        }
    }

    private Number number() {
        int start = i;
        boolean integral = true;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            char c = s.charAt(i);
            if (c == '.' || c == 'e' || c == 'E' || (c == '+') || (c == '-' && i > start)) integral = false;
            i++;
        }
        String n = s.substring(start, i);
        if (n.isEmpty()) throw new IllegalArgumentException("not a value at " + start);
        int digits = n.length() - (n.charAt(0) == '-' ? 1 : 0);
        return integral && digits <= 18 ? (Number) Long.parseLong(n) : (Number) Double.parseDouble(n);
    }
}
