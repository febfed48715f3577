package io.basalt.plugins.proportion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.config.Arguments;
import io.basalt.framework.PluginRegistry;
import io.basalt.framework.Session;
import io.basalt.model.PodGroup;
import io.basalt.model.Queue;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProportionPluginTest {
  private static Queue queue(String name, int weight, String capabilityCpu, String guaranteeCpu) {
    return new Queue(name, weight,
        capabilityCpu == null ? null : ResourceVector.parse(Map.of("cpu", capabilityCpu)),
        guaranteeCpu == null ? null : ResourceVector.parse(Map.of("cpu", guaranteeCpu)),
        null, true, 0, null, "Open", Map.of());
  }

  private static TestPods pod(String key, String queue, String cpu) {
    return TestPods.pod(key).cpu(cpu).annotation("scheduling.volcano.sh/queue-name", queue);
  }

  private final ProportionPlugin plugin = new ProportionPlugin(Arguments.empty());

  private Session open(TestSessions cluster) {
    return cluster.open(PluginRegistry.of(Map.of("proportion", a -> plugin)),
        TestSessions.singlePlugin("proportion", ""));
  }

  private double deservedCpu(String queue) {
    return plugin.share(queue).deserved[ResourceNames.CPU];
  }

  @Test
  void twoEqualQueuesOnTwoCpusGetOnePodEach() {
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("2").memory("4Gi").build())
        .queue(queue("a", 1, null, null)).queue(queue("b", 1, null, null))
        .pod(pod("ns/a1", "a", "1").build()).pod(pod("ns/a2", "a", "1").build())
        .pod(pod("ns/b1", "b", "1").build()).pod(pod("ns/b2", "b", "1").build()));
    assertEquals(1000, deservedCpu("a"), 1e-6);
    assertEquals(1000, deservedCpu("b"), 1e-6);
    assertTrue(s.allocatable(s.queue("a"), TestSessions.task(s, "ns/a1")));
    s.newStatement().allocate(TestSessions.task(s, "ns/a1"), s.node("n1"));
    assertFalse(s.allocatable(s.queue("a"), TestSessions.task(s, "ns/a2")), "a already holds its 1 CPU");
    assertTrue(s.overused(s.queue("a")));
    assertTrue(s.allocatable(s.queue("b"), TestSessions.task(s, "ns/b1")));
  }

  @Test
  void weightsSplitTheClusterAndUnusedShareFlowsToOthers() {
    // 12 CPUs; a (weight 2) asks 10, b (weight 1) asks 2: b is satisfied with 2, a gets the other 10.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("12").build())
        .queue(queue("a", 2, null, null)).queue(queue("b", 1, null, null))
        .pod(pod("ns/a1", "a", "10").build()).pod(pod("ns/b1", "b", "2").build()));
    assertEquals(10_000, deservedCpu("a"), 1e-6);
    assertEquals(2_000, deservedCpu("b"), 1e-6);
  }

  @Test
  void capabilityCapsAndGuaranteeFloorsTheDeservedShare() {
    // 10 CPUs; a capped at 3 CPUs asks 8; b guaranteed 4 asks nothing; c asks 8.
    open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("10").build())
        .queue(queue("a", 1, "3", null)).queue(queue("b", 1, null, "4")).queue(queue("c", 1, null, null))
        .pod(pod("ns/a1", "a", "8").build()).pod(pod("ns/c1", "c", "8").build()));
    assertEquals(3_000, deservedCpu("a"), 1e-6);
    assertEquals(4_000, deservedCpu("b"), 1e-6, "a guarantee is kept even while idle");
    // c: realCapability = (10 - 4) + 0 = 6 CPUs, so it can never be given more than 6.
    assertEquals(6_000, plugin.share("c").realCapability[ResourceNames.CPU], 1e-6);
    assertTrue(deservedCpu("c") <= 6_000 + 1e-6);
  }

  @Test
  void enqueueRejectsAJobWhoseMinimumWouldExceedTheQueuesCapability() {
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("16").build())
        .queue(queue("small", 1, "4", null))
        .podGroup(new PodGroup("ns", "big", 1, Map.of(), "small", null,
            ResourceVector.parse(Map.of("cpu", "6")), "Pending", null))
        .podGroup(new PodGroup("ns", "fits", 1, Map.of(), "small", null,
            ResourceVector.parse(Map.of("cpu", "3")), "Pending", null))
        .pod(TestPods.pod("ns/big-0").cpu("6").group("big").build())
        .pod(TestPods.pod("ns/fits-0").cpu("3").group("fits").build()));
    assertTrue(s.jobEnqueueable(s.job("ns/big")).isReject());
    assertFalse(s.jobEnqueueable(s.job("ns/fits")).isReject());
    s.enqueue(s.job("ns/fits"));
    assertArrayEquals(new double[] {3000}, new double[] {plugin.share("small").inqueue[ResourceNames.CPU]});
  }

  @Test
  void theQueueWithTheLowerShareGoesFirst() {
    Session s = open(TestSessions.cluster()
        .node(TestNodes.node("n1").cpu("4").build())
        .queue(queue("a", 1, null, null)).queue(queue("b", 1, null, null))
        .pod(pod("ns/a-run", "a", "1").onNode("n1").build()).pod(pod("ns/a2", "a", "1").build())
        .pod(pod("ns/b1", "b", "1").build()).pod(pod("ns/b2", "b", "1").build()));
    assertTrue(s.queueOrder().compare(s.queue("b"), s.queue("a")) < 0);
  }
}
