package io.basalt.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.basalt.api.NodeInfo;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.protocol.hami.HamiFormat;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import java.util.List;
import java.util.Set;
import io.basalt.testing.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GpuInventoryTest {
  private final ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), "default");
  private final LogCapture log = LogCapture.all(GpuInventory.class.getName());
  private final List<String> warnings = log.messages();

  @AfterEach
  void release() {
    log.close();
  }

  private NodeInfo node() {
    return cache.snapshot().nodes().get(0);
  }

  @Test
  void annotatedPodsHoldTheirDevicesAndForeignPodsTheLowestFreeOnes() {
    cache.putNode(TestNodes.node("n1").cpu("64").gpu(8).build());
    cache.putPod(TestPods.pod("ns/ours").gpu(2).onNode("n1").annotation(GpuAnnotations.DEVICES, "0,1").build());
    cache.putPod(TestPods.pod("ns/theirs").gpu(2).scheduler("default-scheduler").onNode("n1").build());
    // 0,1 annotated; the foreign pod is assumed to hold the lowest free: 2,3.
    assertEquals("4,5,6,7", node().freeDevices().format());
    assertEquals(8, node().gpus().size());
    assertEquals(true, node().gpus().isUniform(), "no topology annotation: uniform");
  }

  @Test
  void sharesAreCountedPerDeviceAndKeepWholePodsOff() {
    cache.putNode(TestNodes.node("n1").cpu("64").resource("metax-tech.com/gpu", "8").build());
    cache.putPod(TestPods.pod("ns/share").resource("metax-tech.com/sgpu", "1")
        .resource("metax-tech.com/vcore", "30").resource("metax-tech.com/vmemory", "4")
        .onNode("n1").annotation(GpuAnnotations.DEVICES, "3").build());
    NodeInfo n = node();
    assertEquals(1, n.deviceUsage().shares(3));
    assertEquals(30, n.deviceUsage().coresUsed(3));
    assertEquals(4096, n.deviceUsage().memoryUsedMiB(3));
    assertEquals("0,1,2,4,5,6,7", n.freeDevices().format(), "a shared device is not free for a whole-GPU pod");
  }

  @Test
  void aMalformedTopologyFallsBackToUniformInsteadOfFailing() {
    cache.putNode(TestNodes.node("n1").cpu("64").gpu(4)
        .annotation(GpuAnnotations.TOPOLOGY, "{\"devices\": 3}").build());
    assertEquals(4, node().gpus().size());
    assertEquals(true, node().gpus().isUniform());
  }

  @Test
  void aNodeOf128GpusHoldsClaimsAbove63() {
    cache.putNode(TestNodes.node("big").cpu("64").gpu(128).build());
    cache.putPod(TestPods.pod("ns/high").gpu(2).onNode("big").annotation(GpuAnnotations.DEVICES, "100,127").build());
    cache.putPod(TestPods.pod("ns/theirs").gpu(64).scheduler("default-scheduler").onNode("big").build());
    assertEquals(128, node().gpus().size());
    assertEquals(62, node().freeDevices().size(), "100 and 127 named, 0..63 assumed for the foreign pod");
    assertEquals(64, node().freeDevices().first());
    assertEquals(false, node().freeDevices().contains(100));
  }

  /**
   * A node claiming absurd device counts is bounded at GpuAnnotations.MAX_DEVICES, with warnings naming the node and
   * what it claimed: no 10^6 x 10^6 pair matrix, no 80,000-device topology.
   */
  @Test
  void aMillionGpusInAllocatableAndEightyThousandInAnAnnotationAreBoundedByName() {
    String metax = "[" + "{},".repeat(79_999) + "{}]"; // 240 KB, within the annotation size bound
    assertTimeoutPreemptively(java.time.Duration.ofSeconds(10), () -> {
      cache.putNode(TestNodes.node("huge").cpu("64").resource("metax-tech.com/gpu", "1000000")
          .annotation(GpuAnnotations.METAX_DEVICES, metax).build());
      assertEquals(GpuAnnotations.MAX_DEVICES, node().gpus().size());
    });
    assertEquals(List.of(
        "node huge: annotation metax-tech.com/node-gpu-devices: lists 80000 devices; at most 4096 GPUs per node are "
            + "supported; treating its GPUs as uniform",
        "node huge: allocatable lists 1000000 GPUs; at most 4096 GPUs per node are supported, so only the first "
            + "4096 are scheduled"), warnings);
  }

  @Test
  void removingAPodFreesItsDevices() {
    cache.putNode(TestNodes.node("n1").cpu("64").gpu(8).build());
    cache.putPod(TestPods.pod("ns/p").gpu(8).onNode("n1").annotation(GpuAnnotations.DEVICES, "0,1,2,3,4,5,6,7")
        .build());
    assertEquals("", node().freeDevices().format());
    cache.removePod("ns-p-uid");
    assertEquals("0,1,2,3,4,5,6,7", node().freeDevices().format());
  }

  @Test
  void podsPlacedByHamiSchedulerHoldWhatTheirHamiAnnotationsSayAndAMalformedOneIsIgnored() {
    String register = "[{\"id\":\"GPU-0\",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"H100\","
        + "\"health\":true},{\"id\":\"GPU-1\",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"H100\","
        + "\"health\":true},{\"id\":\"GPU-2\",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"H100\","
        + "\"health\":false},{\"id\":\"GPU-3\",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"H100\","
        + "\"health\":true}]";
    cache.putNode(TestNodes.node("n1").cpu("64").resource("nvidia.com/gpu", "40")
        .annotation(HamiFormat.NVIDIA_REGISTER, register).build());
    cache.putPod(TestPods.pod("ns/whole").gpu(1).scheduler("hami-scheduler").onNode("n1")
        .annotation("hami.io/vgpu-devices-allocated", "GPU-3,NVIDIA,81920,0:;").build());
    cache.putPod(TestPods.pod("ns/share").gpu(1).resource("nvidia.com/gpucores", "30").scheduler("hami-scheduler")
        .onNode("n1").annotation("hami.io/vgpu-devices-allocated", "GPU-1,NVIDIA,4096,30:;").build());
    NodeInfo n = node();
    assertEquals("GPU-1", n.gpus().device(1).uuid());
    assertEquals("0", n.freeDevices().format(), "3 whole, 1 shared, 2 unhealthy");
    assertEquals(30, n.deviceUsage().coresUsed(1));
    assertEquals(4096, n.deviceUsage().memoryUsedMiB(1));
    cache.putPod(TestPods.pod("ns/bad").gpu(1).scheduler("hami-scheduler").onNode("n1")
        .annotation("hami.io/vgpu-devices-allocated", "GPU-0,NVIDIA,oops").build());
    assertEquals("", node().freeDevices().format(), "named, ignored, and the pod assumed on the lowest free GPU");
    assertEquals(List.of("pod ns/bad on node n1: annotation hami.io/vgpu-devices-allocated: container 0: "
        + "'GPU-0,NVIDIA,oops' is not UUID,TYPE,MEMORY,CORES; assuming it holds the lowest free 1 GPU"),
        warnings);
  }

  @Test
  void hamiVgpusInAllocatableAreNoMismatchWhenBasaltsTopologyIsReadInstead() {
    String register = "[{\"id\":\"GPU-0\",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"H100\","
        + "\"health\":true},{\"id\":\"GPU-1\",\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"H100\","
        + "\"health\":true}]";
    String topology = "{\"devices\":[{\"index\":0,\"uuid\":\"GPU-0\"},{\"index\":1,\"uuid\":\"GPU-1\"}],"
        + "\"links\":[[\"X\",\"NV4\"],[\"NV4\",\"X\"]]}";
    cache.putNode(TestNodes.node("n1").cpu("64").resource("nvidia.com/gpu", "20")
        .annotation(HamiFormat.NVIDIA_REGISTER, register).annotation(GpuAnnotations.TOPOLOGY, topology).build());
    cache.putNode(TestNodes.node("n2").cpu("64").resource("nvidia.com/gpu", "20")
        .annotation(GpuAnnotations.TOPOLOGY, topology).build());
    cache.putNode(TestNodes.node("n3").cpu("64").resource("nvidia.com/gpu", "3")
        .annotation(GpuAnnotations.TOPOLOGY, topology).build());
    cache.snapshot();
    assertEquals(List.of("node n3: topology lists 2 GPUs but allocatable says 3"), warnings,
        "20 = 2 GPUs of 10 vGPUs (HAMi's plugin, or HAMi's default split stated in Basalt's topology); 3 is a "
            + "mismatch");
  }
}
