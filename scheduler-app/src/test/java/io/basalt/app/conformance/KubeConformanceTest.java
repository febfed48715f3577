package io.basalt.app.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.basalt.app.Scenarios;
import io.basalt.config.ConfLoader;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.NodeVerdict;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube-scheduler's own plugin test tables, run through Basalt's simulator (see {@code docs/KUBE-SCHEDULER.md}):
 * each case's incoming pod is searched for with {@code --explain}, and every node's filter verdict and score must be
 * what kube-scheduler's test expects; a deliberate difference must be what Basalt documents instead; an open gap must
 * still differ, so the day it is closed this test says to move the case to the matching ones.
 */
class KubeConformanceTest {
  private static final String BEGIN = "<!-- cases:begin -->";
  private static final String END = "<!-- cases:end -->";
  private static final NodeVerdict FEASIBLE = new NodeVerdict();
  private static final Map<KubeCase, Run> RUNS = new ConcurrentHashMap<>();

  /** What the simulator did with a case's incoming pod: its verdict per node, and any warning reading the cluster. */
  private record Run(Map<String, String> verdicts, List<String> warnings, String pending) {}

  static List<KubeCase> cases() {
    return KubeTables.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void endsAsKubeSchedulerExpectsOrAsDocumented(KubeCase c) {
    Run run = run(c);
    assertEquals(List.of(), run.warnings(), "the case's cluster must read cleanly");
    Map<String, String> actual = run.verdicts();
    String got = "\n  case:    " + c + "\n  got:     " + KubeCase.describe(actual) + run.pending();
    if (c.open() != null) {
      assertFalse(c.matches(c.kube(), actual), "open gap now matches kube-scheduler (" + c.open() + "): drop "
          + "'open' from the case and regenerate docs/KUBE-SCHEDULER.md" + got);
    } else if (c.basalt() != null) {
      assertNotNull(c.deliberate(), "a 'basalt' result needs a 'deliberate' reason");
      assertFalse(c.matches(c.kube(), c.basalt()), "'basalt' equals kube-scheduler's result: not a difference");
      assertTrue(c.matches(c.basalt(), actual), "expected Basalt's documented result\n  want:    "
          + KubeCase.describe(c.basalt()) + got);
    } else {
      assertTrue(c.matches(c.kube(), actual), "expected kube-scheduler's result\n  want:    "
          + KubeCase.describe(c.kube()) + got);
    }
  }

  @Test
  void atLeast150CasesAndUniqueNamesPerTable() {
    List<KubeCase> all = cases();
    assertTrue(all.size() >= 150, "only " + all.size() + " cases");
    assertEquals(all.size(), all.stream().map(KubeCase::toString).distinct().count(), "duplicate case names");
  }

  /** docs/KUBE-SCHEDULER.md's tables are generated from the cases; on a difference the new ones are in target/. */
  @Test
  void docsListEveryCaseWithItsResult() throws Exception {
    Path doc = Scenarios.fixture("../docs/KUBE-SCHEDULER.md").normalize();
    String text = Files.readString(doc);
    int from = text.indexOf(BEGIN);
    int to = text.indexOf(END);
    assertTrue(from >= 0 && to > from, "docs/KUBE-SCHEDULER.md needs " + BEGIN + " ... " + END);
    String table = table();
    if (!text.substring(from + BEGIN.length(), to).equals("\n" + table)) {
      Path out = Path.of("target", "KUBE-SCHEDULER-cases.md");
      Files.createDirectories(out.getParent());
      Files.writeString(out, table);
      fail("docs/KUBE-SCHEDULER.md's case tables are stale: replace them with " + out.toAbsolutePath());
    }
  }

  /** The summary per table, then every case with kube-scheduler's expectation, Basalt's result and why. */
  static String table() {
    Map<String, int[]> counts = new LinkedHashMap<>();
    Map<String, String> sources = new LinkedHashMap<>();
    StringBuilder rows = new StringBuilder();
    rows.append("| # | kube-scheduler test case | kube-scheduler expects | Basalt | why |\n")
        .append("| --- | --- | --- | --- | --- |\n");
    for (KubeCase c : cases()) {
      int[] n = counts.computeIfAbsent(c.table(), t -> new int[4]);
      n[0]++;
      n[c.open() != null ? 3 : c.deliberate() != null ? 2 : 1]++;
      String file = "`" + c.source().substring(0, c.source().indexOf(' ')) + "`";
      sources.merge(c.table(), file, (a, b) -> a.contains(b) ? a : a + "<br>" + b);
      Map<String, String> actual = run(c).verdicts();
      Map<String, String> shown = new TreeMap<>();
      c.kube().keySet().forEach(k -> shown.put(k, actual.get(k)));
      String basalt = c.matches(c.kube(), actual) ? "same" : KubeCase.describe(shown);
      String why = c.open() != null ? "open: " + c.open()
          : c.deliberate() != null ? "deliberate: " + c.deliberate() : "";
      if (c.note() != null) {
        why = why.isEmpty() ? "note: " + c.note() : why + " (note: " + c.note() + ")";
      }
      rows.append("| ").append(c.table()).append('-').append(n[0]).append(" | ").append(cell(c.name()))
          .append("<br>`").append(c.source().substring(c.source().lastIndexOf(' ') + 1)).append("` | ")
          .append(cell(KubeCase.describe(c.kube()))).append(" | ").append(cell(basalt)).append(" | ")
          .append(cell(why)).append(" |\n");
    }
    StringBuilder sb = new StringBuilder();
    sb.append("| table | kube-scheduler test file | cases | match | deliberate | open |\n")
        .append("| --- | --- | --- | --- | --- | --- |\n");
    int[] all = new int[4];
    counts.forEach((t, n) -> {
      sb.append("| ").append(t).append(" | ").append(sources.get(t)).append(" | ").append(n[0]).append(" | ")
          .append(n[1]).append(" | ").append(n[2]).append(" | ").append(n[3]).append(" |\n");
      for (int i = 0; i < 4; i++) {
        all[i] += n[i];
      }
    });
    sb.append("| **all** | | **").append(all[0]).append("** | **").append(all[1]).append("** | **").append(all[2])
        .append("** | **").append(all[3]).append("** |\n\n");
    return sb.append(rows).toString();
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }

  private static Run run(KubeCase c) {
    return RUNS.computeIfAbsent(c, KubeConformanceTest::simulate);
  }

  private static Run simulate(KubeCase c) {
    try {
      Simulator sim = new Simulator(Scenarios.compile(ConfLoader.parse(c.conf(), c.toString())),
          Set.of("basalt-scheduler"), true);
      SimulationReport r = sim.run(FixtureSource.fromText(c.toString(), c.cluster()));
      SimulationReport.Pending p = r.pendingPod(KubeTables.INCOMING);
      return new Run(verdicts(c, r), r.warnings(), p == null ? "" : "\n  pending: " + p.reason());
    } catch (Exception e) {
      throw new IllegalStateException(c + ": " + e.getMessage() + "\nconf:\n" + c.conf(), e);
    }
  }

  /**
   * The incoming pod's verdict on each node its last search looked at: the filter's reason, else its score where
   * kube-scheduler's case expects a score there, else {@code ok}; and the pod's own fate under {@link KubeCase#POD}.
   */
  private static Map<String, String> verdicts(KubeCase c, SimulationReport r) {
    SimulationReport.Bound bound = r.binding(KubeTables.INCOMING);
    SimulationReport.Pending pending = r.pendingPod(KubeTables.INCOMING);
    Map<String, NodeVerdict> explain = bound != null ? bound.explain() : pending != null ? pending.explain() : null;
    Map<String, String> out = new TreeMap<>();
    out.put(KubeCase.POD, bound != null ? "bound" : pending == null ? "not scheduled"
        : pending.reason() != null && pending.reason().toLowerCase(Locale.ROOT).contains("gate") ? "gated"
        : "pending");
    for (String node : c.kube().keySet()) {
      if (node.equals(KubeCase.POD)) {
        continue;
      }
      // A node the search found feasible, with no scorer to ask, is not in the explanation at all.
      NodeVerdict v = explain == null ? null : explain.getOrDefault(node, FEASIBLE);
      if (v == null) {
        out.put(node, KubeCase.NOT_ASKED);
      } else if (!v.filter().equals("ok")) {
        out.put(node, v.filter());
      } else if (c.kube().get(node).matches("-?\\d+")) {
        out.put(node, v.scores().isEmpty() ? "no score" : number(v.total()));
      } else {
        out.put(node, "ok");
      }
    }
    return out;
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%.2f", d);
  }
}
