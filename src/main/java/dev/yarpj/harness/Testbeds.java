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
            throw new TestbedException(file + ":" + (e.getProblemMark().getLine() + 1) + ":" + (e.getProblemMark().getColumn() + 1)
                    + ": malformed YAML: " + e.getProblem());
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
            if (!List.of("name", "c", "cpp", "flags").contains(k)) throw new TestbedException(file + ": " + where + ": unknown key '" + k + "'");
        }
        String name = fixedName != null ? fixedName : string(file, where, m, "name");
        List<String> flags = new ArrayList<>();
        if (m.get("flags") != null) {
            if (!(m.get("flags") instanceof List<?> fl)) throw new TestbedException(file + ": " + where + ".flags must be a list");
            for (Object f : fl) flags.add(String.valueOf(f));
        }
        return new Testbed(name, string(file, where, m, "c"), string(file, where, m, "cpp"), List.copyOf(flags));
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
