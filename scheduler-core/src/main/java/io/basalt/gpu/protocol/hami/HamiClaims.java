package io.basalt.gpu.protocol.hami;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.GpuTopology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a pod placed under HAMi's protocol holds, read from its {@code ...-devices-allocated} annotations: how pods
 * placed by hami-scheduler before the switch (which carry no {@code basalt.io/gpu-devices}) are accounted on their
 * devices. A device entry is whole when it takes all of the device's compute or memory, or is a MetaX whole GPU;
 * otherwise it is a share, summed per device over the pod's containers.
 */
public final class HamiClaims {
  /** {@code values()} copies the array per call; a snapshot asks per GPU pod of every node that changed. */
  private static final HamiVendor[] VENDORS = HamiVendor.values();

  private HamiClaims() {}

  /** Whether the pod carries any of HAMi's allocated annotations. */
  public static boolean present(Map<String, String> podAnnotations) {
    if (podAnnotations.isEmpty()) {
      return false;
    }
    for (HamiVendor v : VENDORS) {
      if (podAnnotations.containsKey(v.allocated())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The claims of a pod's HAMi annotations on a node with topology {@code t}; init containers (the first
   * {@code initContainers} entries) are left out when app containers hold devices, as they have finished by then.
   *
   * @throws IllegalArgumentException naming the annotation and the problem (malformed, a device not on the node, or
   *     no device at all: HAMi never writes an empty one, so the pod's devices are unknown, not none)
   */
  public static List<DeviceClaim> of(Map<String, String> podAnnotations, GpuTopology t, String node,
      int initContainers) {
    DeviceSet whole = DeviceSet.EMPTY;
    Map<Integer, long[]> shares = new LinkedHashMap<>();
    List<String> read = new ArrayList<>();
    for (HamiVendor v : VENDORS) {
      String value = podAnnotations.get(v.allocated());
      if (value == null) {
        continue;
      }
      read.add(v.allocated());
      List<List<HamiFormat.Entry>> containers = HamiFormat.decode(v.allocated(), value);
      boolean appsHold = containers.stream().skip(initContainers).anyMatch(c -> !c.isEmpty());
      for (int c = appsHold ? initContainers : 0; c < containers.size(); c++) {
        for (HamiFormat.Entry e : containers.get(c)) {
          int d = index(v, e.uuid(), t, node);
          if (d < 0) {
            throw new IllegalArgumentException("annotation " + v.allocated() + ": device " + e.uuid()
                + " is not among the node's " + t.size() + " GPUs");
          }
          long memory = t.device(d).memoryMiB();
          if (v == HamiVendor.METAX_GPU || e.cores() >= 100 || memory > 0 && e.memoryMiB() >= memory) {
            whole = whole.with(d);
          } else {
            long[] s = shares.computeIfAbsent(d, k -> new long[2]);
            s[0] += e.cores();
            s[1] += e.memoryMiB();
          }
        }
      }
    }
    if (whole.isEmpty() && shares.isEmpty()) {
      throw new IllegalArgumentException("annotation " + String.join(", ", read) + ": lists no devices");
    }
    List<DeviceClaim> out = new ArrayList<>();
    if (!whole.isEmpty()) {
      out.add(DeviceClaim.whole(whole));
    }
    shares.forEach((d, s) -> out.add(DeviceClaim.share(d, (int) s[0], s[1])));
    return out;
  }

  /** HAMi names MetaX whole GPUs {@code <node>-metax-<index>}; other devices by their UUID. */
  private static int index(HamiVendor v, String uuid, GpuTopology t, String node) {
    int i = t.indexOf(uuid);
    String prefix = node + "-metax-";
    if (i < 0 && v == HamiVendor.METAX_GPU && uuid.startsWith(prefix)) {
      try {
        i = Integer.parseInt(uuid.substring(prefix.length()));
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return i >= 0 && i < t.size() ? i : -1;
  }

  /** The id HAMi gives MetaX whole GPU {@code index} of {@code node}. */
  static String metaxGpuId(String node, int index) {
    return node + "-metax-" + index;
  }
}
