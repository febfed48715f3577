package io.basalt.app.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuDevice;
import io.basalt.gpu.GpuTopology;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The annotation built from both outputs reads back, through the scheduler's reader, as what nvidia-smi said. */
class TopologyAnnotationTest {
  private static final String TOPO = "nvidia-smi topo -m";
  private static final String QUERY = "nvidia-smi --query-gpu=index,uuid,name,memory.total --format=csv,noheader";

  static TopologyAnnotation build(String machine) throws SmiOutputException {
    return TopologyAnnotation.of(GpuQueryParser.parse(Captures.read(machine + "-query.csv"), QUERY),
        TopoMatrixParser.parse(Captures.read(machine + "-topo.txt"), TOPO), TOPO, QUERY);
  }

  /** Every pair's score as GpuTopology ranks the code nvidia-smi printed, and the devices as queried. */
  static void assertReadsBackAs(String machine, String json) throws SmiOutputException {
    List<List<String>> codes = TopoMatrixParser.parse(Captures.read(machine + "-topo.txt"), TOPO);
    List<GpuDevice> devices = GpuQueryParser.parse(Captures.read(machine + "-query.csv"), QUERY);
    GpuTopology t = io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(GpuAnnotations.TOPOLOGY, json));
    assertEquals(devices, t.devices());
    for (int i = 0; i < codes.size(); i++) {
      for (int j = 0; j < codes.size(); j++) {
        assertEquals(GpuTopology.pairScore(codes.get(i).get(j)), t.score(i, j), machine + " " + i + "," + j);
      }
    }
  }

  @Test
  void eachCaptureReadsBackToTheSameScoresAndDevices() throws Exception {
    for (String machine : List.of("dgx-h100", "pcie-2socket", "nvlink-pairs-4gpu")) {
      TopologyAnnotation a = build(machine);
      assertReadsBackAs(machine, a.json());
    }
    GpuTopology dgx = io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(GpuAnnotations.TOPOLOGY, build("dgx-h100").json()));
    assertEquals(1800, dgx.score(0, 7));
    GpuTopology pairs = io.basalt.gpu.protocol.DeviceProtocols.topology(Map.of(GpuAnnotations.TOPOLOGY, build("nvlink-pairs-4gpu").json()));
    assertEquals(1200, pairs.score(2, 3));
    assertEquals(20, pairs.score(1, 2));
  }

  @Test
  void theJsonIsWhatGpuAnnotationsFormatWrites() throws Exception {
    TopologyAnnotation a = build("nvlink-pairs-4gpu");
    assertEquals(4, a.gpus());
    assertTrue(a.json().startsWith("{\"devices\":[{\"index\":0,\"uuid\":\"GPU-907a70c3-1012-4037-b64c-e4228c38fb29\","
        + "\"model\":\"NVIDIA-A100-80GB-PCIe\",\"memoryMiB\":81920},"), a.json());
    assertEquals(",\"links\":[[\"X\",\"NV12\",\"NODE\",\"NODE\"],[\"NV12\",\"X\",\"NODE\",\"NODE\"],"
        + "[\"NODE\",\"NODE\",\"X\",\"NV12\"],[\"NODE\",\"NODE\",\"NV12\",\"X\"]]}",
        a.json().substring(a.json().indexOf(",\"links\"")));
  }

  /**
   * Captured unchanged from a real machine (one H200, driver 580.159.04, 2026-11-27): a one-GPU matrix whose only
   * link is to itself, the header underlined, the NUMA columns and an empty cell before {@code N/A}. The annotation
   * is exactly what {@code basalt topology-agent --print} printed there (docs/GPU.md).
   */
  @Test
  void aRealSingleH200ReadsAsOneDeviceLinkedOnlyToItself() throws Exception {
    TopologyAnnotation a = build("h200-1gpu");
    assertEquals(1, a.gpus());
    assertEquals("{\"devices\":[{\"index\":0,\"uuid\":\"GPU-d85c373b-e725-06d6-3b44-40588716a515\","
        + "\"model\":\"NVIDIA-H200\",\"memoryMiB\":143771}],\"links\":[[\"X\"]]}", a.json());
    assertReadsBackAs("h200-1gpu", a.json());
  }

  @Test
  void bothOutputsMustAgreeOnTheGpuCount() {
    SmiOutputException e = assertThrows(SmiOutputException.class, () -> TopologyAnnotation.of(
        GpuQueryParser.parse(Captures.read("nvlink-pairs-4gpu-query.csv"), QUERY),
        TopoMatrixParser.parse(Captures.read("dgx-h100-topo.txt"), TOPO), TOPO, QUERY));
    assertEquals("output of `nvidia-smi topo -m`: lists 8 GPUs but `" + QUERY + "` lists 4; both must describe the "
        + "same GPUs", e.getMessage());
  }
}
