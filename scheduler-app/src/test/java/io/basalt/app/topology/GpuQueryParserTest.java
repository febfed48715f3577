package io.basalt.app.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.gpu.GpuDevice;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code nvidia-smi --query-gpu=index,uuid,name,memory.total --format=csv,noheader}. */
class GpuQueryParserTest {
  private static final String SRC = "nvidia-smi --query-gpu=index,uuid,name,memory.total --format=csv,noheader";

  private static List<GpuDevice> parse(String text) throws SmiOutputException {
    return GpuQueryParser.parse(text, SRC);
  }

  private static SmiOutputException failure(String text) {
    return assertThrows(SmiOutputException.class, () -> parse(text));
  }

  @Test
  void dgxH100() throws Exception {
    List<GpuDevice> d = parse(Captures.read("dgx-h100-query.csv"));
    assertEquals(8, d.size());
    assertEquals(new GpuDevice(0, "GPU-6513270e-269e-4d37-b2a7-4de452e6b438", "NVIDIA-H100-80GB-HBM3", 81559), d.get(0));
    assertEquals(new GpuDevice(7, "GPU-a170b338-3926-4059-b28c-105d1fb17c23", "NVIDIA-H100-80GB-HBM3", 81559), d.get(7));
  }

  @Test
  void pcieAndNvlinkPairMachines() throws Exception {
    List<GpuDevice> l40s = parse(Captures.read("pcie-2socket-query.csv"));
    assertEquals(8, l40s.size());
    assertEquals(new GpuDevice(4, "GPU-92276658-1e27-41c0-8a6a-63ec24ede6a4", "NVIDIA-L40S", 46068), l40s.get(4));
    List<GpuDevice> a100 = parse(Captures.read("nvlink-pairs-4gpu-query.csv"));
    assertEquals(4, a100.size());
    assertEquals(new GpuDevice(3, "GPU-ec66a787-95e7-41d1-b731-af10506bf2ef", "NVIDIA-A100-80GB-PCIe", 81920),
        a100.get(3));
  }

  @Test
  void headerRowCrlfBlankLinesUnknownValuesAndUnitsAreTolerated() throws Exception {
    List<GpuDevice> d = parse("index, uuid, name, memory.total [MiB]\r\n"
        + "0, GPU-a, NVIDIA  A100-SXM4-40GB, 40960 MiB\r\n\r\n"
        + "1, [N/A], [N/A], [Not Supported]\r\n"
        + "2, GPU-c, MXC500, 64 GiB\r\n"
        + "3, GPU-d, NVIDIA A10, 23028\r\n");
    assertEquals(List.of(new GpuDevice(0, "GPU-a", "NVIDIA-A100-SXM4-40GB", 40960), new GpuDevice(1, "", "", 0),
        new GpuDevice(2, "GPU-c", "MXC500", 65536), new GpuDevice(3, "GPU-d", "NVIDIA-A10", 23028)), d);
  }

  @Test
  void wrongFieldCountIsNamedByLine() {
    SmiOutputException e = failure("0, GPU-a, NVIDIA H100 80GB HBM3, 81559 MiB\n1, GPU-b, 81559 MiB\n");
    assertEquals(2, e.line());
    assertEquals("output of `" + SRC + "`, line 2: expected 4 comma-separated fields (index, uuid, name, "
        + "memory.total), found 3: '1, GPU-b, 81559 MiB'", e.getMessage());
  }

  @Test
  void indexMustCountFromZeroInOrder() {
    SmiOutputException e = failure("0, GPU-a, X, 1 MiB\n2, GPU-c, X, 1 MiB\n");
    assertEquals("output of `" + SRC + "`, line 2, column 1 (index): expected GPU index 1, found '2' (GPUs must be "
        + "listed once each, in index order)", e.getMessage());
  }

  @Test
  void memoryMustBeMiB() {
    SmiOutputException e = failure("0, GPU-a, NVIDIA H100, 80 GB\n");
    assertTrue(e.getMessage().endsWith("line 1, column 4 (memory.total): expected a size in MiB like '81559 MiB', "
        + "found '80 GB'"), e.getMessage());
  }

  @Test
  void emptyOutputListsNoGpus() {
    assertEquals("output of `" + SRC + "`: no GPUs listed", failure("\n\n").getMessage());
  }
}
