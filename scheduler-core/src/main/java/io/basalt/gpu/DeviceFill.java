package io.basalt.gpu;

import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;

/**
 * How full a node's GPUs are, counted in physical devices rather than in the resource the node advertises. On a HAMi
 * node {@code nvidia.com/gpu} is GPUs x 10 vGPU slots, so a node whose eight GPUs are all held by whole-GPU pods shows
 * 8 of 80 used; scorers that want to pack or balance GPUs read this instead.
 *
 * <p>A device held whole (or reported unhealthy) is full; a shared device is as full as its larger fraction, compute
 * ({@code cores / 100}) or memory (when the device's memory is known). A request fills {@code n} devices for {@code n}
 * whole GPUs, and for a share its compute fraction of one device (its memory fraction when it asks memory only).
 *
 * <p>Resource slots are resolved when built, so build one per session ({@link #resolve()}); reading allocates nothing.
 */
public final class DeviceFill {
  private final int[] wholeSlots;
  private final int nvidiaCores;
  private final int metaxCores;
  private final int nvidiaMemory;
  private final int metaxMemory;
  private final int metaxShares;

  private DeviceFill() {
    wholeSlots = GpuResources.DEFAULT.stream().mapToInt(ResourceNames::indexIfKnown).filter(i -> i >= 0).toArray();
    nvidiaCores = ResourceNames.indexIfKnown(GpuResources.NVIDIA_CORES);
    metaxCores = ResourceNames.indexIfKnown(GpuResources.METAX_VCORE);
    nvidiaMemory = ResourceNames.indexIfKnown(GpuResources.NVIDIA_MEMORY_MIB);
    metaxMemory = ResourceNames.indexIfKnown(GpuResources.METAX_VMEMORY_GIB);
    metaxShares = ResourceNames.indexIfKnown(GpuResources.METAX_SGPU);
  }

  /** Resolves the GPU resources' slots as the session knows them (a name no pod or node used has none). */
  public static DeviceFill resolve() {
    return new DeviceFill();
  }

  /** True when {@code request} asks for whole GPUs or a share of one. */
  public boolean asksGpu(ResourceVector request) {
    return whole(request) > 0 || isShare(request);
  }

  /**
   * The fraction of the node's devices in use once {@code request} is placed there (above 1 when it asks for more
   * than is left), or NaN when the node reports no devices.
   */
  public double after(ResourceVector request, GpuTopology gpus, DeviceUsage usage) {
    if (gpus == null || usage == null || gpus.size() == 0) {
      return Double.NaN;
    }
    double used = used(gpus, usage);
    if (isShare(request)) {
      used += shareDemand(request, gpus);
    } else {
      used += whole(request);
    }
    return used / gpus.size();
  }

  /** The fraction of the node's devices in use now, or NaN when it reports none. */
  public static double now(GpuTopology gpus, DeviceUsage usage) {
    if (gpus == null || usage == null || gpus.size() == 0) {
      return Double.NaN;
    }
    return used(gpus, usage) / gpus.size();
  }

  /** Devices in use: 1 per device held whole, each shared device by its fuller dimension. */
  static double used(GpuTopology gpus, DeviceUsage usage) {
    int n = gpus.size();
    DeviceSet held = usage.exclusive();
    int whole = 0;
    for (int d = held.first(); d >= 0 && d < n; d = held.next(d + 1)) {
      whole++;
    }
    double sum = whole;
    for (int d = 0; d < n; d++) {
      if (held.contains(d) || usage.shares(d) == 0) {
        continue;
      }
      double fill = usage.coresUsed(d) / 100.0;
      long memory = gpus.device(d).memoryMiB();
      if (memory > 0) {
        fill = Math.max(fill, (double) usage.memoryUsedMiB(d) / memory);
      }
      sum += Math.min(1.0, fill);
    }
    return sum;
  }

  private long whole(ResourceVector request) {
    long k = 0;
    for (int slot : wholeSlots) {
      k += request.get(slot);
    }
    return k;
  }

  private boolean isShare(ResourceVector request) {
    return get(request, nvidiaCores) > 0 || get(request, metaxCores) > 0 || get(request, nvidiaMemory) > 0
        || get(request, metaxMemory) > 0 || get(request, metaxShares) > 0;
  }

  /** A share's part of one device: its compute, or its memory against the node's first device when it asks none. */
  private double shareDemand(ResourceVector request, GpuTopology gpus) {
    long cores = Math.max(get(request, nvidiaCores), get(request, metaxCores));
    if (cores > 0) {
      return Math.min(1.0, cores / 100.0);
    }
    long memoryMiB = Math.max(get(request, nvidiaMemory), get(request, metaxMemory) * 1024);
    long deviceMiB = gpus.device(0).memoryMiB();
    return memoryMiB > 0 && deviceMiB > 0 ? Math.min(1.0, (double) memoryMiB / deviceMiB) : 0;
  }

  private static long get(ResourceVector request, int slot) {
    return slot < 0 ? 0 : request.get(slot);
  }
}
