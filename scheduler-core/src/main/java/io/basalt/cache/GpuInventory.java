package io.basalt.cache;

import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuAnnotations;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.protocol.hami.HamiFormat;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads nodes' GPU inventories and which GPUs their pods hold. Topologies are parsed once per distinct annotation
 * and shared between nodes, so a pool of identical nodes costs one parse and per-topology caches hit across it.
 * A pod without {@code basalt.io/gpu-devices} but with HAMi's allocated annotations (placed by hami-scheduler) holds
 * what they list; {@link ClaimLedger} decides which claims count. Problems (no topology reported, a malformed
 * annotation, a GPU pod placed without either) are logged once per node or pod, naming the annotation, never thrown.
 */
final class GpuInventory {
  private static final System.Logger LOG = System.getLogger(GpuInventory.class.getName());

  private final Set<String> ours;
  private final Comparator<Pod> claimOrder;
  private final Map<String, GpuTopology> parsed = new HashMap<>();
  private final Map<Integer, GpuTopology> uniform = new HashMap<>();
  private final Set<String> warned = new HashSet<>();
  private final Map<String, Integer> perKind = new HashMap<>();
  /** After this many warnings of one kind, one more line says the rest are not reported. */
  static final int WARNINGS_PER_KIND = 5;

  private final System.Logger log;

  GpuInventory(Set<String> schedulerNames) {
    this(schedulerNames, LOG);
  }

  /** @param log where warnings go (tests read them) */
  GpuInventory(Set<String> schedulerNames, System.Logger log) {
    this.ours = schedulerNames;
    this.claimOrder = ClaimLedger.readingOrder(schedulerNames);
    this.log = log;
  }

  /** The node's topology: its annotation, else uniform over its GPU count; null for a node without GPUs. */
  GpuTopology topologyOf(Node node) {
    long count = gpuCount(node);
    String source = io.basalt.gpu.protocol.DeviceProtocols.inventorySource(node.annotations());
    String text = source == null ? null : source + "=" + node.annotations().get(source);
    if (text != null) {
      GpuTopology t = parsed.get(text);
      if (t == null) {
        try {
          t = io.basalt.gpu.protocol.DeviceProtocols.topology(node.annotations());
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
    if (count > GpuAnnotations.MAX_DEVICES) {
      warnOnce("count/" + node.name(), "node " + node.name() + ": allocatable lists " + count + " GPUs; at most "
          + GpuAnnotations.MAX_DEVICES + " GPUs per node are supported, so only the first "
          + GpuAnnotations.MAX_DEVICES + " are scheduled");
    }
    return uniform.computeIfAbsent((int) Math.min(count, GpuAnnotations.MAX_DEVICES), GpuTopology::uniform);
  }

  /** Who holds the node's GPUs: pods' claims, checked by {@link ClaimLedger}, and the lowest free for the rest. */
  DeviceUsage deviceUsage(String node, GpuTopology gpus, Collection<Pod> pods) {
    return gpus == null ? null : new ClaimLedger(node, gpus, ours, claimOrder, this::warnOnce).build(pods);
  }

  /**
   * HAMi's form, where each GPU is advertised as several vGPUs: on a node running HAMi's device plugin (its inventory
   * there, even when Basalt's topology is read instead) allocatable is a multiple of the devices; elsewhere it is
   * the devices times HAMi's default split, as users state HAMi nodes in Basalt's topology.
   */
  private static boolean hamiVgpus(Node node, int devices, long allocatable) {
    if (devices <= 0) {
      return false;
    }
    return node.annotations().containsKey(HamiFormat.NVIDIA_REGISTER) ? allocatable % devices == 0
        : allocatable == (long) devices * HamiFormat.DEFAULT_SPLIT_COUNT;
  }

  /** A pod asking for a slice of a GPU (MetaX sGPU, or HAMi's gpucores / gpumem) rather than whole GPUs. */
  static boolean isShare(Pod p) {
    return GpuResources.isShare(p.request());
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
      log.log(System.Logger.Level.WARNING, message);
    } else if (n == WARNINGS_PER_KIND + 1) {
      log.log(System.Logger.Level.WARNING, "further warnings like the last are not reported");
    }
  }
}
