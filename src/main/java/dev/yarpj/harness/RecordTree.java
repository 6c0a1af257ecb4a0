package dev.yarpj.harness;

import dev.yarpj.policy.Rng;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records (the IR, the policy's emit: odds, a recipe) as the maps and lists {@link Json}
 * writes, and back. A record is a map of its components by name; a value whose declared type
 * is a sealed interface carries the simple name of its record under {@code "@"}; enums are
 * their names; longs too long for a JSON number that every reader keeps exact, and every
 * double, are strings. Generic over the components, so a new kind of statement needs
 * nothing here.
 */
public final class RecordTree {
    private RecordTree() {}

    /** A tree that is not what its type needs; the message is one line. */
    public static final class Malformed extends RuntimeException {
        Malformed(String m) {
            super(m, null, false, false);
        }
    }

    public static Object toTree(Object o, Type declared) {
        if (o == null || o instanceof String || o instanceof Boolean || o instanceof Integer) return o;
        if (o instanceof Long l) return Math.abs(l) < 100_000_000_000_000_000L ? l : Long.toString(l);
        if (o instanceof Double d) return Double.toString(d);
        if (o instanceof Enum<?> e) return e.name();
        if (o instanceof Rng.Tape t) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kinds", t.kinds());
            m.put("values", toTree(t.values(), listOf(Long.class)));
            return m;
        }
        if (o instanceof List<?> l) {
            Type elem = elementType(declared, 0);
            List<Object> out = new ArrayList<>(l.size());
            for (Object x : l) out.add(toTree(x, elem));
            return out;
        }
        if (o instanceof Map<?, ?> map) {
            Type value = elementType(declared, 1);
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) out.put(String.valueOf(e.getKey()), toTree(e.getValue(), value));
            return out;
        }
        if (o instanceof Record r) {
            Map<String, Object> m = new LinkedHashMap<>();
            if (raw(declared).isInterface()) m.put("@", r.getClass().getSimpleName());
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                try {
                    m.put(c.getName(), toTree(c.getAccessor().invoke(r), c.getGenericType()));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read " + c, e);
                }
            }
            return m;
        }
        throw new IllegalArgumentException("no tree for a " + o.getClass().getName());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Object fromTree(Object t, Type declared) {
        Class<?> c = raw(declared);
        if (t == null) {
            if (c.isPrimitive()) throw new Malformed("a " + c + " is missing");
            return null;
        }
        if (c == String.class) return cast(t, String.class);
        if (c == boolean.class || c == Boolean.class) return cast(t, Boolean.class);
        if (c == int.class || c == Integer.class) return Math.toIntExact(number(t));
        if (c == long.class || c == Long.class) return number(t);
        if (c == double.class || c == Double.class) return t instanceof Number n ? n.doubleValue() : Double.parseDouble(cast(t, String.class));
        if (c.isEnum()) {
            try {
                return Enum.valueOf((Class) c, cast(t, String.class));
            } catch (IllegalArgumentException e) {
                throw new Malformed("no " + c.getSimpleName() + " named " + t);
            }
        }
        if (c == Rng.Tape.class) {
            Map<String, Object> m = cast(t, Map.class);
            return new Rng.Tape(cast(m.get("kinds"), String.class), (List<Long>) fromTree(m.get("values"), listOf(Long.class)));
        }
        if (List.class.isAssignableFrom(c)) {
            Type elem = elementType(declared, 0);
            List<Object> out = new ArrayList<>();
            for (Object x : cast(t, List.class)) out.add(fromTree(x, elem));
            return List.copyOf(out);
        }
        if (Map.class.isAssignableFrom(c)) {
            Type value = elementType(declared, 1);
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) cast(t, Map.class)).entrySet()) out.put(e.getKey(), fromTree(e.getValue(), value));
            return out;
        }
        Map<String, Object> m = cast(t, Map.class);
        Class<?> rec = c.isInterface() ? permitted(c, cast(m.get("@"), String.class)) : c;
        if (!rec.isRecord()) throw new IllegalArgumentException("no tree for a " + rec.getName());
        RecordComponent[] comps = rec.getRecordComponents();
        Object[] args = new Object[comps.length];
        Class<?>[] types = new Class<?>[comps.length];
        for (int i = 0; i < comps.length; i++) {
            types[i] = comps[i].getType();
            if (!m.containsKey(comps[i].getName())) {
                // A field added since the file was written reads as zero (a number, false, an empty
                // list or map), so a finding saved by an older yarpj still loads; whoever loads it
                // checks that it lowers to the finding's files, which catches a zero that is wrong.
                args[i] = absent(comps[i].getType(), rec.getSimpleName() + "." + comps[i].getName());
                continue;
            }
            args[i] = fromTree(m.get(comps[i].getName()), comps[i].getGenericType());
        }
        try {
            Constructor<?> k = rec.getDeclaredConstructor(types);
            return k.newInstance(args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new Malformed("not a valid " + rec.getSimpleName() + ": " + e.getCause().getMessage());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make a " + rec.getName(), e);
        }
    }

    /**
     * Object fields added since files were first written whose absence means "none" (their
     * records take null for it: a loop without a form is a for loop, one without a guard has
     * no header exit). Any other missing object (a recipe's language, a loop's condition) is a
     * damaged file, not an old one.
     */
    private static final java.util.Set<String> ADDED_OPTIONAL = java.util.Set.of("LoopHead.form", "LoopHead.guard");

    /** The value of field {@code field} ("Record.component") a file does not have: zero of a number, false, nothing in a list or map, or null for an added optional object. */
    private static Object absent(Class<?> type, String field) {
        if (type == long.class) return 0L;
        if (type == int.class) return 0;
        if (type == double.class) return 0.0;
        if (type == boolean.class) return false;
        if (List.class.isAssignableFrom(type)) return List.of();
        if (Map.class.isAssignableFrom(type)) return Map.of();
        if (ADDED_OPTIONAL.contains(field)) return null;
        throw new Malformed(field.replace(".", " has no "));
    }

    /** The record among those {@code sealed} permits (at any depth) whose simple name is {@code name}. */
    private static Class<?> permitted(Class<?> sealed, String name) {
        Class<?>[] subs = sealed.getPermittedSubclasses();
        if (subs == null) throw new IllegalArgumentException(sealed.getName() + " is not sealed");
        for (Class<?> s : subs) {
            if (s.getSimpleName().equals(name) && s.isRecord()) return s;
            if (s.isInterface() && s.isSealed()) {
                try {
                    return permitted(s, name);
                } catch (Malformed e) {
                    // not below this one
                }
            }
        }
        throw new Malformed("no " + sealed.getSimpleName() + " named " + name);
    }

    private static long number(Object t) {
        if (t instanceof Number n) return n.longValue();
        try {
            return Long.parseLong(cast(t, String.class));
        } catch (NumberFormatException e) {
            throw new Malformed("not an integer: " + t);
        }
    }

    private static <T> T cast(Object t, Class<T> c) {
        if (!c.isInstance(t)) throw new Malformed("expected a " + c.getSimpleName() + ", found " + t);
        return c.cast(t);
    }

    private static Class<?> raw(Type t) {
        if (t instanceof Class<?> c) return c;
        if (t instanceof ParameterizedType p) return (Class<?>) p.getRawType();
        return Object.class;
    }

    private static Type elementType(Type t, int arg) {
        if (t instanceof ParameterizedType p && p.getActualTypeArguments().length > arg) return p.getActualTypeArguments()[arg];
        return Object.class;
    }

    private static Type listOf(Class<?> elem) {
        return new ParameterizedType() {
            @Override
            public Type[] getActualTypeArguments() {
                return new Type[] {elem};
            }

            @Override
            public Type getRawType() {
                return List.class;
            }

            @Override
            public Type getOwnerType() {
                return null;
            }
        };
    }
}
