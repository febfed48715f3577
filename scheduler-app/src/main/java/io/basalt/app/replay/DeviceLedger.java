package io.basalt.app.replay;

import io.basalt.app.replay.OpenbTrace.TraceNode;
import io.basalt.app.replay.OpenbTrace.TracePod;
import io.basalt.gpu.DeviceSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The replay's own books of every GPU, kept from the bindings alone (not from the engine's accounting), so the
 * replay can check what the engine decided: the devices a pod was told ({@code basalt.io/gpu-devices}), or, when
 * nothing chose them, the devices a device plugin would hand out (whole pods the lowest free devices, a share the
 * lowest device it still fits on; the least used ones when none is left, which then shows as a violation).
 */
final class DeviceLedger {
  /** What the replay checks on every placement. */
  enum Kind {
    /** A device's shares and whole holders add up to more than 1000 milli-GPUs. */
    OVER_1000,
    /** A device held whole also has another pod on it. */
    WHOLE_SHARED,
    /** The node's GPU model is not one of the pod's {@code gpu_spec}. */
    GPU_SPEC,
    /** The device annotation names another number of devices than the pod asked for. */
    DEVICE_COUNT,
    /** The node's cpu or memory is over what it has. */
    NODE_OVERCOMMIT
  }

  record Violation(Kind kind, String pod, String node, String detail) {}

  /** One node's books: free cpu/memory and per device the milli-GPUs held and how many hold it whole. */
  static final class NodeBook {
    final TraceNode node;
    /** The node's model as an index into {@link DeviceLedger#models()}. */
    final int model;
    long freeCpu;
    long freeMemory;
    final int[] used;
    final int[] whole;

    NodeBook(TraceNode node, int model) {
      this.node = node;
      this.model = model;
      this.freeCpu = node.cpuMilli();
      this.freeMemory = node.memoryMib();
      this.used = new int[node.gpus()];
      this.whole = new int[node.gpus()];
    }

    /** Milli-GPUs left on device {@code d}; none on a device someone holds whole. */
    int free(int d) {
      return whole[d] > 0 ? 0 : Math.max(0, 1000 - used[d]);
    }
  }

  private record Held(NodeBook book, DeviceSet devices, TracePod pod) {}

  private final List<NodeBook> books = new ArrayList<>();
  private final List<String> models;
  private final Map<String, NodeBook> byName = new HashMap<>();
  private final Map<String, Held> held = new HashMap<>();
  private final List<Violation> violations = new ArrayList<>();
  private long allocatedMilli;
  private final long capacityMilli;

  DeviceLedger(List<TraceNode> nodes) {
    this.models = nodes.stream().map(TraceNode::model).distinct().sorted().toList();
    long capacity = 0;
    for (TraceNode n : nodes) {
      NodeBook b = new NodeBook(n, models.indexOf(n.model()));
      books.add(b);
      byName.put(n.name(), b);
      capacity += 1000L * n.gpus();
    }
    this.capacityMilli = capacity;
  }

  /** Books {@code pod} (replayed as {@code uid}) onto {@code node}, on {@code devices} (the annotation, or null). */
  void place(String uid, TracePod pod, String node, String devices) {
    NodeBook b = byName.get(node);
    if (b == null) {
      throw new IllegalArgumentException(uid + " bound to unknown node " + node);
    }
    DeviceSet mask = DeviceSet.EMPTY;
    if (pod.numGpu() > 0) {
      int want = pod.isShare() ? 1 : pod.numGpu();
      mask = devices != null ? DeviceSet.parse(devices) : pick(b, pod, want);
      if (mask.size() != want) {
        violations.add(new Violation(Kind.DEVICE_COUNT, uid, node, "asked for " + want + " device(s), "
            + (devices == null ? "the node has " + b.used.length : "told \"" + devices + "\"")));
      }
      if (!pod.accepts(b.node.model())) {
        violations.add(new Violation(Kind.GPU_SPEC, uid, node,
            "gpu_spec " + pod.gpuSpec() + " on a " + b.node.model() + " node"));
      }
      take(uid, b, mask, pod);
    }
    b.freeCpu -= pod.cpuMilli();
    b.freeMemory -= pod.memoryMib();
    if (b.freeCpu < 0 || b.freeMemory < 0) {
      violations.add(new Violation(Kind.NODE_OVERCOMMIT, uid, node,
          "cpu free " + b.freeCpu + "m, memory free " + b.freeMemory + "Mi"));
    }
    allocatedMilli += pod.gpuMilliTotal();
    held.put(uid, new Held(b, mask, pod));
  }

  private void take(String uid, NodeBook b, DeviceSet mask, TracePod pod) {
    for (int d = mask.first(); d >= 0; d = mask.next(d + 1)) {
      if (d >= b.used.length) {
        violations.add(new Violation(Kind.DEVICE_COUNT, uid, b.node.name(),
            "device " + d + " on a node with " + b.used.length));
        continue;
      }
      boolean shared = pod.isShare() ? b.whole[d] > 0 : b.used[d] > 0;
      if (shared) {
        violations.add(new Violation(Kind.WHOLE_SHARED, uid, b.node.name(), "device " + d + " already holds "
            + b.used[d] + " milli" + (b.whole[d] > 0 ? " whole" : " in shares") + " when this pod takes it"
            + (pod.isShare() ? " as a share" : " whole")));
      }
      b.used[d] += pod.isShare() ? pod.gpuMilli() : 1000;
      if (!pod.isShare()) {
        b.whole[d]++;
      }
      if (b.used[d] > 1000) {
        violations.add(new Violation(Kind.OVER_1000, uid, b.node.name(),
            "device " + d + " at " + b.used[d] + " milli"));
      }
    }
  }

  /** The devices a device plugin would give when nothing chose them. */
  private static DeviceSet pick(NodeBook b, TracePod pod, int want) {
    int need = pod.isShare() ? pod.gpuMilli() : 1000;
    DeviceSet mask = DeviceSet.EMPTY;
    for (int d = 0; d < b.used.length && mask.size() < want; d++) {
      if (b.free(d) >= need && (pod.isShare() || b.used[d] == 0)) {
        mask = mask.with(d);
      }
    }
    while (mask.size() < want && mask.size() < b.used.length) {
      int least = -1;
      for (int d = 0; d < b.used.length; d++) {
        if (!mask.contains(d) && (least < 0 || b.used[d] < b.used[least])) {
          least = d;
        }
      }
      mask = mask.with(least);
    }
    return mask;
  }

  /** Gives back what {@code uid} holds (it left the cluster); nothing when it holds nothing. */
  void release(String uid) {
    Held h = held.remove(uid);
    if (h == null) {
      return;
    }
    NodeBook b = h.book();
    DeviceSet held = h.devices();
    for (int d = held.first(); d >= 0; d = held.next(d + 1)) {
      if (d < b.used.length) {
        b.used[d] -= h.pod().isShare() ? h.pod().gpuMilli() : 1000;
        if (!h.pod().isShare()) {
          b.whole[d]--;
        }
      }
    }
    b.freeCpu += h.pod().cpuMilli();
    b.freeMemory += h.pod().memoryMib();
    allocatedMilli -= h.pod().gpuMilliTotal();
  }

  /** The GPU models of the nodes, in name order. */
  List<String> models() {
    return models;
  }

  List<NodeBook> books() {
    return books;
  }

  List<Violation> violations() {
    return violations;
  }

  /** Milli-GPUs requested by the pods placed and not yet gone. */
  long allocatedMilli() {
    return allocatedMilli;
  }

  long capacityMilli() {
    return capacityMilli;
  }
}
