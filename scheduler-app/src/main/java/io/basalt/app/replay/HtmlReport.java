package io.basalt.app.replay;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.basalt.app.replay.ReplayResult.ModelStranding;
import io.basalt.app.replay.ReplayResult.Outcome;
import io.basalt.app.replay.ReplayResult.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The replay as one self-contained HTML page: Apache ECharts (the {@code org.webjars.npm:echarts} WebJar, read from
 * the class path) inlined with the data, so the page needs no network to be viewed. Four charts at fixed places
 * ({@link #chartTop}), so a screenshot test knows where to look: the allocation curve against arrived workload,
 * allocation and fragmentation over the run, free and stranded GPUs per model, and the wait-time distribution
 * (clock) or placed/skipped pods per request class (fgd); a table of the figures follows.
 */
final class HtmlReport {
  static final String ECHARTS = "META-INF/resources/webjars/echarts/5.3.1/dist/echarts.common.min.js";
  static final int WIDTH_PX = 1200;
  static final int HEADER_PX = 90;
  static final int CHART_PX = 400;
  static final int GAP_PX = 20;
  static final int CHARTS = 4;
  /** Published means at 100% arrived (and 130% where given), seeds 42-51, from the FGD paper. */
  static final List<Object[]> PUBLISHED = List.of(new Object[] {"Random", 100, 86.3},
      new Object[] {"DotProduct", 100, 90.6}, new Object[] {"GPU-Packing", 100, 91.8},
      new Object[] {"Best-Fit", 100, 92.9}, new Object[] {"FGD", 100, 95.2}, new Object[] {"Best-Fit", 130, 93.1},
      new Object[] {"FGD", 130, 95.4});
  /** Upper bounds of the wait histogram's buckets, seconds; the last bucket is open. */
  static final long[] WAIT_BUCKETS = {0, 9, 59, 299, 1799, 7199};
  static final String[] WAIT_LABELS = {"0 s", "1-9 s", "10-59 s", "1-5 min", "5-30 min", "30 min-2 h", "> 2 h"};

  private HtmlReport() {}

  /** Where chart {@code i} (0-based) starts, in CSS pixels from the page's top. */
  static int chartTop(int i) {
    return HEADER_PX + i * (CHART_PX + GAP_PX);
  }

  static String render(List<ReplayResult> results, String traceName) {
    StringBuilder sb = new StringBuilder(1 << 20);
    sb.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Basalt replay: ")
        .append(escape(traceName)).append("</title>\n<style>body{margin:0;font-family:sans-serif;background:#fff}")
        .append("#head{height:").append(HEADER_PX).append("px;overflow:hidden;padding:0 16px;box-sizing:border-box}")
        .append(".chart{width:").append(WIDTH_PX).append("px;height:").append(CHART_PX).append("px;margin-bottom:")
        .append(GAP_PX).append("px}table{border-collapse:collapse;margin:16px}td,th{border:1px solid #ccc;")
        .append("padding:3px 8px;text-align:right}</style>\n<script>").append(echarts()).append("</script>\n")
        .append("</head><body>\n<div id=\"head\"><h2>Basalt replay of ").append(escape(traceName)).append("</h2>")
        .append("<div>").append(escape(subtitle(results))).append("</div></div>\n");
    for (int i = 0; i < CHARTS; i++) {
      sb.append("<div class=\"chart\" id=\"chart").append(i).append("\"></div>\n");
    }
    sb.append(table(results)).append("<script>const data = ").append(new Gson().toJson(data(results)))
        .append(";\n").append(SCRIPT).append("</script>\n</body></html>\n");
    return sb.toString();
  }

  private static String subtitle(List<ReplayResult> results) {
    ReplayResult r = results.get(0);
    return r.protocol() + " protocol, " + r.config() + ", " + r.nodes() + " nodes, " + r.gpus() + " GPUs"
        + (r.protocol().equals("fgd") ? ", seeds " + results.stream().map(x -> Long.toString(x.seed())).toList()
        : "");
  }

  static String echarts() {
    try (InputStream in = HtmlReport.class.getClassLoader().getResourceAsStream(ECHARTS)) {
      if (in == null) {
        throw new IllegalStateException("ECharts is not on the class path (" + ECHARTS + ")");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("</script", "<\\/script");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonObject data(List<ReplayResult> results) {
    JsonObject root = new JsonObject();
    root.addProperty("protocol", results.get(0).protocol());
    JsonArray runs = new JsonArray();
    for (ReplayResult r : results) {
      JsonObject run = new JsonObject();
      run.addProperty("label", r.protocol().equals("fgd") ? "seed " + r.seed() : r.config());
      JsonArray samples = new JsonArray();
      for (Sample s : r.samples()) {
        JsonArray p = new JsonArray();
        p.add(s.time());
        p.add(ReplayText.round(s.arrivedPercent()));
        p.add(ReplayText.round(s.allocatedPercent()));
        p.add(ReplayText.round(s.fragmentedPercent()));
        p.add(s.pending());
        samples.add(p);
      }
      run.add("samples", samples);
      JsonArray models = new JsonArray();
      for (ModelStranding m : r.stranding()) {
        JsonArray a = new JsonArray();
        a.add(m.model());
        a.add(ReplayText.round(m.freeGpus()));
        a.add(ReplayText.round(m.strandedGpus()));
        models.add(a);
      }
      run.add("models", models);
      JsonArray outcomes = new JsonArray();
      for (Map.Entry<String, Outcome> e : r.outcomes().entrySet()) {
        JsonArray a = new JsonArray();
        a.add(e.getKey());
        a.add(e.getValue().placed());
        a.add(e.getValue().arrived() - e.getValue().placed());
        outcomes.add(a);
      }
      run.add("outcomes", outcomes);
      run.add("waits", waitHistogram(r.waitSeconds()));
      runs.add(run);
    }
    root.add("runs", runs);
    JsonArray labels = new JsonArray();
    for (String l : WAIT_LABELS) {
      labels.add(l);
    }
    root.add("waitLabels", labels);
    JsonArray published = new JsonArray();
    for (Object[] p : PUBLISHED) {
      JsonArray a = new JsonArray();
      a.add((String) p[0]);
      a.add((Integer) p[1]);
      a.add((Double) p[2]);
      published.add(a);
    }
    root.add("published", published);
    return root;
  }

  static JsonArray waitHistogram(long[] waits) {
    int[] counts = new int[WAIT_LABELS.length];
    for (long w : waits) {
      int b = 0;
      while (b < WAIT_BUCKETS.length && w > WAIT_BUCKETS[b]) {
        b++;
      }
      counts[b]++;
    }
    JsonArray a = new JsonArray();
    for (int c : counts) {
      a.add(c);
    }
    return a;
  }

  private static String table(List<ReplayResult> results) {
    StringBuilder sb = new StringBuilder("<table><tr><th>run</th><th>arrived</th><th>placed</th>"
        + "<th>alloc at 100% arrived</th><th>alloc at end</th><th>fragmented at end</th><th>wait p50/p99 s</th>"
        + "<th>violations</th><th>cycles</th><th>wall s</th></tr>\n");
    for (ReplayResult r : results) {
      sb.append("<tr><td>").append(escape(r.protocol().equals("fgd") ? "seed " + r.seed() : r.config()))
          .append("</td><td>").append(r.arrived()).append("</td><td>").append(r.placed()).append("</td><td>")
          .append(ReplayText.pct(r.allocationAt(100))).append("</td><td>")
          .append(ReplayText.pct(r.last().allocatedPercent())).append("</td><td>")
          .append(ReplayText.pct(r.last().fragmentedPercent())).append("</td><td>").append(r.waitPercentile(50))
          .append(" / ").append(r.waitPercentile(99)).append("</td><td>")
          .append(escape(ReplayText.violationSummary(r.violations()))).append("</td><td>").append(r.cycles())
          .append("</td><td>").append(ReplayText.fmt("%.2f", r.wallSeconds())).append("</td></tr>\n");
    }
    return sb.append("</table>\n").toString();
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }

  /** Builds the four charts from {@code data}; animation off so a screenshot sees them drawn. */
  private static final String SCRIPT = """
      const fgd = data.protocol === 'fgd';
      const base = {animation: false, tooltip: {trigger: 'axis'}, legend: {top: 28},
        grid: {left: 70, right: 70, top: 70, bottom: 50}};
      function chart(i, option) {
        echarts.init(document.getElementById('chart' + i), null, {renderer: 'canvas'})
          .setOption(Object.assign({}, base, option));
      }
      const curve = data.runs.map(r => ({name: r.label, type: fgd ? 'line' : 'scatter', showSymbol: !fgd,
        symbolSize: 4, data: r.samples.map(s => [s[1], s[2]])}));
      if (fgd) {
        curve.push({name: 'published (FGD paper)', type: 'scatter', symbolSize: 9,
          data: data.published.map(p => ({value: [p[1], p[2]], name: p[0]})),
          label: {show: true, position: 'left', formatter: p => p.name, fontSize: 10}});
      }
      chart(0, {title: {text: 'GPU allocation against arrived workload (% of GPU capacity)'},
        tooltip: {trigger: 'item'},
        xAxis: {type: 'value', name: 'arrived %', min: 0}, yAxis: {type: 'value', name: 'allocated %', min: 0},
        series: curve});
      const over = [];
      data.runs.forEach(r => {
        const t = s => fgd ? s[0] : +(s[0] / 86400).toFixed(3);
        over.push({name: 'allocated % ' + r.label, type: 'line', showSymbol: false,
          data: r.samples.map(s => [t(s), s[2]])});
        over.push({name: 'fragmented % ' + r.label, type: 'line', showSymbol: false, lineStyle: {type: 'dashed'},
          data: r.samples.map(s => [t(s), s[3]])});
        if (!fgd) {
          over.push({name: 'pending pods', type: 'line', yAxisIndex: 1, showSymbol: false,
            data: r.samples.map(s => [t(s), s[4]])});
        }
      });
      chart(1, {title: {text: 'Utilisation and fragmentation over ' + (fgd ? 'pods attempted' : 'time (days)')},
        xAxis: {type: 'value', name: fgd ? 'pods' : 'days', min: 0},
        yAxis: [{type: 'value', name: '%', min: 0}, {type: 'value', name: 'pending', min: 0}], series: over});
      const models = data.runs[0].models.map(m => m[0]);
      const mean = k => models.map((m, i) =>
        +(data.runs.reduce((a, r) => a + r.models[i][k], 0) / data.runs.length).toFixed(1));
      chart(2, {title: {text: 'GPUs free and stranded (free but unusable by the workload) per model, at the end'},
        xAxis: {type: 'category', data: models}, yAxis: {type: 'value', name: 'GPUs'},
        series: [{name: 'free', type: 'bar', data: mean(1)}, {name: 'stranded', type: 'bar', data: mean(2)}]});
      if (fgd) {
        const classes = data.runs[0].outcomes.map(o => o[0]);
        const sum = k => classes.map((c, i) => data.runs.reduce((a, r) => a + ((r.outcomes[i] || [])[k] || 0), 0));
        chart(3, {title: {text: 'Pods placed and skipped per request class (all seeds)'},
          xAxis: {type: 'category', data: classes}, yAxis: {type: 'value', name: 'pods'},
          series: [{name: 'placed', type: 'bar', stack: 'p', data: sum(1)},
                   {name: 'skipped', type: 'bar', stack: 'p', data: sum(2)}]});
      } else {
        chart(3, {title: {text: 'Queue wait: arrival to binding'},
          xAxis: {type: 'category', data: data.waitLabels}, yAxis: {type: 'value', name: 'pods'},
          series: data.runs.map(r => ({name: r.label, type: 'bar', data: r.waits}))});
      }
      """;
}
