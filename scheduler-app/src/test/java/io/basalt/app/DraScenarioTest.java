package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.sim.SimulationReport;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * DRA claims through the simulator ({@code test-fixtures/dra/}): the issue's example, a gang of 4 pods x 8 devices, a
 * gang that cannot get all its devices (no claim written), and one claim shared by two pods (allocated once).
 */
class DraScenarioTest {
  /** Tiers without predicates or any device plugin: claims are honoured all the same. */
  private static final String BARE = """
      actions: "enqueue, allocate"
      tiers:
      - plugins:
        - name: priority
        - name: gang
      """;

  @Test
  void theExamplePodLandsWhereItsDeviceIsAndItsClaimIsAllocated() throws Exception {
    for (SimulationReport r : List.of(Scenarios.run("dra/example"), Scenarios.run("dra/example", BARE))) {
      SimulationReport.Bound b = r.binding("ml/train-0");
      assertNotNull(b);
      assertTrue(Set.of("node-6", "node-7").contains(b.node()), b.node());
      assertEquals(1, r.claims().size(), r.claims().toString());
      SimulationReport.Claim c = r.claims().get(0);
      assertTrue(c.claim().startsWith("ml/train-0-gpu-") && c.claim().length() == "ml/train-0-gpu-".length() + 5,
          c.claim());
      assertEquals(b.node(), c.node());
      assertEquals(List.of("gpu.example.com/" + b.node() + "/gpu-0"), c.devices());
      assertEquals(List.of("train-0"), c.reservedFor());
    }
  }

  @Test
  void aClaimNoDeviceMatchesKeepsThePodPendingSayingWhy() throws Exception {
    String reason = Scenarios.run("dra/example").pendingPod("ml/bad-0").reason();
    assertTrue(reason.matches("0/8 nodes are available: 8 cannot allocate all claims \\(claim ml/bad-0-tpu-\\w{5}: "
        + "request tpu: no device matches the selector of class tpu\\.example\\.com\\)\\."), reason);
  }

  @Test
  void aGangOfFourPodsTimesEightDevicesBindsWithEveryClaimAllocated() throws Exception {
    SimulationReport r = Scenarios.run("dra/gang");
    assertEquals("Running", r.podGroup("ml/train").phase());
    Set<String> nodes = r.bindings().stream().map(SimulationReport.Bound::node).collect(Collectors.toSet());
    assertEquals(Set.of("node-1", "node-2", "node-3", "node-4"), nodes, "node-0 has a device allocated already");
    assertEquals(4, r.claims().size());
    for (SimulationReport.Claim c : r.claims()) {
      assertEquals(8, c.devices().size(), c.toString());
      assertTrue(c.devices().stream().allMatch(d -> d.startsWith("gpu.example.com/" + c.node() + "/")), c.toString());
      assertEquals(1, c.reservedFor().size());
    }
  }

  @Test
  void aGangThatCannotGetAllItsDevicesWritesNoAllocation() throws Exception {
    SimulationReport r = Scenarios.run("dra/gang-short");
    assertTrue(r.bindings().isEmpty());
    assertTrue(r.claims().isEmpty(), r.claims().toString());
    assertTrue(r.pendingPod("ml/train-3").reason().contains("cannot allocate all claims"),
        r.pendingPod("ml/train-3").reason());
  }

  @Test
  void aSharedClaimIsAllocatedOnceForBothPods() throws Exception {
    SimulationReport r = Scenarios.run("dra/shared");
    assertEquals(1, r.claims().size());
    SimulationReport.Claim c = r.claims().get(0);
    assertEquals("ml/shared-gpu", c.claim());
    assertEquals(2, c.devices().size());
    assertEquals(List.of("user-0", "user-1"), c.reservedFor());
    assertEquals(c.node(), r.binding("ml/user-0").node());
    assertEquals(c.node(), r.binding("ml/user-1").node());
  }

  @Test
  void aQueueCappingADeviceClassHoldsAGangBackNamingTheCap() throws Exception {
    for (SimulationReport r : List.of(Scenarios.run("dra/quota"), Scenarios.run("dra/quota", BARE))) {
      assertEquals("Running", r.podGroup("team-a/small").phase());
      assertEquals("Running", r.podGroup("team-b/wide").phase(), "a queue without a cap takes 16 devices");
      assertTrue(r.bindings().stream().noneMatch(b -> b.pod().startsWith("team-a/big-")), r.bindings().toString());
      long teamA = r.claims().stream().filter(c -> c.claim().startsWith("team-a/"))
          .mapToLong(c -> c.devices().size()).sum();
      assertEquals(8, teamA, "team-a holds exactly its capability");
      String reason = r.pendingPod("team-a/big-0").reason();
      assertTrue(reason.startsWith("4/4 tasks in gang unschedulable: 0/6 nodes are available: "), reason);
      assertTrue(reason.contains(" cannot allocate all claims (queue team-a deviceclass/gpu.example.com would exceed "
          + "its capability: holds 8, needs 4 more, capability 8)"), reason);
    }
  }

  @Test
  void aTwoDeviceClaimGetsTheNvlinkPairAsGpuAwareGivesNvidiaGpus() throws Exception {
    SimulationReport aware = Scenarios.run("dra/topology",
        io.basalt.config.ConfLoader.load(Scenarios.fixture("../config/gpu-aware.conf").normalize()), false);
    for (SimulationReport r : List.of(aware, Scenarios.run("dra/topology"))) {
      assertEquals(2, r.claims().size(), r.claims().toString());
      for (SimulationReport.Claim c : r.claims()) {
        String node = c.node();
        assertEquals(List.of("gpu.example.com/" + node + "/gpu-2", "gpu.example.com/" + node + "/gpu-3"),
            c.devices(), "uuid on node-a, index on node-b map the devices to the node's GPUs");
      }
    }
    assertEquals(List.of("2", "3"), aware.binding("ml/pair-c").devices(), "gpu-aware's choice for nvidia.com/gpu");
  }
}
