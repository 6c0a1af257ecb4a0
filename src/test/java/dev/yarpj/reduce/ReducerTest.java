package dev.yarpj.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.yarpj.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A wrong-code finding planted by the miscompiling fake compiler is reduced by C-Vise to a
 * handful of lines, and what it keeps is sanitizer-clean and still shows the bug.
 */
class ReducerTest {
    private static final Path FAKES = Path.of("src/test/resources/fake-compilers").toAbsolutePath();

    @Test
    void plantedWrongCodeIsReducedToAtMostTwentySanitizerCleanLines(@TempDir Path dir) throws Exception {
        String fake = FAKES.resolve("miscompile.sh").toString();
        Path finding = plant(dir, "miscompile", "1..20", "wrong-code");

        Reducer.Result r = Reducer.reduce(finding, new Reducer.Options(180, 2, "cvise"));
        assertTrue(r.linesAfter() <= 20, "reduced to " + r.linesAfter() + " lines:\n" + Files.readString(r.reduced()));
        assertTrue(r.linesAfter() < r.linesBefore());
        assertTrue(r.accepted() > 0, "the log names each accepted candidate");

        // Independently of the interestingness script: the result is sanitizer-clean with gcc
        // and clang, and the fake compiler still changes its output.
        Path work = r.reduced().getParent();
        for (String cc : List.of("gcc", "clang")) {
            run(work, cc, "-O0", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-w", "merged.c", "-o", cc + ".san");
            run(work, "./" + cc + ".san");
        }
        run(work, "gcc", "-O0", "-w", "merged.c", "-o", "ref.bin");
        run(work, fake, "-O2", "-w", "merged.c", "-o", "bug.bin");
        assertNotEquals(run(work, "./ref.bin"), run(work, "./bug.bin"));
    }

    @Test
    void plantedCompilerCrashIsReducedWithItsSignatureKept(@TempDir Path dir) throws Exception {
        String fake = FAKES.resolve("ice-on-loop.sh").toString();
        Path finding = plant(dir, "ice-on-loop", "1..2", "compiler-crash");
        String signature = Files.readString(finding.getParent().resolve("signature.txt"));
        assertTrue(signature.contains("fake_loop_pass"), signature);

        Reducer.Result r = Reducer.reduce(finding, new Reducer.Options(120, 2, "cvise"));
        String reduced = Files.readString(r.reduced());
        assertTrue(r.linesAfter() <= 12 && r.linesAfter() < r.linesBefore(), "reduced to " + r.linesAfter() + " lines:\n" + reduced);
        assertTrue(reduced.matches("(?s).*for *\\(.*"), "the loop the crash needs is kept:\n" + reduced);
        // The fake compiler still crashes on it with the same message, and the test is sanitizer-clean.
        Path work = r.reduced().getParent();
        Process p = new ProcessBuilder(fake, "-O2", "-c", "merged.c", "-o", "x.o").directory(work.toFile()).redirectErrorStream(true).start();
        String err = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(Reducer.crashMessage(Files.readString(finding.resolve("compile.stderr"))), Reducer.crashMessage(err));
        for (String cc : List.of("gcc", "clang")) {
            run(work, cc, "-O0", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-w", "merged.c", "-o", cc + ".san");
            run(work, "./" + cc + ".san");
        }
    }

    /** Fuzzes {@code seeds} of the tiny policy with the fake compiler {@code fake} as the only testbed; the first finding of {@code kind}. */
    private static Path plant(Path dir, String fake, String seeds, String kind) throws Exception {
        try (Stream<Path> s = Files.list(FAKES)) {
            s.forEach(p -> p.toFile().setExecutable(true));
        }
        String path = FAKES.resolve(fake + ".sh").toString();
        Path tb = dir.resolve("testbeds.yaml");
        Files.writeString(tb, "reference: {c: gcc, cpp: g++}\ntestbeds:\n  - {name: fake-" + fake + ", c: " + path + ", cpp: " + path
                + ", flags: [-O2]}\n");
        Path results = dir.resolve("results");
        assertEquals(0, cli("fuzz", "--quiet", "--seeds", seeds, "-j", "2", "--out", results.toString(), "--testbeds", tb.toString(),
                "--policy", "src/test/resources/policies/tiny.yaml"));
        try (Stream<Path> s = Files.walk(results.resolve(kind), 2)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d+")).sorted().findFirst().orElseThrow();
        }
    }

    private static int cli(String... args) {
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(new StringWriter()));
        return cl.execute(args);
    }

    private static String run(Path dir, String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("ASAN_OPTIONS", "detect_leaks=0");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }
}
