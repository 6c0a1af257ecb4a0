package dev.yarpj.harness;

import dev.yarpj.lower.Language;
import java.util.ArrayList;
import java.util.List;

/**
 * A compiler with flags: one column of the differential test. Each language has its own
 * compiler; a testbed with none for a campaign's language takes no part in it.
 *
 * <p>An ISPC test is compiled either by ISPC ({@code ispcCompiler}: {@code func.ispc}) or,
 * as the cross-language oracle, by a C++ compiler ({@code ispcCppCompiler}: {@code func.cpp},
 * the C++ lowering of the same program); a testbed has at most one of the two.
 */
public record Testbed(String name, String cCompiler, String cppCompiler, String ispcCompiler, String ispcCppCompiler,
                      List<String> flags) {

    /** The compiler this testbed runs on tests in {@code lang}, or null when it has none. */
    public String compiler(Language lang) {
        return switch (lang) {
            case C -> cCompiler;
            case CPP -> cppCompiler;
            case ISPC -> ispcCompiler != null ? ispcCompiler : ispcCppCompiler;
            case SYCL -> null; // no SYCL testbeds yet
        };
    }

    /** Whether this testbed compiles {@code lang} tests with ISPC itself (not their C++ twin). */
    public boolean runsIspc(Language lang) {
        return lang == Language.ISPC && ispcCompiler != null;
    }

    /** The file of a test in {@code lang} this testbed compiles. */
    public String source(Language lang) {
        if (lang == Language.ISPC && ispcCompiler == null) return "func." + Language.CPP.extension;
        return "func." + lang.extension;
    }

    /**
     * The command that compiles this testbed's source of a {@code lang} test to {@code object}.
     * ISPC has neither {@code -c} (it always makes an object) nor {@code -w} ({@code --woff});
     * its objects are position-independent so that they link into a PIE executable.
     */
    public List<String> compileCommand(Language lang, String object) {
        List<String> cmd = new ArrayList<>();
        cmd.add(compiler(lang));
        if (runsIspc(lang)) {
            cmd.add("--pic");
            cmd.addAll(flags);
            cmd.addAll(List.of("--woff", source(lang), "-o", object));
        } else {
            cmd.addAll(flags);
            cmd.addAll(List.of("-w", "-c", source(lang), "-o", object));
        }
        return cmd;
    }

    /** The ISPC target this testbed names ({@code --target=T} or {@code --target T}), or null. */
    public String ispcTarget() {
        if (ispcCompiler == null) return null;
        for (int i = 0; i < flags.size(); i++) {
            String f = flags.get(i);
            if (f.startsWith("--target=")) return f.substring("--target=".length());
            if (f.equals("--target") && i + 1 < flags.size()) return flags.get(i + 1);
        }
        return null;
    }
}
