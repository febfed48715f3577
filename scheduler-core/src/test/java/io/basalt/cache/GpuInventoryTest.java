package io.basalt.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.api.NodeInfo;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.testing.TestNodes;
import io.basalt.testing.TestPods;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GpuInventoryTest {
  private final ClusterCache cache = new ClusterCache(Set.of("basalt-scheduler"), "default");

  private NodeInfo node() {
    return cache.snapshot().nodes().get(0);
  }

  @Test
  void annotatedPodsHoldTheirDevicesAndForeignPodsTheLowestFreeOnes() {
    cache.putNode(TestNodes.node("n1").cpu("64").gpu(8).build());
    cache.putPod(TestPods.pod("ns/ours").gpu(2).onNode("n1").annotation(GpuAnnotations.DEVICES, "0,1").build());
    cache.putPod(TestPods.pod("ns/theirs").gpu(2).scheduler("default-scheduler").onNode("n1").build());
    // 0,1 annotated; the foreign pod is assumed to hold the lowest free: 2,3.
    assertEquals(0b1111_0000L, node().freeDevices());
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
    assertEquals(0b1111_0111L, n.freeDevices(), "a shared device is not free for a whole-GPU pod");
  }

  @Test
  void aMalformedTopologyFallsBackToUniformInsteadOfFailing() {
    cache.putNode(TestNodes.node("n1").cpu("64").gpu(4)
        .annotation(GpuAnnotations.TOPOLOGY, "{\"devices\": 3}").build());
    assertEquals(4, node().gpus().size());
    assertEquals(true, node().gpus().isUniform());
  }

  @Test
  void removingAPodFreesItsDevices() {
    cache.putNode(TestNodes.node("n1").cpu("64").gpu(8).build());
    cache.putPod(TestPods.pod("ns/p").gpu(8).onNode("n1").annotation(GpuAnnotations.DEVICES, "0,1,2,3,4,5,6,7")
        .build());
    assertEquals(0, node().freeDevices());
    cache.removePod("ns-p-uid");
    assertEquals(0xFFL, node().freeDevices());
  }
}
