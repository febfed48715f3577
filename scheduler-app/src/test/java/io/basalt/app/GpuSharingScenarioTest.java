package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.sim.SimulationReport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Fractional GPUs in the simulator ({@code test-fixtures/gpu-sharing}): the device each share pod gets. */
class GpuSharingScenarioTest {
  /** Volcano's default tiers with deviceshare, kept small; the full tiers are checked further down. */
  private static String conf(String arguments) {
    return """
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}, {name: conformance}]
        - plugins:
          - name: drf
          - name: predicates
          - name: nodeorder
          - name: deviceshare
        """ + (arguments.isEmpty() ? "" : "    arguments: {" + arguments + "}\n");
  }

  private static String placed(SimulationReport r, String pod) {
    SimulationReport.Bound b = r.binding("ml/" + pod);
    return b == null ? "pending" : b.node() + ":" + String.join(",", b.devices());
  }

  private static List<String> placements(SimulationReport r) {
    return List.of("infer-0", "infer-1", "infer-2", "train-0", "train-1").stream().map(p -> placed(r, p)).toList();
  }

  @Test
  void binpackPutsThreeThirtyPercentPodsOnOneGpuAndSixtyPercentPodsApart() throws Exception {
    SimulationReport r = Scenarios.run("gpu-sharing", conf(""));
    assertEquals(List.of("mxc500:0", "mxc500:0", "mxc500:0", "mxc500:1", "mxc500:2"), placements(r));
    assertEquals(5, r.bindings().size());
  }

  @Test
  void spreadGivesEachShareItsOwnGpu() throws Exception {
    SimulationReport r = Scenarios.run("gpu-sharing", conf("deviceshare.policy: spread"));
    assertEquals(List.of("mxc500:0", "mxc500:1", "mxc500:2", "mxc500:3", "mxc500:4"), placements(r));
  }

  @Test
  void sharesThatFitNoGpuWaitWithTheirReason() throws Exception {
    SimulationReport r = Scenarios.run("gpu-sharing", conf(""));
    assertEquals(2, r.pending().size());
    assertEquals("0/1 nodes are available: 1 node(s) had no GPU with 10% compute and 80Gi memory free.",
        r.pendingPod("ml/too-much-memory").reason());
    assertEquals("0/1 nodes are available: 1 GPU share pod requests 2 nvidia.com/gpu with "
        + "nvidia.com/gpucores/nvidia.com/gpumem; a share is of one GPU, so it must be 1.",
        r.pendingPod("ml/two-gpus").reason());
  }

  @Test
  void maxSharesArgumentCapsTheSharersPerGpu() throws Exception {
    SimulationReport r = Scenarios.run("gpu-sharing", conf("deviceshare.maxShares: 2"));
    // GPU 0 takes two infer pods; the third opens GPU 1, where train-0 (30 + 60 <= 100) joins it as its second.
    assertEquals(List.of("mxc500:0", "mxc500:0", "mxc500:1", "mxc500:1", "mxc500:2"), placements(r));
  }

  @Test
  void fullDefaultTiersWithGpuAwareAdmitAndPlaceSharesTheSameWay() throws Exception {
    // overcommit and proportion leave the per-device share resources (vcore, vmemory) to deviceshare: nodes do not
    // list them, so admitting against node allocatable would keep every share pod out.
    SimulationReport r = Scenarios.run("gpu-sharing", """
        actions: "enqueue, allocate, backfill"
        tiers:
        - plugins: [{name: priority}, {name: gang}, {name: conformance}]
        - plugins: [{name: overcommit}, {name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder},
                    {name: deviceshare}, {name: gpu-aware}]
        """);
    assertEquals(List.of("mxc500:0", "mxc500:0", "mxc500:0", "mxc500:1", "mxc500:2"), placements(r));
  }
}
