package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.basalt.sim.SimulationReport;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The scenarios of {@code test-fixtures/continue-allocating/}: a gang does not give up at its first pod that fits
 * nowhere while the rest can still make it ready.
 */
class ContinueAllocatingScenarioTest {
  private static final String SELECTOR_MISS =
      "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.";

  @Test
  void aPodThatFitsNowhereDoesNotStopTheRestOfAGroupThatNeedsOnlyOne() throws Exception {
    SimulationReport r = Scenarios.run("continue-allocating/unfit-pod-first");
    assertNotNull(r.binding("batch/mixed-1"), "the second pod binds though the first fits nowhere");
    assertEquals("cpu-1", r.binding("batch/mixed-1").node());
    assertNull(r.binding("batch/mixed-0"));
    assertEquals(SELECTOR_MISS, r.pendingPod("batch/mixed-0").reason());
    assertEquals("Running", r.podGroup("batch/mixed").phase());
  }

  @Test
  void anExtraMasterThatFitsNowhereDoesNotKeepAMasterAndAWorkerFromStarting() throws Exception {
    SimulationReport r = Scenarios.run("continue-allocating/roles");
    assertNotNull(r.binding("ml/train-master-0"), "one master binds though the second fits nowhere");
    assertNotNull(r.binding("ml/train-worker-0"), "and one worker, since the job can still become ready");
    assertEquals("master-node", r.binding("ml/train-master-0").node());
    assertEquals("worker-node", r.binding("ml/train-worker-0").node());
    assertEquals(2, r.bindings().size());
    assertEquals(Set.of("ml/train-master-1", "ml/train-worker-1", "ml/train-worker-2"),
        r.pending().stream().map(SimulationReport.Pending::pod).collect(Collectors.toSet()));
    String why = "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.";
    for (SimulationReport.Pending p : r.pending()) {
      assertEquals(why, p.reason(), p.pod());
    }
    assertEquals("Running", r.podGroup("ml/train").phase());
    assertEquals(2, r.podGroup("ml/train").scheduled());
  }
}
