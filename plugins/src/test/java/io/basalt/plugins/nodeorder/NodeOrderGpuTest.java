package io.basalt.plugins.nodeorder;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.framework.PluginRegistry;
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
 * nodeorder on GPU nodes in HAMi form: GPUs balanced by device, not vGPU slot; with {@code gpuPacking} no spreading of
 * GPU pods, without it least-requested as in Volcano.
 */
class NodeOrderGpuTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(NodeOrderPlugin.descriptor());
  private static final String LEAST_ONLY = "leastrequested.weight: 1\nbalancedresource.weight: 0\ngpuPacking: true";
  private static final String LEAST_VOLCANO = "leastrequested.weight: 1\nbalancedresource.weight: 0";
  private static final String BALANCED_ONLY = "leastrequested.weight: 0\nbalancedresource.weight: 1";

  private static double score(String args, Node node, Pod pod, List<Pod> running) {
    TestSessions cluster = TestSessions.cluster().node(node);
    running.forEach(cluster::pod);
    Session s = cluster.pod(pod).open(REGISTRY, TestSessions.singlePlugin(NodeOrderPlugin.NAME, args));
    return s.callbacks().score(TestSessions.task(s, pod.key()), TestSessions.nodeInfo(s, node.name()));
  }

  private static List<Pod> wholeGpuPods(String node, int count, String cpu) {
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pods.add(TestPods.pod(node + "-r" + i).cpu(cpu).gpu(1).onNode(node).build());
    }
    return pods;
  }

  @Test
  void leastRequestedLeavesGpuPodsOnGpuNodesAlone() {
    Node node = TestNodes.node("n1").cpu("8").memory("32Gi").hamiGpus(4).build();
    Pod gpuPod = TestPods.pod("p1").cpu("2").memory("16Gi").gpu(1).build();
    Pod share = TestPods.pod("p2").cpu("2").memory("16Gi").gpu(1).resource("nvidia.com/gpucores", "20").build();
    assertEquals(0, score(LEAST_ONLY, node, gpuPod, List.of()));
    assertEquals(0, score(LEAST_ONLY, node, share, List.of()));
    // The same pod without GPUs still spreads: cpu 6000 * 100 / 8000 = 75, memory 50 -> 62.
    assertEquals(62, score(LEAST_ONLY, node, TestPods.pod("p3").cpu("2").memory("16Gi").build(), List.of()));
  }

  @Test
  void withoutGpuPackingGpuPodsSpreadAsInVolcano() {
    // A Volcano config names no gpuPacking: cpu 6000 * 100 / 8000 = 75, memory 50 -> 62 for the GPU pod too.
    Node node = TestNodes.node("n1").cpu("8").memory("32Gi").hamiGpus(4).build();
    assertEquals(62, score(LEAST_VOLCANO, node, TestPods.pod("p1").cpu("2").memory("16Gi").gpu(1).build(), List.of()));
  }

  @Test
  void balancedMeasuresGpusByDevice() {
    // 4 GPUs offered as 40 slots, 2 held; the pod asks 2 cpu / 16Gi / 1 GPU on 8 cpu / 32Gi (running pods ask none).
    // By device: cpu 0.25, memory 0.5, GPU 3/4 = 0.75; mean 0.5; std sqrt((1/16 + 0 + 1/16) / 3) = 0.2041 -> 79.
    // By slot the GPU would be 3/40 and the score 82.
    Node node = TestNodes.node("n1").cpu("8").memory("32Gi").hamiGpus(4).build();
    Pod pod = TestPods.pod("p1").cpu("2").memory("16Gi").gpu(1).build();
    double std = Math.sqrt((0.0625 + 0 + 0.0625) / 3);
    assertEquals((long) ((1 - std) * 100), score(BALANCED_ONLY, node, pod, wholeGpuPods("n1", 2, "0")));
  }

  @Test
  void balancedCountsAShareByItsCompute() {
    // 2 GPUs; a 50% share alone: GPU (0 + 0.5) / 2 = 0.25 like cpu 2/8 and memory 8/32: perfectly balanced, 100.
    Node node = TestNodes.node("n1").cpu("8").memory("32Gi").hamiGpus(2).build();
    Pod pod = TestPods.pod("p1").cpu("2").memory("8Gi").gpu(1).resource("nvidia.com/gpucores", "50").build();
    assertEquals(100, score(BALANCED_ONLY, node, pod, List.of()));
  }
}
