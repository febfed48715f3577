package io.basalt.app.replay;

import com.google.gson.stream.JsonWriter;
import io.basalt.app.replay.DeviceLedger.Kind;
import io.basalt.app.replay.DeviceLedger.Violation;
import io.basalt.app.replay.ReplayResult.ModelStranding;
import io.basalt.app.replay.ReplayResult.Sample;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The replay's results as a table for people or one JSON document for scripts. */
final class ReplayText {
  /** Violations listed one by one; the rest are only counted. */
  static final int VIOLATIONS_SHOWN = 10;

  private ReplayText() {}

  static String table(List<ReplayResult> results) {
    StringBuilder sb = new StringBuilder();
    for (ReplayResult r : results) {
      sb.append(fmt("== %s protocol, %s%s: %d nodes, %d GPUs%n", r.protocol(), r.config(),
          r.protocol().equals("fgd") ? ", seed " + r.seed() : "", r.nodes(), r.gpus()));
      row(sb, "pods arrived / placed", r.arrived() + " / " + r.placed());
      row(sb, r.protocol().equals("fgd") ? "skipped" : "withdrawn unplaced", Integer.toString(r.unplaced()));
      if (r.protocol().equals("fgd")) {
        row(sb, "GPU alloc at 100% arrived", pct(r.allocationAt(100)));
        row(sb, "GPU alloc at end", pct(r.last().allocatedPercent()) + " (" + pct(r.last().arrivedPercent())
            + " arrived)");
      } else {
        row(sb, "GPU alloc peak / mean", pct(peak(r)) + " / " + pct(mean(r)));
        row(sb, "wait p50 / p90 / p99 / max", fmt("%d / %d / %d / %d s", r.waitPercentile(50),
            r.waitPercentile(90), r.waitPercentile(99), r.waitPercentile(100)));
        row(sb, "pending max", Integer.toString(r.samples().stream().mapToInt(Sample::pending).max().orElse(0)));
      }
      r.unplacedReasons().forEach((reason, n) -> sb.append(fmt("  %5d x %s%n", n, reason)));
      row(sb, "fragmented at end", pct(r.last().fragmentedPercent()) + " of GPUs");
      for (ModelStranding m : r.stranding()) {
        row(sb, "  " + m.model(), fmt("%d GPUs, %.1f free, %.1f stranded", m.gpus(), m.freeGpus(),
            m.strandedGpus()));
      }
      row(sb, "violations", violationSummary(r.violations()));
      for (Violation v : r.violations().subList(0, Math.min(VIOLATIONS_SHOWN, r.violations().size()))) {
        sb.append(fmt("  %s %s on %s: %s%n", v.kind(), v.pod(), v.node(), v.detail()));
      }
      row(sb, "cycles / wall", r.cycles() + fmt(" / %.2f s", r.wallSeconds()));
    }
    if (results.size() > 1) {
      sb.append(fmt("== mean of %d seeds: %s at 100%% arrived, %s at end%n", results.size(),
          pct(results.stream().mapToDouble(r -> r.allocationAt(100)).average().orElse(0)),
          pct(results.stream().mapToDouble(r -> r.last().allocatedPercent()).average().orElse(0))));
    }
    return sb.toString();
  }

  static String violationSummary(List<Violation> violations) {
    if (violations.isEmpty()) {
      return "none";
    }
    Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
    violations.forEach(v -> counts.merge(v.kind(), 1, Integer::sum));
    StringBuilder sb = new StringBuilder();
    counts.forEach((k, n) -> sb.append(sb.length() == 0 ? "" : ", ").append(n).append(' ').append(k));
    return sb.toString();
  }

  static String json(List<ReplayResult> results) {
    StringWriter s = new StringWriter();
    try (JsonWriter w = new JsonWriter(s)) {
      w.beginObject().name("runs").beginArray();
      for (ReplayResult r : results) {
        run(w, r);
      }
      w.endArray().endObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return s + System.lineSeparator();
  }

  private static void run(JsonWriter w, ReplayResult r) throws IOException {
    w.beginObject();
    w.name("protocol").value(r.protocol()).name("config").value(r.config()).name("seed").value(r.seed());
    w.name("nodes").value(r.nodes()).name("gpus").value(r.gpus());
    w.name("arrived").value(r.arrived()).name("placed").value(r.placed()).name("unplaced").value(r.unplaced());
    w.name("allocationAt100").value(round(r.allocationAt(100)));
    w.name("allocationAtEnd").value(round(r.last().allocatedPercent()));
    w.name("fragmentedAtEnd").value(round(r.last().fragmentedPercent()));
    w.name("waitP50").value(r.waitPercentile(50)).name("waitP90").value(r.waitPercentile(90));
    w.name("waitP99").value(r.waitPercentile(99)).name("waitMax").value(r.waitPercentile(100));
    w.name("cycles").value(r.cycles()).name("wallSeconds").value(round(r.wallSeconds()));
    w.name("stranding").beginArray();
    for (ModelStranding m : r.stranding()) {
      w.beginObject().name("model").value(m.model()).name("gpus").value(m.gpus())
          .name("free").value(round(m.freeGpus())).name("stranded").value(round(m.strandedGpus())).endObject();
    }
    w.endArray().name("violations").beginArray();
    for (Violation v : r.violations()) {
      w.beginObject().name("kind").value(v.kind().name()).name("pod").value(v.pod()).name("node").value(v.node())
          .name("detail").value(v.detail()).endObject();
    }
    w.endArray().name("samples").beginArray();
    for (Sample p : r.samples()) {
      w.beginArray().value(p.time()).value(round(p.arrivedPercent())).value(round(p.allocatedPercent()))
          .value(round(p.fragmentedPercent())).value(p.pending()).value(p.running()).endArray();
    }
    w.endArray().endObject();
  }

  static double peak(ReplayResult r) {
    return r.samples().stream().mapToDouble(Sample::allocatedPercent).max().orElse(0);
  }

  static double mean(ReplayResult r) {
    return r.samples().stream().mapToDouble(Sample::allocatedPercent).average().orElse(0);
  }

  private static void row(StringBuilder sb, String key, String value) {
    sb.append(fmt("%-28s %s%n", key, value));
  }

  static String pct(double v) {
    return v < 0 ? "-" : fmt("%.2f%%", v);
  }

  static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
