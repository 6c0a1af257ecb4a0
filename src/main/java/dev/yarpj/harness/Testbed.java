package dev.yarpj.harness;

import dev.yarpj.lower.Language;
import java.util.ArrayList;
import java.util.List;

/** A compiler with flags: one column of the differential test. */
public record Testbed(String name, String cCompiler, String cppCompiler, List<String> flags) {
    public String compiler(Language lang) {
        return lang == Language.C ? cCompiler : cppCompiler;
    }

    /** The command that compiles {@code source} to {@code object}. */
    public List<String> compileCommand(Language lang, String source, String object) {
        List<String> cmd = new ArrayList<>();
        cmd.add(compiler(lang));
        cmd.addAll(flags);
        cmd.addAll(List.of("-w", "-c", source, "-o", object));
        return cmd;
    }
}
