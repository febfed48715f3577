package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.sim.SimulationReport;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code test-fixtures/priority-preempt/}: seed 002's PriorityClasses and its {@code ml-high} Job on four nodes full of
 * {@code ml-low} pods. kube-scheduler would preempt; under the shipped {@code config/priority-preempt.conf} Basalt
 * does, while Volcano's default tiers (the chart's default) block it at enqueue (docs/KUEUE.md).
 */
class PriorityPreemptScenarioTest {
  private static SimulationReport run(String config) throws Exception {
    return Scenarios.run("priority-preempt", Files.readString(Scenarios.fixture("..").resolve(config)));
  }

  @Test
  void theMlHighJobEvictsWhatItNeedsOfMlLowAndMlLowNeverPreempts() throws Exception {
    SimulationReport r = run("config/priority-preempt.conf");
    assertNotNull(r.binding("ml-research/research-training-0"), r.pending().toString());
    assertEquals(4, r.evicted().size(), "4 GPUs asked, 4 one-GPU ml-low pods evicted: " + r.evicted());
    for (SimulationReport.Evicted e : r.evicted()) {
      assertTrue(e.pod().startsWith("ml-experiments/low-"), e.toString());
      assertTrue(e.reason().contains("preempted by ml-research/research-training-0"), e.reason());
    }
    assertNotNull(r.pendingPod("ml-experiments/sweep"), "ml-low is preemptionPolicy Never: it waits, evicting none");
  }

  @Test
  void volcanosDefaultTiersBlockItAtEnqueueAndSaySo() throws Exception {
    SimulationReport r = Scenarios.run("priority-preempt");
    assertEquals(List.of(), r.evicted());
    String reason = r.pendingPod("ml-research/research-training-0").reason();
    assertTrue(reason.contains("not admitted to queue default") && reason.contains("capability"), reason);
  }
}
