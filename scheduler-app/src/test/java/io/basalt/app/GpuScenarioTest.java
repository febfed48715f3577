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
}
