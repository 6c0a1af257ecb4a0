package dev.yarpj.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A testbed's configuration space: axes of options, each a list of weighted alternatives.
 * Each test draws one alternative per axis, deterministically from its seed and the
 * testbed's name, and the testbed builds that test with its own flags followed by the drawn
 * ones: a swarm over configurations, the way the bugs that need two options together (a
 * vector length and an LMUL, say) are met at all.
 *
 * <p>An alternative may bind variables of the testbed's emulator command, each drawn from a
 * list: {@code {vlen}} in {@code qemu-riscv64 -cpu rv64,v=true,vlen={vlen}}, where
 * {@code -march=rv64gcv_zvl256b} binds {@code vlen: [256, 512, 1024]} and
 * {@code -mrvv-vector-bits=zvl} (code for exactly that length) binds {@code vlen: [256]}. So
 * the emulator follows the draw and a program is never run where its code is not valid.
 */
public record ConfigSpace(List<Axis> axes) {
    public ConfigSpace {
        axes = List.copyOf(axes);
    }

    /** One axis: a name (for the summary and the log) and its alternatives. */
    public record Axis(String name, List<Alternative> alternatives) {
        public Axis {
            alternatives = List.copyOf(alternatives);
        }

        /** The same axis with only {@code kept} of its alternatives. */
        Axis keeping(List<Alternative> kept) {
            return new Axis(name, kept);
        }
    }

    /**
     * Options added when the alternative is drawn (none for the empty alternative), its weight
     * (relative to the axis's others), the emulator variables it binds, each to one value
     * drawn from its list, and the CPU features (as /proc/cpuinfo names them) its programs need
     * when they run on this machine: {@code -march=x86-64-v4} needs AVX-512.
     */
    public record Alternative(List<String> flags, double weight, Map<String, List<String>> vars, List<String> cpu) {
        public Alternative {
            flags = List.copyOf(flags);
            vars = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(vars));
            cpu = List.copyOf(cpu);
        }

        /**
         * How the alternative is shown in the log, the summary and the signature: its options;
         * with none, in parentheses, the emulator settings it binds ("(run: ta=true)": a
         * freedom of the emulator, not of the compiler), or "(none)".
         */
        public String label() {
            if (!flags.isEmpty()) return String.join(" ", flags);
            if (vars.isEmpty()) return NONE;
            List<String> kv = new ArrayList<>();
            vars.forEach((k, v) -> kv.add(k + "=" + String.join("|", v)));
            return "(run: " + String.join(",", kv) + ")";
        }

        /** Whether drawing it adds compiler options (a label in parentheses adds none). */
        public static boolean addsOptions(String label) {
            return !label.startsWith("(");
        }
    }

    /** The label of the empty alternative. */
    public static final String NONE = "(none)";

    /**
     * What one test drew: the options in axis order, the emulator's variables and each axis's
     * alternative (by label), and every setting of the emulator's variables the drawn
     * alternatives allow ({@code runs}, {@code vars} first): code for any vector length is one
     * build that can run at each length its alternative names.
     */
    public record Draw(List<String> flags, Map<String, String> vars, Map<String, String> choices, List<Map<String, String>> runs) {
        public Draw {
            runs = runs.stream().map(r -> java.util.Collections.unmodifiableMap(new LinkedHashMap<>(r))).toList();
        }
    }

    private static final Pattern VAR = Pattern.compile("\\{([A-Za-z_][A-Za-z0-9_]*)\\}");

    /** The variables a command refers to ({@code {vlen}}), in order of appearance, each once. */
    public static List<String> variablesOf(List<String> command) {
        List<String> vars = new ArrayList<>();
        for (String w : command) {
            Matcher m = VAR.matcher(w);
            while (m.find()) if (!vars.contains(m.group(1))) vars.add(m.group(1));
        }
        return vars;
    }

    /** {@code command} with each {@code {var}} replaced by its drawn value. */
    public static List<String> substitute(List<String> command, Map<String, String> vars) {
        List<String> out = new ArrayList<>();
        for (String w : command) {
            Matcher m = VAR.matcher(w);
            StringBuilder sb = new StringBuilder();
            while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(vars.getOrDefault(m.group(1), m.group())));
            m.appendTail(sb);
            out.add(sb.toString());
        }
        return List.copyOf(out);
    }

    /**
     * The configuration test {@code seed} builds with on the testbed named {@code testbed}: the
     * same seed and name always draw the same one, whatever else the campaign runs.
     */
    public Draw draw(long seed, String testbed) {
        // The name's hash keeps two testbeds' draws apart; String.hashCode is fixed by the language.
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ testbed.hashCode());
        List<String> flags = new ArrayList<>();
        Map<String, String> vars = new LinkedHashMap<>();
        Map<String, String> choices = new LinkedHashMap<>();
        Map<String, List<String>> allowed = new LinkedHashMap<>();
        for (Axis a : axes) {
            double total = a.alternatives().stream().mapToDouble(Alternative::weight).sum();
            double x = rnd.nextDouble() * total;
            Alternative pick = a.alternatives().get(a.alternatives().size() - 1);
            for (Alternative alt : a.alternatives()) {
                if (x < alt.weight()) {
                    pick = alt;
                    break;
                }
                x -= alt.weight();
            }
            flags.addAll(pick.flags());
            choices.put(a.name(), pick.label());
            for (Map.Entry<String, List<String>> v : pick.vars().entrySet()) {
                vars.put(v.getKey(), v.getValue().get(rnd.nextInt(v.getValue().size())));
                allowed.put(v.getKey(), v.getValue());
            }
        }
        return new Draw(List.copyOf(flags), vars, choices, settings(vars, allowed));
    }

    /**
     * Every assignment of the variables' allowed values: {@code drawn} first, then the others
     * in the order the lists give them (the first variable varying slowest).
     */
    private static List<Map<String, String>> settings(Map<String, String> drawn, Map<String, List<String>> allowed) {
        List<Map<String, String>> all = new ArrayList<>(List.of(new LinkedHashMap<>()));
        for (Map.Entry<String, List<String>> v : allowed.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> partial : all) {
                for (String value : v.getValue()) {
                    Map<String, String> m = new LinkedHashMap<>(partial);
                    m.put(v.getKey(), value);
                    if (!next.contains(m)) next.add(m);
                }
            }
            all = next;
        }
        all.remove(drawn);
        all.add(0, drawn);
        return all;
    }

    /** The number of distinct option sets the space holds (emulator variables aside). */
    public long size() {
        long n = 1;
        for (Axis a : axes) n = Math.multiplyExact(n, a.alternatives().size());
        return n;
    }
}
