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

  private GpuResources() {}
}
