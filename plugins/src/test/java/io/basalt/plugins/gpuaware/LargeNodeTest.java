package io.basalt.plugins.gpuaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.Arguments;
import io.basalt.framework.PluginRegistry;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Nodes with more than 64 GPUs (an NVL72 rack's worth, or 128): devices above index 63 are handed out, gpu-aware
 * still finds a well-linked group among them, and the session never gives one device to two pods.
 */
class LargeNodeTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(GpuAwarePlugin.descriptor());
  private static final String CONF = "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gpu-aware\n"
      + "    arguments:\n      weight: 1\n      loss.weight: 0.5\n";

  /** {@code n} GPUs in NVLink groups of 8 (NV18 inside a group, SYS across). */
  private static TestNodes groupsOfEight(String name, int n) {
    return TestNodes.node(name).cpu("1000").memory("16Ti").gpu(n).annotation(GpuAnnotations.TOPOLOGY,
        GpuAwarePluginTest.topology(n, (i, j) -> i / 8 == j / 8 ? "NV18" : "SYS"));
  }

  private static String range(int from, int to) {
    return IntStream.range(from, to).mapToObj(Integer::toString).collect(Collectors.joining(","));
  }

  private static Session schedule(Session s) {
    ActionRegistry actions = ActionRegistry.builtin();
    actions.create("enqueue", Arguments.empty()).execute(s);
    actions.create("allocate", Arguments.empty()).execute(s);
    return s;
  }

  private static Set<Integer> devices(Session s, String pod) {
    String d = TestSessions.task(s, pod).devices().format();
    return d.isEmpty() ? Set.of()
        : java.util.Arrays.stream(d.split(",")).map(Integer::valueOf).collect(Collectors.toSet());
  }

  @Test
  void anEightGpuPodGetsAWholeNvlinkGroupAboveIndex63() {
    // 0..103 and 112 held: groups 104..111 and 120..127 are whole, 113..119 is not.
    Session s = schedule(TestSessions.cluster().node(groupsOfEight("big", 128).build())
        .pod(TestPods.pod("ns/holder").gpu(105).onNode("big")
            .annotation(GpuAnnotations.DEVICES, range(0, 104) + ",112").build())
        .pod(TestPods.pod("ns/eight").gpu(8).build())
        .open(REGISTRY, CONF));
    assertEquals("big", TestSessions.task(s, "ns/eight").nodeName());
    Set<Integer> got = devices(s, "ns/eight");
    assertEquals(8, got.size(), got.toString());
    int group = got.iterator().next() / 8;
    assertTrue((group == 13 || group == 15) && got.stream().allMatch(d -> d / 8 == group),
        "a whole NVLink group, not the lowest free: " + got);
  }

  @Test
  void aPodAboveIndex63IsTheOneGpuLeft() {
    Session s = schedule(TestSessions.cluster().node(groupsOfEight("big", 128).build())
        .pod(TestPods.pod("ns/holder").gpu(127).onNode("big")
            .annotation(GpuAnnotations.DEVICES, range(0, 100) + "," + range(101, 128)).build())
        .pod(TestPods.pod("ns/one").gpu(1).build())
        .pod(TestPods.pod("ns/late").gpu(1).build())
        .open(REGISTRY, CONF));
    assertEquals(Set.of(100), devices(s, "ns/one"));
    assertNull(TestSessions.task(s, "ns/late").nodeName(), "device 100 is not given twice");
  }

  @Test
  void aSeventyTwoGpuPodFillsASeventyTwoGpuNode() {
    Session s = schedule(TestSessions.cluster().node(groupsOfEight("nvl72", 72).build())
        .pod(TestPods.pod("ns/all").gpu(72).build())
        .open(REGISTRY, CONF));
    assertEquals("nvl72", TestSessions.task(s, "ns/all").nodeName());
    assertEquals(range(0, 72), TestSessions.task(s, "ns/all").devices().format());
    assertEquals(72, s.node("nvl72").gpus().size());
  }

  @Test
  void sixteenEightGpuPodsTakeAll128DevicesOnceAndTheSeventeenthWaits() {
    TestSessions c = TestSessions.cluster().node(groupsOfEight("big", 128).build());
    for (int i = 0; i < 17; i++) {
      c.pod(TestPods.pod("ns/p" + i).gpu(8).build());
    }
    Session s = schedule(c.open(REGISTRY, CONF));
    Set<Integer> all = new HashSet<>();
    int placed = 0;
    for (int i = 0; i < 17; i++) {
      Set<Integer> d = devices(s, "ns/p" + i);
      if (TestSessions.task(s, "ns/p" + i).nodeName() == null) {
        assertEquals(Set.of(), d);
        continue;
      }
      placed++;
      assertEquals(8, d.size(), "ns/p" + i + " " + d);
      assertEquals(1, d.stream().map(x -> x / 8).distinct().count(), "one NVLink group: " + d);
      for (int x : d) {
        assertTrue(all.add(x), "device " + x + " given twice");
      }
    }
    assertEquals(16, placed);
    assertEquals(128, all.size());
    assertEquals(0, s.node("big").freeDevices().size());
    assertFalse(s.close().pending().isEmpty());
  }

  @Test
  void theStatementGivesBackDevicesAbove63OnDiscard() {
    Session s = TestSessions.cluster().node(groupsOfEight("big", 128).build())
        .pod(TestPods.pod("ns/holder").gpu(120).onNode("big").annotation(GpuAnnotations.DEVICES, range(0, 120))
            .build())
        .pod(TestPods.pod("ns/a").gpu(8).build())
        .pod(TestPods.pod("ns/b").gpu(1).build())
        .open(REGISTRY, CONF);
    var stmt = s.newStatement();
    stmt.allocate(TestSessions.task(s, "ns/a"), s.node("big"));
    assertEquals(range(120, 128), TestSessions.task(s, "ns/a").devices().format());
    assertNull(s.callbacks().chooseDevices(TestSessions.task(s, "ns/b"), s.node("big")), "nothing left");
    stmt.discard();
    assertEquals(range(120, 128), s.node("big").freeDevices().format());
  }
}
