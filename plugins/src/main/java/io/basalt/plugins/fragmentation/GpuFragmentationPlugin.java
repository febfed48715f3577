package io.basalt.plugins.fragmentation;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.config.Arguments;
import io.basalt.framework.Plugin;
import io.basalt.framework.PluginDescriptor;
import io.basalt.framework.Registrar;
import io.basalt.framework.SessionView;
import io.basalt.gpu.DeviceClaim;
import io.basalt.gpu.ShareSize;
import io.basalt.plugins.fragmentation.PlacementFinder.Placement;

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
 * that fragment alike the fuller node wins, so free capacity stays together; {@code fuller: 0} is FGD's score as
 * published.
 * With {@code gaps} g > 0 a whole-GPU pod's score also loses {@code 100 g x} the room on the node's shared GPUs
 * (those at least {@code gapMin} percent free, over the node's GPUs): whole pods keep off the nodes where shares
 * still have room to fill, whose cpu and memory the later shares need.
 * With {@code close} c > 0 a share that leaves a GPU already shared at most {@code closeGap} percent free is put on
 * that GPU (the fullest such), whatever F says, and its node scores {@code 10 c x} that GPU's use after it (0..1)
 * more: shares finish nearly full GPUs rather than leave new gaps.
 * With {@code pack} k > 0 a share's rise in F on each device also gains {@code 100 k x} its {@link SharePacking} cost:
 * what placing it there loses against the best packing of the learned mix's shares onto GPUs, in GPUs. What each
 * argument gains on the openb trace is in docs/BENCHMARKS-HISTORY.md and docs/GPU.md.
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
 * {@code classes} (64 commonest shapes weighed), {@code gaps} (0), {@code gapMin} (25), {@code close} (0),
 * {@code closeGap} (6), {@code pack} (0), {@code maxShares} (0: the node's share slots per device, as
 * {@code deviceshare}), {@code cpuPods} (true).
 */
public final class GpuFragmentationPlugin implements Plugin {
  public static final String NAME = "gpu-fragmentation";

  /** The arguments, read once per config, and the workload learned across the config's sessions. */
  record Settings(double weight, double fuller, double gaps, double close, PlacementFinder finder) {
    static Settings read(Arguments args) {
      double weight = args.getDouble("weight", 1, 0);
      double fuller = args.getDouble("fuller", 0.5, 0);
      int window = args.getInt("window", 5000, 1, Integer.MAX_VALUE);
      int classes = args.getInt("classes", 64, 1, Integer.MAX_VALUE);
      int maxShares = args.getInt("maxShares", 0);
      if (maxShares < 0) {
        args.problem("maxShares", "must be at least 1 (or 0 for the node's own count), got " + maxShares);
        maxShares = 0;
      }
      double gaps = args.getDouble("gaps", 0, 0);
      int gapMin = args.getInt("gapMin", 25, 1, 100); // percent of a GPU
      double close = args.getDouble("close", 0, 0);
      int closeGap = args.getInt("closeGap", 6, 0, 100); // percent of a GPU
      double pack = args.getDouble("pack", 0, 0);
      WorkloadMix mix = new WorkloadMix(window, classes, pack > 0);
      return new Settings(weight, fuller, gaps, close, new PlacementFinder(mix, maxShares,
          args.getBoolean("cpuPods", true), gapMin, close > 0 ? closeGap : -1, pack));
    }
  }

  private final Settings settings;
  private TaskInfo lastTask;
  private NodeInfo lastNode;
  private Placement lastPlacement;

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
    settings.finder().learn(session.jobs());
    if (!settings.finder().refresh()) {
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
    return settings.weight() * (Math.max(0, Math.min(100, 100 - (p.delta() + 100) / 10)) + settings.fuller() * p.fill()
        - settings.gaps() * 100 * p.gaps() + settings.close() * 10 * p.closes());
  }

  private DeviceClaim choose(TaskInfo task, NodeInfo node) {
    Placement p = placement(task, node);
    Shape s = Shape.of(task);
    if (p == null || p.device() < 0 || s == null) {
      return null;
    }
    return DeviceClaim.share(p.device(), s.cores(),
        ShareSize.memoryMiB(s.memoryMiB(), node.gpus().device(p.device()).memoryMiB()));
  }

  /** The best placement of {@code task} on {@code node}, remembered for the chooser that follows the scorer. */
  private Placement placement(TaskInfo task, NodeInfo node) {
    if (task == lastTask && node == lastNode) {
      return lastPlacement;
    }
    lastTask = task;
    lastNode = node;
    lastPlacement = settings.finder().find(task, node);
    return lastPlacement;
  }
}
