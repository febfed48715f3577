package io.basalt.api;

import java.util.Arrays;

/**
 * What all of a snapshot's nodes offer and use together, per resource slot. The cache keeps these sums as nodes and
 * pods change, so a session and its plugins read them without a pass over every node each cycle.
 *
 * @param allocatable the nodes' allocatable, summed
 * @param used what running and placed pods use on them, summed
 */
public record ClusterTotals(long[] allocatable, long[] used) {
  public static final ClusterTotals EMPTY = new ClusterTotals(new long[0], new long[0]);

  public ClusterTotals {
    allocatable = allocatable.clone();
    used = used.clone();
  }

  /** The sums over {@code nodes}, for a snapshot not made by the cache. */
  public static ClusterTotals of(Iterable<NodeInfo> nodes, int slots) {
    long[] allocatable = new long[slots];
    long[] used = new long[slots];
    for (NodeInfo n : nodes) {
      for (int r = 0; r < slots; r++) {
        allocatable[r] += n.allocatable(r);
        used[r] += n.used(r);
      }
    }
    return new ClusterTotals(allocatable, used);
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
    return o instanceof ClusterTotals t && Arrays.equals(allocatable, t.allocatable) && Arrays.equals(used, t.used);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(allocatable) + Arrays.hashCode(used);
  }

  @Override
  public String toString() {
    return "ClusterTotals[allocatable=" + Arrays.toString(allocatable) + ", used=" + Arrays.toString(used) + "]";
  }
}
