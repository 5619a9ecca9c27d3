package io.rocksffm.jmh.report;

import static io.rocksffm.jmh.report.Outputs.fmt;
import static io.rocksffm.jmh.report.Report.CLASS_ORDER;

import io.rocksffm.jmh.report.Rows.Row;
import io.rocksffm.jmh.report.Rows.Target;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.CategoryItemLabelGenerator;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The report's {@code chart.png}: one horizontal bar per scenario with an FFM/JNI ratio, on a log
 * scale growing from 1.0 and coloured by benchmark class, with a black tick at the row's C limit
 * (C/JNI), a dashed parity line at 1.0 and, in the bar labels, the ratio, the C limit and any
 * target the row misses. Rendered with JFreeChart.
 */
final class Chart {
    static final Map<String, Color> CLASS_COLORS = Map.of(
            "GetBenchmarks", new Color(0x1f77b4),
            "PutBenchmarks", new Color(0xff7f0e),
            "WriteBatchBenchmarks", new Color(0x2ca02c),
            "IteratorBenchmarks", new Color(0x9467bd),
            "ConcurrencyBenchmarks", new Color(0xd62728),
            "MultiGetBenchmarks", new Color(0x8c564b));

    /** C/JNI: the ratio the C loop reaches on the same engine, the limit for any binding (or null). */
    static Double cLimit(Row r) {
        return r.cOverJni();
    }

    static void chart(List<Row> all, String title, Path file) throws IOException {
        List<Row> rows = all.stream().filter(r -> r.ratio() != null).toList();
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        DefaultCategoryDataset limits = new DefaultCategoryDataset();
        Map<String, Row> byLabel = new LinkedHashMap<>();
        double max = 1;
        double min = 1;
        for (Row r : rows) {
            String label = r.label();
            byLabel.put(label, r);
            data.addValue(r.ratio(), "FFM/JNI", label);
            max = Math.max(max, r.ratio());
            min = Math.min(min, r.ratio());
            // Every row is a column of both datasets (null: no C loop), as JFreeChart places the
            // items of a secondary dataset by column index.
            Double limit = cLimit(r);
            limits.addValue(limit, "C limit", label);
            if (limit != null) {
                max = Math.max(max, limit);
                min = Math.min(min, limit);
            }
        }

        CategoryAxis categories = new CategoryAxis();
        categories.setTickLabelFont(new Font(Font.MONOSPACED, Font.PLAIN, 12));
        categories.setMaximumCategoryLabelWidthRatio(0.45f);
        categories.setCategoryMargin(0.15);
        categories.setLowerMargin(0.01);
        categories.setUpperMargin(0.01);

        // Log scale, bars growing from 1.0: a ratio r and its inverse 1/r are equally long, right
        // when rocksffm is faster, left when rocksdbjni is.
        LogAxis ratioAxis = new LogAxis("throughput ratio FFM / JNI (log scale; bars right of 1.0: rocksffm faster)");
        ratioAxis.setBase(2);
        ratioAxis.setTickUnit(new NumberTickUnit(1));
        ratioAxis.setMinorTickMarksVisible(true);
        ratioAxis.setNumberFormatOverride(new DecimalFormat("0.###"));
        // Room on the left for the labels of bars below 1.0 (they grow leftwards).
        ratioAxis.setRange(Math.min(0.5, min / 2.2), Math.max(2, max * 2.2));
        ratioAxis.setLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));

        ItemLabelPosition rightOfBar = new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3, TextAnchor.CENTER_LEFT);
        ItemLabelPosition leftOfBar = new ItemLabelPosition(ItemLabelAnchor.OUTSIDE9, TextAnchor.CENTER_RIGHT);
        BarRenderer bars = new BarRenderer() {
            private Row row(int column) {
                return byLabel.get((String) getPlot().getDataset().getColumnKey(column));
            }

            @Override
            public java.awt.Paint getItemPaint(int row, int column) {
                return CLASS_COLORS.getOrDefault(row(column).cls, Color.GRAY);
            }

            @Override
            public ItemLabelPosition getPositiveItemLabelPosition(int row, int column) {
                return row(column).ratio() < 1 ? leftOfBar : rightOfBar;
            }
        };
        bars.setBase(1.0);
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setDrawBarOutline(false);
        bars.setMaximumBarWidth(0.9);
        bars.setDefaultItemLabelGenerator(new CategoryItemLabelGenerator() {
            @Override
            public String generateLabel(CategoryDataset dataset, int row, int column) {
                Row r = byLabel.get((String) dataset.getColumnKey(column));
                String s = fmt("%.2f", r.ratio());
                Double limit = cLimit(r);
                if (limit != null) {
                    s += "  (C " + fmt("%.2f", limit) + ")";
                }
                Target t = r.target();
                if (t != null && r.ratio() < t.min()) {
                    s += "  (target " + t.min() + ")";
                }
                return s;
            }

            @Override
            public String generateRowLabel(CategoryDataset dataset, int row) {
                return dataset.getRowKey(row).toString();
            }

            @Override
            public String generateColumnLabel(CategoryDataset dataset, int column) {
                return dataset.getColumnKey(column).toString();
            }
        });
        bars.setDefaultItemLabelsVisible(true);
        bars.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        bars.setItemLabelAnchorOffset(4);

        CategoryPlot plot = new CategoryPlot(data, categories, ratioAxis, bars);
        // The C limit of a row (C/JNI): a black tick across its bar. Past the tick, rocksffm beats
        // the C loop (Java-side work such as batch encoding); short of it, the gap is the room left.
        LineAndShapeRenderer ticks = new LineAndShapeRenderer(false, true);
        Rectangle2D.Double tick = new Rectangle2D.Double(-1.5, -9, 3, 18);
        ticks.setSeriesShape(0, tick);
        ticks.setSeriesPaint(0, Color.BLACK);
        plot.setDataset(1, limits);
        plot.setRenderer(1, ticks);
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);   // ticks over the bars
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlinesVisible(true);
        plot.setOutlineVisible(false);

        ValueMarker parity = new ValueMarker(1.0, Color.RED,
                new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 5f}, 0f));
        parity.setLabel("1.0 = same speed");
        parity.setLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        parity.setLabelPaint(Color.RED);
        parity.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        parity.setLabelTextAnchor(TextAnchor.TOP_LEFT);
        plot.addRangeMarker(parity, Layer.FOREGROUND);

        LegendItemCollection legend = new LegendItemCollection();
        for (String cls : CLASS_ORDER) {
            if (rows.stream().anyMatch(r -> r.cls.equals(cls))) {
                legend.add(new LegendItem(cls, CLASS_COLORS.get(cls)));
            }
        }
        if (rows.stream().anyMatch(r -> cLimit(r) != null)) {
            legend.add(new LegendItem("C limit (C/JNI): the same loop in C on the same engine", null, null, null,
                    tick, Color.BLACK));
        }
        plot.setFixedLegendItems(legend);

        JFreeChart chart = new JFreeChart(title + ": throughput ratio FFM / JNI, same engine",
                new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.addSubtitle(new TextTitle("one bar per scenario; labels: n=keys, k=key bytes, v=value bytes, "
                + "pf=prefetch bytes, /batch=ops per batch, build|+write=batch only|also written; black tick: the C limit",
                new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
        chart.setBackgroundPaint(Color.WHITE);
        int height = 160 + 22 * Math.max(rows.size(), 1);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 1400, height);
    }
}
