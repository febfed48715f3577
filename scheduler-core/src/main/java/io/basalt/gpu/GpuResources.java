package io.basalt.gpu;

import java.util.List;

/** Which extended resources count whole GPUs or GPU shares, unless a plugin's arguments say otherwise. */
public final class GpuResources {
  public static final List<String> DEFAULT = List.of("nvidia.com/gpu", "metax-tech.com/gpu");
  /** MetaX sGPU: shares of one GPU. */
  public static final String METAX_SGPU = "metax-tech.com/sgpu";
  /** Percent of one GPU's compute: MetaX sGPU, and HAMi on NVIDIA. */
  public static final String METAX_VCORE = "metax-tech.com/vcore";
  public static final String NVIDIA_CORES = "nvidia.com/gpucores";
  /** A share's memory: MetaX in GiB, HAMi on NVIDIA in MiB. */
  public static final String METAX_VMEMORY_GIB = "metax-tech.com/vmemory";
  public static final String NVIDIA_MEMORY_MIB = "nvidia.com/gpumem";
  /** HAMi on NVIDIA: a share's memory as a percentage of its device's, read when {@code gpumem} is not given. */
  public static final String NVIDIA_MEMORY_PERCENT = "nvidia.com/gpumem-percentage";

  private GpuResources() {}

  /** A request for a slice of one GPU (MetaX sGPU, or HAMi's gpucores / gpumem) rather than whole GPUs. */
  public static boolean isShare(io.basalt.model.ResourceVector request) {
    return request.get(METAX_SGPU) > 0 || request.get(METAX_VCORE) > 0 || request.get(NVIDIA_CORES) > 0
        || request.get(METAX_VMEMORY_GIB) > 0 || request.get(NVIDIA_MEMORY_MIB) > 0
        || request.get(NVIDIA_MEMORY_PERCENT) > 0;
  }
}
