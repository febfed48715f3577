package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.ConfLoader;
import io.basalt.sim.SimulationReport;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** GPU placement in the simulator: the devices each pod gets. */
class GpuScenarioTest {
  @Test
  void gangOfFourTwoGpuPodsGetsAWholeNvlinkPairEach() throws Exception {
    SimulationReport r = Scenarios.run("gpu-topology",
        ConfLoader.load(Scenarios.fixture("../config/gpu-aware.conf").normalize()), false);
    assertEquals(4, r.bindings().size());
    Set<String> taken = new HashSet<>();
    for (SimulationReport.Bound b : r.bindings()) {
      List<String> d = b.devices();
      assertTrue(d.equals(List.of("0", "1")) || d.equals(List.of("2", "3")), b.pod() + " got " + d);
      assertTrue(taken.add(b.node() + d), "no GPU handed out twice: " + b.node() + d);
    }
  }

  @Test
  void withoutGpuAwareNoDevicesAreChosen() throws Exception {
    SimulationReport r = Scenarios.run("gpu-topology");
    assertEquals(4, r.bindings().size());
    assertTrue(r.bindings().stream().allMatch(b -> b.devices().isEmpty()));
  }

  private static SimulationReport.Bound placeWithGpuAware(String example) throws Exception {
    SimulationReport r = Scenarios.run("gpu-examples/" + example,
        ConfLoader.load(Scenarios.fixture("../config/gpu-aware.conf").normalize()), true);
    assertEquals(1, r.bindings().size(), r.pending().toString());
    return r.bindings().get(0);
  }

  @Test
  void theIssuesPlacementExamplesHoldInTheSimulator() throws Exception {
    assertTrue(Set.of(List.of("2", "3"), List.of("4", "5"), List.of("6", "7"))
        .contains(placeWithGpuAware("pair-after-gpu0").devices()));
    assertEquals(List.of("1"), placeWithGpuAware("orphan-first").devices());
    SimulationReport.Bound fill = placeWithGpuAware("fill-first");
    assertEquals("almost-full", fill.node());
    assertEquals(100.0, fill.explain().get("almost-full").scores().get("gpu-aware"), 1e-9);
    assertTrue(fill.explain().get("empty").scores().get("gpu-aware") < 100.0);
    SimulationReport.Bound dgx = placeWithGpuAware("dgx");
    assertEquals("dgx-busy", dgx.node(), "equal links: the busier node, leaving the idle one whole");
    assertEquals(List.of("4", "5"), dgx.devices());
    assertEquals(List.of("0", "1", "2", "3"), placeWithGpuAware("metax-group").devices());
  }

  @Test
  void chosenGpuAnnotationsSteerPodsAndAnUnmetOneIsNamedInTheReason() throws Exception {
    SimulationReport r = Scenarios.run("gpu-examples/chosen-gpus",
        ConfLoader.load(Scenarios.fixture("../config/gpu-aware.conf").normalize()), false);
    assertEquals("a100-node", r.binding("ml/wants-a100").node());
    assertEquals("a100-node", r.binding("ml/avoids-h100").node());
    assertEquals("h100-node", r.binding("ml/not-first-h100").node());
    assertTrue(!r.binding("ml/not-first-h100").devices().contains("0"), "GPU-h100-0 is excluded by uuid");
    assertEquals("0/2 nodes are available: 2 node(s) had no 1 free GPUs matching nvidia.com/use-gputype=v100.",
        r.pendingPod("ml/wants-v100").reason());
  }
}
