package io.basalt.plugins.gpuaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.TaskInfo;
import io.basalt.framework.PluginRegistry;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The placement examples of the GPU issue, on real sessions. */
class GpuAwarePluginTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.of(GpuAwarePlugin.descriptor());
  private static final String CONF = TestSessions.singlePlugin("gpu-aware", "weight: 1\nloss.weight: 0.5");

  /** An {@code n}-GPU topology annotation whose link code between i and j is {@code link(i, j)}. */
  static String topology(int n, BiFunction<Integer, Integer, String> link) {
    StringBuilder sb = new StringBuilder("{\"devices\":[");
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"index\":").append(i).append(",\"uuid\":\"GPU-").append(i)
          .append("\",\"model\":\"NVIDIA-H100-SXM5-80GB\",\"memoryMiB\":81920}");
    }
    sb.append("],\"links\":[");
    for (int i = 0; i < n; i++) {
      List<String> row = new ArrayList<>();
      for (int j = 0; j < n; j++) {
        row.add("\"" + (i == j ? "X" : link.apply(i, j)) + "\"");
      }
      sb.append(i == 0 ? "" : ",").append("[").append(String.join(",", row)).append("]");
    }
    return sb.append("]}").toString();
  }

  /** NVLink pairs 0-1, 2-3, 4-5, 6-7; PCIe (PHB) otherwise. */
  static final String PAIRS = topology(8, (i, j) -> i / 2 == j / 2 ? "NV4" : "PHB");

  private static TestNodes gpuNode(String name, String topology) {
    return TestNodes.node(name).cpu("96").memory("1Ti").gpu(8).annotation(GpuAnnotations.TOPOLOGY, topology);
  }

  private static TestPods busy(String key, String node, String devices, int gpus) {
    return TestPods.pod(key).gpu(gpus).onNode(node).annotation(GpuAnnotations.DEVICES, devices);
  }

  private static String chosen(Session s, String pod, String node) {
    TaskInfo t = TestSessions.task(s, pod);
    return s.callbacks().chooseDevices(t, s.node(node)).devices().format();
  }

  @Test
  void twoGpuPodGetsAWholeNvlinkPairNeverAStraddlingSet() {
    Session s = TestSessions.cluster().node(gpuNode("n1", PAIRS).build())
        .pod(busy("ns/holder", "n1", "0", 1).build())
        .pod(TestPods.pod("ns/two").gpu(2).build())
        .open(REGISTRY, CONF);
    assertTrue(Set.of("2,3", "4,5", "6,7").contains(chosen(s, "ns/two", "n1")));
  }

  @Test
  void oneGpuPodTakesTheOrphanAndKeepsPairsWhole() {
    Session s = TestSessions.cluster().node(gpuNode("n1", PAIRS).build())
        .pod(busy("ns/holder", "n1", "0", 1).build())
        .pod(TestPods.pod("ns/one").gpu(1).build())
        .open(REGISTRY, CONF);
    assertEquals("1", chosen(s, "ns/one", "n1"));
  }

  @Test
  void oneGpuPodPrefersTheNodeWhoseLastFreeGpuItFills() {
    Session s = TestSessions.cluster()
        .node(gpuNode("almost-full", PAIRS).build())
        .node(gpuNode("empty", PAIRS).build())
        .pod(busy("ns/holder", "almost-full", "0,2,3,4,5,6,7", 7).build())
        .pod(TestPods.pod("ns/one").gpu(1).build())
        .open(REGISTRY, CONF);
    TaskInfo one = TestSessions.task(s, "ns/one");
    double full = s.callbacks().score(one, s.node("almost-full"));
    double empty = s.callbacks().score(one, s.node("empty"));
    assertEquals(100.0, full, 1e-9, "V = 0 with nothing left free");
    // empty: best single GPU costs 0.5 * (400 + 6 * 30) = 290; best pair 400: 100 * (-290/400 + 3.5) / 3.5 = 79.286
    assertEquals(79.286, empty, 1e-3);
    assertTrue(full > empty);
  }

  @Test
  void onAnNvswitchNodeOnlyFragmentationDecides() {
    String dgx = topology(8, (i, j) -> "NV18");
    Session s = TestSessions.cluster()
        .node(gpuNode("busy", dgx).build())
        .node(gpuNode("idle", dgx).build())
        .pod(busy("ns/holder", "busy", "0,1,2,3", 4).build())
        .pod(TestPods.pod("ns/two").gpu(2).build())
        .open(REGISTRY, CONF);
    TaskInfo two = TestSessions.task(s, "ns/two");
    assertEquals("4,5", chosen(s, "ns/two", "busy"), "all sets equal: the lowest indices");
    assertTrue(s.callbacks().score(two, s.node("busy")) > s.callbacks().score(two, s.node("idle")), "fill the busier node");
  }

  @Test
  void fourGpuPodOnMetaxNodeGetsOneWholeMetaxLinkGroup() {
    StringBuilder devices = new StringBuilder("[");
    for (int i = 0; i < 8; i++) {
      devices.append(i == 0 ? "" : ",").append("{\"uuid\":\"GPU-mx-").append(i)
          .append("\",\"model\":\"MXC500\",\"totalVRam\":65536,\"linkZone\":").append(i < 4 ? 1 : 2).append("}");
    }
    devices.append("]");
    Session s = TestSessions.cluster()
        .node(TestNodes.node("mx").cpu("96").memory("1Ti").resource("metax-tech.com/gpu", "8")
            .annotation(GpuAnnotations.METAX_DEVICES, devices.toString()).build())
        .pod(TestPods.pod("ns/four").resource("metax-tech.com/gpu", "4").build())
        .open(REGISTRY, CONF);
    assertEquals("0,1,2,3", chosen(s, "ns/four", "mx"));
  }

  @Test
  void nodeWithTooFewFreeDevicesIsFilteredOut() {
    Session s = TestSessions.cluster().node(gpuNode("n1", PAIRS).build())
        .pod(busy("ns/holder", "n1", "0,1,2,3,4,5,6", 7).build())
        .pod(TestPods.pod("ns/two").gpu(2).build())
        .open(REGISTRY, CONF);
    assertEquals("Insufficient free GPU devices",
        s.callbacks().filter(TestSessions.task(s, "ns/two"), s.node("n1")).reason());
  }

  @Test
  void devicesAreTakenInTheStatementAndGivenBackOnDiscard() {
    Session s = TestSessions.cluster().node(gpuNode("n1", PAIRS).build())
        .pod(TestPods.pod("ns/a").gpu(2).build())
        .pod(TestPods.pod("ns/b").gpu(2).build())
        .open(REGISTRY, CONF);
    var stmt = s.newStatement();
    stmt.allocate(TestSessions.task(s, "ns/a"), s.node("n1"));
    assertEquals("0,1", TestSessions.task(s, "ns/a").devices().format());
    assertEquals("2,3", chosen(s, "ns/b", "n1"), "a's pair is taken");
    stmt.discard();
    assertEquals("0,1,2,3,4,5,6,7", s.node("n1").freeDevices().format());
    assertEquals("", TestSessions.task(s, "ns/a").devices().format());
  }

  @Test
  void greedyHeuristicStillFindsTheLinkedGroupOnALargeNode() {
    // 32 GPUs in four NVLink groups of 8; a 16-GPU pod: C(32,16) is far past the exhaustive limit.
    String big = topology(32, (i, j) -> i / 8 == j / 8 ? "NV18" : "SYS");
    DeviceSelector selector = new DeviceSelector(0.5);
    io.basalt.gpu.GpuTopology t = io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(GpuAnnotations.TOPOLOGY, big));
    DeviceSelector.Choice c = selector.choose(t, io.basalt.gpu.DeviceSet.all(32), 16);
    assertEquals(16, c.devices().size());
    // Two whole groups: no SYS pair is cut inside a group.
    for (int g = 0; g < 4; g++) {
      int from = 8 * g;
      long inGroup = IntStream.range(from, from + 8).filter(c.devices()::contains).count();
      assertTrue(inGroup == 0 || inGroup == 8, c.devices().toString());
    }
  }

  @Test
  void chosenGpuAnnotationsNarrowTheDevicesAndNameThemselvesWhenUnmet() {
    String a100 = topology(8, (i, j) -> "NV12").replace("NVIDIA-H100-SXM5-80GB", "NVIDIA-A100-SXM4-80GB");
    Session s = TestSessions.cluster()
        .node(gpuNode("h100", PAIRS).build())
        .node(gpuNode("a100", a100).build())
        .pod(TestPods.pod("ns/wants-a100").gpu(1).annotation("nvidia.com/use-gputype", "A100").build())
        .pod(TestPods.pod("ns/not-gpu0").gpu(1).annotation("nvidia.com/nouse-gpuuuid", "GPU-0").build())
        .pod(TestPods.pod("ns/wants-v100").gpu(1).annotation("nvidia.com/use-gputype", "V100").build())
        .pod(TestPods.pod("ns/avoids-h100").gpu(1).annotation("nvidia.com/nouse-gputype", "h100").build())
        .open(REGISTRY, CONF);
    assertTrue(s.callbacks().filter(TestSessions.task(s, "ns/wants-a100"), s.node("a100")).ok());
    assertEquals("node(s) had no 1 free GPUs matching nvidia.com/use-gputype=a100",
        s.callbacks().filter(TestSessions.task(s, "ns/wants-a100"), s.node("h100")).reason());
    assertTrue(!s.callbacks().filter(TestSessions.task(s, "ns/avoids-h100"), s.node("h100")).ok());
    assertTrue(s.callbacks().filter(TestSessions.task(s, "ns/avoids-h100"), s.node("a100")).ok());
    assertEquals("1", chosen(s, "ns/not-gpu0", "h100"), "GPU-0 excluded: its orphaned partner is next best");
    assertTrue(!s.callbacks().filter(TestSessions.task(s, "ns/wants-v100"), s.node("a100")).ok());
  }
}
