package dev.yarpj.harness;

import dev.yarpj.lower.Language;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * The reference compiler and the testbeds of a campaign, read from a YAML file. A file may
 * name the target its programs run on ({@code target: {name: aarch64-sve2, run: [qemu-aarch64,
 * -cpu, max]}}): then the reference (a cross compiler) builds the driver and links, and every
 * program runs under that emulator, or under a testbed's own {@code run} (RISC-V's vector
 * length, say, which is the emulator's).
 */
public record Testbeds(Testbed reference, List<Testbed> all) {

    /** A testbed file that cannot be used; the message is one line. */
    public static final class TestbedException extends RuntimeException {
        public TestbedException(String m) {
            super(m, null, false, false);
        }
    }

    public static Testbeds load(Path file) {
        Object root;
        try {
            root = new Yaml(new LoaderOptions()).load(Files.readString(file));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new TestbedException("testbed file not found: " + file);
        } catch (IOException e) {
            throw new TestbedException("cannot read testbed file " + file + ": " + e.getMessage());
        } catch (MarkedYAMLException e) {
            String where = e.getProblemMark() == null ? ""
                    : ":" + (e.getProblemMark().getLine() + 1) + ":" + (e.getProblemMark().getColumn() + 1);
            throw new TestbedException(file + where + ": malformed YAML: " + e.getProblem());
        } catch (RuntimeException e) {
            throw new TestbedException(file + ": malformed YAML: " + e.getMessage());
        }
        if (!(root instanceof Map<?, ?> m)) throw new TestbedException(file + ": expected keys 'reference' and 'testbeds'");
        for (Object k : m.keySet()) {
            if (!List.of("reference", "testbeds", "target").contains(k)) throw new TestbedException(file + ": unknown key '" + k + "'");
        }
        String target = Testbed.HOST;
        List<String> run = List.of();
        if (m.containsKey("target")) {
            if (!(m.get("target") instanceof Map<?, ?> t)) throw new TestbedException(file + ": target must be a mapping with name and run");
            for (Object k : t.keySet()) {
                if (!"name".equals(k) && !"run".equals(k)) throw new TestbedException(file + ": target: unknown key '" + k + "'");
            }
            target = string(file, "target", t, "name");
            if (!target.matches("[A-Za-z0-9._+-]+")) throw new TestbedException(file + ": target.name '" + target + "' may use only letters, digits and . _ + -");
            run = runCommand(file, "target", t.get("run"));
        }
        Testbed ref = entry(file, "reference", m.get("reference"), "reference", false, target, run);
        if (!(m.get("testbeds") instanceof List<?> list) || list.isEmpty()) {
            throw new TestbedException(file + ": 'testbeds' must be a non-empty list");
        }
        List<Testbed> tbs = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Testbed t = entry(file, "testbeds[" + i + "]", list.get(i), null, true, target, run);
            // Names with {version} may agree until their compilers' versions are filled in (usable checks them then).
            for (Testbed o : tbs) if (o.name().equals(t.name()) && !t.name().contains(VERSION)) throw new TestbedException(file + ": testbed name '" + t.name() + "' is used twice");
            tbs.add(t);
        }
        return new Testbeds(ref, tbs);
    }

    /** In a testbed's name, the version its compiler reports (see {@link CompilerVersion#shortForm}). */
    public static final String VERSION = "{version}";

    private static final List<String> COMPILER_KEYS = List.of("c", "cpp", "ispc", "ispc-cpp", "sycl", "sycl-cpp");

    /** An emulator command: a non-empty list whose first word is a command (made absolute if it is a relative path). */
    private static List<String> runCommand(Path file, String where, Object o) {
        if (o == null) return List.of();
        if (!(o instanceof List<?> l) || l.isEmpty() || !(l.get(0) instanceof String first) || first.isBlank()) {
            throw new TestbedException(file + ": " + where + ".run must be a list: the emulator command and its options");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(command(first));
        for (Object a : l.subList(1, l.size())) cmd.add(String.valueOf(a));
        return List.copyOf(cmd);
    }

    private static Testbed entry(Path file, String where, Object o, String fixedName, boolean isTestbed, String target, List<String> run) {
        if (!(o instanceof Map<?, ?> m)) {
            throw new TestbedException(file + ": " + where + " must be a mapping with " + (isTestbed
                    ? "name, flags and at least one of c, cpp, ispc, ispc-cpp, sycl, sycl-cpp" : "c, cpp and (for ISPC tests) ispc"));
        }
        // The reference has always accepted (and ignored) name and flags: the driver is built at -O0.
        List<String> allowed = isTestbed ? List.of("name", "c", "cpp", "ispc", "ispc-cpp", "sycl", "sycl-cpp", "flags", "run", "axes")
                : List.of("name", "c", "cpp", "ispc", "flags");
        for (Object k : m.keySet()) {
            if (!(k instanceof String key) || !allowed.contains(key)) throw new TestbedException(file + ": " + where + ": unknown key '" + k + "'");
        }
        String name = fixedName != null ? fixedName : string(file, where, m, "name");
        if (!name.replace(VERSION, "0").matches("[A-Za-z0-9._+-]+")) {
            throw new TestbedException(file + ": " + where + ".name '" + name + "' may use only letters, digits, . _ + - and " + VERSION);
        }
        List<String> flags = new ArrayList<>();
        if (m.get("flags") != null) {
            if (!(m.get("flags") instanceof List<?> fl)) throw new TestbedException(file + ": " + where + ".flags must be a list");
            for (Object f : fl) flags.add(String.valueOf(f));
        }
        if (!isTestbed) {
            // The reference builds every driver: C and C++ are needed; ispc only writes the header of ISPC tests.
            return new Testbed(name, command(string(file, where, m, "c")), command(string(file, where, m, "cpp")),
                    optional(file, where, m, "ispc"), null, null, null, List.of(), target, run);
        }
        if (COMPILER_KEYS.stream().noneMatch(m::containsKey)) {
            throw new TestbedException(file + ": " + where + " names no compiler: give at least one of c, cpp, ispc, ispc-cpp, sycl, sycl-cpp");
        }
        if (m.containsKey("ispc") && (m.containsKey("c") || m.containsKey("cpp") || m.containsKey("ispc-cpp"))) {
            // Its flags are ISPC's (--target=...), which no C or C++ compiler understands.
            throw new TestbedException(file + ": " + where + ": a testbed with 'ispc' has no other compiler (its flags are ispc's)");
        }
        if (m.containsKey("axes") && (m.containsKey("ispc") || m.containsKey("sycl"))) {
            throw new TestbedException(file + ": " + where + ": axes are for C and C++ compilers, not ispc or a SYCL compiler");
        }
        if (m.containsKey("sycl") && m.keySet().size() > (m.containsKey("flags") ? 3 : 2)) {
            // Its flags are the SYCL compiler's (--acpp-targets=...), and it links what it builds.
            throw new TestbedException(file + ": " + where + ": a testbed with 'sycl' has no other compiler (its flags are the SYCL compiler's)");
        }
        Testbed t = new Testbed(name, optional(file, where, m, "c"), optional(file, where, m, "cpp"), optional(file, where, m, "ispc"),
                optional(file, where, m, "ispc-cpp"), optional(file, where, m, "sycl"), optional(file, where, m, "sycl-cpp"),
                List.copyOf(flags), target, m.containsKey("run") ? runCommand(file, where, m.get("run")) : run);
        if (m.containsKey("axes")) t = t.withSpace(space(file, where, m.get("axes"), t.run()));
        else if (!ConfigSpace.variablesOf(t.run()).isEmpty()) {
            throw new TestbedException(file + ": " + where + ": its run command uses {" + ConfigSpace.variablesOf(t.run()).get(0)
                    + "}, which only the axes of a configuration space can set");
        }
        String ispcTarget = t.ispcTarget();
        if (t.ispcCompiler() != null && ispcTarget != null && ispcTarget.contains(",")) {
            throw new TestbedException(file + ": " + where + ": one ISPC target per testbed, not '" + ispcTarget + "'");
        }
        return t;
    }

    /**
     * A testbed's configuration space: {@code axes} maps each axis's name to its alternatives.
     * An alternative is an option ({@code -O3}; several, split at spaces; {@code ""} for none),
     * a list of options, or a mapping with {@code flags} (either), {@code weight} (default 1)
     * the CPU features its programs need to run on this machine ({@code cpu}, named as in
     * /proc/cpuinfo), and the emulator variables it binds, each a value or a list to draw from. Every variable
     * of the run command must be bound by every alternative of one axis.
     */
    private static ConfigSpace space(Path file, String where, Object o, List<String> run) {
        String at = file + ": " + where + ".axes";
        if (!(o instanceof Map<?, ?> am) || am.isEmpty()) throw new TestbedException(at + " must map each axis's name to its alternatives");
        List<ConfigSpace.Axis> axes = new ArrayList<>();
        for (Map.Entry<?, ?> e : am.entrySet()) {
            String name = String.valueOf(e.getKey());
            if (!name.matches("[A-Za-z0-9_.-]+")) throw new TestbedException(at + ": axis name '" + name + "' may use only letters, digits and . _ -");
            if (!(e.getValue() instanceof List<?> alts) || alts.isEmpty()) throw new TestbedException(at + "." + name + " must be a non-empty list of alternatives");
            List<ConfigSpace.Alternative> list = new ArrayList<>();
            for (Object a : alts) list.add(alternative(at + "." + name, a));
            for (int i = 0; i < list.size(); i++) {
                for (int j = 0; j < i; j++) {
                    if (list.get(i).label().equals(list.get(j).label())) throw new TestbedException(at + "." + name + ": alternative '" + list.get(i).label() + "' is given twice");
                }
            }
            axes.add(new ConfigSpace.Axis(name, list));
        }
        List<String> used = ConfigSpace.variablesOf(run);
        for (String v : used) {
            List<String> binders = axes.stream().filter(a -> a.alternatives().stream().allMatch(x -> x.vars().containsKey(v))).map(ConfigSpace.Axis::name).toList();
            if (binders.isEmpty()) throw new TestbedException(at + ": the run command uses {" + v + "}, which no axis binds in every alternative");
        }
        for (ConfigSpace.Axis a : axes) {
            for (ConfigSpace.Alternative x : a.alternatives()) {
                for (String v : x.vars().keySet()) {
                    if (!used.contains(v)) throw new TestbedException(at + "." + a.name() + ": '" + x.label() + "' binds " + v + ", which the run command does not use");
                }
            }
        }
        return new ConfigSpace(axes);
    }

    private static ConfigSpace.Alternative alternative(String at, Object a) {
        if (a == null || a instanceof String || a instanceof List<?>) return new ConfigSpace.Alternative(options(at, a), 1, Map.of(), List.of());
        if (!(a instanceof Map<?, ?> m)) throw new TestbedException(at + ": an alternative is an option, a list of options or a mapping with flags");
        List<String> flags = options(at, m.get("flags"));
        double weight = 1;
        if (m.containsKey("weight")) {
            if (!(m.get("weight") instanceof Number n) || !(n.doubleValue() > 0) || Double.isInfinite(n.doubleValue())) {
                throw new TestbedException(at + ": weight must be a positive number, not '" + m.get("weight") + "'");
            }
            weight = n.doubleValue();
        }
        Map<String, List<String>> vars = new java.util.LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String k = String.valueOf(e.getKey());
            if (k.equals("flags") || k.equals("weight") || k.equals("cpu")) continue;
            if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) throw new TestbedException(at + ": '" + k + "' is neither flags, weight, cpu nor the name of a run command variable");
            List<String> values = new ArrayList<>();
            if (e.getValue() instanceof List<?> l) for (Object x : l) values.add(String.valueOf(x));
            else if (e.getValue() != null && !(e.getValue() instanceof Map<?, ?>)) values.add(String.valueOf(e.getValue()));
            if (values.isEmpty()) throw new TestbedException(at + ": " + k + " must be a value or a non-empty list of values");
            vars.put(k, values);
        }
        return new ConfigSpace.Alternative(flags, weight, vars, options(at, m.get("cpu")));
    }

    /** Options given as one string (split at spaces; empty for none) or a list of strings. */
    private static List<String> options(String at, Object o) {
        if (o == null) return List.of();
        if (o instanceof String s) return s.isBlank() ? List.of() : List.of(s.trim().split("\\s+"));
        if (o instanceof List<?> l) {
            List<String> out = new ArrayList<>();
            for (Object x : l) {
                if (x instanceof Map<?, ?> || x instanceof List<?>) throw new TestbedException(at + ": an option must be a string, not " + x);
                out.add(String.valueOf(x));
            }
            return out;
        }
        throw new TestbedException(at + ": options must be a string or a list of strings, not " + o);
    }

    private static String optional(Path file, String where, Map<?, ?> m, String key) {
        return m.containsKey(key) ? command(string(file, where, m, key)) : null;
    }

    /** A compiler given by a relative path is made absolute: tests compile in their own scratch directory. */
    private static String command(String cmd) {
        return cmd.contains("/") ? Path.of(cmd).toAbsolutePath().normalize().toString() : cmd;
    }

    private static String string(Path file, String where, Map<?, ?> m, String key) {
        Object v = m.get(key);
        if (!(v instanceof String s) || s.isBlank()) throw new TestbedException(file + ": " + where + "." + key + " must be a command name");
        return s;
    }

    /**
     * The testbeds that run tests in {@code lang}: those with a compiler for it that is
     * installed and, for ISPC, whose target this CPU can run. Testbeds without a compiler
     * for {@code lang} are left out silently; the others are warned about once each (once
     * per target for targets the CPU lacks). A {@code {version}} in a name becomes the
     * version the testbed's compiler reports.
     */
    public List<Testbed> usable(Language lang, Consumer<String> warn) {
        return usable(lang, lang == Language.ISPC ? IspcTargets.hostFlags() : null, CompilerVersion::firstLine, warn);
    }

    /** As {@link #usable(Language, Consumer)}, with the CPU's flags given (null: unknown, no target is refused). */
    List<Testbed> usable(Language lang, java.util.Set<String> cpuFlags, Consumer<String> warn) {
        return usable(lang, cpuFlags, CompilerVersion::firstLine, warn);
    }

    /**
     * As {@link #usable(Language, Consumer)}, with the CPU's flags given (null: unknown, no
     * target is refused) and the first line of each compiler's {@code --version}.
     */
    List<Testbed> usable(Language lang, java.util.Set<String> cpuFlags, java.util.function.Function<String, String> versionOf,
                         Consumer<String> warn) {
        List<Testbed> ok = new ArrayList<>();
        Map<String, List<String>> lacking = new java.util.LinkedHashMap<>(); // target -> testbeds skipped for it
        Map<String, List<String>> missingFlags = new java.util.HashMap<>();
        for (Testbed t : all) {
            String cc = t.compiler(lang);
            if (cc == null) continue;
            if (!onPath(cc)) {
                warn.accept("testbed " + t.name() + " skipped: " + cc + " is not installed");
                continue;
            }
            if (t.emulated() && !onPath(t.run().get(0))) {
                warn.accept("testbed " + t.name() + " skipped: its emulator " + t.run().get(0) + " is not installed");
                continue;
            }
            String target = t.runsIspc(lang) ? t.ispcTarget() : null;
            List<String> missing = target == null || cpuFlags == null ? List.of() : IspcTargets.missing(target, cpuFlags);
            if (!missing.isEmpty()) {
                lacking.computeIfAbsent(target, k -> new ArrayList<>()).add(t.name());
                missingFlags.put(target, missing);
                continue;
            }
            ok.add(t.name().contains(VERSION) ? t.named(t.name().replace(VERSION, CompilerVersion.shortForm(versionOf.apply(cc)))) : t);
        }
        lacking.forEach((target, names) -> warn.accept((names.size() == 1 ? "testbed " : "testbeds ") + String.join(", ", names)
                + " skipped: this CPU cannot run ISPC target " + target + " (it lacks " + String.join(", ", missingFlags.get(target)) + ")"));
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Testbed t : ok) {
            if (!names.add(t.name())) throw new TestbedException("two testbeds are named " + t.name() + " once their compilers' versions are filled in");
        }
        return ok;
    }

    /**
     * The testbeds of {@code usable} whose C or C++ compiler takes their flags: it builds a
     * one-line file with them, and one that refuses (an option its version lacks, a typo) is
     * left out with a warning, where it would otherwise reject every test, each a finding. Of
     * a configuration space, each alternative is asked the same way (with the testbed's own
     * flags) and one refused is dropped from its axis with one line, never run.
     * ispc and SYCL compilers are not asked (ispc's targets are checked against the CPU, and
     * a SYCL compiler takes seconds on any file). A compiler the shell cannot run (exit 126 or
     * 127) is a {@link HarnessException}, as it is in a campaign.
     */
    public static List<Testbed> acceptingTheirFlags(List<Testbed> usable, Language lang, Consumer<String> warn) throws IOException {
        Path dir = Files.createTempDirectory("yarpj-flags-");
        try {
            Map<List<String>, String> asked = new java.util.HashMap<>(); // compiler and flags -> null if accepted, else the error
            // This CPU's features, read once for the alternatives that need some (cpu:); null (unknown) refuses none, as for ISPC targets.
            java.util.Set<String> cpuFlags = usable.stream().anyMatch(t -> t.space() != null) ? IspcTargets.hostFlags() : null;
            List<Testbed> ok = new ArrayList<>();
            for (Testbed t : usable) {
                if (t.runsIspc(lang) || t.runsSycl(lang) || (t.flags().isEmpty() && t.space() == null)) {
                    ok.add(t);
                    continue;
                }
                String refused = refusal(dir, lang, t, t.flags(), asked);
                if (refused != null) {
                    warn.accept("testbed " + t.name() + " skipped: " + refused);
                    continue;
                }
                if (t.space() == null) {
                    ok.add(t);
                    continue;
                }
                // Each option of the space with the testbed's own flags, once per compiler: one it refuses is dropped from its axis.
                List<ConfigSpace.Axis> axes = new ArrayList<>();
                String empty = null;
                for (ConfigSpace.Axis a : t.space().axes()) {
                    List<ConfigSpace.Alternative> kept = new ArrayList<>();
                    for (ConfigSpace.Alternative x : a.alternatives()) {
                        List<String> with = new ArrayList<>(t.flags());
                        with.addAll(x.flags());
                        List<String> lacks = t.emulated() || !t.target().equals(Testbed.HOST) || cpuFlags == null ? List.of()
                                : x.cpu().stream().filter(f -> !cpuFlags.contains(f)).toList();
                        String no = !lacks.isEmpty() ? "this CPU lacks " + String.join(", ", lacks)
                                : x.flags().isEmpty() ? null : refusal(dir, lang, t, with, asked);
                        if (no == null) kept.add(x);
                        else warn.accept("testbed " + t.name() + ": '" + x.label() + "' dropped from axis " + a.name() + ": " + no);
                    }
                    if (kept.isEmpty() && empty == null) empty = a.name();
                    axes.add(a.keeping(kept));
                }
                if (empty != null) warn.accept("testbed " + t.name() + " skipped: its compiler refuses every alternative of axis " + empty);
                else ok.add(t.withSpace(new ConfigSpace(axes)));
            }
            return ok;
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Null when {@code t}'s compiler builds a one-line file with {@code flags}, else the command
     * and its first error line; each compiler and set of flags is asked once ({@code asked}).
     */
    private static String refusal(Path dir, Language lang, Testbed t, List<String> flags, Map<List<String>, String> asked) throws IOException {
        List<String> key = new ArrayList<>(List.of(t.compiler(lang)));
        key.addAll(flags);
        if (asked.containsKey(key)) return asked.get(key);
        // C for C tests; C++ for the C++ compilers of C++, ISPC (its twin) and SYCL (its C++ lowering) tests.
        String src = lang == Language.C ? "yarpj-flags.c" : "yarpj-flags.cpp";
        Files.writeString(dir.resolve(src), "int yarpj_flags(int x) { return x + 1; }\n");
        List<String> cmd = new ArrayList<>(key);
        cmd.addAll(List.of("-w", "-c", src, "-o", "yarpj-flags.o")); // -w as in every compile of a test (Testbed.compileCommand)
        ProcessRunner.Result r = ProcessRunner.run(dir, "flags", cmd, new ProcessRunner.Limits(60, 4096, 64));
        // A compiler that cannot be run at all is a broken testbed file, not one refusing its flags.
        TestRunner.cannotRun(r, cmd);
        String no = r.ok() ? null : String.join(" ", cmd) + " fails: " + Signature.firstLine(r.stderr(), "error");
        asked.put(key, no);
        return no;
    }

    public static boolean onPath(String cmd) {
        if (cmd.contains("/")) return Files.isExecutable(Path.of(cmd));
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, cmd))) return true;
        }
        return false;
    }
}
