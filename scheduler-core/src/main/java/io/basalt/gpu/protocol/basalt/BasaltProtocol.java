package io.basalt.gpu.protocol.basalt;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceProtocol;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.ShareSize;
import io.basalt.model.Pod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Basalt's own protocol: a node reports its GPUs in {@value GpuAnnotations#TOPOLOGY} (or MetaX's device plugin in
 * {@value GpuAnnotations#METAX_DEVICES}), and a pod is told its GPUs in {@value GpuAnnotations#DEVICES} and, when the
 * node reported UUIDs, {@value GpuAnnotations#UUIDS}. Every GPU pod gets these whatever other protocol speaks too:
 * they are the engine's own record of what a pod holds, read back by the cache.
 */
public final class BasaltProtocol implements DeviceProtocol {
  public static final BasaltProtocol INSTANCE = new BasaltProtocol();
  private static final List<String> INVENTORY = List.of(GpuAnnotations.TOPOLOGY, GpuAnnotations.METAX_DEVICES);

  private BasaltProtocol() {}

  @Override
  public String name() {
    return "basalt";
  }

  @Override
  public List<String> inventoryAnnotations() {
    return INVENTORY;
  }

  @Override
  public GpuTopology inventory(String annotation, String value) {
    return annotation.equals(GpuAnnotations.TOPOLOGY) ? GpuAnnotations.parseTopology(value)
        : GpuAnnotations.parseMetax(value);
  }

  /** Always: its record is written for every GPU pod. */
  @Override
  public boolean detects(String resource, Map<String, String> nodeAnnotations) {
    return true;
  }

  @Override
  public boolean recorded(Map<String, String> podAnnotations) {
    return podAnnotations.containsKey(GpuAnnotations.DEVICES);
  }

  /**
   * One claim: a share when the pod asks for one and names one GPU (sized by {@link ShareSize}), whole GPUs
   * otherwise.
   */
  @Override
  public List<DeviceClaim> recordedClaims(Pod pod, GpuTopology t, String node) {
    DeviceSet devices;
    try {
      devices = GpuAnnotations.claim(pod.annotations().get(GpuAnnotations.DEVICES), t.size());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("annotation " + GpuAnnotations.DEVICES + ": " + e.getMessage());
    }
    if (!GpuResources.isShare(pod.request()) || devices.size() != 1) {
      return List.of(DeviceClaim.whole(devices));
    }
    int d = devices.first();
    int cores = (int) Math.min(Integer.MAX_VALUE, ShareSize.cores(pod.request()));
    long deviceMiB = d < t.size() ? t.device(d).memoryMiB() : 0;
    return List.of(DeviceClaim.share(d, cores, ShareSize.memoryMiB(ShareSize.askedMemoryMiB(pod.request()),
        deviceMiB)));
  }

  /** {@value GpuAnnotations#DEVICES}, and {@value GpuAnnotations#UUIDS} when every chosen GPU has a UUID. */
  @Override
  public Map<String, String> annotations(Pod pod, String node, GpuTopology t, DeviceClaim claim,
      Predicate<String> speaks) {
    DeviceSet d = claim.devices();
    Map<String, String> out = new LinkedHashMap<>();
    out.put(GpuAnnotations.DEVICES, d.format());
    StringBuilder uuids = new StringBuilder();
    for (int i = d.first(); i >= 0 && t != null; i = d.next(i + 1)) {
      String uuid = t.device(i).uuid();
      if (uuid.isEmpty()) {
        uuids.setLength(0);
        break;
      }
      uuids.append(uuids.length() == 0 ? "" : ",").append(uuid);
    }
    if (uuids.length() > 0) {
      out.put(GpuAnnotations.UUIDS, uuids.toString());
    }
    return out;
  }
}
