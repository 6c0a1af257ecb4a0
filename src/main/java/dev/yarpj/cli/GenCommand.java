package dev.yarpj.cli;

import dev.yarpj.gen.GeneratedTest;
import dev.yarpj.gen.Generator;
import dev.yarpj.gen.Version;
import dev.yarpj.interp.UndefinedBehaviorException;
import dev.yarpj.lower.CheckMode;
import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "gen", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        description = {
            "Generate UB-free loop tests whose output is known in advance.",
            "Writes func.<ext> (the test function), driver.<ext>",
            "(globals, main, output check), init.h and expected.txt (the checksums",
            "main prints: one per input set, main calling test once per set); with",
            "extern helper functions",
            "also helpers.<ext>, which defines them: build it with func into one object",
            "('cc -r func.c helpers.c -o func.o'), with -flto to inline across the two.",
            "Link C tests with -lm: floating point may call fmin, fma or sqrt.",
            "With --count K, K tests for consecutive seeds go to DIR/<seed>/; a single",
            "test goes to DIR itself.",
            "--lang=ispc writes func.ispc, func.cpp (the C++ lowering of the same",
            "program), driver.cpp and init.h: build func.ispc with",
            "'ispc --pic ... -h func_ispc.h' and the driver with -DYARPJ_ISPC.",
            "--lang=sycl writes func.cpp (SYCL 2020: build it with a SYCL compiler such",
            "as 'acpp --acpp-targets=omp'), func_ref.cpp (the C++ lowering of the same",
            "program), driver.cpp and init.h.",
            "More in docs/guide.md (gen, ISPC, SYCL, Policies)."})
final class GenCommand implements Callable<Integer> {

    enum Lang {
        c(Language.C), cpp(Language.CPP), ispc(Language.ISPC), sycl(Language.SYCL);

        final Language language;

        Lang(Language l) {
            this.language = l;
        }
    }

    enum Check { hash, asserts }

    @Option(names = "--lang", description = "Target language: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            defaultValue = "c")
    Lang lang;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the (first) test, 0 or more. Without it, one is picked and printed.")
    Long seed;

    @Option(names = "--count", paramLabel = "K", defaultValue = "1",
            description = "Number of tests, for seeds N, N+1, ... (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "yarpj-out",
            description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @CommandLine.Mixin
    PolicyOption policy;

    @Option(names = "--check", description = "Driver's output check: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).",
            defaultValue = "hash")
    Check check;

    @Option(names = "--swarm", description = "Swarm testing: each test switches a random subset of features off.")
    boolean swarm;

    @Option(names = "--dump-skeleton", description = "Also write skeleton.txt, the test's structure without expressions.")
    boolean dumpSkeleton;

    @Option(names = "--quiet", description = "Print nothing but errors.")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (count < 1) throw new Main.UsageError("--count must be at least 1, got " + count);
        if (seed != null && seed < 0) throw new Main.UsageError("--seed must be 0 or more, got " + seed);
        if (seed != null && seed > Long.MAX_VALUE - count) throw new Main.UsageError("--seed + --count overflows");
        GenPolicy genPolicy = policy.load();
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new Main.UsageError("cannot create output directory " + out + ": " + reason(e));
        }
        if (!Files.isWritable(out)) throw new Main.UsageError("output directory is not writable: " + out);
        long first = seed != null ? seed : new SecureRandom().nextLong() & 0xFFFF_FFFFL;
        if (seed == null && !quiet) spec.commandLine().getOut().println("seed: " + first);

        CheckMode mode = check == Check.hash ? CheckMode.HASH : CheckMode.ASSERTS;
        Generator plain = new Generator(genPolicy, lang.language, mode);
        String invocation = "yarpj " + String.join(" ", withoutPaths(spec.commandLine().getParseResult().originalArgs()));
        int rejected = 0;
        for (long s = first; s < first + count; s++) {
            String provenance = provenance(s, genPolicy, invocation);
            GeneratedTest t;
            Generator gen = swarm ? new Generator(genPolicy.swarm(s), lang.language, mode) : plain;
            try {
                t = gen.generate(s, provenance);
            } catch (UndefinedBehaviorException e) {
                rejected++;
                spec.commandLine().getErr().println("yarpj: generator bug: seed " + s + " rejected by the interpreter: "
                        + e.getMessage());
                continue;
            }
            Path dir = count == 1 ? out : out.resolve(Long.toString(s));
            write(dir, t);
        }
        if (!quiet) {
            spec.commandLine().getOut().println("wrote " + (count - rejected) + " test(s) to " + out
                    + (rejected > 0 ? "; " + rejected + " rejected (generator bug, please report)" : ""));
        }
        return rejected > 0 ? 1 : 0;
    }

    /**
     * The command line as a file header shows it: without {@code --out} (the same seed gives the
     * same bytes in any directory) and with a policy file by its name alone, so that nothing a
     * user pastes from a test names a path of their machine.
     */
    static java.util.List<String> withoutPaths(java.util.List<String> args) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--out")) {
                i++;
            } else if (a.startsWith("--out=")) {
                continue;
            } else if (a.equals("--policy") && i + 1 < args.size()) {
                out.add(a);
                out.add(java.nio.file.Path.of(args.get(++i)).getFileName().toString());
            } else if (a.startsWith("--policy=")) {
                out.add("--policy=" + java.nio.file.Path.of(a.substring("--policy=".length())).getFileName());
            } else {
                out.add(a);
            }
        }
        return out;
    }

    private String provenance(long s, GenPolicy policy, String invocation) {
        StringBuilder sb = new StringBuilder();
        sb.append("Generated by yarpj ").append(Version.VALUE).append(": seed ").append(s)
                .append(", policy ").append(policy.name()).append(swarm ? "+swarm" : "").append(", lang ").append(lang)
                .append(", check ").append(check).append('\n');
        sb.append("invocation: ").append(invocation).append('\n');
        sb.append("regenerate: yarpj gen --lang=").append(lang).append(" --seed=").append(s)
                .append(" --check=").append(check);
        if (this.policy.file != null) sb.append(" --policy=").append(this.policy.file.getFileName());
        if (swarm) sb.append(" --swarm");
        return sb.toString();
    }

    private void write(Path dir, GeneratedTest t) {
        try {
            Files.createDirectories(dir);
            for (Map.Entry<String, String> f : t.files().files().entrySet()) {
                Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
            }
            // The interpreter's prediction: what driver prints with --check=hash.
            Files.writeString(dir.resolve("expected.txt"), t.prediction().expectedOutput() + "\n");
            if (dumpSkeleton) Files.writeString(dir.resolve("skeleton.txt"), t.skeleton().dump());
        } catch (IOException e) {
            throw new Main.UsageError("cannot write to " + dir + ": " + reason(e));
        }
    }

    private static String reason(IOException e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName().replace("Exception", "") + (m == null ? "" : " (" + m + ")");
    }
}
