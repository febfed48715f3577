package io.basalt.api;

import io.basalt.model.Taint;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What all of a snapshot's nodes offer and use together, per resource slot. The cache keeps these sums as nodes and
 * pods change, so a session and its plugins read them without a pass over every node each cycle.
 *
 * @param allocatable the nodes' allocatable, summed
 * @param used what running and placed pods use on them, summed
 * @param taints the distinct taints the nodes carry, so a score that reads a kind of taint learns whether any node
 *     has one without visiting them all
 */
public record ClusterTotals(long[] allocatable, long[] used, Set<Taint> taints) {
  public static final ClusterTotals EMPTY = new ClusterTotals(new long[0], new long[0], Set.of());

  public ClusterTotals {
    allocatable = allocatable.clone();
    used = used.clone();
    taints = Set.copyOf(taints);
  }

  /** The sums over {@code nodes}, for a snapshot not made by the cache. */
  public static ClusterTotals of(Iterable<NodeInfo> nodes, int slots) {
    long[] allocatable = new long[slots];
    long[] used = new long[slots];
    Set<Taint> taints = new LinkedHashSet<>();
    for (NodeInfo n : nodes) {
      for (int r = 0; r < slots; r++) {
        allocatable[r] += n.allocatable(r);
        used[r] += n.used(r);
      }
      taints.addAll(n.node().taints());
    }
    return new ClusterTotals(allocatable, used, taints);
  }

  /** The allocatable sum in a fresh array of {@code slots} slots. */
  public long[] allocatable(int slots) {
    return Arrays.copyOf(allocatable, slots);
  }

  /** The used sum in a fresh array of {@code slots} slots. */
  public long[] used(int slots) {
    return Arrays.copyOf(used, slots);
  }

  @Override
  public long[] allocatable() {
    return allocatable.clone();
  }

  @Override
  public long[] used() {
    return used.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClusterTotals t && Arrays.equals(allocatable, t.allocatable) && Arrays.equals(used, t.used)
        && taints.equals(t.taints);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(allocatable) + Arrays.hashCode(used)) + taints.hashCode();
  }

  @Override
  public String toString() {
    return "ClusterTotals[allocatable=" + Arrays.toString(allocatable) + ", used=" + Arrays.toString(used) + "]";
  }
}
