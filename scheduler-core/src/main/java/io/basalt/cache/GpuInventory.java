package io.basalt.cache;

import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.HamiClaims;
import io.basalt.gpu.HamiFormat;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads nodes' GPU inventories and which GPUs their pods hold. Topologies are parsed once per distinct annotation
 * and shared between nodes, so a pool of identical nodes costs one parse and per-topology caches hit across it.
 * A pod without {@code basalt.io/gpu-devices} but with HAMi's allocated annotations (placed by hami-scheduler) holds
 * what they list. Problems (no topology reported, a malformed annotation, a GPU pod placed without either) are logged
 * once per node or pod, naming the annotation, never thrown.
 */
final class GpuInventory {
  private static final System.Logger LOG = System.getLogger(GpuInventory.class.getName());

  private final Set<String> ours;
  private final Map<String, GpuTopology> parsed = new HashMap<>();
  private final Map<Integer, GpuTopology> uniform = new HashMap<>();
  private final Set<String> warned = new HashSet<>();
  private final Map<String, Integer> perKind = new HashMap<>();
  /** After this many warnings of one kind, one more line says the rest are not reported. */
  static final int WARNINGS_PER_KIND = 5;

  GpuInventory(Set<String> schedulerNames) {
    this.ours = schedulerNames;
  }

  /** The node's topology: its annotation, else uniform over its GPU count; null for a node without GPUs. */
  GpuTopology topologyOf(Node node) {
    long count = gpuCount(node);
    String source = GpuAnnotations.inventorySource(node.annotations());
    String text = source == null ? null : source + "=" + node.annotations().get(source);
    if (text != null) {
      GpuTopology t = parsed.get(text);
      if (t == null) {
        try {
          t = GpuAnnotations.topology(node.annotations());
          parsed.put(text, t);
        } catch (IllegalArgumentException e) {
          warnOnce("node/" + node.name(), "node " + node.name() + ": " + e.getMessage()
              + "; treating its GPUs as uniform");
        }
      }
      if (t != null) {
        if (count > 0 && t.size() != count && !hamiVgpus(node, t.size(), count)) {
          warnOnce("count/" + node.name(), "node " + node.name() + ": topology lists " + t.size()
              + " GPUs but allocatable says " + count);
        }
        return t;
      }
    }
    if (count <= 0) {
      return null;
    }
    if (text == null) {
      warnOnce("node/" + node.name(), "node " + node.name() + " reports no GPU topology (annotation "
          + GpuAnnotations.TOPOLOGY + "); treating its " + count + " GPUs as uniform");
    }
    return uniform.computeIfAbsent((int) Math.min(count, 64), GpuTopology::uniform);
  }

  /** Who holds the node's GPUs: pods' annotations, then the lowest untouched GPUs for pods without one. */
  DeviceUsage deviceUsage(String node, GpuTopology gpus, Collection<Pod> pods) {
    if (gpus == null) {
      return null;
    }
    DeviceUsage usage = new DeviceUsage(gpus.size());
    usage.add(DeviceClaim.whole(new DeviceSet(gpus.unhealthy())), 1);
    long unannotated = 0;
    for (Pod p : pods) {
      if (p.isFinished()) {
        continue;
      }
      String devices = p.annotations().get(GpuAnnotations.DEVICES);
      if (devices != null) {
        try {
          usage.add(claim(p, DeviceSet.parse(devices)), 1);
          continue;
        } catch (IllegalArgumentException e) {
          warnOnce("pod/" + p.uid(), "pod " + p.key() + ": annotation " + GpuAnnotations.DEVICES + ": "
              + e.getMessage());
        }
      } else if (HamiClaims.present(p.annotations())) {
        try {
          HamiClaims.of(p.annotations(), gpus, node, initContainers(p)).forEach(c -> usage.add(c, 1));
          continue;
        } catch (IllegalArgumentException e) {
          warnOnce("pod/" + p.uid(), "pod " + p.key() + " on node " + node + ": " + e.getMessage()
              + "; ignored, " + (isShare(p) ? "the pod's share of a GPU not counted"
              : "the pod assumed to hold the lowest free GPUs"));
        }
      }
      long want = isShare(p) ? 0 : gpuRequest(p);
      if (want > 0) {
        unannotated += want;
        if (ours.contains(p.schedulerName())) {
          continue; // placed by us without a device plugin choosing GPUs: nothing unusual
        }
        warnOnce("pod/" + p.uid(), "pod " + p.key() + " on node " + node + " holds " + want + " GPUs without "
            + GpuAnnotations.DEVICES + " (placed by another scheduler?); assuming the lowest free ones");
      }
    }
    long free = usage.untouched();
    long assumed = 0;
    for (long m = free; m != 0 && unannotated > 0; m &= m - 1, unannotated--) {
      assumed |= Long.lowestOneBit(m);
    }
    usage.add(DeviceClaim.whole(new DeviceSet(assumed)), 1);
    return usage;
  }

  /**
   * On a node running HAMi's device plugin (its inventory there, even when Basalt's topology is read instead) each GPU
   * is advertised as {@code count} vGPUs: allocatable is a multiple of the devices.
   */
  private static boolean hamiVgpus(Node node, int devices, long allocatable) {
    return node.annotations().containsKey(HamiFormat.NVIDIA_REGISTER) && devices > 0 && allocatable % devices == 0;
  }

  private static int initContainers(Pod p) {
    return (int) p.containers().stream().filter(c -> c.init()).count();
  }

  /** A pod asking for a slice of a GPU (MetaX sGPU, or HAMi's gpucores / gpumem) rather than whole GPUs. */
  static boolean isShare(Pod p) {
    return GpuResources.isShare(p.request());
  }

  private static DeviceClaim claim(Pod p, DeviceSet devices) {
    if (!isShare(p) || devices.size() != 1) {
      return DeviceClaim.whole(devices);
    }
    int cores = (int) (p.request().get(GpuResources.METAX_VCORE) + p.request().get(GpuResources.NVIDIA_CORES));
    long memory = p.request().get(GpuResources.METAX_VMEMORY_GIB) * 1024
        + p.request().get(GpuResources.NVIDIA_MEMORY_MIB);
    return DeviceClaim.share(Long.numberOfTrailingZeros(devices.mask()), cores, memory);
  }

  static long gpuCount(Node node) {
    long n = 0;
    for (String r : GpuResources.DEFAULT) {
      n += node.allocatable().get(r);
    }
    return n;
  }

  static long gpuRequest(Pod pod) {
    long n = 0;
    for (String r : GpuResources.DEFAULT) {
      n += pod.request().get(r);
    }
    return n;
  }

  /** Logs {@code message} once per key, and at most {@value #WARNINGS_PER_KIND} times per kind of problem. */
  private void warnOnce(String key, String message) {
    if (!warned.add(key)) {
      return;
    }
    String kind = key.substring(0, key.indexOf('/'));
    int n = perKind.merge(kind, 1, Integer::sum);
    if (n <= WARNINGS_PER_KIND) {
      LOG.log(System.Logger.Level.WARNING, message);
    } else if (n == WARNINGS_PER_KIND + 1) {
      LOG.log(System.Logger.Level.WARNING, "further warnings like the last are not reported");
    }
  }
}
