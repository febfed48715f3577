package io.basalt.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.basalt.model.ResourceVector;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceFillTest {
  private static final double EXACT = 1e-9;

  /** Four 80 GiB GPUs. */
  private static GpuTopology four() {
    List<GpuDevice> d = List.of(new GpuDevice(0, "", "A100", 81920), new GpuDevice(1, "", "A100", 81920),
        new GpuDevice(2, "", "A100", 81920), new GpuDevice(3, "", "A100", 81920));
    return new GpuTopology(d, new int[4][4], true);
  }

  @Test
  void wholeGpusAndSharesCountByDevice() {
    ResourceVector whole = ResourceVector.builder().add("nvidia.com/gpu", 2).build();
    ResourceVector share = ResourceVector.builder().add("nvidia.com/gpu", 1).add("nvidia.com/gpucores", 25).build();
    DeviceFill fill = DeviceFill.resolve();
    DeviceUsage usage = new DeviceUsage(4);
    usage.add(DeviceClaim.whole(DeviceSet.of(0)), 1);
    usage.add(DeviceClaim.share(1, 50, 1024), 1);
    // Held: 1 whole + 0.5 of a share = 1.5 of 4.
    assertEquals(1.5 / 4, DeviceFill.now(four(), usage), EXACT);
    assertEquals(3.5 / 4, fill.after(whole, four(), usage), EXACT);
    assertEquals(1.75 / 4, fill.after(share, four(), usage), EXACT);
    assertTrue(fill.asksGpu(whole) && fill.asksGpu(share));
    assertFalse(fill.asksGpu(ResourceVector.builder().add("cpu", 1000).build()));
  }

  @Test
  void aShareIsAsFullAsItsFullerDimension() {
    // 10% of compute but 60 GiB of 80: the device is 0.75 full; a memory-only share of 20 GiB adds 0.25.
    DeviceUsage usage = new DeviceUsage(4);
    usage.add(DeviceClaim.share(2, 10, 61440), 1);
    ResourceVector memoryOnly = ResourceVector.builder().add("nvidia.com/gpumem", 20480).build();
    assertEquals(0.75 / 4, DeviceFill.now(four(), usage), EXACT);
    assertEquals(1.0 / 4, DeviceFill.resolve().after(memoryOnly, four(), usage), EXACT);
  }

  @Test
  void moreThanTheNodeHasIsAboveOneAndNoDevicesIsNaN() {
    ResourceVector eight = ResourceVector.builder().add("nvidia.com/gpu", 8).build();
    assertEquals(2.0, DeviceFill.resolve().after(eight, four(), new DeviceUsage(4)), EXACT);
    assertTrue(Double.isNaN(DeviceFill.resolve().after(eight, null, null)));
  }
}
