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
 * <p>HAMi's {@code nvidia.com/gpumem-percentage} names the memory as a percentage of the device the share gets, read
 * only when {@code gpumem} is not given, and worked out per device as HAMi does ({@code devmem * percent / 100}, rounded
 * down). Until a device is known it travels as an <em>asked</em> figure below zero ({@link #percentOfDevice}); only
 * {@link #memoryMiB} turns an asked figure into MiB, so every reader of it agrees.
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

  /**
   * The memory {@code request}'s share asks for under the default resource names, as an asked figure: MiB when above
   * 0, 0 when it names none (the whole device), below 0 a percentage of the device ({@link #percentOfDevice}).
   */
  public static long askedMemoryMiB(ResourceVector request) {
    if (metax(request)) {
      return Math.min(request.get(GpuResources.METAX_VMEMORY_GIB), Long.MAX_VALUE / 2048) * 1024;
    }
    return asked(request.get(GpuResources.NVIDIA_MEMORY_MIB), request.get(GpuResources.NVIDIA_MEMORY_PERCENT));
  }

  /**
   * HAMi's reading of an NVIDIA share's memory: {@code gpumem} MiB when given; else {@code gpumem-percentage} when
   * given; else none (the whole device). A percentage of 0 cannot be told from an absent one here (a zero amount
   * is no request), so it holds the whole device: more than HAMi books, never less.
   */
  public static long asked(long gpumemMiB, long gpumemPercent) {
    if (gpumemMiB > 0) {
      return gpumemMiB;
    }
    return gpumemPercent > 0 ? percentOfDevice(gpumemPercent) : 0;
  }

  /**
   * The asked figure for {@code percent} of the device's memory. Above 100 it fits no device, as in HAMi; it is
   * capped at 101 so no product overflows.
   */
  public static long percentOfDevice(long percent) {
    return -Math.min(Math.max(percent, 1), 101);
  }

  /** Whether an asked figure is a percentage of the device's memory. */
  public static boolean isPercent(long asked) {
    return asked < 0;
  }

  /**
   * The memory (MiB) a share asking {@code asked} holds on a device of {@code deviceMiB}: what it asks, its
   * percentage of the device (rounded down, as HAMi does), or the whole device when it asks none (0 when the
   * device's memory is unknown).
   */
  public static long memoryMiB(long asked, long deviceMiB) {
    long device = Math.max(0, deviceMiB);
    if (asked < 0) {
      return Math.multiplyHigh(device, -asked) != 0 ? Long.MAX_VALUE : device * -asked / 100;
    }
    return asked > 0 ? asked : device;
  }

  /** "4Gi memory", "50% of its memory" or "all its memory", for a pending pod's reason. */
  public static String describeMemory(long asked) {
    if (asked < 0) {
      return -asked + "% of its memory";
    }
    return asked == 0 ? "all its memory" : asked % 1024 == 0 ? asked / 1024 + "Gi memory" : asked + "Mi memory";
  }

  /**
   * HAMi's two share rules beyond compute and memory: a share asking 100% compute wants its device to itself, so it
   * goes only onto a device nobody shares; a share asking no compute cannot go onto a device whose compute is all
   * taken. Applied by {@link DeviceUsage#canShare}.
   */
  public static boolean hamiRulesAllow(long cores, int sharesOnDevice, long coresUsed) {
    if (cores >= 100 && sharesOnDevice > 0) {
      return false;
    }
    return !(cores <= 0 && coresUsed >= 100);
  }
}
