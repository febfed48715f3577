package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.sim.SimulationReport;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code test-fixtures/quota/}: seed 002's ResourceQuotas (ml-research: 8 requested GPUs) unchanged, a 16-GPU gang
 * and the seed's ml-high Job in ml-research, on four free 8-GPU nodes. The simulator plays the API server's quota
 * admission; the gang's pending pod is told which quota keeps it from starting.
 */
class QuotaScenarioTest {
  @Test
  void aSixteenGpuGangInANamespaceCappedAtEightNeverRunsAndSaysWhichQuota() throws Exception {
    SimulationReport r = Scenarios.run("quota");
    assertEquals(List.of(), r.bindings(), "four free nodes, yet nothing in ml-research may start: " + r.bindings());
    assertNull(r.pendingPod("ml-research/ablation-worker-1"), "refused: never created");
    assertNull(r.pendingPod("ml-research/research-training-0"), "refused: 8 + 4 GPUs exceed 8");
    assertTrue(r.warnings().contains("pod ml-research/ablation-worker-1 refused by ResourceQuota "
        + "ml-research/ml-research-quota: requests.nvidia.com/gpu would be 16, hard 8 (8 used) (the API server "
        + "would not create it)"), String.join("\n", r.warnings()));
    SimulationReport.Pending waiting = r.pendingPod("ml-research/ablation-worker-0");
    assertNotNull(waiting, r.pending().toString());
    assertEquals("ResourceQuota ml-research/ml-research-quota allows requests.nvidia.com/gpu 8 in namespace "
        + "ml-research (0 used by other pods): the gang's 2 pods need 16, so the API server refuses 1 of them "
        + "(PodGroup ml-research/ablation has 1 valid pods of minMember 2)", waiting.reason());
    assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("ResourceQuota ml-research/ml-research-quota: "
        + "not enforced by simulate: ") && w.contains("limits.cpu")), "limits are named, not silently dropped");
  }
}
