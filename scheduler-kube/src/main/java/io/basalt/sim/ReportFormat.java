package io.basalt.sim;

import com.google.gson.stream.JsonWriter;
import io.basalt.session.DomainVerdict;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** Prints a {@link SimulationReport} as one JSON document or as a table for people. */
public final class ReportFormat {
  private ReportFormat() {}

  /** One JSON document; empty arrays are printed, never omitted; {@code devices} only where assigned. */
  public static String json(SimulationReport r) {
    StringWriter out = new StringWriter();
    try (JsonWriter w = new JsonWriter(out)) {
      w.setIndent("  ");
      w.beginObject();
      w.name("bindings").beginArray();
      for (SimulationReport.Bound b : r.bindings()) {
        w.beginObject().name("pod").value(b.pod()).name("node").value(b.node());
        if (!b.domain().isEmpty()) {
          w.name("domain").value(b.domain());
        }
        if (!b.devices().isEmpty()) {
          w.name("devices").beginArray();
          for (String d : b.devices()) {
            w.value(d);
          }
          w.endArray();
        }
        if (!b.annotations().isEmpty()) {
          w.name("annotations").beginObject();
          for (Map.Entry<String, String> a : b.annotations().entrySet()) {
            w.name(a.getKey()).value(a.getValue());
          }
          w.endObject();
        }
        explain(w, b.explain());
        w.endObject();
      }
      w.endArray();
      if (!r.volumes().isEmpty()) { // only where claims were bound: reports without storage stay as they were
        w.name("volumes").beginArray();
        for (SimulationReport.VolumeRow v : r.volumes()) {
          w.beginObject().name("pod").value(v.pod()).name("claim").value(v.claim()).name("volume").value(v.volume())
              .endObject();
        }
        w.endArray();
      }
      w.name("pending").beginArray();
      for (SimulationReport.Pending p : r.pending()) {
        w.beginObject().name("pod").value(p.pod()).name("reason").value(p.reason());
        if (p.nominatedNode() != null) {
          w.name("nominatedNodeName").value(p.nominatedNode());
        }
        explain(w, p.explain());
        w.endObject();
      }
      w.endArray();
      w.name("evicted").beginArray();
      for (SimulationReport.Evicted e : r.evicted()) {
        w.beginObject().name("pod").value(e.pod()).name("reason").value(e.reason()).endObject();
      }
      w.endArray();
      w.name("podGroups").beginArray();
      for (SimulationReport.Group g : r.podGroups()) {
        w.beginObject().name("name").value(g.name()).name("phase").value(g.phase())
            .name("minMember").value(g.minMember()).name("scheduled").value(g.scheduled())
            .name("from").value(g.from());
        if (g.domains() != null) {
          w.name("domains").beginArray();
          for (DomainVerdict d : g.domains()) {
            w.beginObject().name("domain").value(d.domain()).name("tier").value(d.tier()).name("free").value(d.free())
                .name("verdict").value(d.verdict()).endObject();
          }
          w.endArray();
        }
        w.endObject();
      }
      w.endArray();
      w.name("queues").beginArray();
      for (SimulationReport.QueueRow q : r.queues()) {
        w.beginObject().name("name").value(q.name()).name("weight").value(q.weight());
        quantities(w.name("deserved"), q.deserved());
        quantities(w.name("allocated"), q.allocated());
        w.name("overused").value(q.overused()).endObject();
      }
      w.endArray();
      w.name("warnings").beginArray();
      for (String s : r.warnings()) {
        w.value(s);
      }
      w.endArray();
      if (!r.claims().isEmpty()) { // only where DRA claims were written: other reports stay as they were
        w.name("claims").beginArray();
        for (SimulationReport.Claim c : r.claims()) {
          w.beginObject().name("claim").value(c.claim());
          if (c.node() != null) {
            w.name("node").value(c.node());
          }
          w.name("devices").beginArray();
          for (String d : c.devices()) {
            w.value(d);
          }
          w.endArray().name("reservedFor").beginArray();
          for (String p : c.reservedFor()) {
            w.value(p);
          }
          w.endArray().endObject();
        }
        w.endArray();
      }
      w.name("summary").beginObject()
          .name("cycles").value(r.cycles())
          .name("nodes").value(r.nodes())
          .name("bound").value(r.bindings().size())
          .name("pending").value(r.pending().size())
          .name("evicted").value(r.evicted().size())
          .endObject();
      w.endObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString() + "\n";
  }

  private static void explain(JsonWriter w, Map<String, NodeVerdict> verdicts) throws IOException {
    if (verdicts == null) {
      return;
    }
    w.name("explain").beginObject();
    for (Map.Entry<String, NodeVerdict> e : verdicts.entrySet()) {
      NodeVerdict v = e.getValue();
      w.name(e.getKey()).beginObject().name("filter").value(v.filter());
      if (v.filter().equals("ok")) {
        w.name("scores").beginObject();
        for (Map.Entry<String, Double> s : v.scores().entrySet()) {
          w.name(s.getKey()).value(round(s.getValue()));
        }
        w.endObject().name("total").value(round(v.total()));
      }
      w.endObject();
    }
    w.endObject();
  }

  private static void quantities(JsonWriter w, Map<String, String> q) throws IOException {
    if (q == null) {
      w.nullValue();
      return;
    }
    w.beginObject();
    for (Map.Entry<String, String> e : q.entrySet()) {
      w.name(e.getKey()).value(e.getValue());
    }
    w.endObject();
  }

  private static double round(double v) {
    return Math.round(v * 1000.0) / 1000.0;
  }

  /** A table: bound pods, pending pods with reasons, evictions, PodGroups, then a one-line summary. */
  public static String table(SimulationReport r) {
    StringBuilder sb = new StringBuilder();
    sb.append("Basalt simulation: ").append(r.nodes()).append(" nodes, ").append(r.cycles()).append(" cycle(s)\n");
    for (String w : r.warnings()) {
      sb.append("warning: ").append(w).append('\n');
    }
    sb.append("\nBOUND (").append(r.bindings().size()).append(")\n");
    if (r.bindings().stream().anyMatch(b -> !b.domain().isEmpty())) {
      rows(sb, List.of("POD", "NODE", "DOMAIN"), r.bindings().stream()
          .map(b -> List.of(b.pod(), b.node(), b.domain())).toList());
    } else if (r.bindings().stream().anyMatch(b -> !b.devices().isEmpty())) {
      rows(sb, List.of("POD", "NODE", "DEVICES"), r.bindings().stream()
          .map(b -> List.of(b.pod(), b.node(), b.devices().isEmpty() ? "-" : String.join(",", b.devices())))
          .toList());
    } else {
      rows(sb, List.of("POD", "NODE"), r.bindings().stream().map(b -> List.of(b.pod(), b.node())).toList());
    }
    if (!r.volumes().isEmpty()) { // only where claims were bound: reports of clusters without storage stay as they were
      sb.append("\nVOLUMES (").append(r.volumes().size()).append(")\n");
      rows(sb, List.of("POD", "CLAIM", "VOLUME"), r.volumes().stream()
          .map(v -> List.of(v.pod(), v.claim(), v.volume())).toList());
    }
    sb.append("\nPENDING (").append(r.pending().size()).append(")\n");
    rows(sb, List.of("POD", "REASON"), r.pending().stream().map(p -> List.of(p.pod(), p.reason())).toList());
    sb.append("\nEVICTED (").append(r.evicted().size()).append(")\n");
    rows(sb, List.of("POD", "REASON"), r.evicted().stream().map(e -> List.of(e.pod(), e.reason())).toList());
    sb.append("\nPOD GROUPS (").append(r.podGroups().size()).append(")\n");
    rows(sb, List.of("NAME", "PHASE", "MIN", "SCHEDULED", "FROM"), r.podGroups().stream()
        .map(g -> List.of(g.name(), g.phase(), Integer.toString(g.minMember()), Integer.toString(g.scheduled()),
            g.from()))
        .toList());
    sb.append("\nQUEUES (").append(r.queues().size()).append(")\n");
    rows(sb, List.of("NAME", "WEIGHT", "DESERVED", "ALLOCATED", "OVERUSED"), r.queues().stream()
        .map(q -> List.of(q.name(), Integer.toString(q.weight()), q.deserved() == null ? "-" : brief(q.deserved()),
            brief(q.allocated()), q.overused() ? "yes" : "no"))
        .toList());
    if (!r.claims().isEmpty()) {
      sb.append("\nCLAIMS (").append(r.claims().size()).append(")\n");
      rows(sb, List.of("CLAIM", "NODE", "DEVICES", "RESERVED FOR"), r.claims().stream()
          .map(c -> List.of(c.claim(), c.node() == null ? "-" : c.node(), String.join(",", c.devices()),
              String.join(",", c.reservedFor())))
          .toList());
    }
    explainTable(sb, r);
    sb.append("\nSummary: ").append(r.bindings().size()).append(" bound, ").append(r.pending().size())
        .append(" pending, ").append(r.evicted().size()).append(" evicted\n");
    return sb.toString();
  }

  /**
   * With {@code --explain}: per job asking for a network domain, the domains it considered; per pod, each node's
   * verdict, the best-scoring first; at most {@link #EXPLAIN_ROWS} of either.
   */
  private static void explainTable(StringBuilder sb, SimulationReport r) {
    Map<String, Map<String, NodeVerdict>> byPod = new java.util.LinkedHashMap<>();
    Map<String, String> outcome = new java.util.HashMap<>();
    for (SimulationReport.Bound b : r.bindings()) {
      if (b.explain() != null) {
        byPod.put(b.pod(), b.explain());
        outcome.put(b.pod(), "bound to " + b.node());
      }
    }
    for (SimulationReport.Pending p : r.pending()) {
      if (p.explain() != null) {
        byPod.put(p.pod(), p.explain());
        outcome.put(p.pod(), "pending");
      }
    }
    List<SimulationReport.Group> jobs = r.podGroups().stream().filter(g -> g.domains() != null).toList();
    if (byPod.isEmpty() && jobs.isEmpty()) {
      return;
    }
    sb.append("\nEXPLAIN (").append(byPod.size()).append(" pods, each one's last node search");
    if (!jobs.isEmpty()) {
      sb.append("; ").append(jobs.size()).append(jobs.size() == 1 ? " job's" : " jobs'").append(" network domains");
    }
    sb.append(")\n");
    for (SimulationReport.Group g : jobs) {
      domainsTable(sb, g);
    }
    for (Map.Entry<String, Map<String, NodeVerdict>> e : byPod.entrySet()) {
      sb.append("  ").append(e.getKey()).append(": ").append(outcome.get(e.getKey())).append('\n');
      List<Map.Entry<String, NodeVerdict>> nodes = new java.util.ArrayList<>(e.getValue().entrySet());
      nodes.sort(java.util.Comparator.comparing((Map.Entry<String, NodeVerdict> n) -> !n.getValue().filter()
          .equals("ok")).thenComparing(n -> -n.getValue().total()).thenComparing(Map.Entry::getKey));
      List<List<String>> rows = new java.util.ArrayList<>();
      for (Map.Entry<String, NodeVerdict> n : nodes.subList(0, Math.min(EXPLAIN_ROWS, nodes.size()))) {
        NodeVerdict v = n.getValue();
        boolean ok = v.filter().equals("ok");
        StringBuilder scores = new StringBuilder();
        v.scores().forEach((plugin, score) -> scores.append(scores.isEmpty() ? "" : " ").append(plugin).append('=')
            .append(round(score)));
        rows.add(List.of(n.getKey(), v.filter(), ok ? scores.toString() : "-", ok ? Double.toString(round(v.total()))
            : "-"));
      }
      StringBuilder block = new StringBuilder();
      rows(block, List.of("NODE", "FILTER", "SCORES", "TOTAL"), rows);
      block.toString().lines().forEach(l -> sb.append("  ").append(l).append('\n'));
      if (nodes.size() > EXPLAIN_ROWS) {
        sb.append("    (").append(nodes.size() - EXPLAIN_ROWS).append(" more nodes; --output json lists all)\n");
      }
    }
  }

  private static final int EXPLAIN_ROWS = 12;

  /** {@code DOMAINS (job ml/big, ...)}: the domains of the job's last placement attempt, the chosen first. */
  private static void domainsTable(StringBuilder sb, SimulationReport.Group g) {
    sb.append("  DOMAINS (job ").append(g.name()).append(", its last placement attempt)\n");
    List<DomainVerdict> shown = g.domains().subList(0, Math.min(EXPLAIN_ROWS, g.domains().size()));
    StringBuilder block = new StringBuilder();
    rows(block, List.of("DOMAIN", "TIER", "FREE", "VERDICT"), shown.stream()
        .map(d -> List.of(d.domain(), d.tier() == 0 ? "-" : Integer.toString(d.tier()), d.free(), d.verdict()))
        .toList());
    block.toString().lines().forEach(l -> sb.append("  ").append(l).append('\n'));
    if (g.domains().size() > EXPLAIN_ROWS) {
      sb.append("    (").append(g.domains().size() - EXPLAIN_ROWS).append(" more domains; --output json lists all)\n");
    }
  }

  private static String brief(Map<String, String> q) {
    return q.isEmpty() ? "0" : q.toString().replace("{", "").replace("}", "").replace("=", ": ");
  }

  private static void rows(StringBuilder sb, List<String> header, List<List<String>> rows) {
    if (rows.isEmpty()) {
      sb.append("  (none)\n");
      return;
    }
    int[] width = new int[header.size()];
    for (int c = 0; c < header.size(); c++) {
      width[c] = header.get(c).length();
      for (List<String> row : rows) {
        if (c < header.size() - 1) {
          width[c] = Math.max(width[c], row.get(c).length());
        }
      }
    }
    line(sb, header, width);
    for (List<String> row : rows) {
      line(sb, row, width);
    }
  }

  private static void line(StringBuilder sb, List<String> cells, int[] width) {
    sb.append("  ");
    for (int c = 0; c < cells.size(); c++) {
      String cell = cells.get(c);
      sb.append(cell);
      if (c < cells.size() - 1) {
        sb.append(" ".repeat(width[c] - cell.length() + 2));
      }
    }
    sb.append('\n');
  }
}
