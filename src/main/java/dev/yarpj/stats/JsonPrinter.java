package dev.yarpj.stats;

import static com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.yarpj.harness.JsonFiles;
import dev.yarpj.stats.ispc.IspcSummary;
import dev.yarpj.stats.ispc.MaskSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a {@link StatsReport} as one JSON object, for people and scripts: a view of the
 * report as records (their components, in snake case, are the keys; a null one is left out
 * where marked), written by Jackson with doubles spelled by {@link Cells#number} and laid
 * out as yarpj's other JSON for people ({@link JsonFiles#writePretty}).
 */
final class JsonPrinter {
    private static final JsonSerializer<Double> NUMBER = new JsonSerializer<>() {
        @Override
        public void serialize(Double d, JsonGenerator gen, SerializerProvider provider) throws IOException {
            String s = Cells.number(d);
            if (s == null) gen.writeNull();
            else gen.writeNumber(s);
        }
    };

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .addModule(new SimpleModule().addSerializer(Double.class, NUMBER).addSerializer(double.class, NUMBER))
            .build();

    /** yarpj's layout for people ({@link JsonFiles#writePretty}): a key per line, and each row of a section on a line of its own. */
    private static final ObjectWriter LAYOUT = JsonFiles.prettyWriter(MAPPER);

    private final PrintWriter out;

    JsonPrinter(PrintWriter out) {
        this.out = out;
    }

    void print(StatsReport report) {
        out.println(json(report.compares() ? compare(report) : single(report)));
        out.flush();
    }

    /** {@code document} (a view record, a map, a list) as the stats JSON spells and lays it out. */
    static String json(Object document) {
        try {
            return LAYOUT.writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---------------------------------------------------------------- the documents

    @JsonInclude(NON_NULL)
    record Header(boolean compiled, String compiler, String cc, String ccVersion, String options, String ispcBuild, String lang,
                  long firstSeed, long lastSeed, boolean swarm) {
        static Header of(RunInfo i) {
            boolean masks = !i.compiled() && i.measuredMasks();
            return new Header(i.compiled() || i.measuredMasks(), i.compiled() ? i.compiler().defaultBinary : masks ? "ispc" : null,
                    i.compiled() || masks ? i.cc() : null, i.compiled() || masks ? i.ccVersion() : null, i.compiled() ? i.options() : null,
                    masks ? i.ispcBuild() : null, i.lang(), i.firstSeed(), i.lastSeed(), i.swarm());
        }
    }

    /** One policy; the remark figures are null when nothing was compiled. */
    @JsonInclude(NON_NULL)
    record Single(@JsonUnwrapped Header header, String policy, int programs, Skipped skipped, List<RemarkRow> passes,
                  List<RemarkRow> remarks, List<RemarkRow> remarksMissedAnalysisLoop, Rate rate, Long earlyExitLoops,
                  Long earlyExitLoopsVectorized, int generatedPrograms, Map<String, Object> shape, List<TripRow> trips,
                  TripSummary.ExitEnds exitEnds, Ispc ispc, InputSetTrips inputSets) {}

    private static Single single(StatsReport report) {
        RunInfo info = report.info();
        StatsReport.Side side = report.sides().get(0);
        StatsReport.Remarks r = side.remarks();
        RemarkSummary s = r == null ? null : r.summary();
        return new Single(Header.of(info), side.policy(), side.programs(), Skipped.of(side),
                s == null ? null : s.passRows().stream().map(RemarkRow::of).toList(),
                s == null ? null : s.nameRows().stream().map(RemarkRow::of).toList(),
                r == null ? null : r.loopMissedAndAnalysis().stream().map(RemarkRow::of).toList(),
                r == null ? null : Rate.of(r.rate()), s == null ? null : s.earlyExitLoops(), s == null ? null : s.earlyExitLoopsVectorized(),
                side.trips().programs(), shape(side.shape()), side.trips().rows().stream().map(TripRow::of).toList(),
                side.trips().exitEnds(), side.ispc() == null ? null : Ispc.of(side.ispc(), info.ispcBuild()), side.inputSets());
    }

    /** Two policies; the remark figures are null when nothing was compiled, ispc for other languages. */
    @JsonInclude(NON_NULL)
    record Compared(@JsonUnwrapped Header header, double alpha, SideHead a, SideHead b, List<CompareRow> passesPassed,
                    List<CompareRow> passesAllKinds, List<CompareRow> remarksPassed, List<CompareRow> remarksMissedAnalysisLoop,
                    GeoMean geomean, RateComparison rate, int generatedProgramsA, int generatedProgramsB, Both<Map<String, Object>> shape,
                    List<TripCompareRow> trips, Both<TripSummary.ExitEnds> exitEnds, Both<Ispc> ispc, Both<InputSetTrips> inputSets) {}

    record Both<T>(T a, T b) {}

    record SideHead(String policy, int programs, Skipped skipped) {}

    private static Compared compare(StatsReport report) {
        RunInfo info = report.info();
        StatsReport.Side a = report.sides().get(0);
        StatsReport.Side b = report.sides().get(1);
        PolicyComparison c = report.remarks();
        return new Compared(Header.of(info), Welch.ALPHA, new SideHead(a.policy(), a.programs(), Skipped.of(a)),
                new SideHead(b.policy(), b.programs(), Skipped.of(b)), c == null ? null : CompareRow.of(c.passedByPass()),
                c == null ? null : CompareRow.of(c.allKindsByPass()), c == null ? null : CompareRow.of(c.passedByName()),
                c == null ? null : CompareRow.of(c.loopMissedAndAnalysisByName()), c == null ? null : GeoMean.of(c.geoMean()),
                c == null ? null : RateComparison.of(a.remarks().rate(), b.remarks().rate(), report.rates()),
                a.trips().programs(), b.trips().programs(), new Both<>(shape(a.shape()), shape(b.shape())),
                report.trips().rows().stream().map(TripCompareRow::of).toList(), new Both<>(a.trips().exitEnds(), b.trips().exitEnds()),
                a.ispc() == null || b.ispc() == null ? null
                        : new Both<>(Ispc.of(a.ispc(), info.ispcBuild()), Ispc.of(b.ispc(), info.ispcBuild())),
                new Both<>(a.inputSets(), b.inputSets()));
    }

    /** The skipped seeds by why; run, run_timeout and mismatch (only ISPC mask runs skip for these) when there were any. */
    @JsonInclude(NON_NULL)
    record Skipped(int generator, int compile, int timeout, Integer run, Integer runTimeout, Integer mismatch) {
        static Skipped of(StatsReport.Side side) {
            Map<Skip, Integer> s = side.skipped();
            return new Skipped(s.get(Skip.GENERATOR), s.get(Skip.COMPILE), s.get(Skip.TIMEOUT), any(s.get(Skip.RUN)),
                    any(s.get(Skip.RUN_TIMEOUT)), any(s.get(Skip.MISMATCH)));
        }

        private static Integer any(int n) {
            return n > 0 ? n : null;
        }
    }

    // ---------------------------------------------------------------- remarks

    @JsonInclude(NON_NULL)
    record RemarkRow(String pass, String kind, String remark, long total, double mean, int programs) {
        static RemarkRow of(RemarkSummary.Row r) {
            return new RemarkRow(r.pass(), r.kind().label(), r.name(), r.total(), r.mean(), r.programs());
        }
    }

    /** {@code kind} "all" for a pass over every kind; {@code remark} left out for a pass. */
    record CompareRow(String pass, String kind, @JsonInclude(NON_NULL) String remark, double meanA, double meanB, double ratio,
                      double pValue, boolean significant, String presence, boolean loop) {
        static List<CompareRow> of(List<PolicyComparison.Row> rows) {
            return rows.stream().map(r -> new CompareRow(r.pass(), r.kind() == null ? "all" : r.kind().label(), r.name(), r.meanA(),
                    r.meanB(), r.ratio(), r.pValue(), r.significant(), r.presence().name().toLowerCase(Locale.ROOT), r.loop())).toList();
        }
    }

    record GeoMean(String over, int count, double value, int significant, List<String> onlyInA, List<String> onlyInB) {
        static GeoMean of(PolicyComparison.GeoMean g) {
            return new GeoMean(g.unit(), g.count(), g.value(), g.significant(), g.onlyInA(), g.onlyInB());
        }
    }

    // ---------------------------------------------------------------- remarks per CPU-second

    @JsonInclude(NON_NULL)
    record Rate(double cpuS, long passed, double perCpuS, Largest largestCompile, List<Unit> units) {
        record Largest(long seed, double cpuS, double share) {}

        record Unit(String unit, long passed, double perCpuS, boolean loop) {}

        static Rate of(RemarkRate r) {
            RemarkRate.Largest l = r.largest();
            return new Rate(r.cpuSeconds(), r.total(), r.totalPerCpuSecond(), l == null ? null : new Largest(l.seed(), l.cpuSeconds(), l.share()),
                    r.units().stream().map(u -> new Unit(u.name(), u.remarks(), u.perCpuSecond(), u.loop())).toList());
        }
    }

    @JsonInclude(NON_NULL)
    record RateComparison(Rate a, Rate b, List<Ratio> ratios, double totalRatio, int geomeanLoopUnits, double geomean,
                          Interval geomeanInterval) {
        record Ratio(String unit, double ratio, boolean loop) {}

        record Interval(double confidence, double geomean, double low, double high, int seeds, int resamples) {}

        static RateComparison of(RemarkRate a, RemarkRate b, RemarkRate.Comparison c) {
            RemarkRate.Interval i = c.interval();
            return new RateComparison(Rate.of(a), Rate.of(b), c.rows().stream().map(r -> new Ratio(r.unit(), r.ratio(), r.loop())).toList(),
                    c.total().ratio(), c.loopUnits(), c.geoMean(),
                    i == null ? null : new Interval(RemarkRate.CONFIDENCE, i.geoMean(), i.low(), i.high(), i.seeds(), i.resamples()));
        }
    }

    // ---------------------------------------------------------------- shape and trip counts

    private static Map<String, Object> shape(ShapeSummary s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("programs", s.programs());
        m.putAll(s.figures());
        return m;
    }

    record TripFigures(int loops, int entered, Map<String, Integer> counts, Map<String, Double> shares, double medianPerEntry) {
        static TripFigures of(TripSummary.Row r) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            Map<String, Double> shares = new LinkedHashMap<>();
            for (TripSummary.Bucket b : TripSummary.Bucket.values()) {
                counts.put(b.key, r.count(b));
                shares.put(b.key, r.share(b));
            }
            return new TripFigures(r.loops(), r.entered(), counts, shares, r.median());
        }
    }

    record TripRow(String scope, String idiom, @JsonUnwrapped TripFigures figures) {
        static TripRow of(TripSummary.Row r) {
            return new TripRow(r.group().scope(), r.group().idiomName(), TripFigures.of(r));
        }
    }

    /** {@code significant} null when not tested. */
    record TripCompareRow(String scope, String idiom, TripFigures a, TripFigures b, double meanLog2A, double meanLog2B, double pValue,
                          Boolean significant) {
        static TripCompareRow of(TripComparison.Row r) {
            return new TripCompareRow(r.group().scope(), r.group().idiomName(), TripFigures.of(r.a()), TripFigures.of(r.b()),
                    r.meanLog2A(), r.meanLog2B(), r.pValue(), r.tested() ? r.significant() : null);
        }
    }

    // ---------------------------------------------------------------- ISPC

    @JsonInclude(NON_NULL)
    record Ispc(int tests, Map<String, Measure> lowering, List<TripRow> tripsDataParallel, Masks masks) {
        /** {@code partOf} and {@code share} for a part of another measure only. */
        @JsonInclude(NON_NULL)
        record Measure(long total, double meanPerTest, int testsWithAny, String partOf, Double share) {}

        static Ispc of(StatsReport.Ispc ispc, String build) {
            Map<String, Measure> lowering = new LinkedHashMap<>();
            for (IspcSummary.Row r : ispc.lowering().rows()) {
                String partOf = r.measure().partOf();
                lowering.put(r.measure().key(), new Measure(r.total(), r.mean(), r.tests(), partOf, partOf == null ? null : r.share()));
            }
            return new Ispc(ispc.lowering().tests(), lowering, ispc.parallelTripRows().stream().map(TripRow::of).toList(),
                    ispc.masks() == null ? null : Masks.of(ispc.masks(), build));
        }
    }

    record Masks(String build, int tests, int checksumsChecked, List<Long> checksumMismatchSeeds, int varyingIfs, int ran, int testsWithRan,
                 int mixedAtLeastOnce, double mixedAtLeastOnceShare, long runs, long mixedRuns, double mixedRunShare,
                 Map<String, Integer> ifsByMixedShare, Exits exitIfs) {
        record Exits(int varyingIfs, int ran, int mixedAtLeastOnce, long runs, long mixedRuns) {}

        static Masks of(StatsReport.Masks masks, String build) {
            MaskSummary m = masks.summary();
            MaskSummary e = m.exits();
            Map<String, Integer> buckets = new LinkedHashMap<>();
            for (MaskSummary.Bucket k : MaskSummary.Bucket.values()) buckets.put(k.key, m.count(k));
            return new Masks(build, m.tests(), masks.checked(), masks.mismatchSeeds(), m.ifs(), m.ran(), m.testsWithRan(), m.mixedOnce(),
                    m.mixedOnceShare(), m.runs(), m.mixedRuns(), m.mixedRunShare(), buckets,
                    new Exits(e.ifs(), e.ran(), e.mixedOnce(), e.runs(), e.mixedRuns()));
        }
    }
}
