package dev.yarpj.report;

import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.BoxChart;
import org.knowm.xchart.BoxChartBuilder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The report's plots, drawn by XChart and written as SVG elements to inline in the page. */
final class Plots {
    static final int WIDTH = 760;
    static final int HEIGHT = 340;

    private Plots() {}

    /** Tests run and distinct findings (kind and signature) over the campaign's hours, all shards merged. */
    static String overTime(List<CampaignData.TestDone> tests) {
        List<Double> hours = new ArrayList<>();
        List<Double> count = new ArrayList<>();
        List<Double> distinct = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        double t0 = tests.isEmpty() ? 0 : tests.get(0).t();
        long n = 0;
        for (CampaignData.TestDone t : tests) {
            if (Double.isNaN(t.t())) continue;
            n++;
            seen.addAll(t.findings());
            hours.add((t.t() - t0) / 3600);
            count.add((double) n);
            distinct.add((double) seen.size());
        }
        if (hours.isEmpty()) return null;
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title("Tests and distinct findings over time")
                .xAxisTitle("hours since the first test").yAxisTitle("tests").build();
        style(c.getStyler());
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        // Steps: both counts change only when a test finishes.
        XYSeries a = c.addSeries("tests", hours, count);
        a.setMarker(SeriesMarkers.NONE);
        a.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        XYSeries b = c.addSeries("distinct findings (right axis)", hours, distinct);
        b.setMarker(SeriesMarkers.NONE);
        b.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
        b.setYAxisGroup(1);
        c.setYAxisGroupTitle(1, "distinct findings");
        c.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        return svg(c);
    }

    /** Runs per outcome for each testbed, grouped bars on a logarithmic axis so that rare outcomes show beside passes. */
    static String outcomesPerTestbed(Map<String, Map<String, Long>> perTestbed, List<String> outcomes) {
        if (perTestbed.isEmpty()) return null;
        List<String> testbeds = new ArrayList<>(perTestbed.keySet());
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT + 60).title("Outcomes per testbed")
                .yAxisTitle("testbed runs (log scale)").build();
        style(c.getStyler());
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setYAxisMin(0.5);
        c.getStyler().setXAxisLabelRotation(30);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        c.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        for (String o : outcomes) {
            List<Double> v = new ArrayList<>();
            for (String tb : testbeds) {
                long n = perTestbed.get(tb).getOrDefault(o, 0L);
                // A log axis takes no zeros: a bar below the axis' bottom is not drawn; one run still shows.
                v.add(n == 0 ? 0.2 : (double) n);
            }
            c.addSeries(o, testbeds, v);
        }
        return svg(c);
    }

    /** The distribution of compile times of each testbed, as boxes. */
    static String compileTimes(Map<String, List<Double>> perTestbed) {
        if (perTestbed.isEmpty()) return null;
        BoxChart c = new BoxChartBuilder().width(WIDTH).height(HEIGHT + 60).title("Compile time per testbed").yAxisTitle("seconds").build();
        style(c.getStyler());
        c.getStyler().setXAxisLabelRotation(30);
        c.getStyler().setLegendVisible(true);
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        perTestbed.forEach((tb, secs) -> {
            if (!secs.isEmpty()) c.addSeries(tb, secs);
        });
        return svg(c);
    }

    /** One bar per key: the trip-count bands or the idioms of the tested programs. */
    static String bars(String title, String xTitle, String yTitle, Map<String, Long> counts) {
        if (counts.isEmpty() || counts.values().stream().allMatch(v -> v == 0)) return null;
        CategoryChart c = new CategoryChartBuilder().width(WIDTH / 2 - 10).height(HEIGHT).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        style(c.getStyler());
        c.getStyler().setLegendVisible(false);
        List<Double> v = new ArrayList<>();
        for (long n : counts.values()) v.add((double) n);
        c.addSeries(yTitle, new ArrayList<>(counts.keySet()), v);
        return svg(c);
    }

    private static void style(Styler s) {
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setLegendBorderColor(Color.WHITE);
        s.setAntiAlias(true);
    }

    /** The chart as an {@code <svg>} element: XChart's document without its XML prolog. */
    private static String svg(Chart<?, ?> chart) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String s = out.toString(StandardCharsets.UTF_8);
        int start = s.indexOf("<svg");
        return start < 0 ? s : s.substring(start);
    }
}
