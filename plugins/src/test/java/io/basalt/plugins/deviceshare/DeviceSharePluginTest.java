package io.basalt.plugins.deviceshare;

import static io.basalt.plugins.deviceshare.ShareCluster.REGISTRY;
import static io.basalt.plugins.deviceshare.ShareCluster.conf;
import static io.basalt.plugins.deviceshare.ShareCluster.metaxNode;
import static io.basalt.plugins.deviceshare.ShareCluster.schedule;
import static io.basalt.plugins.deviceshare.ShareCluster.sharePod;
import static io.basalt.plugins.deviceshare.ShareCluster.where;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.api.TaskInfo;
import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.session.Session;
import io.basalt.session.SessionResult;
import io.basalt.session.Statement;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import io.basalt.testing.TestSessions;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sharing examples of the issue, placed by a real allocate over real sessions. */
class DeviceSharePluginTest {
  private static final String BINPACK = conf("");

  @Test
  void twoPodsOfSixtyPercentNeverShareADevice() {
    Session s = schedule(TestSessions.cluster().node(metaxNode("mx", 8, 32).build())
        .pod(sharePod("ns/a", 60, 8).build())
        .pod(sharePod("ns/b", 60, 8).build())
        .open(REGISTRY, BINPACK));
    assertEquals("mx:0", where(s, "ns/a"));
    assertEquals("mx:1", where(s, "ns/b"), "60 + 60 > 100: the next device");
  }

  @Test
  void onASingleDeviceTheSecondSixtyPercentPodWaitsWithTheReason() {
    Session s = schedule(TestSessions.cluster().node(metaxNode("mx", 1, 4).build())
        .pod(sharePod("ns/a", 60, 8).build())
        .pod(sharePod("ns/b", 60, 8).build())
        .open(REGISTRY, BINPACK));
    assertEquals("mx:0", where(s, "ns/a"));
    SessionResult r = s.close();
    assertEquals(1, r.bindings().size());
    assertEquals("0/1 nodes are available: 1 node(s) had no GPU with 60% compute and 8Gi memory free.",
        r.pending().get(0).reason());
  }

  @Test
  void threePodsOfThirtyPercentAndFourGibShareOneDeviceUnderBinpack() {
    Session s = schedule(TestSessions.cluster().node(metaxNode("mx", 8, 32).build())
        .pod(sharePod("ns/a", 30, 4).build())
        .pod(sharePod("ns/b", 30, 4).build())
        .pod(sharePod("ns/c", 30, 4).build())
        .open(REGISTRY, BINPACK));
    for (String p : List.of("ns/a", "ns/b", "ns/c")) {
      assertEquals("mx:0", where(s, p));
      assertEquals(DeviceClaim.share(0, 30, 4096), TestSessions.task(s, p).deviceClaim());
    }
    DeviceUsage u = s.node("mx").deviceUsage();
    assertEquals(3, u.shares(0));
    assertEquals(90, u.coresUsed(0));
    assertEquals(12 * 1024, u.memoryUsedMiB(0));
    assertEquals("1,2,3,4,5,6,7", s.node("mx").freeDevices().format(), "devices 1..7 stay whole");
    SessionResult r = s.close();
    assertTrue(r.bindings().stream().allMatch(b -> b.annotations().get(GpuAnnotations.DEVICES).equals("0")));
  }

  @Test
  void withSpreadTheyGoToThreeDifferentDevices() {
    Session s = schedule(TestSessions.cluster().node(metaxNode("mx", 8, 32).build())
        .pod(sharePod("ns/a", 30, 4).build())
        .pod(sharePod("ns/b", 30, 4).build())
        .pod(sharePod("ns/c", 30, 4).build())
        .open(REGISTRY, conf("deviceshare.policy: spread")));
    assertEquals(List.of("mx:0", "mx:1", "mx:2"), List.of(where(s, "ns/a"), where(s, "ns/b"), where(s, "ns/c")));
  }

  @Test
  void binpackFillsThePartlyUsedDeviceFirstAndSpreadAvoidsIt() {
    TestSessions cluster = TestSessions.cluster().node(metaxNode("mx", 4, 16).build())
        .pod(sharePod("ns/running", 50, 8).onNode("mx").annotation(GpuAnnotations.DEVICES, "2").build())
        .pod(sharePod("ns/new", 20, 4).build());
    Session binpack = schedule(cluster.open(REGISTRY, BINPACK));
    assertEquals("mx:2", where(binpack, "ns/new"), "the running share is counted from its annotation");
    Session spread = schedule(cluster.open(REGISTRY, conf("deviceshare.policy: spread")));
    assertEquals("mx:0", where(spread, "ns/new"));
  }

  @Test
  void memoryOfTheDeviceLimitsItsSharers() {
    Session s = schedule(TestSessions.cluster().node(metaxNode("mx", 2, 8).build())
        .pod(sharePod("ns/a", 10, 40).build())
        .pod(sharePod("ns/b", 10, 40).build())
        .pod(sharePod("ns/c", 10, 40).build())
        .open(REGISTRY, BINPACK));
    assertEquals("mx:0", where(s, "ns/a"));
    assertEquals("mx:1", where(s, "ns/b"), "40 + 40 GiB > 64 GiB");
    assertEquals(null, TestSessions.task(s, "ns/c").nodeName());
    assertEquals("0/1 nodes are available: 1 node(s) had no GPU with 10% compute and 40Gi memory free.",
        s.close().pending().get(0).reason());
  }

  @Test
  void maxSharesLimitsTheSharersPerDevice() {
    // The node's own count: 16 sgpu over 8 devices allows 2 per device.
    Session fromNode = schedule(TestSessions.cluster().node(metaxNode("mx", 8, 16).build())
        .pod(sharePod("ns/a", 10, 1).build())
        .pod(sharePod("ns/b", 10, 1).build())
        .pod(sharePod("ns/c", 10, 1).build())
        .open(REGISTRY, BINPACK));
    assertEquals(List.of("mx:0", "mx:0", "mx:1"),
        List.of(where(fromNode, "ns/a"), where(fromNode, "ns/b"), where(fromNode, "ns/c")));
    // The argument overrides it.
    Session fromArgument = schedule(TestSessions.cluster().node(metaxNode("mx", 8, 32).build())
        .pod(sharePod("ns/a", 10, 1).build())
        .pod(sharePod("ns/b", 10, 1).build())
        .pod(sharePod("ns/c", 10, 1).build())
        .open(REGISTRY, conf("deviceshare.maxShares: 1")));
    assertEquals(List.of("mx:0", "mx:1", "mx:2"),
        List.of(where(fromArgument, "ns/a"), where(fromArgument, "ns/b"), where(fromArgument, "ns/c")));
  }

  @Test
  void sharePodAskingForTwoNvidiaGpusIsRejectedWithAClearReason() {
    Session s = schedule(TestSessions.cluster().node(hamiNode("h100").build())
        .pod(TestPods.pod("ns/two").gpu(2).resource("nvidia.com/gpucores", "30").build())
        .open(REGISTRY, BINPACK));
    SessionResult r = s.close();
    assertEquals(0, r.bindings().size());
    assertEquals("0/1 nodes are available: 1 GPU share pod requests 2 nvidia.com/gpu with "
        + "nvidia.com/gpucores/nvidia.com/gpumem; a share is of one GPU, so it must be 1.",
        r.pending().get(0).reason());
  }

  @Test
  void hamiSharePodsAreLimitedByVgpuSlotsAndDeviceMemory() {
    // 4 x 80 GiB H100 advertised as 8 vGPU slots: 2 sharers per device.
    Session s = schedule(TestSessions.cluster().node(hamiNode("h100").build())
        .pod(hamiPod("ns/a", 30, 40_000).build())
        .pod(hamiPod("ns/b", 30, 50_000).build())
        .pod(hamiPod("ns/c", 10, 10_000).build())
        .pod(hamiPod("ns/d", 10, 10_000).build())
        .open(REGISTRY, BINPACK));
    assertEquals("h100:0", where(s, "ns/a"));
    assertEquals("h100:1", where(s, "ns/b"), "40000 + 50000 MiB > 81920 MiB");
    assertEquals("h100:0", where(s, "ns/c"), "both shared devices would be full by share count: the lower index");
    assertEquals("h100:1", where(s, "ns/d"), "device 0 has its 2 sharers");
    assertEquals(DeviceClaim.share(1, 30, 50_000), TestSessions.task(s, "ns/b").deviceClaim());
  }

  @Test
  void withoutAKnownDeviceMemoryOnlyComputeAndShareCountApply() {
    // No topology annotation: 2 uniform GPUs of unknown memory.
    Session s = schedule(TestSessions.cluster().node(TestNodes.node("plain").cpu("32").memory("256Gi").gpu(2).build())
        .pod(hamiPod("ns/a", 40, 500_000).build())
        .pod(hamiPod("ns/b", 40, 500_000).build())
        .open(REGISTRY, conf("deviceshare.maxShares: 4")));
    assertEquals("plain:0", where(s, "ns/a"));
    assertEquals("plain:0", where(s, "ns/b"));
  }

  @Test
  void wholeGpuPodsNeverLandOnASharedDeviceNorSharesOnAWholeOne() {
    TestNodes mixed = metaxNode("mx", 8, 32).resource("metax-tech.com/gpu", "8");
    String both = "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: deviceshare\n  - name: gpu-aware\n";
    // Seven devices shared: a whole pod gets the eighth, a second one finds none.
    TestSessions shared = TestSessions.cluster().node(mixed.build());
    for (int d = 0; d < 7; d++) {
      shared.pod(sharePod("ns/share-" + d, 10, 1).onNode("mx").annotation(GpuAnnotations.DEVICES, "" + d).build());
    }
    Session s = schedule(shared.pod(wholePod("ns/whole", 1).build()).pod(wholePod("ns/late", 1).build())
        .open(REGISTRY, both));
    assertEquals("mx:7", where(s, "ns/whole"));
    assertEquals(DeviceClaim.whole(io.basalt.gpu.DeviceSet.of(7)),
        TestSessions.task(s, "ns/whole").deviceClaim(), "deviceshare leaves whole pods to gpu-aware");
    assertEquals(null, TestSessions.task(s, "ns/late").nodeName());
    // Seven devices held whole: a share pod gets the eighth, a second with no room there finds none.
    Session w = schedule(TestSessions.cluster().node(mixed.build())
        .pod(wholePod("ns/big", 7).onNode("mx").annotation(GpuAnnotations.DEVICES, "0,1,2,3,4,5,6").build())
        .pod(sharePod("ns/a", 60, 8).build())
        .pod(sharePod("ns/b", 60, 8).build())
        .open(REGISTRY, both));
    assertEquals("mx:7", where(w, "ns/a"));
    assertEquals(null, TestSessions.task(w, "ns/b").nodeName());
  }

  @Test
  void wholeAndSharedPodsPlacedInOneSessionStayOnDifferentDevices() {
    String both = "actions: \"enqueue, allocate\"\ntiers:\n- plugins:\n  - name: gpu-aware\n  - name: deviceshare\n";
    Session s = schedule(TestSessions.cluster()
        .node(metaxNode("mx", 2, 8).resource("metax-tech.com/gpu", "2").build())
        .pod(sharePod("ns/share", 10, 1).build())
        .pod(wholePod("ns/whole", 1).build())
        .pod(wholePod("ns/whole-late", 1).build())
        .pod(sharePod("ns/share-late", 10, 1).build())
        .open(REGISTRY, both));
    assertEquals("mx:0", where(s, "ns/share"));
    assertEquals("mx:1", where(s, "ns/whole"));
    assertEquals(null, TestSessions.task(s, "ns/whole-late").nodeName(), "device 0 is shared");
    assertEquals("mx:0", where(s, "ns/share-late"), "device 1 is held whole");
  }

  @Test
  void discardingAStatementGivesTheSharesBack() {
    Session s = TestSessions.cluster().node(metaxNode("mx", 8, 32).build())
        .pod(sharePod("ns/a", 30, 4).build())
        .pod(sharePod("ns/b", 80, 4).build())
        .open(REGISTRY, BINPACK);
    Statement stmt = s.newStatement();
    stmt.allocate(TestSessions.task(s, "ns/a"), s.node("mx"));
    assertEquals(DeviceClaim.share(0, 30, 4096), TestSessions.task(s, "ns/a").deviceClaim());
    assertEquals("1", s.callbacks().chooseDevices(TestSessions.task(s, "ns/b"), s.node("mx")).devices().format(),
        "30 + 80 > 100 on device 0");
    stmt.discard();
    DeviceUsage u = s.node("mx").deviceUsage();
    assertEquals(0, u.shares(0));
    assertEquals(0, u.coresUsed(0));
    assertEquals(0, u.memoryUsedMiB(0));
    assertEquals("0,1,2,3,4,5,6,7", s.node("mx").freeDevices().format());
    assertEquals("0", s.callbacks().chooseDevices(TestSessions.task(s, "ns/b"), s.node("mx")).devices().format());
  }

  @Test
  void useAndNouseAnnotationsNarrowTheSharedDevices() {
    Session s = TestSessions.cluster().node(metaxNode("mx", 4, 16).build())
        .pod(sharePod("ns/pinned", 30, 4).annotation("metax-tech.com/use-gpuuuid", "GPU-mx-2").build())
        .pod(sharePod("ns/not-0", 30, 4).annotation("metax-tech.com/nouse-gpuuuid", "GPU-mx-0").build())
        .pod(sharePod("ns/wrong-model", 30, 4).annotation("metax-tech.com/use-gputype", "MXC550").build())
        .pod(sharePod("ns/nvidia-domain", 30, 4).annotation("nvidia.com/use-gputype", "H100").build())
        .open(REGISTRY, BINPACK);
    assertEquals("2", s.callbacks().chooseDevices(TestSessions.task(s, "ns/pinned"), s.node("mx")).devices().format());
    assertEquals("1", s.callbacks().chooseDevices(TestSessions.task(s, "ns/not-0"), s.node("mx")).devices().format());
    assertEquals("node(s) had no GPU matching metax-tech.com/use-gputype=mxc550 with 30% compute and 4Gi memory free",
        s.callbacks().filter(TestSessions.task(s, "ns/wrong-model"), s.node("mx")).reason());
    assertTrue(s.callbacks().filter(TestSessions.task(s, "ns/nvidia-domain"), s.node("mx")).ok(),
        "a MetaX share reads only metax-tech.com annotations");
  }

  @Test
  void binpackScoresTheNodeWithAPartlyUsedDeviceHigherAndSpreadLower() {
    TestSessions cluster = TestSessions.cluster()
        .node(metaxNode("busy", 8, 32).build())
        .node(metaxNode("idle", 8, 32).build())
        .pod(sharePod("ns/running", 40, 16).onNode("busy").annotation(GpuAnnotations.DEVICES, "3").build())
        .pod(sharePod("ns/new", 20, 4).build());
    Session b = cluster.open(REGISTRY, BINPACK);
    TaskInfo t = TestSessions.task(b, "ns/new");
    // busy: shared device 3, fullness 1 + max(0.6, 2/4, 20/64) = 1.6 -> 80; idle: 0 + max(0.2, 1/4) -> 12.5
    assertEquals(80.0, b.callbacks().score(t, b.node("busy")), 1e-9);
    assertEquals(12.5, b.callbacks().score(t, b.node("idle")), 1e-9);
    Session sp = cluster.open(REGISTRY, conf("deviceshare.policy: spread"));
    TaskInfo u = TestSessions.task(sp, "ns/new");
    // spread picks an untouched device on both nodes: 100 - 50 * 0.25
    assertEquals(87.5, sp.callbacks().score(u, sp.node("busy")), 1e-9);
    assertEquals(87.5, sp.callbacks().score(u, sp.node("idle")), 1e-9);
    assertEquals("busy:3", where(schedule(cluster.open(REGISTRY, BINPACK)), "ns/new"));
  }

  @Test
  void podsWithoutShareResourcesAreNotThisPluginsBusiness() {
    Session s = TestSessions.cluster().node(metaxNode("mx", 8, 32).resource("metax-tech.com/gpu", "8").build())
        .pod(wholePod("ns/whole", 2).build())
        .pod(TestPods.pod("ns/cpu").cpu("1").build())
        .open(REGISTRY, BINPACK);
    for (String p : List.of("ns/whole", "ns/cpu")) {
      TaskInfo t = TestSessions.task(s, p);
      assertTrue(s.callbacks().filter(t, s.node("mx")).ok());
      assertEquals(0.0, s.callbacks().score(t, s.node("mx")));
      assertEquals(null, s.callbacks().chooseDevices(t, s.node("mx")));
    }
  }

  @Test
  void aNodeWithoutGpusCannotTakeAShare() {
    Session s = TestSessions.cluster().node(TestNodes.node("cpu").cpu("32").memory("64Gi").build())
        .pod(hamiPod("ns/a", 30, 1000).build())
        .open(REGISTRY, BINPACK);
    assertEquals("node(s) had no GPU devices to share",
        s.callbacks().filter(TestSessions.task(s, "ns/a"), s.node("cpu")).reason());
  }

  @Test
  void answersFollowTheTaskAskedAboutWhenCallsAlternate() {
    Session s = TestSessions.cluster().node(metaxNode("mx", 1, 4).build())
        .pod(sharePod("ns/small", 10, 1).build())
        .pod(sharePod("ns/huge", 10, 100).build())
        .open(REGISTRY, BINPACK);
    for (int i = 0; i < 2; i++) {
      assertTrue(s.callbacks().filter(TestSessions.task(s, "ns/small"), s.node("mx")).ok());
      assertEquals("node(s) had no GPU with 10% compute and 100Gi memory free",
          s.callbacks().filter(TestSessions.task(s, "ns/huge"), s.node("mx")).reason());
    }
  }

  /** A HAMi node: 4 x 80 GiB H100 (topology annotation) advertised as 8 nvidia.com/gpu vGPU slots. */
  static TestNodes hamiNode(String name) {
    StringBuilder devices = new StringBuilder("{\"devices\":[");
    StringBuilder links = new StringBuilder("\"links\":[");
    for (int i = 0; i < 4; i++) {
      devices.append(i == 0 ? "" : ",").append("{\"index\":").append(i).append(",\"uuid\":\"GPU-h-").append(i)
          .append("\",\"model\":\"NVIDIA-H100-SXM5-80GB\",\"memoryMiB\":81920}");
      links.append(i == 0 ? "" : ",").append('[');
      for (int j = 0; j < 4; j++) {
        links.append(j == 0 ? "" : ",").append(i == j ? "\"X\"" : "\"NV18\"");
      }
      links.append(']');
    }
    String topology = devices.append("],").append(links).append("]}").toString();
    return TestNodes.node(name).cpu("64").memory("512Gi").gpu(8).annotation(GpuAnnotations.TOPOLOGY, topology);
  }

  static TestPods hamiPod(String key, int cores, int memoryMiB) {
    return TestPods.pod(key).cpu("1").gpu(1).resource("nvidia.com/gpucores", Integer.toString(cores))
        .resource("nvidia.com/gpumem", Integer.toString(memoryMiB));
  }

  static TestPods wholePod(String key, int gpus) {
    return TestPods.pod(key).cpu("1").resource("metax-tech.com/gpu", Integer.toString(gpus));
  }
}
