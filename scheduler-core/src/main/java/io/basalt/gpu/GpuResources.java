package io.basalt.gpu;

import java.util.List;

/** Which extended resources count whole GPUs, unless a plugin's arguments say otherwise. */
public final class GpuResources {
  public static final List<String> DEFAULT = List.of("nvidia.com/gpu", "metax-tech.com/gpu");

  private GpuResources() {}
}
