package dev.yarpj.harness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code campaign.jsonl}: one JSON line per (test, testbed) with its outcome and times,
 * then a {@code done} line. A test's lines are appended in one write after its findings
 * are saved, so on resume a seed with a done line is finished and any other is rerun.
 */
final class CampaignLog implements AutoCloseable {
    private static final Pattern DONE = Pattern.compile("\"event\": \"done\", \"seed\": (\\d+)");

    private final FileChannel channel;

    CampaignLog(Path file) throws IOException {
        // A run killed mid-write may have left a torn last line: end it, so it stays apart from what follows.
        boolean torn = false;
        if (Files.exists(file) && Files.size(file) > 0) {
            try (FileChannel r = FileChannel.open(file, StandardOpenOption.READ)) {
                ByteBuffer last = ByteBuffer.allocate(1);
                r.read(last, r.size() - 1);
                torn = last.get(0) != '\n';
            }
        }
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        if (torn) write(ByteBuffer.wrap(new byte[] {'\n'}));
    }

    private void write(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) channel.write(b);
    }

    /** The line that opens each run of a campaign (or shard): when, which process, how many jobs. */
    void start(int jobs, Campaign.Shard shard) throws IOException {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("event", "start");
        m.put("t", System.currentTimeMillis() / 1000.0);
        m.put("host", host());
        m.put("pid", ProcessHandle.current().pid());
        m.put("jobs", jobs);
        if (shard != null) m.put("shard", shard.index() + "/" + shard.count());
        append(List.of(m));
    }

    private static String host() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "?";
        }
    }

    synchronized void append(List<Map<String, Object>> rows) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (Map<String, Object> r : rows) sb.append(JsonFiles.write(r)).append('\n');
        write(ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.UTF_8)));
        channel.force(false);
    }

    /** Seeds whose done line is in the log. A torn last line (killed mid-write) is ignored. */
    static Set<Long> finishedSeeds(Path file) throws IOException {
        Set<Long> done = new HashSet<>();
        if (!Files.exists(file)) return done;
        for (String line : Files.readAllLines(file)) {
            Matcher m = DONE.matcher(line);
            if (m.find() && line.startsWith("{\"event\": \"done\"") && line.endsWith("}")) done.add(Long.parseLong(m.group(1)));
        }
        return done;
    }

    private static final Pattern START_JOBS = Pattern.compile("^\\{\"event\": \"start\", .*\"jobs\": (\\d+)[,}]");

    /** The jobs of the last start line in {@code file}, or null when it has none (or does not exist). */
    static Integer lastJobs(Path file) throws IOException {
        if (!Files.exists(file)) return null;
        Integer jobs = null;
        for (String line : Files.readAllLines(file)) {
            Matcher m = START_JOBS.matcher(line);
            if (m.find()) jobs = Integer.parseInt(m.group(1));
        }
        return jobs;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
