package io.basalt.gpu;

import io.basalt.gpu.protocol.hami.HamiFormat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The node annotations' parsers on the inputs of the hardening issue: one clear error each, never Gson's. */
class GpuAnnotationsTest {
  private static String problem(String annotation, String value) {
    return assertThrows(IllegalArgumentException.class, () -> io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(annotation, value)))
        .getMessage();
  }

  @Test
  void aNullIndexIsNamed() {
    assertEquals("annotation basalt.io/gpu-topology: devices[0].index: missing, expected 0",
        problem(GpuAnnotations.TOPOLOGY, "{\"devices\":[{\"index\":null}],\"links\":[[\"X\"]]}"));
    assertEquals("annotation basalt.io/gpu-topology: devices[0].index: '0.5' is not a whole number",
        problem(GpuAnnotations.TOPOLOGY, "{\"devices\":[{\"index\":0.5}],\"links\":[[\"X\"]]}"));
  }

  @Test
  void aUuidThatIsAnObjectIsNamed() {
    assertEquals("annotation basalt.io/gpu-topology: devices[0].uuid: must be a string, not an object",
        problem(GpuAnnotations.TOPOLOGY, "{\"devices\":[{\"index\":0,\"uuid\":{\"a\":1}}],\"links\":[[\"X\"]]}"));
  }

  @Test
  void aLinkCodeThatIsNotAStringIsNamed() {
    assertEquals("annotation basalt.io/gpu-topology: links[0][1]: a link code must be a string, not null",
        problem(GpuAnnotations.TOPOLOGY, "{\"devices\":[{\"index\":0},{\"index\":1}],\"links\":[[\"X\",null],"
            + "[\"PHB\",\"X\"]]}"));
    assertEquals("annotation basalt.io/gpu-topology: links[0][1]: link code 'NV99999999' has more than 1000 lanes",
        problem(GpuAnnotations.TOPOLOGY, "{\"devices\":[{\"index\":0},{\"index\":1}],\"links\":[[\"X\","
            + "\"NV99999999\"],[\"NV99999999\",\"X\"]]}"));
  }

  @Test
  void aMetaxLinkZoneThatIsAnObjectIsNamed() {
    assertEquals("annotation metax-tech.com/node-gpu-devices: device 0.linkZone: must be a whole number, not an "
        + "object", problem(GpuAnnotations.METAX_DEVICES, "[{\"uuid\":\"a\",\"linkZone\":{\"x\":1}}]"));
    assertEquals("annotation metax-tech.com/node-gpu-devices: device 1.totalVRam: -1 is out of range 0.."
        + Long.MAX_VALUE, problem(GpuAnnotations.METAX_DEVICES, "[{},{\"totalVRam\":-1}]"));
  }

  /** 60,000 devices once made a 60,000 x 60,000 matrix (14 GB) before the device-count check. */
  @Test
  void sixtyThousandDevicesAreRefusedBeforeAnyMatrixIsMade() {
    String metax = "[" + "{},".repeat(59_999) + "{}]";
    String hami = "[" + "{\"id\":\"g\"},".repeat(19_999) + "{\"id\":\"g\"}]"; // 220 KB, within the size bound
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
      assertEquals("annotation metax-tech.com/node-gpu-devices: lists 60000 devices; at most 4096 GPUs per node are "
          + "supported", problem(GpuAnnotations.METAX_DEVICES, metax));
      assertEquals("annotation hami.io/node-nvidia-register: lists 20000 devices; at most 4096 GPUs per node are "
          + "supported", problem(HamiFormat.NVIDIA_REGISTER, hami));
    });
  }

  @Test
  void aValueLongerThanKubernetesAllowsIsNotParsed() {
    String huge = "[" + " ".repeat(GpuAnnotations.MAX_CHARS) + "]";
    assertEquals("annotation metax-tech.com/node-gpu-devices: " + huge.length() + " characters, more than the "
        + "262144 all of a node's annotations may have", problem(GpuAnnotations.METAX_DEVICES, huge));
  }

  @Test
  void claimsAreDistinctIndicesOfTheNodesGpus() {
    assertEquals(DeviceSet.of(2, 3), GpuAnnotations.claim(" 2, 3", 4));
    assertEquals("'1,1' names GPU 1 twice",
        assertThrows(IllegalArgumentException.class, () -> GpuAnnotations.claim("1,1", 8)).getMessage());
    assertEquals("'8' names GPU 8, but the node has 8 GPUs (0..7)",
        assertThrows(IllegalArgumentException.class, () -> GpuAnnotations.claim("8", 8)).getMessage());
    assertEquals("'' is not a list of GPU indices (e.g. \"2,3\")",
        assertThrows(IllegalArgumentException.class, () -> GpuAnnotations.claim("", 8)).getMessage());
  }

  @Test
  void wellFormedAnnotationsStillParse() {
    GpuTopology t = io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(GpuAnnotations.TOPOLOGY, "{\"devices\":[{\"index\":0,\"uuid\":"
        + "\"GPU-a\",\"memoryMiB\":81920},{\"index\":1,\"uuid\":\"GPU-b\"}],\"links\":[[\"X\",\"NV18\"],"
        + "[\"NV18\",\"X\"]]}"));
    assertEquals(1800, t.score(0, 1));
    assertEquals(81920, t.device(0).memoryMiB());
    GpuTopology m = io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(GpuAnnotations.METAX_DEVICES,
        "[{\"uuid\":\"a\",\"linkZone\":1,\"totalVRam\":65536},{\"uuid\":\"b\",\"linkZone\":1},{\"uuid\":\"c\"}]"));
    assertEquals(100, m.score(0, 1));
    assertEquals(30, m.score(0, 2));
    assertEquals(65536, m.device(0).memoryMiB());
  }
}
