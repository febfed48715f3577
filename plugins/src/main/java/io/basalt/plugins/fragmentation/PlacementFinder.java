package io.basalt.plugins.fragmentation;

import io.basalt.api.JobInfo;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.gpu.ShareSize;
import io.basalt.model.ResourceNames;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where a pod would best go on a node and how much that raises the node's fragmentation: the work behind
 * {@link GpuFragmentationPlugin}'s score and share choice. A fleet has many nodes in the same state (idle, or holding
 * the same pods), and the answer depends on nothing else, so answers are kept per (node state, request) for as long as
 * the mix's {@link FragmentationMeasure} is unchanged, across sessions: a search over a thousand nodes mostly reads
 * the map.
 */
final class PlacementFinder {
  /** Answers kept at most; past this the map starts afresh (a bound, not a working size). */
  static final int MAX_KEPT = 200_000;

  /**
   * A pod's place on a node: the share's device (-1 for whole GPUs or none), the rise in F, GPU use after (0..1), and
   * for a whole-GPU pod the node's share gaps ({@link #gaps}), 0 otherwise; for a share that leaves an already shared
   * GPU at most {@code closeGap} percent free, that GPU's use after it (0..1, {@code closes}), 0 otherwise.
   */
  record Placement(int device, double delta, double fill, double gaps, double closes) {
    /** Neither a whole pod's gaps nor a closed share GPU. */
    Placement(int device, double delta, double fill) {
      this(device, delta, fill, 0, 0);
    }
  }

  private final WorkloadMix mix;
  private final int maxSharesArg;
  private final boolean cpuPods;
  private final int gapMin;
  private final int closeGap;
  private final double packWeight;
  private FragmentationMeasure measure;
  private SharePacking packing = SharePacking.NONE;
  private final Map<Key, Placement> kept = new HashMap<>();

  /**
   * @param gapMin the least free percent of a shared GPU that {@link #gaps} counts
   * @param closeGap a share leaving an already shared GPU at most this percent free is placed there and reported as
   *     closing it ({@link Placement#closes()}); -1 for never
   * @param packWeight a share's {@link SharePacking#cost} on a device, in GPUs, adds this x 100 to its rise in F
   */
  PlacementFinder(WorkloadMix mix, int maxShares, boolean cpuPods, int gapMin, int closeGap, double packWeight) {
    this.mix = mix;
    this.packWeight = packWeight;
    this.maxSharesArg = maxShares;
    this.cpuPods = cpuPods;
    this.closeGap = closeGap;
    this.gapMin = gapMin;
  }

  /** Learns the GPU pods of {@code jobs} not seen before into the mix. */
  void learn(Collection<JobInfo> jobs) {
    mix.learn(jobs);
  }

  /** The measure for a new session (re-weighed when the mix drifted); false when there is nothing to measure yet. */
  boolean refresh() {
    FragmentationMeasure m = mix.measure();
    if (m != measure) {
      measure = m;
      packing = mix.packing();
      kept.clear();
    }
    return !measure.isEmpty();
  }

  /** The best placement of {@code task} on {@code node}, or null when the node has no GPUs or the task is not judged. */
  Placement find(TaskInfo task, NodeInfo node) {
    GpuTopology gpus = node.gpus();
    if (gpus == null || gpus.size() == 0) {
      return null;
    }
    Shape shape = Shape.of(task);
    if (shape == null && (!cpuPods || GpuResources.isShare(task.request()))) {
      return null;
    }
    DeviceUsage usage = node.deviceUsage();
    int n = gpus.size();
    int[] free = new int[n];
    for (int d = 0; d < n; d++) {
      free[d] = usage.exclusive().contains(d) ? 0 : Math.max(0, 100 - usage.coresUsed(d));
    }
    DeviceSet untouched = node.freeDevices();
    long cpu = node.idle(ResourceNames.CPU);
    long memory = node.idle(ResourceNames.MEMORY);
    FragmentationMeasure.State before = FragmentationMeasure.State.of(cpu, memory, gpus, free, untouched);
    int maxShares = shape != null && shape.share() ? maxShares(node, shape) : 0;
    Key key = before.packed() == -1 ? null : new Key(before, shape,
        shape == null ? task.request().get(ResourceNames.CPU) : 0,
        shape == null ? task.request().get(ResourceNames.MEMORY) : 0, maxShares,
        shape != null && shape.share() ? sharers(gpus, usage) : null);
    if (key != null) {
      Placement p = kept.get(key);
      if (p != null || kept.containsKey(key)) {
        return p;
      }
    }
    Placement p = compute(task, shape, gpus, usage, before, maxShares);
    if (key != null) {
      if (kept.size() >= MAX_KEPT) {
        kept.clear();
      }
      kept.put(key, p);
    }
    return p;
  }

  private Placement compute(TaskInfo task, Shape shape, GpuTopology gpus, DeviceUsage usage,
      FragmentationMeasure.State before, int maxShares) {
    int[] free = before.free();
    DeviceSet untouched = before.untouched();
    double f0 = measure.of(before);
    long cpuAfter = before.cpu() - task.request().get(ResourceNames.CPU);
    long memoryAfter = before.memory() - task.request().get(ResourceNames.MEMORY);
    if (shape == null) {
      return new Placement(-1, measure.of(FragmentationMeasure.State.of(cpuAfter, memoryAfter, gpus, free,
          untouched)) - f0, fill(free));
    }
    if (!shape.share()) {
      DeviceSet take = untouched.lowest(shape.whole());
      int[] after = free.clone();
      for (int d = take.first(); d >= 0; d = take.next(d + 1)) {
        after[d] = 0;
      }
      DeviceSet left = untouched.andNot(take);
      return new Placement(-1, measure.of(FragmentationMeasure.State.of(cpuAfter, memoryAfter, gpus, after, left))
          - f0, fill(after), gaps(free, untouched, gapMin), 0);
    }
    DeviceSet accepted = shape.rules().isEmpty() ? null : shape.constraints().allowed(gpus);
    Placement best = null;
    int close = -1;
    for (int d = 0; d < free.length; d++) {
      if (!canShare(gpus, usage, d, shape, accepted, maxShares)) {
        continue;
      }
      if (!untouched.contains(d) && free[d] - shape.cores() <= closeGap
          && (close < 0 || free[d] < free[close])) {
        close = d;
      }
      if (best != null && free[d] == free[best.device()]
          && untouched.contains(d) == untouched.contains(best.device())) {
        continue; // same state as a device already tried
      }
      Placement here = shareOn(d, shape, before, f0, cpuAfter, memoryAfter);
      if (best == null || here.delta() < best.delta() - 1e-9
          || (here.delta() < best.delta() + 1e-9 && free[d] < free[best.device()])) {
        best = here;
      }
    }
    if (close >= 0) {
      // The shared GPU this share leaves fullest (at most closeGap percent free): there, whatever F says.
      Placement there = shareOn(close, shape, before, f0, cpuAfter, memoryAfter);
      return new Placement(close, there.delta(), there.fill(), 0, (100 - free[close] + shape.cores()) / 100.0);
    }
    return best;
  }

  /** {@code shape}'s share on device {@code d}: F's rise with the pack cost, and GPU use after it. */
  private Placement shareOn(int d, Shape shape, FragmentationMeasure.State before, double f0, long cpuAfter,
      long memoryAfter) {
    int[] after = before.free().clone();
    after[d] -= shape.cores();
    double delta = measure.of(FragmentationMeasure.State.of(cpuAfter, memoryAfter, before.gpus(), after,
        before.untouched().without(d))) - f0 + packCost(before.free()[d], shape);
    return new Placement(d, delta, fill(after));
  }

  /** A share's {@link SharePacking#cost} on a device with {@code free} percent free, in F's units, times pack. */
  private double packCost(int free, Shape shape) {
    return packWeight * 100 * packing.cost(free, shape.cores());
  }

  /**
   * The room left on the node's shared GPUs (touched by shares, not held whole), counting only GPUs with at least
   * {@code gapMin} percent free, over 100 x the node's GPUs (0..1). A whole-GPU pod does not need that room, but the
   * cpu and memory it takes on the node are what a later share needs to fill it.
   */
  static double gaps(int[] free, DeviceSet untouched, int gapMin) {
    long sum = 0;
    for (int d = 0; d < free.length; d++) {
      if (!untouched.contains(d) && free[d] < 100 && free[d] >= gapMin) {
        sum += free[d];
      }
    }
    return sum / (100.0 * free.length);
  }

  private static double fill(int[] after) {
    long used = 0;
    for (int f : after) {
      used += 100 - f;
    }
    return used / (100.0 * after.length);
  }

  /** @param accepted the devices the share's annotations accept; null for all */
  private static boolean canShare(GpuTopology gpus, DeviceUsage usage, int d, Shape s, DeviceSet accepted,
      int maxShares) {
    return (accepted == null || accepted.contains(d))
        && usage.canShare(d, s.cores(), ShareSize.memoryMiB(s.memoryMiB(), gpus.device(d).memoryMiB()),
            gpus.device(d).memoryMiB(), maxShares);
  }

  /** What a share's fit reads beyond free compute: sharers per device, and device memory used where it is known. */
  private static long[] sharers(GpuTopology gpus, DeviceUsage usage) {
    long[] out = new long[2 * gpus.size()];
    for (int d = 0; d < gpus.size(); d++) {
      out[2 * d] = usage.shares(d);
      out[2 * d + 1] = gpus.device(d).memoryMiB() > 0 ? usage.memoryUsedMiB(d) : 0;
    }
    return out;
  }

  /** {@code maxShares}, else the node's share slots per device ({@code deviceshare}'s default), at least 1. */
  private int maxShares(NodeInfo node, Shape s) {
    if (maxSharesArg > 0) {
      return maxSharesArg;
    }
    String count = s.domain().equals("nvidia.com") ? GpuResources.DEFAULT.get(0) : GpuResources.METAX_SGPU;
    int slot = ResourceNames.indexIfKnown(count);
    long slots = slot < 0 ? 0 : node.allocatable(slot);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, slots / Math.max(1, node.gpus().size())));
  }

  /**
   * Everything an answer depends on: the node's state as the measure reads it (with its topology's identity), the
   * pod's shape (or a GPU-less pod's cpu and memory), and for a share the device limits its fit reads.
   */
  private static final class Key {
    final FragmentationMeasure.State state;
    final Shape shape;
    final long cpu;
    final long memory;
    final int maxShares;
    final long[] sharers;
    final int hash;

    Key(FragmentationMeasure.State state, Shape shape, long cpu, long memory, int maxShares, long[] sharers) {
      this.state = state;
      this.shape = shape;
      this.cpu = cpu;
      this.memory = memory;
      this.maxShares = maxShares;
      this.sharers = sharers;
      this.hash = ((state.hashCode() * 31 + (shape == null ? 0 : shape.hashCode())) * 31
          + Long.hashCode(cpu * 31 + memory)) * 31 + maxShares * 17 + Arrays.hashCode(sharers);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.hash == hash && k.state.equals(state) && Objects.equals(k.shape, shape)
          && k.cpu == cpu && k.memory == memory && k.maxShares == maxShares && Arrays.equals(k.sharers, sharers);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
