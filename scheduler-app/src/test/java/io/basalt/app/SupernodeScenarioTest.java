package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.ConfLoader;
import io.basalt.config.SchedulerConf;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The supernode cluster of {@code test-fixtures/supernode/} (2 switchboxes x 2 dragonflies x 8 MetaX nodes) under
 * MetaX's supernode config ({@code gpu-podaffinity}): gangs land whole in the tightest dragonfly that holds them.
 * Nodes are made busy by running pods of another scheduler, so plain placement (tested alongside) would straddle.
 */
class SupernodeScenarioTest {
  private static final String CONFIG = "config/metax-supernode-configmap.yaml";

  @Test
  void theSeedsPytorchDemoLandsWholeInTheOneFreeDragonfly() throws Exception {
    String busy = busy("sb1-df1", 3) + busy("sb1-df2", 2) + busy("sb2-df2", 1);
    SimulationReport r = run(true, busy, pytorchDemo());
    assertEquals(8, r.bindings().size(), r.pending().toString());
    assertEquals(Map.of("sb2-df1", 8L), dragonflies(r, "default/pytorch-demo"));

    SimulationReport plain = run(false, busy, pytorchDemo());
    assertTrue(dragonflies(plain, "default/pytorch-demo").size() > 1,
        "without the plugin the same gang straddles: " + dragonflies(plain, "default/pytorch-demo"));
  }

  @Test
  void aSixteenGpuJobGoesToThePartlyUsedDragonflyNotAFreeOne() throws Exception {
    String busy = busy("sb1-df1", 8) + busy("sb1-df2", 5);
    SimulationReport r = run(true, busy, gang("small", 2, 16));
    assertEquals(Map.of("sb1-df2", 2L), dragonflies(r, "ml/small"), "best fit: 3 free nodes beat 8");
  }

  @Test
  void twoGroupsOfA128GpuJobShareASwitchbox() throws Exception {
    String busy = busy("sb1-df1", 1);
    SimulationReport r = run(true, busy, gang("big", 16, 64));
    assertEquals(16, r.bindings().size(), r.pending().toString());
    assertEquals(Map.of("sb2-df1", 8L, "sb2-df2", 8L), dragonflies(r, "ml/big"),
        "each group of 8 in one dragonfly, both in the switchbox that is free");
  }

  @Test
  void aJobThatFitsNoDragonflyWaitsWithTheExactReasonThoughNodesAreFreeAcrossThem() throws Exception {
    String busy = busy("sb1-df1", 2) + busy("sb1-df2", 3) + busy("sb2-df1", 2) + busy("sb2-df2", 4);
    SimulationReport r = run(true, busy, pytorchDemo());
    assertEquals(List.of(), r.bindings().stream().filter(b -> b.pod().startsWith("default/")).toList());
    String reason = r.pendingPod("default/pytorch-demo-master-0").reason();
    assertTrue(reason.contains("needs 8 pods x {metax-tech.com/gpu: 8} inside one dragonfly; largest free: sb1-df1 "
        + "with 6 node(s) free for one pod"), reason);
  }

  @Test
  void aGroupSizeThatDoesNotDivideIsAnErrorOnTheJob() throws Exception {
    SimulationReport r = run(true, "", gang("odd", 2, 12));
    assertEquals(List.of(), r.bindings());
    String reason = r.pendingPod("ml/odd-0").reason();
    assertTrue(reason.contains("metax-tech.com/gpu-group-size 12 is not a multiple of the 8 GPUs each pod asks for"),
        reason);
  }

  // ---- helpers ----------------------------------------------------------------------------------------------------

  private static SimulationReport run(boolean topology, String... docs) throws Exception {
    SchedulerConf conf = topology
        ? ConfLoader.parse(Files.readString(Scenarios.fixture("../" + CONFIG)), CONFIG)
        : ConfLoader.defaultConf();
    Simulator sim = new Simulator(Scenarios.compile(conf), Set.of("basalt-scheduler"), false);
    String cluster = Files.readString(Scenarios.fixture("supernode/00-cluster.yaml")) + "\n---\n"
        + Files.readString(Scenarios.fixture("supernode/hypernodes.yaml"));
    return sim.run(FixtureSource.fromText("supernode", cluster + "\n---\n" + String.join("\n---\n", docs)));
  }

  /** Dragonfly of each bound pod of {@code prefix}, counted. */
  private static Map<String, Long> dragonflies(SimulationReport r, String prefix) {
    return r.bindings().stream().filter(b -> b.pod().startsWith(prefix))
        .collect(Collectors.groupingBy(b -> b.node().substring(0, b.node().lastIndexOf('-')), TreeMap::new,
            Collectors.counting()));
  }

  /** Running pods of another scheduler filling all 8 GPUs of the first {@code nodes} nodes of a dragonfly. */
  static String busy(String dragonfly, int nodes) {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= nodes; i++) {
      sb.append("apiVersion: v1\nkind: Pod\nmetadata: {name: busy-").append(dragonfly).append('-').append(i)
          .append(", namespace: other}\nspec:\n  schedulerName: default-scheduler\n  nodeName: ").append(dragonfly)
          .append("-n").append(i).append("\n  containers: [{name: c, image: x, resources: {limits: "
              + "{metax-tech.com/gpu: 8}}}]\nstatus: {phase: Running}\n---\n");
    }
    return sb.toString();
  }

  private static String pytorchDemo() throws Exception {
    return Files.readString(Scenarios.fixture("workloads/volcano-job-pytorch-demo.yaml"));
  }

  /** A PodGroup of {@code pods} pods x 8 MetaX GPUs, MetaX group size {@code groupGpus} on its pods. */
  static String gang(String name, int pods, int groupGpus) {
    StringBuilder sb = new StringBuilder("apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: ")
        .append(name).append(", namespace: ml}\nspec: {minMember: ").append(pods).append("}\n");
    for (int i = 0; i < pods; i++) {
      sb.append("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: ").append(name).append('-').append(i)
          .append("\n  namespace: ml\n  annotations: {scheduling.k8s.io/group-name: ").append(name)
          .append(", metax-tech.com/gpu-group-size: \"").append(groupGpus).append("\"}\nspec:\n  schedulerName: "
              + "basalt-scheduler\n  containers: [{name: c, image: x, resources: {limits: {metax-tech.com/gpu: 8}}}]\n");
    }
    return sb.toString();
  }
}
