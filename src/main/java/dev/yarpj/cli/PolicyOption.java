package dev.yarpj.cli;

import dev.yarpj.policy.GenPolicy;
import dev.yarpj.policy.PolicyException;
import dev.yarpj.policy.PolicyLoader;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The --policy option of every command that generates, and its loading. */
final class PolicyOption {
    @Option(names = "--policy", paramLabel = "FILE", description = "Generation policy (YAML); default: the built-in policy (policies/default.yaml).")
    Path file;

    /** The policy, or a one-line usage error naming the file, line, column and key at fault. */
    GenPolicy load() {
        try {
            return file == null ? GenPolicy.defaults() : PolicyLoader.load(file);
        } catch (PolicyException e) {
            throw new Main.UsageError(e.getMessage());
        }
    }
}
