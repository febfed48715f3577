package io.basalt.plugins.deviceshare;

import io.basalt.gpu.DeviceSet;
import io.basalt.gpu.DeviceUsage;
import io.basalt.gpu.GpuTopology;

/**
 * Which of a node's GPUs can take one more share, and which of them the policy prefers. Kept apart from the plugin
 * so the rules (limits per device, the fullness every choice and score is based on) read in one place.
 */
final class ShareFit {
  /** Binpack and spread treat fullness values this close as equal, so the lower index wins a tie. */
  private static final double EPSILON = 1e-9;

  /** A device that can take the share, and its {@link #fullness}. */
  record Pick(int device, double fullness) {}

  private ShareFit() {}

  /**
   * The device the policy picks among the {@code allowed} ones (null: all) that can take {@code r}, or null when
   * none can.
   *
   * @param maxShares at most this many share pods per device
   */
  static Pick pick(GpuTopology gpus, DeviceUsage usage, ShareRequest r, DeviceSet allowed, int maxShares,
      SharePolicy policy) {
    Pick best = null;
    DeviceSet held = usage.exclusive();
    for (int d = 0; d < gpus.size(); d++) {
      if (held.contains(d) || allowed != null && !allowed.contains(d) || !fits(gpus, usage, d, r, maxShares)) {
        continue;
      }
      double f = fullness(gpus, usage, d, r, maxShares);
      boolean better = best == null
          || (policy == SharePolicy.BINPACK ? f > best.fullness() + EPSILON : f < best.fullness() - EPSILON);
      if (better) {
        best = new Pick(d, f);
      }
    }
    return best;
  }

  /**
   * Whether device {@code d} (not held whole) can take one more share: fewer than {@code maxShares} sharers, compute
   * summing to at most 100, and memory to at most the device's (not checked when its memory is unknown, 0); a share
   * naming no memory takes the whole device's.
   */
  static boolean fits(GpuTopology gpus, DeviceUsage usage, int d, ShareRequest r, int maxShares) {
    return usage.canShare(d, r.cores(), r.memoryOn(gpus.device(d).memoryMiB()), gpus.device(d).memoryMiB(),
        maxShares);
  }

  /**
   * 0..2: 1 when the device already has sharers, plus how full it would be with this share too (the largest of its
   * compute, memory and share-count fractions). Binpack takes the highest, spread the lowest.
   */
  static double fullness(GpuTopology gpus, DeviceUsage usage, int d, ShareRequest r, int maxShares) {
    double load = Math.max((usage.coresUsed(d) + r.cores()) / 100.0, (usage.shares(d) + 1) / (double) maxShares);
    long memory = gpus.device(d).memoryMiB();
    if (memory > 0) {
      load = Math.max(load, (usage.memoryUsedMiB(d) + r.memoryOn(memory)) / (double) memory);
    }
    return (usage.shares(d) > 0 ? 1 : 0) + Math.min(1, load);
  }
}
