package io.basalt.gpu.protocol.hami;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuDevice;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.ShareSize;
import io.basalt.model.ContainerRequest;
import io.basalt.model.Pod;
import io.basalt.model.ResourceVector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The annotations HAMi's device plugins read, for the devices Basalt chose: the pod's claim split over its containers
 * as HAMi does (init containers first; whole GPUs handed out in ascending order, app containers taking the next ones,
 * init containers reusing the first), each device as HAMi's scheduler would have written it. Whole NVIDIA GPUs carry
 * the device's memory and 0 cores (HAMi's defaults: no limit); shares carry the container's own
 * {@code gpucores}/{@code vcore} and {@code gpumem}/{@code vmemory} (the whole memory when unset, as HAMi does).
 */
public final class HamiBinding {
  /** HAMi's memory for a MetaX whole GPU when the node does not report it. */
  static final long METAX_DEFAULT_MIB = 65536;

  private HamiBinding() {}

  /**
   * HAMi's annotations for {@code pod} given {@code claim} on {@code node}; empty when no device resource of the pod
   * speaks HAMi's protocol there ({@code speaks}, per resource), or the node reported no UUIDs (HAMi's plugin finds
   * devices by UUID).
   */
  public static Map<String, String> annotations(Pod pod, String node, GpuTopology t, DeviceClaim claim,
      Predicate<String> speaks) {
    if (claim.isEmpty() || t == null) {
      return Map.of();
    }
    List<ContainerRequest> containers = pod.containers().isEmpty()
        ? List.of(new ContainerRequest("", false, pod.request())) : pod.containers();
    int[] devices = indices(claim.devices());
    Map<HamiVendor, List<List<HamiFormat.Entry>>> perVendor = new EnumMap<>(HamiVendor.class);
    int next = 0;
    for (int c = 0; c < containers.size(); c++) {
      ContainerRequest cr = containers.get(c);
      HamiVendor v = HamiVendor.of(cr.request());
      if (v == null || !speaks.test(v.resource())) {
        continue;
      }
      List<HamiFormat.Entry> entries = new ArrayList<>();
      if (claim.shared()) {
        HamiFormat.Entry e = share(v, node, t, devices[0], cr.request());
        if (e == null) {
          return Map.of();
        }
        entries.add(e);
      } else {
        int from = cr.init() ? 0 : next;
        long n = v.count(cr.request());
        for (int i = 0; i < n && from + i < devices.length; i++) {
          HamiFormat.Entry e = whole(v, node, t, devices[from + i]);
          if (e == null) {
            return Map.of();
          }
          entries.add(e);
        }
        next += cr.init() ? 0 : entries.size();
      }
      perVendor.computeIfAbsent(v, k -> emptyLists(containers.size())).set(c, entries);
    }
    if (perVendor.isEmpty()) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    perVendor.forEach((v, lists) -> {
      String value = HamiFormat.encode(lists);
      out.put(v.toAllocate(), value);
      out.put(v.allocated(), value);
      if (v == HamiVendor.METAX_SGPU) {
        out.put(HamiFormat.METAX_ALLOCATED, HamiFormat.encodeMetax(lists));
      }
    });
    out.put(HamiFormat.NODE, node);
    return out;
  }

  /**
   * {@code annotations} with the time-stamped ones added when they speak HAMi's protocol: {@code vgpu-time} and
   * {@code bind-time} (Unix seconds), {@code bind-phase: allocating}, and MetaX's {@code predicate-time} (Unix
   * nanoseconds) for a MetaX share. Written when the bind is sent.
   */
  public static Map<String, String> stamp(Map<String, String> annotations, Instant now) {
    if (!annotations.containsKey(HamiFormat.NODE)) {
      return annotations;
    }
    Map<String, String> out = new LinkedHashMap<>(annotations);
    String seconds = Long.toString(now.getEpochSecond());
    out.put(HamiFormat.TIME, seconds);
    out.put(HamiFormat.BIND_TIME, seconds);
    out.put(HamiFormat.BIND_PHASE, HamiFormat.ALLOCATING);
    if (annotations.containsKey(HamiFormat.METAX_ALLOCATED)) {
      out.put(HamiFormat.METAX_PREDICATE_TIME, Long.toString(now.getEpochSecond() * 1_000_000_000L + now.getNano()));
    }
    return out;
  }

  /** Whether binding with these annotations needs HAMi's node lock (NVIDIA and MetaX sGPU plugins expect it). */
  public static boolean needsLock(Map<String, String> annotations) {
    for (HamiVendor v : HamiVendor.values()) {
      if (v.locksNode() && annotations.containsKey(v.toAllocate())) {
        return true;
      }
    }
    return false;
  }

  private static HamiFormat.Entry whole(HamiVendor v, String node, GpuTopology t, int d) {
    GpuDevice g = t.device(d);
    if (v == HamiVendor.METAX_GPU) {
      return new HamiFormat.Entry(HamiClaims.metaxGpuId(node, d), v.type(),
          g.memoryMiB() > 0 ? g.memoryMiB() : METAX_DEFAULT_MIB, 100);
    }
    return g.uuid().isEmpty() ? null : new HamiFormat.Entry(g.uuid(), v.type(), g.memoryMiB(), 0);
  }

  private static HamiFormat.Entry share(HamiVendor v, String node, GpuTopology t, int d, ResourceVector r) {
    GpuDevice g = t.device(d);
    if (g.uuid().isEmpty()) {
      return null;
    }
    boolean metax = v != HamiVendor.NVIDIA;
    long cores = ShareSize.cores(metax, r.get(metax ? GpuResources.METAX_VCORE : GpuResources.NVIDIA_CORES));
    long memory = metax ? Math.min(r.get(GpuResources.METAX_VMEMORY_GIB), Long.MAX_VALUE / 2048) * 1024
        : ShareSize.asked(r.get(GpuResources.NVIDIA_MEMORY_MIB), r.get(GpuResources.NVIDIA_MEMORY_PERCENT));
    return new HamiFormat.Entry(g.uuid(), v.type(), ShareSize.memoryMiB(memory, g.memoryMiB()),
        (int) Math.min(cores, Integer.MAX_VALUE));
  }

  private static List<List<HamiFormat.Entry>> emptyLists(int n) {
    List<List<HamiFormat.Entry>> lists = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      lists.add(List.of());
    }
    return lists;
  }

  private static int[] indices(DeviceSet set) {
    return set.toArray();
  }
}
