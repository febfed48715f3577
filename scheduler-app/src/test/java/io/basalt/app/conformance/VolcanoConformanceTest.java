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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Volcano's own action and plugin test tables, run through Basalt's simulator (see {@code docs/VOLCANO.md}). Each
 * case must end as Volcano's test expects; a deliberate difference must end as Basalt documents instead; an open gap
 * must still differ, so the day it is fixed this test says to move the case to the matching ones.
 */
class VolcanoConformanceTest {
  private static final String BEGIN = "<!-- cases:begin -->";
  private static final String END = "<!-- cases:end -->";
  private static final Map<VolcanoCase, Run> RUNS = new ConcurrentHashMap<>();

  /** What the simulator did with a case: its outcome, and whatever it warned about reading the cluster. */
  private record Run(VolcanoCase.Outcome outcome, List<String> warnings, String pending) {}

  static List<VolcanoCase> cases() {
    return VolcanoTables.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void endsAsVolcanoExpectsOrAsDocumented(VolcanoCase c) {
    Run run = run(c);
    assertEquals(List.of(), run.warnings(), "the case's cluster must read cleanly");
    VolcanoCase.Outcome actual = run.outcome();
    String got = "\n  case:    " + c + "\n  got:     " + actual.describe() + "\n  pending: " + run.pending();
    if (c.open() != null) {
      assertFalse(c.volcano().matches(actual), "open gap now matches Volcano (" + c.open() + "): drop 'open' from "
          + "the case and regenerate docs/VOLCANO.md" + got);
    } else if (c.basalt() != null) {
      assertNotNull(c.deliberate(), "a 'basalt' result needs a 'deliberate' reason");
      assertFalse(c.volcano().matches(c.basalt()), "'basalt' equals Volcano's result: not a difference");
      assertTrue(c.basalt().matches(actual), "expected Basalt's documented result\n  want:    "
          + c.basalt().describe() + got);
    } else {
      assertTrue(c.volcano().matches(actual), "expected Volcano's result\n  want:    " + c.volcano().describe() + got);
    }
  }

  @Test
  void atLeastSixtyCasesAndUniqueNamesPerTable() {
    List<VolcanoCase> all = cases();
    assertTrue(all.size() >= 60, "only " + all.size() + " cases");
    assertEquals(all.size(), all.stream().map(VolcanoCase::toString).distinct().count(), "duplicate case names");
  }

  /** docs/VOLCANO.md's table is generated from the cases; on a difference the new table is left in target/. */
  @Test
  void docsListEveryCaseWithItsResult() throws Exception {
    Path doc = Scenarios.fixture("../docs/VOLCANO.md").normalize();
    String text = Files.readString(doc);
    int from = text.indexOf(BEGIN);
    int to = text.indexOf(END);
    assertTrue(from >= 0 && to > from, "docs/VOLCANO.md needs " + BEGIN + " ... " + END);
    String table = table();
    if (!text.substring(from + BEGIN.length(), to).equals("\n" + table)) {
      Path out = Path.of("target", "VOLCANO-cases.md");
      Files.createDirectories(out.getParent());
      Files.writeString(out, table);
      fail("docs/VOLCANO.md's case table is stale: replace it with " + out.toAbsolutePath());
    }
  }

  static String table() {
    StringBuilder sb = new StringBuilder();
    sb.append("| # | Volcano test case | Volcano expects | Basalt | why |\n| --- | --- | --- | --- | --- |\n");
    Map<String, Integer> counters = new LinkedHashMap<>();
    for (VolcanoCase c : cases()) {
      int n = counters.merge(c.table(), 1, Integer::sum);
      VolcanoCase.Outcome actual = run(c).outcome();
      String basalt = c.volcano().matches(actual) ? "same" : actual.describe();
      String why = c.open() != null ? "open: #12, " + c.open()
          : c.deliberate() != null ? "deliberate: " + c.deliberate() : "";
      if (c.note() != null) {
        why = why.isEmpty() ? "note: " + c.note() : why + " (note: " + c.note() + ")";
      }
      sb.append("| ").append(c.table()).append('-').append(n).append(" | ").append(cell(c.name()))
          .append("<br>`").append(c.source().substring(c.source().lastIndexOf(' ') + 1)).append("` | ")
          .append(cell(c.volcano().describe())).append(" | ").append(cell(basalt)).append(" | ").append(cell(why))
          .append(" |\n");
    }
    return sb.toString();
  }

  private static String cell(String s) {
    return s.replace("|", "\\|").replace("\n", " ");
  }

  /** The total score of {@code pod} on each node its last search found feasible, for pods the case scores. */
  private static void scores(Set<String> scored, String pod, Map<String, NodeVerdict> explain,
      Map<String, Map<String, Double>> into) {
    if (!scored.contains(pod) || explain == null) {
      return;
    }
    Map<String, Double> byNode = new LinkedHashMap<>();
    explain.forEach((node, verdict) -> {
      if (verdict.filter().equals("ok")) {
        byNode.put(node, verdict.total());
      }
    });
    into.put(pod, byNode);
  }

  private static Run run(VolcanoCase c) {
    return RUNS.computeIfAbsent(c, VolcanoConformanceTest::simulate);
  }

  private static Run simulate(VolcanoCase c) {
    try {
      // Scores are read from --explain's record of each pod's last search, so only cases asserting them explain.
      Set<String> scored = c.volcano().scores().keySet();
      Simulator sim = new Simulator(Scenarios.compile(ConfLoader.parse(c.conf(), c.toString())),
          Set.of("basalt-scheduler"), !scored.isEmpty());
      SimulationReport r = sim.run(FixtureSource.fromText(c.toString(), c.cluster()));
      Map<String, String> binds = new LinkedHashMap<>();
      Map<String, Map<String, Double>> scores = new LinkedHashMap<>();
      r.bindings().forEach(b -> {
        binds.put(b.pod(), b.node());
        scores(scored, b.pod(), b.explain(), scores);
      });
      StringBuilder pending = new StringBuilder();
      r.pending().forEach(p -> {
        pending.append("\n    ").append(p.pod()).append(": ").append(p.reason());
        scores(scored, p.pod(), p.explain(), scores);
      });
      return new Run(new VolcanoCase.Outcome(binds, r.evicted().stream().map(SimulationReport.Evicted::pod).toList(),
          scores), r.warnings(), pending.toString());
    } catch (Exception e) {
      throw new IllegalStateException(c + ": " + e.getMessage() + "\nconf:\n" + c.conf(), e);
    }
  }
}
