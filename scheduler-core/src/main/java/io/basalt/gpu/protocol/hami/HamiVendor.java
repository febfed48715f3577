package io.basalt.gpu.protocol.hami;

import io.basalt.gpu.GpuResources;
import io.basalt.model.ResourceVector;

/**
 * The device kinds of HAMi's protocol Basalt speaks: what HAMi calls each (the type in its device entries), the
 * resource a container asks for it with, the pod annotations its device plugin reads, and whether HAMi's plugin
 * expects the node lock while it allocates (HAMi's MetaX whole-GPU device takes none).
 */
public enum HamiVendor {
  NVIDIA("NVIDIA", "nvidia.com/gpu", "hami.io/vgpu-devices-to-allocate", "hami.io/vgpu-devices-allocated", true),
  METAX_GPU("Metax-GPU", "metax-tech.com/gpu", "hami.io/metax-gpu-devices-to-allocate",
      "hami.io/metax-gpu-devices-allocated", false),
  METAX_SGPU("Metax-SGPU", GpuResources.METAX_SGPU, "hami.io/metax-sgpu-devices-to-allocate",
      "hami.io/metax-sgpu-devices-allocated", true);

  private final String type;
  private final String resource;
  private final String toAllocate;
  private final String allocated;
  private final boolean locks;

  HamiVendor(String type, String resource, String toAllocate, String allocated, boolean locks) {
    this.type = type;
    this.resource = resource;
    this.toAllocate = toAllocate;
    this.allocated = allocated;
    this.locks = locks;
  }

  /** The type in device entries, e.g. {@code NVIDIA}. */
  public String type() {
    return type;
  }

  /** The count resource, e.g. {@code nvidia.com/gpu}. */
  public String resource() {
    return resource;
  }

  /** The pod annotation the device plugin consumes container by container. */
  public String toAllocate() {
    return toAllocate;
  }

  /** The pod annotation that keeps the whole allocation (HAMi's accounting reads it). */
  public String allocated() {
    return allocated;
  }

  public boolean locksNode() {
    return locks;
  }

  /** The vendor a container's request asks devices of, or null when it asks for none. */
  static HamiVendor of(ResourceVector request) {
    if (request.get(GpuResources.METAX_SGPU) > 0) {
      return METAX_SGPU;
    }
    for (HamiVendor v : values()) {
      if (request.get(v.resource) > 0) {
        return v;
      }
    }
    return null;
  }

  /** How many devices a container asks for. */
  long count(ResourceVector request) {
    return request.get(resource);
  }
}
