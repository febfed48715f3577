package io.basalt.plugins.fragmentation;

import io.basalt.api.JobInfo;
import io.basalt.api.TaskInfo;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The recent workload, learned from the pods the scheduler sees: the shapes of the last {@code window} GPU pods to
 * arrive, each counted once when first seen. The fragmentation measure weighs each shape by the GPU demand it
 * brought, so free GPU capacity counts as fragmented in proportion to how much of that demand could not use it.
 * Lives as long as the config (sessions come and go), so it is relearned after a config reload.
 */
final class WorkloadMix {
  /** A shape and its share of the window. */
  record Entry(Shape shape, double weight) {}

  private final int window;
  private final int classes;
  private final ArrayDeque<Shape> recent = new ArrayDeque<>();
  private final Map<Shape, Integer> counts = new HashMap<>();
  private final Set<String> seen = new LinkedHashSet<>();
  /** GPU pods added since {@link #entries()} last ran. */
  private int addedSince;
  private List<Entry> entries;
  private FragmentationMeasure measure;
  private final boolean packShares;
  private SharePacking packing = SharePacking.NONE;

  /**
   * @param window how many of the latest GPU pods make up the mix
   * @param classes at most this many shapes are weighed, the commonest; the rest are dropped from the mix
   * @param packShares whether to work out the {@link SharePacking} of the mix's shares as well
   */
  WorkloadMix(int window, int classes, boolean packShares) {
    this.window = window;
    this.classes = classes;
    this.packShares = packShares;
  }

  /**
   * Counts the GPU pods of {@code jobs} not seen before: pending ones as they arrive, and on the first session those
   * already running, so a restarted scheduler starts from the fleet's own mix.
   */
  void learn(Collection<JobInfo> jobs) {
    for (JobInfo job : jobs) {
      for (TaskInfo task : job.tasks()) {
        Shape s = Shape.of(task);
        if (s != null && seen.add(task.uid())) {
          add(s);
        }
      }
    }
    while (seen.size() > 4L * window) {
      var it = seen.iterator();
      it.next();
      it.remove();
    }
  }

  void add(Shape s) {
    addedSince++;
    recent.addLast(s);
    counts.merge(s, 1, Integer::sum);
    if (recent.size() > window) {
      Shape old = recent.removeFirst();
      counts.computeIfPresent(old, (k, v) -> v == 1 ? null : v - 1);
    }
  }

  /**
   * The commonest shapes with their weights (summing to 1), most common first; empty before any GPU pod. A shape
   * weighs its count times the GPU amount each pod asks for, so F measures the GPU demand that could not use the free
   * capacity (FGD weighs by count alone; by GPU amount placed 0.5 points more of openb's GPUs).
   */
  List<Entry> entries() {
    if (entries != null && addedSince == 0) {
      return entries;
    }
    addedSince = 0;
    List<Map.Entry<Shape, Integer>> all = new ArrayList<>(counts.entrySet());
    all.sort(Map.Entry.<Shape, Integer>comparingByValue().reversed()
        .thenComparing(Map.Entry::getKey, Shape.ORDER));
    List<Map.Entry<Shape, Integer>> top = all.subList(0, Math.min(classes, all.size()));
    double total = top.stream().mapToDouble(e -> (double) e.getValue() * e.getKey().gpuPercent()).sum();
    List<Entry> out = new ArrayList<>(top.size());
    for (Map.Entry<Shape, Integer> e : top) {
      out.add(new Entry(e.getKey(), (double) e.getValue() * e.getKey().gpuPercent() / total));
    }
    entries = List.copyOf(out);
    return entries;
  }

  /**
   * Whether the mix moved enough since {@link #entries()} last ran to be worth re-weighing: at least 1% of the
   * window's pods are new (at least one). A mix of thousands of pods barely moves with each arrival, and re-weighing
   * throws away every fragmentation value already worked out, which a cycle with a few arrivals would pay in full.
   */
  private boolean drifted() {
    return entries == null || addedSince * 100L >= Math.max(1, recent.size());
  }

  /**
   * The fragmentation measure of the mix, kept (with the F values it has worked out) across sessions until the mix
   * {@linkplain #drifted() drifts}.
   */
  FragmentationMeasure measure() {
    if (measure == null || drifted()) {
      measure = new FragmentationMeasure(entries());
      packing = packShares ? packing.next(shareCounts()) : SharePacking.NONE;
    }
    return measure;
  }

  /** The packing of the window's shares, worked out with the {@link #measure()} it goes with. */
  SharePacking packing() {
    return packing;
  }

  /** Share pods in the window by percent of a GPU, every shape counted (not only the weighed classes). */
  private int[] shareCounts() {
    int[] out = new int[101];
    counts.forEach((shape, n) -> {
      if (shape.share() && shape.cores() < 100) {
        out[shape.cores()] += n;
      }
    });
    return out;
  }
}
