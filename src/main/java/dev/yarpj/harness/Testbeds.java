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

/** The reference compiler and the testbeds of a campaign, read from a YAML file. */
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
            if (!"reference".equals(k) && !"testbeds".equals(k)) throw new TestbedException(file + ": unknown key '" + k + "'");
        }
        Testbed ref = entry(file, "reference", m.get("reference"), "reference", false);
        if (!(m.get("testbeds") instanceof List<?> list) || list.isEmpty()) {
            throw new TestbedException(file + ": 'testbeds' must be a non-empty list");
        }
        List<Testbed> tbs = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            Testbed t = entry(file, "testbeds[" + i + "]", list.get(i), null, true);
            for (Testbed o : tbs) if (o.name().equals(t.name())) throw new TestbedException(file + ": testbed name '" + t.name() + "' is used twice");
            tbs.add(t);
        }
        return new Testbeds(ref, tbs);
    }

    private static Testbed entry(Path file, String where, Object o, String fixedName, boolean needFlags) {
        if (!(o instanceof Map<?, ?> m)) throw new TestbedException(file + ": " + where + " must be a mapping with c, cpp" + (needFlags ? ", name and flags" : ""));
        for (Object k : m.keySet()) {
            if (!(k instanceof String key) || !List.of("name", "c", "cpp", "flags").contains(key)) throw new TestbedException(file + ": " + where + ": unknown key '" + k + "'");
        }
        String name = fixedName != null ? fixedName : string(file, where, m, "name");
        if (!name.matches("[A-Za-z0-9._+-]+")) {
            throw new TestbedException(file + ": " + where + ".name '" + name + "' may use only letters, digits and . _ + -");
        }
        List<String> flags = new ArrayList<>();
        if (m.get("flags") != null) {
            if (!(m.get("flags") instanceof List<?> fl)) throw new TestbedException(file + ": " + where + ".flags must be a list");
            for (Object f : fl) flags.add(String.valueOf(f));
        }
        return new Testbed(name, command(string(file, where, m, "c")), command(string(file, where, m, "cpp")), List.copyOf(flags));
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

    /** The testbeds whose compiler for {@code lang} is installed; warns once about each other one. */
    public List<Testbed> usable(Language lang, Consumer<String> warn) {
        List<Testbed> ok = new ArrayList<>();
        for (Testbed t : all) {
            if (onPath(t.compiler(lang))) ok.add(t);
            else warn.accept("testbed " + t.name() + " skipped: " + t.compiler(lang) + " is not installed");
        }
        return ok;
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
