package dev.yarpj.harness;

import dev.yarpj.lower.Language;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A compiler with flags: one column of the differential test. Each language has its own
 * compiler; a testbed with none for a campaign's language takes no part in it.
 *
 * <p>An ISPC test is compiled either by ISPC ({@code ispcCompiler}: {@code func.ispc}) or,
 * as the cross-language oracle, by a C++ compiler ({@code ispcCppCompiler}: {@code func.cpp},
 * the C++ lowering of the same program); a testbed has at most one of the two. A SYCL test
 * likewise by a SYCL compiler ({@code syclCompiler}: {@code func.cpp}, which it also links,
 * since SYCL objects need its runtime) or by a C++ compiler ({@code syclCppCompiler}:
 * {@code func_ref.cpp}, the C++ lowering).
 *
 * <p>Programs run on {@code target}: "host" unless the testbeds file says otherwise (a
 * cross compiler's, such as aarch64-sve2), where they run under the emulator command
 * {@code run} (qemu-aarch64 -cpu max, say; empty on the host).
 *
 * <p>A testbed with a configuration {@code space} is a template: each test builds with
 * {@link #drawn(long)}, the testbed with the options its seed draws from each axis added to
 * {@code flags} and its emulator command following the draw; {@code drawn} says what was
 * drawn (axis to alternative), empty for a testbed without a space.
 *
 * <p>{@code settings} are the emulator settings each build of this testbed runs under, one run
 * each, the drawn one ({@code run}) first: a drawn alternative for code valid at several
 * vector lengths (SVE without {@code -msve-vector-bits}, RVV without
 * {@code -mrvv-vector-bits=zvl}) allows each, and one build then runs at every one. A testbed
 * without a space has one, {@code run}.
 */
public record Testbed(String name, String cCompiler, String cppCompiler, String ispcCompiler, String ispcCppCompiler,
                      String syclCompiler, String syclCppCompiler, List<String> flags, String target, List<String> run,
                      ConfigSpace space, Map<String, String> drawn, List<EmulatorSetting> settings) {
    /** The target of testbeds whose programs run on this machine as they are. */
    public static final String HOST = "host";

    /**
     * One way a build runs: the emulator command with its variables filled in, and a label
     * naming their values ({@code vlen=256}; empty when the command has none).
     */
    public record EmulatorSetting(String label, List<String> run) {
        public EmulatorSetting {
            run = List.copyOf(run);
        }

        static EmulatorSetting of(List<String> template, Map<String, String> vars, java.util.Set<String> named) {
            List<String> kv = new ArrayList<>();
            vars.forEach((k, v) -> { if (named.contains(k)) kv.add(k + "=" + v); });
            return new EmulatorSetting(String.join(",", kv), ConfigSpace.substitute(template, vars));
        }
    }

    public Testbed {
        drawn = drawn == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(drawn));
        settings = settings == null || settings.isEmpty() ? List.of(new EmulatorSetting("", run)) : List.copyOf(settings);
    }

    /** A testbed with fixed flags, no configuration space. */
    public Testbed(String name, String cCompiler, String cppCompiler, String ispcCompiler, String ispcCppCompiler,
                   String syclCompiler, String syclCppCompiler, List<String> flags, String target, List<String> run) {
        this(name, cCompiler, cppCompiler, ispcCompiler, ispcCppCompiler, syclCompiler, syclCppCompiler, flags, target, run, null, Map.of(), null);
    }

    /**
     * The testbed test {@code seed} builds with: this one without a configuration space, else
     * its flags followed by the options drawn for the seed, its emulator command with the
     * drawn variables filled in, {@link #drawn} saying what was drawn, and the {@link #settings}
     * the drawn alternatives allow.
     */
    public Testbed drawn(long seed) {
        if (space == null) return this;
        ConfigSpace.Draw d = space.draw(seed, name);
        List<String> all = new ArrayList<>(flags);
        all.addAll(d.flags());
        // A setting's label names the variables that tell it from the others (the vector length), not those all share.
        java.util.Set<String> varying = new java.util.LinkedHashSet<>();
        for (Map<String, String> v : d.runs()) {
            v.forEach((k, x) -> { if (!x.equals(d.vars().get(k))) varying.add(k); });
        }
        List<EmulatorSetting> each = d.runs().stream().map(v -> EmulatorSetting.of(run, v, varying)).toList();
        return new Testbed(name, cCompiler, cppCompiler, ispcCompiler, ispcCppCompiler, syclCompiler, syclCppCompiler, List.copyOf(all),
                target, each.get(0).run(), null, d.choices(), each);
    }

    /** This testbed with configuration space {@code s} instead of its own. */
    public Testbed withSpace(ConfigSpace s) {
        return new Testbed(name, cCompiler, cppCompiler, ispcCompiler, ispcCppCompiler, syclCompiler, syclCppCompiler, flags, target, run, s, drawn,
                settings);
    }

    /** This testbed running its builds under {@code setting} alone: how a finding at one vector length is reproduced. */
    public Testbed runningUnder(EmulatorSetting setting) {
        return new Testbed(name, cCompiler, cppCompiler, ispcCompiler, ispcCppCompiler, syclCompiler, syclCppCompiler, flags, target,
                setting.run(), space, drawn, List.of(setting));
    }

    /**
     * The options this testbed's draw added, as one line ("" when nothing was drawn): what a
     * signature names. The emulator's settings are left out: they change how a build runs, not
     * what the compiler made.
     */
    public String drawnLabel() {
        return String.join(" ", drawn.values().stream().filter(ConfigSpace.Alternative::addsOptions).toList());
    }

    /** Whether this testbed links with link-time optimization: then it links the test itself, with its own flags. */
    public boolean linksWithLto() {
        return flags.stream().anyMatch(f -> f.equals("-flto") || f.startsWith("-flto="));
    }

    /**
     * How many times the run limit an emulated program gets: qemu-user runs vector code at a
     * tenth of the speed or less, and a slow run that is not a hang must not look like one.
     */
    public static final int EMULATION_SLOWDOWN = 10;

    /** This testbed under another name. */
    public Testbed named(String newName) {
        return new Testbed(newName, cCompiler, cppCompiler, ispcCompiler, ispcCppCompiler, syclCompiler, syclCppCompiler, flags, target, run,
                space, drawn, settings);
    }

    /** The compiler this testbed runs on tests in {@code lang}, or null when it has none. */
    public String compiler(Language lang) {
        return switch (lang) {
            case C -> cCompiler;
            case CPP -> cppCompiler;
            case ISPC -> ispcCompiler != null ? ispcCompiler : ispcCppCompiler;
            case SYCL -> syclCompiler != null ? syclCompiler : syclCppCompiler;
        };
    }

    /** Whether this testbed compiles {@code lang} tests with ISPC itself (not their C++ twin). */
    public boolean runsIspc(Language lang) {
        return lang == Language.ISPC && ispcCompiler != null;
    }

    /** Whether this testbed compiles {@code lang} tests with a SYCL compiler (not their C++ twin). */
    public boolean runsSycl(Language lang) {
        return lang == Language.SYCL && syclCompiler != null;
    }

    /**
     * The command that links the driver with this testbed's object: the reference's compiler,
     * or for a SYCL compiler that compiler with its flags (the targets must match), or with
     * link-time optimization ({@code -flto}) the testbed's own compiler and flags, since only
     * it can read its objects.
     */
    public List<String> linkCommand(Language lang, String reference, String object, String binary) {
        List<String> cmd = new ArrayList<>(linker(lang, reference));
        cmd.addAll(List.of("driver.o", object, "-o", binary, MATH_LIBRARY));
        return cmd;
    }

    /**
     * What ends every link of a test, and every command that builds one into a program: the C
     * math library, which a test's fmin, fma or sqrt may call (C++ links it anyway).
     */
    public static final String MATH_LIBRARY = "-lm";

    /** The linking program and its flags, without the files. */
    public List<String> linker(Language lang, String reference) {
        boolean linksItself = runsSycl(lang) || (linksWithLto() && !runsIspc(lang));
        if (!linksItself) return List.of(reference);
        List<String> cmd = new ArrayList<>(List.of(compiler(lang)));
        cmd.addAll(flags);
        return cmd;
    }

    /**
     * The command that builds the driver of a {@code lang} test to {@code driver.o} at -O0 with
     * the reference's compiler {@code reference}; for ISPC it includes ispc's header
     * {@code func_ispc.h} (-DYARPJ_ISPC), which must be written first. Every testbed links
     * with that one object ({@link #linkCommand}).
     */
    public static List<String> driverCommand(Language lang, String reference) {
        List<String> d = new ArrayList<>(List.of(reference, "-O0", "-w"));
        if (lang == Language.ISPC) d.add("-DYARPJ_ISPC");
        d.addAll(List.of("-c", "driver." + lang.driverLanguage().extension, "-o", "driver.o"));
        return List.copyOf(d);
    }

    /** Whether its programs run under an emulator. */
    public boolean emulated() {
        return !run.isEmpty();
    }

    /** The command that runs {@code binary} (a path), under the emulator if there is one. */
    public List<String> execCommand(String binary) {
        List<String> cmd = new ArrayList<>(run);
        cmd.add(binary);
        return cmd;
    }

    /** The file of a test in {@code lang} this testbed compiles. */
    public String source(Language lang) {
        if (lang == Language.SYCL && syclCompiler == null) return "func_ref.cpp";
        if (lang == Language.ISPC && ispcCompiler == null) return "func." + Language.CPP.extension;
        return "func." + lang.extension;
    }

    /**
     * The command that compiles this testbed's source of a {@code lang} test to {@code object}.
     * ISPC has neither {@code -c} (it always makes an object) nor {@code -w} ({@code --woff});
     * its objects are position-independent so that they link into a PIE executable.
     */
    public List<String> compileCommand(Language lang, String object) {
        return compileCommand(lang, object, null);
    }

    /**
     * As {@link #compileCommand(Language, String)}, for a C or C++ test with a second file
     * {@code second} (its extern helpers; null: none): both files are compiled, each on its
     * own, into one relocatable object ({@code -r}, a partial link), so that the test still
     * builds to one object and links as one. With {@code -flto} the compiler keeps or
     * finishes the link-time optimization across the two files.
     */
    public List<String> compileCommand(Language lang, String object, String second) {
        List<String> cmd = new ArrayList<>();
        cmd.add(compiler(lang));
        if (runsIspc(lang)) {
            cmd.add("--pic");
            cmd.addAll(flags);
            cmd.addAll(List.of("--woff", source(lang), "-o", object));
        } else if (second != null && (lang == Language.C || lang == Language.CPP)) {
            cmd.addAll(flags);
            cmd.addAll(List.of("-w", "-r", source(lang), second, "-o", object));
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
