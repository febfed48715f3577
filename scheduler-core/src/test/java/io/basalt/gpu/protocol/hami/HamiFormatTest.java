package io.basalt.gpu.protocol.hami;

import io.basalt.gpu.GpuTopology;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HAMi's annotation formats, byte for byte as HAMi's scheduler writes them and its device plugins read them. */
class HamiFormatTest {
  @Test
  void containersAreSemicolonTerminatedAndDevicesColonTerminated() {
    List<List<HamiFormat.Entry>> pod = List.of(List.of(),
        List.of(new HamiFormat.Entry("GPU-a", "NVIDIA", 81920, 0), new HamiFormat.Entry("GPU-b", "NVIDIA", 81920, 0)),
        List.of(new HamiFormat.Entry("GPU-c", "NVIDIA", 4096, 30)));
    String text = HamiFormat.encode(pod);
    assertEquals(";GPU-a,NVIDIA,81920,0:GPU-b,NVIDIA,81920,0:;GPU-c,NVIDIA,4096,30:;", text);
    assertEquals(pod, HamiFormat.decode("x", text));
  }

  @Test
  void malformedEntriesNameTheAnnotationAndContainer() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HamiFormat.decode("hami.io/vgpu-devices-allocated", "GPU-a,NVIDIA,lots,0:;"));
    assertEquals("annotation hami.io/vgpu-devices-allocated: container 0: memory 'lots' is not a whole number",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> HamiFormat.decode("a", ";GPU-a,NVIDIA:;"));
    assertTrue(e.getMessage().contains("container 1: 'GPU-a,NVIDIA' is not UUID,TYPE,MEMORY,CORES"), e.getMessage());
  }

  @Test
  void metaxKeepsItsOwnJsonPerContainer() {
    assertEquals("[[{\"uuid\":\"GPU-mx-0\",\"compute\":60,\"vRam\":4096}]]",
        HamiFormat.encodeMetax(List.of(List.of(new HamiFormat.Entry("GPU-mx-0", "Metax-SGPU", 4096, 60)))));
  }

  @Test
  void theNodeRegisterIsReadAsJsonOrInTheOlderColonList() {
    List<HamiFormat.Registered> json = HamiFormat.parseRegister("[{\"id\":\"GPU-0\",\"count\":10,\"devmem\":81920,"
        + "\"devcore\":100,\"type\":\"NVIDIA-H100\",\"numa\":0,\"health\":true,\"mode\":\"hami-core\"},"
        + "{\"id\":\"GPU-1\",\"index\":1,\"count\":10,\"devmem\":81920,\"devcore\":100,\"type\":\"NVIDIA-H100\"}]");
    assertEquals(List.of(new HamiFormat.Registered("GPU-0", 10, 81920, 100, "NVIDIA-H100", true),
        new HamiFormat.Registered("GPU-1", 10, 81920, 100, "NVIDIA-H100", false)), json);
    List<HamiFormat.Registered> legacy = HamiFormat.parseRegister(
        "GPU-0,10,32768,100,NVIDIA-Tesla V100,0,true:GPU-1,10,32768,100,NVIDIA-Tesla V100,0,true,1,hami-core:");
    assertEquals(2, legacy.size());
    assertEquals(new HamiFormat.Registered("GPU-1", 10, 32768, 100, "NVIDIA-Tesla V100", true), legacy.get(1));
    GpuTopology t = HamiFormat.topology(json);
    assertEquals(1, t.indexOf("GPU-1"));
    assertEquals("1", t.unhealthy().format(), "a device without health:true is never handed out");
    assertThrows(IllegalArgumentException.class, () -> HamiFormat.parseRegister("GPU-0,10,abc,100,T,0,true:"));
    assertThrows(IllegalArgumentException.class, () -> HamiFormat.parseRegister("[{\"count\":1}]"));
  }

  @Test
  void theNodeLockIsAnRfc3339TimeNamespaceAndPod() {
    Instant t = Instant.parse("2026-05-01T10:00:00Z");
    String value = HamiFormat.lockValue(t, "ml", "train-0");
    assertEquals("2026-05-01T10:00:00Z,ml,train-0", value);
    assertEquals(new HamiFormat.Lock(t, "ml", "train-0"), HamiFormat.parseLock(value));
    assertEquals(new HamiFormat.Lock(t, "", ""), HamiFormat.parseLock("2026-05-01T12:00:00+02:00"));
    assertThrows(IllegalArgumentException.class, () -> HamiFormat.parseLock("yesterday,ml,p"));
    assertFalse(HamiBinding.needsLock(java.util.Map.of(HamiVendor.METAX_GPU.toAllocate(), "x")));
  }
}
