package io.basalt.plugins.binpack;

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
import java.util.Set;
import org.junit.jupiter.api.Test;

class BinpackPluginTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(BinpackPlugin.descriptor());
  private static final double EXACT = 1e-9;
  /** Basalt's GPU packing, as its GPU configs set it. */
  private static final String PACK = "binpack.gpuPacking: true\n";

  /** Session score of {@code pod} on {@code node}, with {@code running} pods already there. */
  private static double score(String args, Node node, Pod pod, Pod... running) {
    TestSessions cluster = TestSessions.cluster().node(node);
    for (Pod r : running) {
      cluster.pod(r);
    }
    Session s = cluster.pod(pod).open(REGISTRY, TestSessions.singlePlugin(BinpackPlugin.NAME, args));
    return s.callbacks().score(TestSessions.task(s, pod.key()), TestSessions.nodeInfo(s, node.name()));
  }

  // n2: 4 cpu / 16Gi / 4 GPU, empty. The pod: 2 cpu / 10Gi / 2 GPU.
  private static final Node N2 = TestNodes.node("n2").cpu("4").memory("16Gi").gpu(4).build();
  private static final Pod POD = TestPods.pod("p1").cpu("2").memory("10Gi").gpu(2).build();

  /**
   * POD on N2 by the GPU rule: its 2 of 4 devices decide, and cpu (2 of 4) and memory (10Gi of 16Gi) only break ties,
   * their weights scaled by {@link BinpackPlugin#TIE_BREAK}.
   */
  private static double gpuRule(int cpuWeight, int memoryWeight, int gpuWeight) {
    double t = BinpackPlugin.TIE_BREAK;
    return (gpuWeight * 0.5 + t * (cpuWeight * 0.5 + memoryWeight * 0.625))
        / (gpuWeight + t * (cpuWeight + memoryWeight)) * 100;
  }

  @Test
  void volcanoFormulaWithAllWeightsSet() {
    // An extended resource without devices, so Volcano's formula applies unchanged:
    // cpu    weight 2: 2 * (0 + 2) / 4      = 1.0
    // memory weight 3: 3 * (0 + 10Gi) / 16Gi = 1.875
    // foo    weight 7: 7 * (0 + 2) / 4      = 3.5
    // sum 6.375 / (2 + 3 + 7 = 12) = 0.53125; * 100 * binpack.weight 10 = 531.25
    String args = """
        binpack.weight: 10
        binpack.cpu: 2
        binpack.memory: 3
        binpack.resources: example.com/foo
        binpack.resources.example.com/foo: 7
        """;
    Node node = TestNodes.node("n2").cpu("4").memory("16Gi").resource("example.com/foo", "4").build();
    Pod pod = TestPods.pod("p1").cpu("2").memory("10Gi").resource("example.com/foo", "2").build();
    assertEquals(531.25, score(args, node, pod), EXACT);
  }

  @Test
  void packingWeighsTheNvidiaGpuEvenWhenNotListed() {
    // GPU 2/4 = 0.5 decides; cpu 0.5 and memory 0.625 add a tie-breaking trace.
    assertEquals(gpuRule(1, 1, 1), score(PACK, N2, POD), EXACT);
  }

  @Test
  void packingHonoursTheGpuWeightKeyWithoutListingTheGpu() {
    assertEquals(gpuRule(1, 1, 5), score(PACK + "binpack.resources.nvidia.com/gpu: 5", N2, POD), EXACT);
  }

  @Test
  void withoutPackingAnUnlistedGpuIsNotWeighted() {
    // Volcano: cpu 2/4 and memory 10/16, (0.5 + 0.625) / 2 * 100.
    assertEquals(56.25, score("", N2, POD), EXACT);
    assertEquals(56.25, score("binpack.resources.nvidia.com/gpu: 5", N2, POD), EXACT);
  }

  @Test
  void withoutPackingAListedGpuWeighsAsAnyResource() {
    // Volcano: (1 * 0.5 + 1 * 0.625 + 2 * 2/4) / 4 * 100; by device here, which is the same on this node.
    assertEquals(53.125, score("binpack.resources: nvidia.com/gpu\nbinpack.resources.nvidia.com/gpu: 2", N2, POD),
        EXACT);
  }

  @Test
  void usedResourcesCount() {
    // Node 8 cpu / 32Gi holding 2 cpu / 8Gi; pod 2 cpu / 8Gi: cpu 4/8 = 0.5, memory 16/32 = 0.5; mean 0.5 -> 50.
    Node node = TestNodes.node("n1").cpu("8").memory("32Gi").build();
    Pod running = TestPods.pod("r1").cpu("2").memory("8Gi").onNode("n1").build();
    Pod pod = TestPods.pod("p1").cpu("2").memory("8Gi").build();
    assertEquals(50, score("", node, pod, running), EXACT);
    assertEquals(25, score("", node, pod), EXACT); // empty: 2/8 and 8/32
  }

  @Test
  void onlyRequestedResourcesCount() {
    // The pod asks cpu only: memory and GPU weights do not dilute it. 1 * 1/4 / 1 * 100 = 25.
    assertEquals(25, score("", N2, TestPods.pod("p1").cpu("1").build()), EXACT);
  }

  @Test
  void overflowOnAnyWeightedResourceZeroesTheWholeNode() {
    // 3 of 4 GPUs used; 3 + 2 > 4, so 0 even though cpu and memory fit.
    Pod running = TestPods.pod("r1").gpu(3).onNode("n2").build();
    assertEquals(0, score(PACK, N2, POD, running), EXACT);
    // Same for cpu: 3 + 2 > 4.
    Pod cpuHog = TestPods.pod("r2").cpu("3").onNode("n2").build();
    assertEquals(0, score(PACK + "binpack.weight: 10", N2, POD, cpuHog), EXACT);
  }

  @Test
  void overflowOnAZeroWeightResourceDoesNotZeroTheNode() {
    // cpu weight 0 leaves cpu out entirely, overflow included: GPU 0.5 and memory 0.625 count.
    Pod cpuHog = TestPods.pod("r2").cpu("3").onNode("n2").build();
    assertEquals(gpuRule(0, 1, 1), score(PACK + "binpack.cpu: 0", N2, POD, cpuHog), EXACT);
  }

  @Test
  void aRequestedResourceTheNodeLacksAddsWeightButNoScore() {
    // Volcano: capacity 0 scores 0 for that resource but its weight stays in the sum.
    // Node 4 cpu without GPUs; pod 2 cpu / 1 GPU: cpu 1 * 0.5, gpu weight 1, score 0 -> 0.5 / 2 * 100 = 25.
    Node node = TestNodes.node("n1").cpu("4").build();
    assertEquals(25, score("binpack.resources: nvidia.com/gpu", node, TestPods.pod("p1").cpu("2").gpu(1).build()),
        EXACT);
  }

  @Test
  void packingWeighsTheMetaxGpu() {
    // 2 of 8 GPUs and nothing else requested: 2/8 * 100 = 25.
    Node node = TestNodes.node("n1").cpu("4").resource("metax-tech.com/gpu", "8").build();
    Pod pod = TestPods.pod("p1").resource("metax-tech.com/gpu", "2").build();
    assertEquals(25, score(PACK, node, pod), EXACT);
  }

  @Test
  void listedResourcesAreWeightedAndUnlistedOnesIgnored() {
    Node node = TestNodes.node("n1").cpu("4").resource("example.com/foo", "10").build();
    Pod pod = TestPods.pod("p1").cpu("1").resource("example.com/foo", "5").build();
    // Not listed: cpu alone, 1/4 -> 25.
    assertEquals(25, score("", node, pod), EXACT);
    // Listed with weight 3: (1 * 0.25 + 3 * 0.5) / 4 = 0.4375 -> 43.75.
    String args = "binpack.resources: \"nvidia.com/gpu, example.com/foo\"\nbinpack.resources.example.com/foo: 3";
    assertEquals(43.75, score(args, node, pod), EXACT);
    // Listed without a weight: 1. (0.25 + 0.5) / 2 = 0.375 -> 37.5.
    assertEquals(37.5, score("binpack.resources: example.com/foo", node, pod), EXACT);
  }

  @Test
  void binpackWeightScalesAndZeroTurnsTheScorerOff() {
    assertEquals(10 * gpuRule(1, 1, 1), score(PACK + "binpack.weight: 10", N2, POD), EXACT);
    Session off = TestSessions.cluster().node(N2).pod(POD)
        .open(REGISTRY, TestSessions.singlePlugin(BinpackPlugin.NAME, "binpack.weight: 0"));
    assertFalse(off.callbacks().hasScorers());
  }

  @Test
  void negativeWeightsAreProblemsAndFallBackToOne() {
    Arguments args = new Arguments(Map.of("binpack.cpu", -2, "binpack.weight", -1,
        "binpack.resources", "example.com/foo", "binpack.resources.example.com/foo", -3), "tiers[1].plugins[2]");
    BinpackPlugin.descriptor().read().apply(args);
    assertEquals(3, args.problems().size(), () -> "problems: " + args.problems());
    assertTrue(args.problems().get(0).contains("'binpack.weight'"), args.problems().get(0));
    // binpack.cpu falls back to 1: same as the defaults.
    assertEquals(gpuRule(1, 1, 1), score(PACK + "binpack.cpu: -2", N2, POD), EXACT);
  }

  @Test
  void nonWholeOrNonNumericWeightsAreProblems() {
    Arguments args = new Arguments(Map.of("binpack.memory", "lots", "binpack.resources.nvidia.com/gpu", 1.5),
        "tiers[1].plugins[2]");
    BinpackPlugin.descriptor().read().apply(args);
    assertEquals(2, args.problems().size(), () -> "problems: " + args.problems());
  }

  @Test
  void weightKeysOfUnlistedResourcesStayUnread() {
    // So the config validator warns about them, as they have no effect.
    Arguments args = new Arguments(Map.of("binpack.weight", 2, "binpack.resources", "example.com/foo",
        "binpack.resources.example.com/foo", 2, "binpack.resources.example.com/bar", 2), "tiers[1].plugins[2]");
    BinpackPlugin.descriptor().read().apply(args);
    assertEquals(List.of(), args.problems());
    assertEquals(Set.of("binpack.resources.example.com/bar"), args.unread());
  }
}
