package dev.yarpj.harness;

import dev.yarpj.lower.Language;
import dev.yarpj.policy.GenPolicy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Everything a test of a campaign needs to know, fixed for the campaign. */
public record CampaignConfig(Language lang, GenPolicy policy, Path policyFile, boolean swarm, Testbed reference,
                      List<Testbed> testbeds, ProcessRunner.Limits compileLimits, ProcessRunner.Limits recheckLimits,
                      ProcessRunner.Limits runLimits, String yarpj, Map<String, String> compilerVersions) {}
