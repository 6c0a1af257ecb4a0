package dev.yarpj.stats;

import java.util.List;
import java.util.Locale;

/**
 * The --per-seed file: one row per seed and policy with the test's size, its compile-cost
 * estimate, the compile's CPU seconds and its Passed remarks (all, and those of the loop
 * passes), for calibrating the estimate against a compiler. Without a compile
 * ({@code --no-compile}) the size and the estimate are written and the compile's columns
 * are left empty.
 */
final class PerSeedCsv {
    private PerSeedCsv() {}

    /** {@code remarks}: the compiler whose remarks the measures are, or null when nothing was compiled. */
    static <R> String of(List<PolicyResults<R>> results, RemarkCompiler remarks) {
        StringBuilder sb = new StringBuilder("policy,seed,status,func_lines,slots,loops,loop_slots,unrolled,estimate_s,compile_cpu_s,passed,passed_loop\n");
        for (PolicyResults<R> c : results) {
            for (SeedResult<R> r : c.seeds()) {
                sb.append(c.policyName()).append(',').append(r.seed()).append(',')
                        .append(r instanceof SeedResult.Skipped<R> s ? s.why().name().toLowerCase(Locale.ROOT) : "ok");
                if (r.test() == null) {
                    sb.append(",,,,,,,,,\n");
                    continue;
                }
                TestSize size = r.test().size();
                var cost = size.cost();
                sb.append(',').append(size.funcLines()).append(',').append(cost.slots()).append(',').append(cost.loops())
                        .append(',').append(cost.loopSlots()).append(',').append(String.format(Locale.ROOT, "%.0f", cost.unrolled()))
                        .append(',').append(String.format(Locale.ROOT, "%.3f", cost.seconds()));
                if (!(r instanceof SeedResult.Measured<R> m) || !(m.measure() instanceof RemarkTally t)) {
                    sb.append(",,,\n");
                    continue;
                }
                long passed = 0;
                long loop = 0;
                for (var e : t.byName().entrySet()) {
                    if (e.getKey().kind() != RemarkKind.PASSED) continue;
                    passed += e.getValue();
                    if (remarks.isLoopUnit(e.getKey().pass(), e.getKey().name())) loop += e.getValue();
                }
                sb.append(',').append(String.format(Locale.ROOT, "%.3f", t.cpuSeconds())).append(',').append(passed)
                        .append(',').append(loop).append('\n');
            }
        }
        return sb.toString();
    }
}
