package dev.yarpj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Running real tools from tests: compilers, ispc, the built test programs. */
public final class Commands {
    private Commands() {}

    /**
     * Runs {@code cmd} in {@code dir} and returns what it printed (stdout and stderr); fails
     * the test if it cannot start, takes over two minutes or exits non-zero. Leak checking
     * is off: a test program exits without freeing, on purpose.
     */
    public static String run(Path dir, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("ASAN_OPTIONS", "detect_leaks=0");
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            fail(cmd[0] + " is needed for this test (install it: see .ci/run): " + e.getMessage());
            return null;
        }
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd) + " timed out");
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + " in " + dir + ":\n" + text);
        return text;
    }

    /**
     * A test's C or C++ sources in {@code dir}: {@code func.EXT} and, when the test has extern
     * helpers, its second file {@code helpers.EXT}.
     */
    public static List<String> sources(Path dir, String ext) {
        List<String> s = new ArrayList<>(List.of("func." + ext));
        if (Files.exists(dir.resolve("helpers." + ext))) s.add("helpers." + ext);
        return s;
    }

    /**
     * The arguments that build a test's object as the harness does: {@code -c func.EXT}, or
     * for a test with a second file {@code -r func.EXT helpers.EXT} (both into one object).
     */
    public static List<String> object(Path dir, String ext) {
        List<String> s = sources(dir, ext);
        List<String> a = new ArrayList<>(List.of(s.size() > 1 ? "-r" : "-c"));
        a.addAll(s);
        return a;
    }

    /** {@code parts} as one command: each a String or a list of them, flattened. */
    public static String[] cmd(Object... parts) {
        List<String> c = new ArrayList<>();
        for (Object o : parts) {
            if (o instanceof List<?> l) for (Object x : l) c.add((String) x);
            else c.add((String) o);
        }
        return c.toArray(String[]::new);
    }

    /** Whether {@code cmd --version} runs and succeeds. */
    public static boolean onPath(String cmd) {
        try {
            Process p = new ProcessBuilder(cmd, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
