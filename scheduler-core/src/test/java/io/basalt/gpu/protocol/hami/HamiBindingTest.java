package io.basalt.gpu.protocol.hami;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.protocol.DeviceProtocols;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.basalt.model.ContainerRequest;
import io.basalt.model.Pod;
import io.basalt.model.ResourceVector;
import io.basalt.testing.TestPods;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The annotations a binding writes in HAMi's protocol, for the pod kinds of issue 16, exactly. */
class HamiBindingTest {
  static final String REGISTER = "[" + String.join(",", List.of(dev(0), dev(1), dev(2), dev(3))) + "]";
  static final Map<String, String> NVIDIA_NODE = Map.of(HamiFormat.NVIDIA_REGISTER, REGISTER);
  static final String METAX = "[{\"uuid\":\"GPU-mx-0\",\"model\":\"MXC500\",\"totalVRam\":65536,\"linkZone\":1},"
      + "{\"uuid\":\"GPU-mx-1\",\"model\":\"MXC500\",\"totalVRam\":65536,\"linkZone\":1}]";
  static final Map<String, String> METAX_NODE = Map.of(GpuAnnotations.METAX_DEVICES, METAX);

  private static String dev(int i) {
    return "{\"id\":\"GPU-" + i + "\",\"index\":" + i + ",\"count\":10,\"devmem\":81920,\"devcore\":100,"
        + "\"type\":\"NVIDIA-H100\",\"health\":true}";
  }

  static ContainerRequest container(String name, boolean init, String... resources) {
    ResourceVector.Builder b = ResourceVector.builder();
    for (int i = 0; i < resources.length; i += 2) {
      b.add(resources[i], Long.parseLong(resources[i + 1]));
    }
    return new ContainerRequest(name, init, b.build());
  }

  static Pod pod(ContainerRequest... containers) {
    Pod p = TestPods.pod("ml/p").build();
    return new Pod(p.uid(), p.namespace(), p.name(), p.schedulerName(), p.nodeName(), p.phase(), p.terminating(),
        p.priority(), p.priorityClassName(), p.preemptionPolicy(), p.request(), p.labels(), p.annotations(),
        p.nodeSelector(), p.requiredNodeAffinity(), p.tolerations(), p.creationTimestamp(), p.groupName(),
        p.controller(), List.of(containers));
  }

  private static Map<String, String> annotations(Pod pod, Map<String, String> node, DeviceClaim claim) {
    return annotations(pod, node, DeviceProtocols.topology(node), claim, DeviceProtocols.AUTO);
  }

  private static Map<String, String> annotations(Pod pod, Map<String, String> node, GpuTopology t, DeviceClaim claim,
      DeviceProtocols settings) {
    return HamiBinding.annotations(pod, "n1", t, claim, r -> settings.speaks(DeviceProtocols.HAMI, r, node));
  }

  @Test
  void aWholeGpuPod() {
    Map<String, String> a = annotations(pod(container("c", false, "nvidia.com/gpu", "1")), NVIDIA_NODE,
        DeviceClaim.whole(DeviceSet.parse("1")));
    assertEquals(Map.of("hami.io/vgpu-devices-to-allocate", "GPU-1,NVIDIA,81920,0:;",
        "hami.io/vgpu-devices-allocated", "GPU-1,NVIDIA,81920,0:;", "hami.io/vgpu-node", "n1"), a);
    assertEquals(true, HamiBinding.needsLock(a));
  }

  @Test
  void aTwoGpuPodGetsTheDevicesTopologyChose() {
    Map<String, String> a = annotations(pod(container("c", false, "nvidia.com/gpu", "2")), NVIDIA_NODE,
        DeviceClaim.whole(DeviceSet.parse("2,3")));
    assertEquals("GPU-2,NVIDIA,81920,0:GPU-3,NVIDIA,81920,0:;", a.get("hami.io/vgpu-devices-to-allocate"));
  }

  @Test
  void aThirtyPercentFourGibShare() {
    Map<String, String> a = annotations(pod(container("c", false, "nvidia.com/gpu", "1", "nvidia.com/gpucores", "30",
        "nvidia.com/gpumem", "4096")), NVIDIA_NODE, DeviceClaim.share(0, 30, 4096));
    assertEquals("GPU-0,NVIDIA,4096,30:;", a.get("hami.io/vgpu-devices-allocated"));
  }

  @Test
  void aTwoContainerPodAfterAnInitContainerWithoutGpus() {
    Map<String, String> a = annotations(pod(container("setup", true, "cpu", "1000"),
        container("a", false, "nvidia.com/gpu", "1"), container("b", false, "nvidia.com/gpu", "2")), NVIDIA_NODE,
        DeviceClaim.whole(DeviceSet.parse("0,2,3")));
    assertEquals(";GPU-0,NVIDIA,81920,0:;GPU-2,NVIDIA,81920,0:GPU-3,NVIDIA,81920,0:;",
        a.get("hami.io/vgpu-devices-to-allocate"));
  }

  @Test
  void theMetaxSgpuPodOfTheGuide() {
    Map<String, String> a = annotations(pod(container("c", false, "metax-tech.com/sgpu", "1",
        "metax-tech.com/vcore", "60", "metax-tech.com/vmemory", "4")), METAX_NODE, DeviceClaim.share(1, 60, 4096));
    assertEquals(Map.of("hami.io/metax-sgpu-devices-to-allocate", "GPU-mx-1,Metax-SGPU,4096,60:;",
        "hami.io/metax-sgpu-devices-allocated", "GPU-mx-1,Metax-SGPU,4096,60:;",
        "metax-tech.com/gpu-devices-allocated", "[[{\"uuid\":\"GPU-mx-1\",\"compute\":60,\"vRam\":4096}]]",
        "hami.io/vgpu-node", "n1"), a);
    Map<String, String> stamped = HamiBinding.stamp(a, Instant.ofEpochSecond(1_780_000_000L, 5));
    assertEquals("1780000000", stamped.get("hami.io/bind-time"));
    assertEquals("1780000000", stamped.get("hami.io/vgpu-time"));
    assertEquals("allocating", stamped.get("hami.io/bind-phase"));
    assertEquals("1780000000000000005", stamped.get("metax-tech.com/predicate-time"));
  }

  @Test
  void metaxWholeGpusUseHamisNodeScopedIdsAndTakeNoLock() {
    Map<String, String> a = annotations(pod(container("c", false, "metax-tech.com/gpu", "1")), METAX_NODE,
        DeviceClaim.whole(DeviceSet.parse("1")));
    assertEquals("n1-metax-1,Metax-GPU,65536,100:;", a.get("hami.io/metax-gpu-devices-to-allocate"));
    assertEquals(false, HamiBinding.needsLock(a));
  }

  @Test
  void theBasaltProtocolOrANodeWithoutHamiWritesNothingOfHamis() {
    Pod p = pod(container("c", false, "nvidia.com/gpu", "1"));
    DeviceClaim claim = DeviceClaim.whole(DeviceSet.parse("1"));
    assertEquals(Map.of(), annotations(p, NVIDIA_NODE, DeviceProtocols.topology(NVIDIA_NODE), claim,
        new DeviceProtocols(DeviceProtocols.Mode.BASALT, Map.of())));
    Map<String, String> plain = Map.of();
    assertEquals(Map.of(), annotations(p, plain, GpuTopology.uniform(4), claim, DeviceProtocols.AUTO));
    assertEquals(Map.of(), annotations(p, plain, GpuTopology.uniform(4), claim,
        new DeviceProtocols(DeviceProtocols.Mode.HAMI, Map.of())), "no UUIDs: HAMi's plugin could not find them");
    DeviceProtocols perResource = DeviceProtocols.AUTO.with(Map.of("nvidia.com/gpu", "basalt"));
    assertEquals(false, perResource.speaks(DeviceProtocols.HAMI, HamiVendor.NVIDIA.resource(), NVIDIA_NODE));
    assertEquals(true, perResource.speaks(DeviceProtocols.HAMI, HamiVendor.METAX_SGPU.resource(), METAX_NODE));
    assertEquals(true, perResource.speaks(DeviceProtocols.BASALT, HamiVendor.NVIDIA.resource(), NVIDIA_NODE),
        "Basalt's record is written whatever else speaks");
  }

  @Test
  void hamiAllocatedAnnotationsBecomeClaims() {
    GpuTopology t = DeviceProtocols.topology(NVIDIA_NODE);
    Map<String, String> pod = Map.of("hami.io/vgpu-devices-allocated",
        "GPU-0,NVIDIA,81920,0:;GPU-1,NVIDIA,4096,30:;GPU-1,NVIDIA,2048,20:;");
    assertEquals(List.of(DeviceClaim.whole(DeviceSet.parse("0")), DeviceClaim.share(1, 50, 6144)),
        HamiClaims.of(pod, t, "n1", 0));
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> HamiClaims.of(Map.of("hami.io/vgpu-devices-allocated", "GPU-9,NVIDIA,1,1:;"), t, "n1", 0));
    assertEquals("annotation hami.io/vgpu-devices-allocated: device GPU-9 is not among the node's 4 GPUs",
        e.getMessage());
    e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> HamiClaims.of(Map.of("hami.io/vgpu-devices-allocated", ";;"), t, "n1", 0));
    assertEquals("annotation hami.io/vgpu-devices-allocated: lists no devices", e.getMessage(),
        "HAMi never writes an empty one: the devices are unknown, not none");
  }
}
