package dev.yarpj.harness;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a campaign tests, saved in {@code DIR/campaign.json} by the run that starts it: a
 * resumed run and every shard that joins take these, and a setting given again must be the
 * same (a campaign keeps what it tests). -j and the duration belong to one run and may change;
 * the saved duration is the default of a resumed run, and so is the -j of the run it continues
 * (from campaign.jsonl's last start line, {@link Campaign#lastJobs}).
 *
 * @param lang            the language as the CLI names it ({@code c}, {@code cpp}, ...)
 * @param policy          the policy file's absolute path, or null for the built-in default
 * @param testbeds        the testbeds file's absolute path
 * @param lastSeed        the last seed, or null: no end
 * @param durationSeconds the duration the campaign was started with, or null
 * @param shards          the number of shards, or null: not sharded
 * @param generator       where the tests come from ({@code yarpj fuzz --generator}: yarpj, csmith, yarpgen)
 * @param generatorTool   the generator's program as given (--yarpgen PATH, absolute), or null
 */
public record CampaignSettings(String lang, String policy, boolean swarm, String testbeds, long firstSeed, Long lastSeed,
                               Double durationSeconds, double compileTimeoutSeconds, double runTimeoutSeconds, Integer shards,
                               String generator, String generatorTool) {
    /** The settings of a campaign of yarpj's generator. */
    public CampaignSettings(String lang, String policy, boolean swarm, String testbeds, long firstSeed, Long lastSeed,
                            Double durationSeconds, double compileTimeoutSeconds, double runTimeoutSeconds, Integer shards) {
        this(lang, policy, swarm, testbeds, firstSeed, lastSeed, durationSeconds, compileTimeoutSeconds, runTimeoutSeconds, shards, "yarpj", null);
    }

    /** The file that holds a campaign's settings in its results directory. */
    public static Path file(Path out) {
        return out.resolve("campaign.json");
    }

    /** Settings that cannot be read; the message is one line. */
    public static final class Damaged extends RuntimeException {
        Damaged(Path file, String why) {
            super("cannot use " + file + ": it is damaged (" + why + ")", null, false, false);
        }
    }

    /** Reads saved settings, every one checked once here. */
    public static CampaignSettings read(Path file) {
        try {
            Map<String, Object> m = JsonFiles.parseObject(Files.readString(file));
            if (m == null) throw new Damaged(file, "not one JSON object");
            if (!(m.get("first_seed") instanceof Number first) || !(m.get("lang") instanceof String lang)
                    || !(m.get("testbeds") instanceof String testbeds) || !(m.get("compile_timeout_s") instanceof Number compile)
                    || !(m.get("run_timeout_s") instanceof Number run)
                    || !(m.get("last_seed") == null || m.get("last_seed") instanceof Number)
                    || !(m.get("shards") == null || m.get("shards") instanceof Number)
                    || !(m.get("duration_s") == null || m.get("duration_s") instanceof Number)
                    || !(m.get("policy") == null || m.get("policy") instanceof String)
                    || !(m.get("generator") == null || m.get("generator") instanceof String)
                    || !(m.get("generator_tool") == null || m.get("generator_tool") instanceof String)) {
                throw new Damaged(file, "a setting is missing or of the wrong type");
            }
            return new CampaignSettings(lang, (String) m.get("policy"), Boolean.TRUE.equals(m.get("swarm")), testbeds,
                    first.longValue(), m.get("last_seed") instanceof Number n ? n.longValue() : null,
                    m.get("duration_s") instanceof Number d ? d.doubleValue() : null, compile.doubleValue(), run.doubleValue(),
                    m.get("shards") instanceof Number s ? s.intValue() : null,
                    m.get("generator") instanceof String g ? g : "yarpj", (String) m.get("generator_tool"));
        } catch (IOException e) {
            throw new Damaged(file, e.getClass().getSimpleName());
        }
    }

    /**
     * Saves these settings unless a campaign is there already: the first of many shards
     * starting at once wins, through a hard link that fails if the file exists.
     *
     * @return false when another process saved its settings first
     */
    public boolean saveIfAbsent(Path file) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lang", lang);
        m.put("policy", policy);
        m.put("swarm", swarm);
        m.put("testbeds", testbeds);
        m.put("first_seed", firstSeed);
        m.put("last_seed", lastSeed);
        m.put("duration_s", durationSeconds);
        m.put("compile_timeout_s", compileTimeoutSeconds);
        m.put("run_timeout_s", runTimeoutSeconds);
        m.put("shards", shards);
        m.put("generator", generator);
        if (generatorTool != null) m.put("generator_tool", generatorTool);
        Path tmp = file.resolveSibling(".campaign.json." + ProcessHandle.current().pid() + "." + System.nanoTime() + ".tmp");
        Files.writeString(tmp, JsonFiles.write(m) + "\n");
        try {
            Files.createLink(file, tmp);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The settings a run's command line gives again, each null where it is not given: the
     * seed options as given ({@code seeds} as A..B), to compare with the saved ones.
     */
    public record Given(String lang, String policy, Boolean swarm, String testbeds, Double compileTimeoutSeconds,
                        Double runTimeoutSeconds, Long seed, String seeds, Long count, String generator, String generatorTool) {
        public Given(String lang, String policy, Boolean swarm, String testbeds, Double compileTimeoutSeconds,
                     Double runTimeoutSeconds, Long seed, String seeds, Long count) {
            this(lang, policy, swarm, testbeds, compileTimeoutSeconds, runTimeoutSeconds, seed, seeds, count, null, null);
        }
    }

    /**
     * Refuses, in one line, a run that would change what this campaign tests: a setting given
     * again that differs, or a shard count (or none) other than the campaign's.
     *
     * @param shardCount this run's shard count, or null: not a shard
     * @param out        the results directory, for the message
     */
    public void check(Given g, Integer shardCount, Path out) {
        List<String> differ = new ArrayList<>();
        if (g.lang() != null && !g.lang().equals(lang)) differ.add("--lang");
        if (g.policy() != null && !g.policy().equals(policy)) differ.add("--policy");
        if (g.swarm() != null && g.swarm() != swarm) differ.add("--swarm");
        if (g.testbeds() != null && !g.testbeds().equals(testbeds)) differ.add("--testbeds");
        if (g.generator() != null && !g.generator().equals(generator)) differ.add("--generator");
        if (g.generatorTool() != null && !g.generatorTool().equals(generatorTool)) differ.add("--yarpgen");
        if (g.compileTimeoutSeconds() != null && g.compileTimeoutSeconds() != compileTimeoutSeconds) differ.add("--compile-timeout");
        if (g.runTimeoutSeconds() != null && g.runTimeoutSeconds() != runTimeoutSeconds) differ.add("--run-timeout");
        SeedRange given = SeedRange.of(g.seed(), g.seeds(), g.count());
        long last = lastSeed == null ? -1 : lastSeed;
        if (given.first() >= 0 && given.first() != firstSeed) differ.add(g.seeds() != null ? "--seeds" : "--seed");
        else if (g.seeds() != null && given.last() != last && g.count() == null) differ.add("--seeds");
        else if (g.count() != null && (last < 0 || (given.first() >= 0 ? given.last() != last : g.count() != last - firstSeed + 1))) {
            differ.add("--count");
        }
        int saved = shards == null ? 0 : shards;
        if (shardCount != null && saved != shardCount) {
            throw new HarnessException(out + " holds a campaign " + (saved == 0 ? "that is not sharded: continue it without --shard"
                    : "of " + saved + " shards, not " + shardCount));
        }
        if (shardCount == null && saved != 0) {
            throw new HarnessException(out + " holds a campaign of " + saved + " shards: resume each with --shard K/" + saved + " --resume");
        }
        if (!differ.isEmpty()) {
            throw new HarnessException(String.join(", ", differ) + (differ.size() == 1 ? " differs" : " differ")
                    + " from the campaign in " + out + ": a campaign keeps its settings (see " + file(out) + ")");
        }
    }

    /**
     * The seeds that {@code --seed}, {@code --seeds A..B} and {@code --count} give: the first
     * and the last, -1 for one they leave open (picked at random, or no end).
     */
    public record SeedRange(long first, long last) {
        private static final Pattern RANGE = Pattern.compile("(\\d{1,18})\\.\\.(\\d{1,18})");

        /** {@code A..B} with 0 <= A <= B as {first, last}, or null when {@code s} is not one. */
        public static long[] parse(String s) {
            Matcher m = RANGE.matcher(s.trim());
            if (!m.matches() || Long.parseLong(m.group(1)) > Long.parseLong(m.group(2))) return null;
            return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
        }

        /** The range the three options give; a one-line {@link HarnessException} when they are wrong or disagree. */
        public static SeedRange of(Long seed, String seeds, Long count) {
            long first = seed == null ? -1 : seed;
            long last = -1;
            if (seeds != null) {
                long[] r = parse(seeds);
                if (r == null) throw new HarnessException("--seeds must be A..B with 0 <= A <= B, got " + seeds);
                if (seed != null && seed != r[0]) throw new HarnessException("--seed and --seeds disagree");
                first = r[0];
                last = r[1];
            }
            if (seed != null && seed < 0) throw new HarnessException("--seed must be 0 or more");
            if (count != null) {
                if (count < 1) throw new HarnessException("--count must be at least 1");
                if (first >= 0) last = last < 0 ? first + count - 1 : Math.min(last, first + count - 1);
            }
            return new SeedRange(first, last);
        }
    }

    /** Two paths as settings compare them: absolute, or null. */
    public static String absolute(Path p) {
        return p == null ? null : p.toAbsolutePath().toString();
    }
}
