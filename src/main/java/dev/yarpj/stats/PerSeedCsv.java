package dev.yarpj.stats;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.List;
import org.apache.commons.csv.CSVPrinter;

/**
 * The --per-seed file: one row per seed and policy with the test's size, its compile-cost
 * estimate, the compile's CPU seconds and its Passed remarks (all, and those of the loop
 * passes), for calibrating the estimate against a compiler. Without a compile
 * ({@code --no-compile}) the size and the estimate are written and the compile's columns
 * are left empty. Written by Commons CSV in the format of {@link CsvPrinter}.
 */
final class PerSeedCsv {
    private PerSeedCsv() {}

    /** {@code remarks}: the compiler whose remarks the measures are, or null when nothing was compiled. */
    static <R> String of(List<PolicyResults<R>> results, RemarkCompiler remarks) {
        StringWriter w = new StringWriter();
        try (CSVPrinter csv = new CSVPrinter(w, CsvPrinter.FORMAT)) {
            csv.printRecord("policy", "seed", "status", "func_lines", "slots", "loops", "loop_slots", "unrolled", "estimate_s",
                    "compile_cpu_s", "passed", "passed_loop");
            for (PolicyResults<R> c : results) {
                for (SeedResult<R> r : c.seeds()) {
                    csv.print(c.policyName());
                    csv.print(r.seed());
                    csv.print(r instanceof SeedResult.Skipped<R> s ? s.why().name().toLowerCase(Locale.ROOT) : "ok");
                    if (r.test() == null) {
                        csv.printRecord("", "", "", "", "", "", "", "", "");
                        continue;
                    }
                    TestSize size = r.test().size();
                    var cost = size.cost();
                    for (Object cell : List.of(size.funcLines(), cost.slots(), cost.loops(), cost.loopSlots(),
                            String.format(Locale.ROOT, "%.0f", cost.unrolled()), String.format(Locale.ROOT, "%.3f", cost.seconds()))) {
                        csv.print(cell);
                    }
                    csv.printRecord((Object[]) compiled(r, remarks));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /** The compile's cells: CPU seconds, Passed remarks, those of the loop passes; empty when the seed was not compiled. */
    private static <R> String[] compiled(SeedResult<R> r, RemarkCompiler remarks) {
        if (!(r instanceof SeedResult.Measured<R> m) || !(m.measure() instanceof RemarkTally t)) return new String[] {"", "", ""};
        return new String[] {String.format(Locale.ROOT, "%.3f", t.cpuSeconds()), Long.toString(t.passed(remarks, false)),
                Long.toString(t.passed(remarks, true))};
    }
}
