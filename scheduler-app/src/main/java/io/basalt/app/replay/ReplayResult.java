package io.basalt.app.replay;

import io.basalt.app.replay.DeviceLedger.Violation;
import java.util.List;
import java.util.Map;

/**
 * What one replay found.
 *
 * @param protocol {@code clock} (arrivals and departures on a simulated clock) or {@code fgd} (the paper's: seeded
 *     order, one attempt per pod, no departures)
 * @param arrived pods submitted; {@code placed} of them bound, {@code unplaced} never (skipped under fgd; still
 *     pending at the end or withdrawn at their trace deletion time under clock)
 * @param gpus GPUs in the cluster (capacity = gpus x 1000 milli)
 * @param samples the run as it went: the allocation curve and utilisation/fragmentation over time
 * @param stranding per GPU model at the end: free and fragmented GPUs
 * @param waitSeconds every placed pod's wait from arrival to binding (clock protocol; empty under fgd), ascending
 * @param outcomes per request class ({@link #requestClass}): pods arrived and placed
 * @param unplacedReasons the engine's commonest last reasons for the pods never placed, with how many had each
 * @param wallSeconds the replay's wall time, reading the trace excluded
 */
record ReplayResult(String protocol, String config, long seed, int nodes, long gpus, int arrived, int placed,
    int unplaced, int cycles, List<Sample> samples, List<ModelStranding> stranding, long[] waitSeconds,
    List<Violation> violations, Map<String, Outcome> outcomes,
    Map<String, Integer> unplacedReasons, double wallSeconds) {

  /**
   * One point of the run.
   *
   * @param time trace second (clock) or pods attempted so far (fgd)
   * @param arrivedPercent GPU requests of the pods present (clock: running and pending) or attempted so far (fgd),
   *     in percent of cluster GPU capacity
   * @param allocatedPercent milli-GPUs held by placed pods, in percent of capacity
   * @param fragmentedPercent fragmented free GPU capacity ({@link Fragmentation}), in percent of capacity
   */
  record Sample(long time, double arrivedPercent, double allocatedPercent, double fragmentedPercent, int pending,
      int running) {}

  /** One GPU model at the end: its GPUs, how many are free, and how many of those the workload cannot use. */
  record ModelStranding(String model, long gpus, double freeGpus, double strandedGpus) {}

  /** How many pods of one request class arrived and how many were placed. */
  record Outcome(int arrived, int placed) {}

  /** "cpu only", "share", "1 GPU", "8 GPUs": what the per-class outcome groups by. */
  static String requestClass(OpenbTrace.TracePod p) {
    return p.numGpu() == 0 ? "cpu only" : p.isShare() ? "share" : p.numGpu() + (p.numGpu() == 1 ? " GPU" : " GPUs");
  }

  /** The allocation when the arrived workload first reached {@code percent}, or -1 if it never did. */
  double allocationAt(double percent) {
    for (Sample s : samples) {
      if (s.arrivedPercent() >= percent - 1e-9) {
        return s.allocatedPercent();
      }
    }
    return -1;
  }

  Sample last() {
    return samples.isEmpty() ? new Sample(0, 0, 0, 0, 0, 0) : samples.get(samples.size() - 1);
  }

  /** Nearest-rank percentile of the waits, seconds; 0 when nothing waited. */
  long waitPercentile(int p) {
    if (waitSeconds.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * waitSeconds.length);
    return waitSeconds[Math.max(0, rank - 1)];
  }
}
