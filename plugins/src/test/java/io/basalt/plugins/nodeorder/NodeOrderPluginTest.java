package io.basalt.plugins.nodeorder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.Arguments;
import io.basalt.framework.PluginRegistry;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeOrderPluginTest {
  private static final PluginRegistry REGISTRY =
      PluginRegistry.of(NodeOrderPlugin.descriptor());

  private static final String LEAST_ONLY = "leastrequested.weight: 1\nbalancedresource.weight: 0";
  private static final String MOST_ONLY =
      "leastrequested.weight: 0\nmostrequested.weight: 1\nbalancedresource.weight: 0";
  private static final String BALANCED_ONLY = "leastrequested.weight: 0\nbalancedresource.weight: 1";

  /** Session score of {@code pod} on {@code node}, with {@code running} pods already there. */
  private static double score(String args, Node node, Pod pod, Pod... running) {
    TestSessions cluster = TestSessions.cluster().node(node);
    for (Pod r : running) {
      cluster.pod(r);
    }
    Session s = cluster.pod(pod).open(REGISTRY, TestSessions.singlePlugin(NodeOrderPlugin.NAME, args));
    return s.callbacks().score(TestSessions.task(s, pod.key()), TestSessions.nodeInfo(s, node.name()));
  }

  // Node n1: 3 cpu, 10Gi; a running pod holds 500m / 3Gi; the new pod asks 500m / 1Gi.
  // requested = used + request: cpu 1000m of 3000m, memory 4Gi of 10Gi.
  private static final Node N1 = TestNodes.node("n1").cpu("3").memory("10Gi").build();
  private static final Pod RUNNING = TestPods.pod("r1").cpu("500m").memory("3Gi").onNode("n1").build();
  private static final Pod POD = TestPods.pod("p1").cpu("500m").memory("1Gi").build();

  @Test
  void leastRequestedUsesIntegerMathLikeKubeScheduler() {
    // cpu: (3000 - 1000) * 100 / 3000 = 66 (66.67 truncated); memory: (10 - 4) * 100 / 10 = 60.
    // (66 + 60) / 2 = 63.
    assertEquals(63, score(LEAST_ONLY, N1, POD, RUNNING));
  }

  @Test
  void leastRequestedOnAnEmptyNodeCountsOnlyThePod() {
    // cpu: 2500 * 100 / 3000 = 83; memory: 9 * 100 / 10 = 90; (83 + 90) / 2 = 86 (86.5 truncated).
    assertEquals(86, score(LEAST_ONLY, N1, POD));
  }

  @Test
  void mostRequested() {
    // cpu: 1000 * 100 / 3000 = 33; memory: 4 * 100 / 10 = 40; (33 + 40) / 2 = 36 (36.5 truncated).
    assertEquals(36, score(MOST_ONLY, N1, POD, RUNNING));
  }

  @Test
  void balancedAllocationOverCpuAndMemory() {
    // fractions 1/3 and 0.4: std = |1/3 - 0.4| / 2 = 1/30; (1 - 1/30) * 100 = 96.67 -> 96.
    assertEquals(96, score(BALANCED_ONLY, N1, POD, RUNNING));
  }

  @Test
  void defaultWeightsAreVolcanosLeastOneMostZeroBalancedOne() {
    // least 63 * 1 + most 36 * 0 + balanced 96 * 1 = 159.
    assertEquals(159, score("", N1, POD, RUNNING));
  }

  @Test
  void weightsMultiplyEachScore() {
    // least 63 * 1 + most 36 * 2 + balanced 96 * 3 = 63 + 72 + 288 = 423.
    String args = "leastrequested.weight: 1\nmostrequested.weight: 2\nbalancedresource.weight: 3";
    assertEquals(423, score(args, N1, POD, RUNNING));
  }

  @Test
  void podWithoutRequestsCountsAsKubeDefaultsAndSkipsBalanced() {
    // Empty node 1 cpu / 1Gi; the pod asks nothing, so least/most see 100m and 200Mi.
    // least: cpu (1000 - 100) * 100 / 1000 = 90; memory (1024Mi - 200Mi) * 100 / 1024Mi = 80 (80.47); (90 + 80) / 2 = 85.
    // balanced: a best-effort pod is not scored (kube-scheduler skips it), so 0. Default weights: 85.
    Node node = TestNodes.node("n1").cpu("1").memory("1Gi").build();
    Pod bestEffort = TestPods.pod("p1").build();
    assertEquals(85, score("", node, bestEffort));
    // most: cpu 100 * 100 / 1000 = 10; memory 200 * 100 / 1024 = 19 (19.53); (10 + 19) / 2 = 14 (14.5).
    assertEquals(14, score(MOST_ONLY, node, bestEffort));
    assertEquals(0, score(BALANCED_ONLY, node, bestEffort));
  }

  @Test
  void overCapacityScoresZeroForLeastAndCapsForMost() {
    // Node 1 cpu / 4Gi, its cpu fully used by a cpu-only pod. The new pod asks only 1Gi memory, so its cpu counts
    // as 100m: cpu requested 1100m > 1000m.
    // least: cpu 0 (over capacity); memory (4 - 1) * 100 / 4 = 75; (0 + 75) / 2 = 37.
    // most: cpu capped at 1000m -> 100; memory 25; (100 + 25) / 2 = 62.
    Node node = TestNodes.node("n1").cpu("1").memory("4Gi").build();
    Pod hog = TestPods.pod("r1").cpu("1").onNode("n1").build();
    Pod memOnly = TestPods.pod("p1").memory("1Gi").build();
    assertEquals(37, score(LEAST_ONLY, node, memOnly, hog));
    assertEquals(62, score(MOST_ONLY, node, memOnly, hog));
    // balanced uses the plain requests: cpu 1000/1000 = 1, memory 0.25; std 0.375; (1 - 0.375) * 100 = 62.5 -> 62.
    assertEquals(62, score(BALANCED_ONLY, node, memOnly, hog));
  }

  @Test
  void balancedIncludesNvidiaGpuForPodsRequestingIt() {
    // Empty node 8 cpu / 32Gi / 4 GPU; pod 2 cpu / 16Gi / 1 GPU: fractions 0.25, 0.5, 0.25.
    // mean 1/3; squared deviations 1/144 + 1/36 + 1/144 = 1/24; std = sqrt(1/72) = 0.11785;
    // (1 - 0.11785) * 100 = 88.2 -> 88. (Over cpu and memory alone it would be 87.5 -> 87.)
    Node node = TestNodes.node("n1").cpu("8").memory("32Gi").gpu(4).build();
    Pod pod = TestPods.pod("p1").cpu("2").memory("16Gi").gpu(1).build();
    assertEquals(88, score(BALANCED_ONLY, node, pod));
    // A pod without GPUs leaves the GPU out: fractions 0.25 and 0.5 -> 87.
    assertEquals(87, score(BALANCED_ONLY, node, TestPods.pod("p2").cpu("2").memory("16Gi").build()));
  }

  @Test
  void gpuNodesDoNotChangeLeastRequestedForPodsWithoutGpus() {
    // least: cpu 6000 * 100 / 8000 = 75; memory 16/32 -> 50; (75 + 50) / 2 = 62 (62.5). GPU pods: NodeOrderGpuTest.
    Node node = TestNodes.node("n1").cpu("8").memory("32Gi").gpu(4).build();
    Pod pod = TestPods.pod("p1").cpu("2").memory("16Gi").build();
    assertEquals(62, score(LEAST_ONLY, node, pod));
  }

  @Test
  void allWeightsZeroRegistersNoScorer() {
    Session s = TestSessions.cluster().node(N1).pod(POD).open(REGISTRY, TestSessions.singlePlugin(
        NodeOrderPlugin.NAME, "leastrequested.weight: 0\nmostrequested.weight: 0\nbalancedresource.weight: 0\n"
            + "nodeaffinity.weight: 0\npodaffinity.weight: 0\npodtopologyspread.weight: 0"));
    assertFalse(s.callbacks().hasScorers());
    assertTrue(TestSessions.cluster().node(N1).pod(POD)
        .open(REGISTRY, TestSessions.singlePlugin(NodeOrderPlugin.NAME, "")).callbacks().hasScorers());
  }

  @Test
  void everyVolcanoWeightKeyIsRead() {
    Arguments args = new Arguments(Map.of("leastrequested.weight", 1, "mostrequested.weight", "2",
        "balancedresource.weight", 1, "nodeaffinity.weight", 2, "podaffinity.weight", 2,
        "tainttoleration.weight", 3, "imagelocality.weight", 1, "podtopologyspread.weight", 2), "tiers[1]");
    NodeOrderPlugin.descriptor().read().apply(args);
    assertEquals(List.of(), args.problems());
    assertTrue(args.unread().isEmpty(), () -> "unread: " + args.unread());
  }

  @Test
  void negativeWeightIsAProblemAndKeepsTheDefault() {
    Arguments args = new Arguments(Map.of("leastrequested.weight", -1, "nodeaffinity.weight", -2), "tiers[1]");
    NodeOrderPlugin.descriptor().read().apply(args);
    assertEquals(2, args.problems().size(), () -> "problems: " + args.problems());
    assertTrue(args.problems().get(0).contains("leastrequested.weight"), args.problems().get(0));
    // leastrequested.weight falls back to 1: least 63 + balanced 96.
    assertEquals(159, score("leastrequested.weight: -1", N1, POD, RUNNING));
  }

  @Test
  void nonNumericOrFractionalWeightIsAProblem() {
    Arguments args = new Arguments(Map.of("mostrequested.weight", "heavy", "balancedresource.weight", 1.5),
        "tiers[1]");
    NodeOrderPlugin.descriptor().read().apply(args);
    assertEquals(2, args.problems().size(), () -> "problems: " + args.problems());
  }
}
