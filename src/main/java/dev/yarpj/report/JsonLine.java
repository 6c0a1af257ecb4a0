package dev.yarpj.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one line of yarpj's own JSON (the campaign log, meta.json): objects, arrays,
 * strings, numbers, true, false, null. A report reads millions of such lines, so this is a
 * small strict reader rather than SnakeYAML's general (and some fifty times slower) one;
 * anything it cannot read whole, such as a line torn by a killed writer, gives null.
 */
final class JsonLine {
    private final String s;
    private int i;

    private JsonLine(String s) {
        this.s = s;
    }

    /** The object on the line, or null when the line is not one whole JSON object. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parse(String line) {
        JsonLine p = new JsonLine(line);
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
