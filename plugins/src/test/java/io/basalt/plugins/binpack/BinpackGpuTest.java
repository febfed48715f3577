package io.basalt.plugins.binpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.framework.PluginRegistry;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * binpack on nodes in HAMi form (nvidia.com/gpu = GPUs x 10 slots): GPUs are counted by device, and with
 * {@code binpack.gpuPacking} they decide.
 */
class BinpackGpuTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(BinpackPlugin.descriptor());
  private static final double EXACT = 1e-9;

  private static Session open(List<Node> nodes, List<Pod> pods, Pod pod) {
    TestSessions cluster = TestSessions.cluster();
    nodes.forEach(cluster::node);
    pods.forEach(cluster::pod);
    return cluster.pod(pod).open(REGISTRY, TestSessions.singlePlugin(BinpackPlugin.NAME, "binpack.gpuPacking: true"));
  }

  private static double score(Session s, Pod pod, String node) {
    return s.callbacks().score(TestSessions.task(s, pod.key()), TestSessions.nodeInfo(s, node));
  }

  private static List<Pod> wholeGpuPods(String node, int count) {
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pods.add(TestPods.pod(node + "-r" + i).gpu(1).onNode(node).build());
    }
    return pods;
  }

  @Test
  void aFullEightGpuHamiNodeScoresAsFull() {
    // Seven of eight GPUs held whole: the eighth fills the node (8 of 8 devices), not 8 of its 80 vGPU slots.
    Node node = TestNodes.node("n1").cpu("64").hamiGpus(8).build();
    Pod pod = TestPods.pod("p1").gpu(1).build();
    Session s = open(List.of(node), wholeGpuPods("n1", 7), pod);
    assertEquals(100, score(s, pod, "n1"), EXACT);
  }

  @Test
  void aShareFillsItsComputeFractionOfOneDevice() {
    // 2 GPUs; a 30% share runs; a 50% share: (0.3 + 0.5) / 2 devices = 40, where slots would say 2 of 20 = 10.
    Node node = TestNodes.node("n1").cpu("64").hamiGpus(2).build();
    // The running share names its memory: one naming none holds the device's whole memory (gpu.ShareSize).
    Pod running = TestPods.pod("r1").gpu(1).resource("nvidia.com/gpucores", "30").resource("nvidia.com/gpumem", "1024")
        .annotation(GpuAnnotations.DEVICES, "0").onNode("n1").build();
    Pod pod = TestPods.pod("p1").gpu(1).resource("nvidia.com/gpucores", "50").build();
    Session s = open(List.of(node), List.of(running), pod);
    assertEquals(40, score(s, pod, "n1"), EXACT);
  }

  @Test
  void aGpuPodPrefersTheNodeItFillsOverOneWithMoreCpuUsed() {
    // cpu-busy: 30 of 32 cpu used by a cpu-only pod, no GPU held. gpu-busy: 6 of 8 GPUs held, cpu idle.
    // By Volcano's weights (cpu, memory and GPU alike) the pod would go where its cpu fills most, leaving that
    // node's eight GPUs behind 2 free cpu; by device, with cpu only breaking ties, it completes gpu-busy.
    Node cpuBusy = TestNodes.node("cpu-busy").cpu("32").memory("128Gi").hamiGpus(8).build();
    Node gpuBusy = TestNodes.node("gpu-busy").cpu("32").memory("128Gi").hamiGpus(8).build();
    List<Pod> running = new ArrayList<>(wholeGpuPods("gpu-busy", 6));
    running.add(TestPods.pod("hog").cpu("28").onNode("cpu-busy").build());
    Pod pod = TestPods.pod("p1").cpu("2").gpu(1).build();
    Session s = open(List.of(cpuBusy, gpuBusy), running, pod);
    double onGpuBusy = score(s, pod, "gpu-busy");
    double onCpuBusy = score(s, pod, "cpu-busy");
    assertTrue(onGpuBusy > onCpuBusy, () -> "gpu-busy " + onGpuBusy + " should beat cpu-busy " + onCpuBusy);
  }

  @Test
  void cpuBreaksTiesBetweenNodesEquallyFullOfGpus() {
    Node a = TestNodes.node("a").cpu("32").hamiGpus(8).build();
    Node b = TestNodes.node("b").cpu("32").hamiGpus(8).build();
    List<Pod> running = new ArrayList<>(wholeGpuPods("a", 4));
    running.addAll(wholeGpuPods("b", 4));
    running.add(TestPods.pod("hog").cpu("16").onNode("b").build());
    Pod pod = TestPods.pod("p1").cpu("2").gpu(1).build();
    Session s = open(List.of(a, b), running, pod);
    assertTrue(score(s, pod, "b") > score(s, pod, "a"), "same GPUs in use: the node with more cpu used wins");
  }

  @Test
  void podsWithoutGpusScoreAsInVolcanoOnGpuNodes() {
    // cpu only: 2 + 2 of 8 = 50, whatever the node's GPUs.
    Node node = TestNodes.node("n1").cpu("8").hamiGpus(8).build();
    Pod running = TestPods.pod("r1").cpu("2").gpu(1).onNode("n1").build();
    Pod pod = TestPods.pod("p1").cpu("2").build();
    Session s = open(List.of(node), List.of(running), pod);
    assertEquals(50, score(s, pod, "n1"), EXACT);
  }
}
