package io.basalt.plugins.fragmentation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.actions.ActionRegistry;
import io.basalt.config.Arguments;
import io.basalt.framework.PluginRegistry;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuDevice;
import io.basalt.plugins.deviceshare.DeviceSharePlugin;
import io.basalt.session.Session;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Placements the fragmentation score makes and plain packing or spreading would not. */
class GpuFragmentationPluginTest {
  private static final PluginRegistry REGISTRY =
      PluginRegistry.of(GpuFragmentationPlugin.descriptor(), DeviceSharePlugin.descriptor());
  private static final String CONF = "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n"
      + "  - name: gpu-fragmentation\n  - name: deviceshare\n";

  /** An 8-GPU node in HAMi form: 80 vGPU slots over 8 listed devices. */
  private static TestNodes hamiNode(String name) {
    List<GpuDevice> devices = new ArrayList<>();
    List<List<String>> links = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      devices.add(new GpuDevice(i, "GPU-" + name + "-" + i, "A100", 0));
      List<String> row = new ArrayList<>();
      for (int j = 0; j < 8; j++) {
        row.add(i == j ? "X" : "PHB");
      }
      links.add(row);
    }
    return TestNodes.node(name).cpu("96").memory("1Ti").resource("nvidia.com/gpu", "80")
        .annotation(GpuAnnotations.TOPOLOGY, GpuAnnotations.format(devices, links));
  }

  /** {@link #CONF} with {@code arguments} (YAML lines, indented) under gpu-fragmentation. */
  private static String conf(String arguments) {
    return CONF.replace("  - name: gpu-fragmentation\n", "  - name: gpu-fragmentation\n" + arguments);
  }

  private static TestPods share(String key, int cores) {
    return TestPods.pod(key).cpu("1").resource("nvidia.com/gpu", "1")
        .resource("nvidia.com/gpucores", Integer.toString(cores));
  }

  private static Session allocate(Session s) {
    ActionRegistry actions = ActionRegistry.builtin();
    actions.create("enqueue", Arguments.empty()).execute(s);
    actions.create("allocate", Arguments.empty()).execute(s);
    return s;
  }

  @Test
  void aOneGpuPodGoesToThePartlyUsedNodeWhenEightGpuPodsAreInTheMix() {
    Session s = TestSessions.cluster()
        .node(hamiNode("a-empty").build())
        .node(hamiNode("b-half").build())
        .pod(TestPods.pod("ns/holder").cpu("8").gpu(4).onNode("b-half")
            .annotation(GpuAnnotations.DEVICES, "0,1,2,3").build())
        .pod(TestPods.pod("ns/one").cpu("8").gpu(1).build())
        .pod(TestPods.pod("ns/eight").cpu("8").gpu(8).created(java.time.Instant.now().plusSeconds(60)).build())
        .open(REGISTRY, CONF);
    var one = TestSessions.task(s, "ns/one");
    // Mix by GPU demand: 1, 4 and 8 GPUs weigh 1/13, 4/13, 8/13. a-empty: the 8-GPU shape loses its node,
    // dF = 8/13 * 700; b-half: the 4-GPU shape loses it instead, dF = 4/13 * 300 - 8/13 * 100.
    assertTrue(s.callbacks().score(one, s.node("b-half")) > s.callbacks().score(one, s.node("a-empty")));
    allocate(s);
    assertEquals("b-half", one.nodeName());
    assertEquals("a-empty", TestSessions.task(s, "ns/eight").nodeName(), "the whole node stayed free for it");
  }

  @Test
  void aCpuPodTakesTheNodeWhoseGpusAreAllHeldNotTheOneItWouldStrand() {
    Session s = allocate(TestSessions.cluster()
        .node(hamiNode("a-free").build())
        .node(hamiNode("b-full").build())
        .pod(TestPods.pod("ns/holder").cpu("8").gpu(8).onNode("b-full")
            .annotation(GpuAnnotations.DEVICES, "0,1,2,3,4,5,6,7").build())
        .pod(TestPods.pod("ns/gpu-job").cpu("8").gpu(1).onNode("a-free")
            .annotation(GpuAnnotations.DEVICES, "0").build())
        .pod(TestPods.pod("ns/cpu").cpu("85").build())
        .open(REGISTRY, conf("    arguments:\n      window: 10\n")));
    assertEquals("b-full", TestSessions.task(s, "ns/cpu").nodeName());
  }

  @Test
  void aShareKeepsTheGapTheMixNeedsRatherThanFillingTheFullestGpu() {
    Session s = TestSessions.cluster()
        .node(hamiNode("n").build())
        .pod(share("ns/half-a", 50).onNode("n").annotation(GpuAnnotations.DEVICES, "0").build())
        .pod(share("ns/forty", 40).onNode("n").annotation(GpuAnnotations.DEVICES, "1").build())
        .pod(share("ns/small", 10).build())
        .pod(share("ns/fifty-1", 50).created(java.time.Instant.now().plusSeconds(60)).build())
        .pod(share("ns/fifty-2", 50).created(java.time.Instant.now().plusSeconds(61)).build())
        .pod(share("ns/fifty-3", 50).created(java.time.Instant.now().plusSeconds(62)).build())
        .open(REGISTRY, CONF);
    // GPU 0 has 50% free, GPU 1 60%: the fullest is 0, but a 10% share there leaves 40%, which no 50% share can use.
    var small = TestSessions.task(s, "ns/small");
    assertEquals("1", s.callbacks().chooseDevices(small, s.node("n")).devices().format());
  }

  @Test
  void withGapsAWholePodScoresLowerWhereSharesStillHaveRoom() {
    double[] off = gapScores("");
    double[] on = gapScores("    arguments:\n      gaps: 1\n");
    // b-shared's GPU 0 has 50% free (>= gapMin 25), GPU 1 10% (not counted): 100 x 50 / 800 = 6.25 off its score.
    assertEquals(off[1] - 6.25, on[1], 1e-9);
    assertEquals(off[0], on[0], 1e-9, "a node without shared GPUs is scored as before");
    assertTrue(on[0] > on[1]);
  }

  /** A 1-GPU pod's scores on a-whole (one GPU held whole) and b-shared (shares on GPUs 0 and 1). */
  private static double[] gapScores(String arguments) {
    Session s = TestSessions.cluster()
        .node(hamiNode("a-whole").build())
        .node(hamiNode("b-shared").build())
        .pod(TestPods.pod("ns/holder").cpu("8").gpu(1).onNode("a-whole")
            .annotation(GpuAnnotations.DEVICES, "0").build())
        .pod(share("ns/half", 50).onNode("b-shared").annotation(GpuAnnotations.DEVICES, "0").build())
        .pod(share("ns/most", 90).onNode("b-shared").annotation(GpuAnnotations.DEVICES, "1").build())
        .pod(TestPods.pod("ns/one").cpu("8").gpu(1).build())
        .open(REGISTRY, conf(arguments));
    var one = TestSessions.task(s, "ns/one");
    return new double[] {s.callbacks().score(one, s.node("a-whole")), s.callbacks().score(one, s.node("b-shared"))};
  }

  @Test
  void withCloseAShareThatNearlyFillsASharedGpuScoresHigherThere() {
    double[] off = closeScores("");
    double[] on = closeScores("    arguments:\n      close: 0.5\n");
    // b-close's GPU 0 has 37% free: the 33% share leaves 4% (<= closeGap 6), so 0.5 x 10 x 0.96 = 4.8 more.
    assertEquals(off[1] + 4.8, on[1], 1e-9);
    assertEquals(off[0], on[0], 1e-9, "a node where the share closes no GPU is scored as before");
    assertEquals(0, on[2], "the GPU it nearly fills is the one chosen");
  }

  /** A 33% share's scores on a-open (a share of 50 on GPU 0) and b-close (63 on GPU 0, 40 on GPU 1), its device there. */
  private static double[] closeScores(String arguments) {
    Session s = TestSessions.cluster()
        .node(hamiNode("a-open").build())
        .node(hamiNode("b-close").build())
        .pod(share("ns/half", 50).onNode("a-open").annotation(GpuAnnotations.DEVICES, "0").build())
        .pod(share("ns/most", 63).onNode("b-close").annotation(GpuAnnotations.DEVICES, "0").build())
        .pod(share("ns/some", 40).onNode("b-close").annotation(GpuAnnotations.DEVICES, "1").build())
        .pod(share("ns/third", 33).build())
        .open(REGISTRY, conf(arguments));
    var third = TestSessions.task(s, "ns/third");
    return new double[] {s.callbacks().score(third, s.node("a-open")), s.callbacks().score(third, s.node("b-close")),
        Integer.parseInt(s.callbacks().chooseDevices(third, s.node("b-close")).devices().format())};
  }

  @Test
  void withPackAShareGoesWhereItCompletesAPatternOfTheMixsBestPacking() {
    double[] off = packScores("");
    double[] on = packScores("    arguments:\n      pack: 10\n");
    // Mix of shares 65, 47, 32: best packing [65, 32] and [47, 47]. Beside the 65 the 32 costs nothing; beside the
    // 47 it leaves 21% that nothing fills, a room worth 1/2 a GPU losing it for a share worth at most 1/3.
    assertEquals(off[1], on[1], 1e-9, "beside the 65 it is scored as before");
    assertTrue(on[0] <= off[0] - 100.0 / 6 + 1e-9, "beside the 47: " + off[0] + " -> " + on[0]);
    assertTrue(on[1] > on[0]);
  }

  /** A 32% share's scores on a-47 and b-65, whose only GPU left for shares holds a 47% or 65% share. */
  private static double[] packScores(String arguments) {
    Session s = TestSessions.cluster()
        .node(hamiNode("a-47").build())
        .node(hamiNode("b-65").build())
        .pod(TestPods.pod("ns/whole-a").cpu("8").gpu(7).onNode("a-47")
            .annotation(GpuAnnotations.DEVICES, "1,2,3,4,5,6,7").build())
        .pod(TestPods.pod("ns/whole-b").cpu("8").gpu(7).onNode("b-65")
            .annotation(GpuAnnotations.DEVICES, "1,2,3,4,5,6,7").build())
        .pod(share("ns/forty-seven", 47).onNode("a-47").annotation(GpuAnnotations.DEVICES, "0").build())
        .pod(share("ns/sixty-five", 65).onNode("b-65").annotation(GpuAnnotations.DEVICES, "0").build())
        .pod(share("ns/thirty-two", 32).build())
        .open(REGISTRY, conf(arguments));
    var share = TestSessions.task(s, "ns/thirty-two");
    return new double[] {s.callbacks().score(share, s.node("a-47")), s.callbacks().score(share, s.node("b-65"))};
  }

  @Test
  void withPackAShareKeepsOffAGapAnotherShareWouldFillExactly() {
    // GPU 0 holds a 15% share, GPU 1 an 85% one: 85 + 15 is a perfect pair of the mix. F alone puts the 10% share
    // in GPU 1's 15% gap; priced by the packing, that spoils the pair, so it goes beside the 15.
    assertEquals("1", packDevice(""));
    assertEquals("0", packDevice("    arguments:\n      pack: 10\n"));
  }

  /** The device a 10% share gets on a node whose GPU 0 holds a 15% share and GPU 1 an 85% one, the rest whole. */
  private static String packDevice(String arguments) {
    Session s = TestSessions.cluster()
        .node(hamiNode("n").build())
        .pod(TestPods.pod("ns/whole").cpu("8").gpu(6).onNode("n")
            .annotation(GpuAnnotations.DEVICES, "2,3,4,5,6,7").build())
        .pod(share("ns/fifteen", 15).onNode("n").annotation(GpuAnnotations.DEVICES, "0").build())
        .pod(share("ns/eighty-five", 85).onNode("n").annotation(GpuAnnotations.DEVICES, "1").build())
        .pod(share("ns/ten", 10).build())
        .open(REGISTRY, conf(arguments));
    var share = TestSessions.task(s, "ns/ten");
    return s.callbacks().chooseDevices(share, s.node("n")).devices().format();
  }
}
