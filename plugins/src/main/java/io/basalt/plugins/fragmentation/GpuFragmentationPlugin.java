package io.basalt.plugins.fragmentation;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuResources;
import io.basalt.gpu.GpuTopology;
import io.basalt.model.ResourceNames;

/**
 * Fragmentation-aware GPU placement (the idea of FGD, Weng et al., USENIX ATC'23): a pod goes where it raises the
 * node's GPU fragmentation least, fragmentation being the free GPU capacity the recent workload could not use (see
 * {@link FragmentationMeasure} for the formula). The workload is learned from the pods the scheduler sees
 * ({@link WorkloadMix}), so nothing about the fleet's jobs has to be configured.
 *
 * <p>Score, for the best device choice on the node, times {@code weight}:
 * {@code clamp(100 - (dF + 100) / 10, 0, 100) + fuller * u}, where dF = F(after) - F(before) in percent of one GPU
 * (using up one GPU's worth of fragments scores 100, a placement that fragments nothing 90, one that strands nine
 * GPUs' worth 0) and u is the share of the node's GPU capacity in use after the placement (0..1): among placements
 * that fragment alike the fuller node wins, so free capacity stays together. On the openb trace the blend placed
 * 0.8 points more of the GPUs than dF alone (docs/BENCHMARKS.md); {@code fuller: 0} is FGD's score as published.
 * Pods without GPUs are scored too (they strand GPUs by taking a node's cpu or memory), unless
 * {@code cpuPods: false}.
 *
 * <p>It also chooses the device of a share pod (HAMi {@code gpucores}, MetaX {@code vcore}): among the devices that can
 * take it (not held whole, compute left, device memory left when known, fewer than {@code maxShares} sharers) the
 * one whose choice raises F least, the fuller on a tie. Register it before {@code deviceshare} in the tiers so its
 * choice is the one taken; {@code deviceshare} still filters. Whole GPUs are left to {@code gpu-aware}, since for
 * fragmentation any untouched device is as good as another.
 *
 * <p>Arguments: {@code weight} (1), {@code fuller} (0.5), {@code window} (5000 latest GPU pods learned),
 * {@code classes} (64 commonest shapes weighed), {@code maxShares} (0: the node's share slots per device, as {@code deviceshare}), {@code cpuPods}
 * (true).
 */
public final class GpuFragmentationPlugin implements Plugin {
  public static final String NAME = "gpu-fragmentation";

  /** The arguments, read once per config, and the workload learned across the config's sessions. */
  record Settings(double weight, double fuller, int maxShares, boolean cpuPods, WorkloadMix mix) {
    static Settings read(Arguments args) {
      double weight = args.getDouble("weight", 1);
      if (weight < 0) {
        args.problem("weight", "must not be negative, got " + weight);
        weight = 1;
      }
      double fuller = args.getDouble("fuller", 0.5);
      if (fuller < 0) {
        args.problem("fuller", "must not be negative, got " + fuller);
        fuller = 0.5;
      }
      int window = args.getInt("window", 5000);
      if (window < 1) {
        args.problem("window", "must be at least 1, got " + window);
        window = 5000;
      }
      int classes = args.getInt("classes", 64);
      if (classes < 1) {
        args.problem("classes", "must be at least 1, got " + classes);
        classes = 64;
      }
      int maxShares = args.getInt("maxShares", 0);
      if (maxShares < 0) {
        args.problem("maxShares", "must be at least 1 (or 0 for the node's own count), got " + maxShares);
        maxShares = 0;
      }
      return new Settings(weight, fuller, maxShares, args.getBoolean("cpuPods", true), new WorkloadMix(window, classes));
    }
  }

  private final Settings settings;
  private FragmentationMeasure measure;
  private int cpuSlot;
  private int memorySlot;
  private TaskInfo lastTask;
  private NodeInfo lastNode;
  private Placement lastPlacement;

  /** Where a pod would go on a node: the share's device (-1 for whole GPUs or none) and the rise in F. */
  private record Placement(int device, double delta, double fill) {}

  GpuFragmentationPlugin(Settings settings) {
    this.settings = settings;
  }

  public static PluginDescriptor<?> descriptor() {
    return PluginDescriptor.of(NAME, Settings::read, GpuFragmentationPlugin::new);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session, Registrar registrar) {
    settings.mix().learn(session.jobs());
    measure = settings.mix().measure();
    cpuSlot = ResourceNames.CPU;
    memorySlot = ResourceNames.MEMORY;
    if (measure.isEmpty()) {
      return;
    }
    registrar.addScorer(this::score);
    registrar.addDeviceChooser(this::choose);
  }

  private double score(TaskInfo task, NodeInfo node) {
    Placement p = placement(task, node);
    if (p == null) {
      return 0;
    }
    return settings.weight() * (Math.max(0, Math.min(100, 100 - (p.delta() + 100) / 10)) + settings.fuller() * p.fill());
  }

  private DeviceClaim choose(TaskInfo task, NodeInfo node) {
    Placement p = placement(task, node);
    Shape s = Shape.of(task);
    if (p == null || p.device() < 0 || s == null) {
      return null;
    }
    return DeviceClaim.share(p.device(), s.cores(), s.memoryMiB());
  }

  /** The best placement of {@code task} on {@code node}, remembered for the chooser that follows the scorer. */
  private Placement placement(TaskInfo task, NodeInfo node) {
    if (task == lastTask && node == lastNode) {
      return lastPlacement;
    }
    lastTask = task;
    lastNode = node;
    lastPlacement = compute(task, node);
    return lastPlacement;
  }

  private Placement compute(TaskInfo task, NodeInfo node) {
    GpuTopology gpus = node.gpus();
    if (gpus == null || gpus.size() == 0) {
      return null;
    }
    Shape shape = Shape.of(task);
    if (shape == null && (!settings.cpuPods() || GpuResources.isShare(task.request()))) {
      return null;
    }
    DeviceUsage usage = node.deviceUsage();
    int n = gpus.size();
    int[] free = new int[n];
    for (int d = 0; d < n; d++) {
      free[d] = (usage.exclusive() >>> d & 1) != 0 ? 0 : Math.max(0, 100 - usage.coresUsed(d));
    }
    long untouched = node.freeDevices();
    long cpu = node.idle(cpuSlot);
    long memory = node.idle(memorySlot);
    double before = measure.of(FragmentationMeasure.State.of(cpu, memory, gpus, free, untouched));
    long cpuAfter = cpu - task.request().get(cpuSlot);
    long memoryAfter = memory - task.request().get(memorySlot);
    if (shape == null) {
      return new Placement(-1, measure.of(FragmentationMeasure.State.of(cpuAfter, memoryAfter, gpus, free,
          untouched)) - before, fill(free));
    }
    if (!shape.share()) {
      long take = untouched;
      int[] after = free.clone();
      long left = untouched;
      for (int i = 0; i < shape.whole() && take != 0; i++) {
        int d = Long.numberOfTrailingZeros(take);
        take &= take - 1;
        after[d] = 0;
        left &= ~(1L << d);
      }
      return new Placement(-1, measure.of(FragmentationMeasure.State.of(cpuAfter, memoryAfter, gpus, after, left))
          - before, fill(after));
    }
    long accepted = shape.rules().isEmpty() ? -1L : shape.constraints().allowed(gpus);
    int maxShares = maxShares(node, shape);
    int best = -1;
    double bestDelta = Double.POSITIVE_INFINITY;
    double bestFill = 0;
    for (int d = 0; d < n; d++) {
      if (!canShare(gpus, usage, d, shape, accepted, maxShares)) {
        continue;
      }
      if (best >= 0 && free[d] == free[best] && (untouched >>> d & 1) == (untouched >>> best & 1)) {
        continue; // same state as a device already tried
      }
      int[] after = free.clone();
      after[d] -= shape.cores();
      double delta = measure.of(FragmentationMeasure.State.of(cpuAfter, memoryAfter, gpus, after,
          untouched & ~(1L << d))) - before;
      if (delta < bestDelta - 1e-9 || (delta < bestDelta + 1e-9 && free[d] < free[best])) {
        best = d;
        bestDelta = delta;
        bestFill = fill(after);
      }
    }
    return best < 0 ? null : new Placement(best, bestDelta, bestFill);
  }

  private static double fill(int[] after) {
    long used = 0;
    for (int f : after) {
      used += 100 - f;
    }
    return used / (100.0 * after.length);
  }

  private static boolean canShare(GpuTopology gpus, DeviceUsage usage, int d, Shape s, long accepted,
      int maxShares) {
    if ((accepted >>> d & 1) == 0 || (usage.exclusive() >>> d & 1) != 0 || usage.shares(d) >= maxShares
        || usage.coresUsed(d) + s.cores() > 100) {
      return false;
    }
    long memory = gpus.device(d).memoryMiB();
    return memory <= 0 || usage.memoryUsedMiB(d) + s.memoryMiB() <= memory;
  }

  /** {@code maxShares}, else the node's share slots per device ({@code deviceshare}'s default), at least 1. */
  private int maxShares(NodeInfo node, Shape s) {
    if (settings.maxShares() > 0) {
      return settings.maxShares();
    }
    String count = s.domain().equals("nvidia.com") ? GpuResources.DEFAULT.get(0) : GpuResources.METAX_SGPU;
    int slot = ResourceNames.indexIfKnown(count);
    long slots = slot < 0 ? 0 : node.allocatable(slot);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, slots / Math.max(1, node.gpus().size())));
  }
}
