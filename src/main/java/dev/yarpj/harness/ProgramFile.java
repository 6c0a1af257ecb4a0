package dev.yarpj.harness;

import com.fasterxml.jackson.databind.JsonNode;
import dev.yarpj.gen.Recipe;
import dev.yarpj.gen.Version;
import dev.yarpj.ir.Program;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A test's IR and its recipe, saved beside a finding's files ({@value #NAME}) so that
 * reduction can edit the program itself and lower it again, even after the generator has
 * changed: gzipped JSON ({@link ProgramJson}), with the yarpj version that wrote it.
 */
public record ProgramFile(Program program, Recipe recipe, String version) {
    public static final String NAME = "program.json.gz";
    /** The layout of the file; a reader refuses any other. */
    private static final int FORMAT = 1;

    public ProgramFile(Program program, Recipe recipe) {
        this(program, recipe, Version.VALUE);
    }

    /** The file's layout: its keys in this order. */
    private record Saved(int format, String yarpj, Recipe recipe, Program program) {}

    /** The file's bytes. */
    public byte[] bytes() throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(out)) {
            z.write(ProgramJson.write(new Saved(FORMAT, version, recipe, program), Saved.class).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    public void write(Path file) throws IOException {
        Files.write(file, bytes());
    }

    /** Reads {@code file}; a file that is not one gives {@link Finding.Unreadable} with a one-line message. */
    public static ProgramFile read(Path file) throws IOException {
        String text;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.util.zip.ZipException e) {
            throw new Finding.Unreadable("not a gzipped program file: " + file);
        }
        JsonNode m = ProgramJson.readTree(text);
        if (m == null) throw new Finding.Unreadable("not a program file (no JSON object): " + file);
        if (!m.path("format").isNumber() || m.get("format").intValue() != FORMAT) {
            throw new Finding.Unreadable(file + " is a program file of format " + m.get("format") + "; this yarpj reads format " + FORMAT);
        }
        try {
            return new ProgramFile(ProgramJson.fromTree(m.get("program"), Program.class), ProgramJson.fromTree(m.get("recipe"), Recipe.class),
                    m.path("yarpj").isTextual() ? m.get("yarpj").textValue() : String.valueOf(m.get("yarpj")));
        } catch (ProgramJson.Malformed e) {
            throw new Finding.Unreadable("cannot read " + file + ": " + e.getMessage());
        }
    }
}
