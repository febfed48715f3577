package io.basalt.gpu;

import io.basalt.model.ResourceVector;

/**
 * How much of one GPU a share holds, counted as HAMi's device plugins count it, including when the pod leaves compute
 * or memory out. A share that names no memory ({@code nvidia.com/gpucores} alone; {@code metax-tech.com/sgpu} without
 * {@code vmemory}) holds the device's whole memory: HAMi reads a missing {@code gpumem} as 100 percent of the device
 * (unless its {@code defaultMemory} is set, 0 by default), and MetaX sGPU a missing {@code vmemory} as 100 percent.
 * A MetaX share that names no {@code vcore} holds the whole compute (HAMi's MetaX default, 100); an NVIDIA share
 * without {@code gpucores} holds none (HAMi's {@code defaultCores}, 0). HAMi's annotations written for a share carry
 * these figures, so booking less than them let a second share onto a device its first share already filled.
 *
 * <p>Every reader of a share's size goes through here (the session's device guard, the plugins choosing a share's
 * device, the claims read back from pods, HAMi's annotations), so what Basalt books is what the device plugin counts.
 * A device whose memory is unknown (0) is limited by compute and share count only, as before.
 */
public final class ShareSize {
  /** HAMi's compute for a MetaX share without {@code vcore}: the whole device. */
  public static final int METAX_DEFAULT_CORES = 100;

  private ShareSize() {}

  /** Whether {@code request}'s share is MetaX's (any of sgpu, vcore, vmemory) rather than HAMi's NVIDIA form. */
  public static boolean metax(ResourceVector request) {
    return request.get(GpuResources.METAX_SGPU) > 0 || request.get(GpuResources.METAX_VCORE) > 0
        || request.get(GpuResources.METAX_VMEMORY_GIB) > 0;
  }

  /** The compute (percent) a share asking {@code asked} holds: MetaX's default when a MetaX share asks none. */
  public static long cores(boolean metax, long asked) {
    return metax && asked <= 0 ? METAX_DEFAULT_CORES : Math.max(0, asked);
  }

  /** The compute (percent) {@code request}'s share holds, under the default resource names. */
  public static long cores(ResourceVector request) {
    boolean metax = metax(request);
    return cores(metax, request.get(metax ? GpuResources.METAX_VCORE : GpuResources.NVIDIA_CORES));
  }

  /** The memory (MiB) {@code request}'s share asks for under the default resource names; 0: none named. */
  public static long askedMemoryMiB(ResourceVector request) {
    if (metax(request)) {
      return Math.min(request.get(GpuResources.METAX_VMEMORY_GIB), Long.MAX_VALUE / 2048) * 1024;
    }
    return request.get(GpuResources.NVIDIA_MEMORY_MIB);
  }

  /**
   * The memory (MiB) a share asking {@code askedMiB} holds on a device of {@code deviceMiB}: what it asks, or the
   * whole device when it asks none (0 when the device's memory is unknown too).
   */
  public static long memoryMiB(long askedMiB, long deviceMiB) {
    return askedMiB > 0 ? askedMiB : Math.max(0, deviceMiB);
  }
}
