package io.basalt.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.ConfLoader;
import io.basalt.sim.FixtureSource;
import io.basalt.sim.SimulationReport;
import io.basalt.sim.Simulator;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 30 through {@code basalt simulate} with the default config: a pod with scheduling gates is never placed and
 * told SchedulingGated; a gang that needs a gated member holds nothing; host ports conflict as kube-scheduler's
 * NodePorts says, counting the pods placed earlier in the same cycle.
 */
class GatesAndPortsScenarioTest {
  private static SimulationReport simulate(String cluster) throws Exception {
    Simulator sim = new Simulator(Scenarios.compile(ConfLoader.defaultConf()), Set.of("basalt-scheduler"), false);
    return sim.run(FixtureSource.fromText("gates-and-ports", cluster));
  }

  private static String nodes(int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= n; i++) {
      sb.append("apiVersion: v1\nkind: Node\nmetadata: {name: gpu-").append(i).append("}\nstatus: {allocatable: "
          + "{cpu: \"64\", memory: 512Gi, nvidia.com/gpu: \"8\", pods: \"110\"}}\n---\n");
    }
    return sb.toString();
  }

  private static String podGroup(String name, int minMember) {
    return "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: " + name
        + ", namespace: ml}\nspec: {minMember: " + minMember + "}\n---\n";
  }

  /** A pod asking for {@code gpus} GPUs; {@code extra} lines go under spec (two-space indented). */
  private static String pod(String name, int gpus, String group, int hostPort, String extra) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: ml"
        + (group == null ? "" : ", annotations: {scheduling.k8s.io/group-name: " + group + "}")
        + "}\nspec:\n  schedulerName: basalt-scheduler\n" + extra
        + "  containers: [{name: c, image: x, " + (hostPort == 0 ? "" : "ports: [{containerPort: 80, hostPort: "
        + hostPort + "}], ") + "resources: {limits: {nvidia.com/gpu: " + gpus + "}}}]\n---\n";
  }

  private static String gated(String... gates) {
    return "  schedulingGates: [" + String.join(", ", java.util.Arrays.stream(gates).map(g -> "{name: " + g + "}")
        .toList()) + "]\n";
  }

  @Test
  void aGatedPodIsNeverPlacedAndIsToldSchedulingGated() throws Exception {
    SimulationReport r = simulate(nodes(1) + pod("gated", 1, null, 0, gated("example.com/quota"))
        + pod("plain", 1, null, 0, ""));
    assertNotNull(r.binding("ml/plain"));
    assertNull(r.binding("ml/gated"));
    assertEquals("SchedulingGated: waiting for scheduling gates: [example.com/quota]",
        r.pendingPod("ml/gated").reason());
  }

  @Test
  void aGangNeedingAGatedMemberHoldsNothingAndLeavesRoomToOthers() throws Exception {
    // One 8-GPU node: the gang's two ungated members (4 GPUs each) would fit, but minMember is 3.
    String cluster = nodes(1) + podGroup("train", 3)
        + pod("train-0", 4, "train", 0, "") + pod("train-1", 4, "train", 0, "")
        + pod("train-2", 4, "train", 0, gated("example.com/quota"))
        + pod("other", 8, null, 0, "");
    SimulationReport r = simulate(cluster);
    assertNull(r.binding("ml/train-0"), "half a gang must not start");
    assertNull(r.binding("ml/train-1"));
    assertNotNull(r.binding("ml/other"), "the gang held nothing: the whole node was free for another pod");
    assertEquals("PodGroup ml/train has 2 valid pods, fewer than minMember 3 (1 more waiting for their scheduling "
        + "gates)", r.pendingPod("ml/train-0").reason());
    assertTrue(r.pendingPod("ml/train-2").reason().startsWith("SchedulingGated"), r.pendingPod("ml/train-2").reason());
  }

  @Test
  void aGangWhoseUngatedMembersReachMinMemberStarts() throws Exception {
    String cluster = nodes(1) + podGroup("train", 2)
        + pod("train-0", 4, "train", 0, "") + pod("train-1", 4, "train", 0, "")
        + pod("train-2", 4, "train", 0, gated("example.com/quota"));
    SimulationReport r = simulate(cluster);
    assertNotNull(r.binding("ml/train-0"), "as coscheduling: gated pods beyond minMember do not hold the gang");
    assertNotNull(r.binding("ml/train-1"));
    assertNull(r.binding("ml/train-2"));
  }

  @Test
  void podsAskingForOneHostPortSpreadOverNodesAndTheRestWait() throws Exception {
    String cluster = nodes(2) + pod("web-0", 1, null, 8080, "") + pod("web-1", 1, null, 8080, "")
        + pod("web-2", 1, null, 8080, "") + pod("api", 1, null, 9090, "");
    SimulationReport r = simulate(cluster);
    assertNotNull(r.binding("ml/web-0"));
    assertNotNull(r.binding("ml/web-1"));
    assertNotEquals(r.binding("ml/web-0").node(), r.binding("ml/web-1").node(),
        "the first placement's port counts in the same cycle");
    assertNull(r.binding("ml/web-2"));
    assertTrue(r.pendingPod("ml/web-2").reason().contains(
        "2 node(s) didn't have free ports for the requested pod ports"), r.pendingPod("ml/web-2").reason());
    assertNotNull(r.binding("ml/api"), "another port fits anywhere");
  }
}
