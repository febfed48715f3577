package io.basalt.cache;

import io.basalt.api.ClusterTotals;
import io.basalt.model.Node;
import io.basalt.model.ResourceVector;
import java.util.Arrays;

/**
 * The running sums behind {@link ClusterTotals}: the cache adds a node's allocatable and used when the node appears,
 * takes them back when it goes, and follows every pod placed on or leaving a present node. Not thread-safe: the
 * cache calls it under its lock.
 */
final class NodeTotals {
  private long[] allocatable = new long[0];
  private long[] used = new long[0];
  private ClusterTotals last;

  /** A node appeared ({@code sign} 1) or went (-1), with what its pods use. */
  void node(Node node, long[] nodeUsed, int sign) {
    ResourceVector a = node.allocatable();
    allocatable = add(allocatable, a::get, a.size(), sign);
    used(nodeUsed, sign);
  }

  /** A present node's pods changed by {@code request}. */
  void used(ResourceVector request, int sign) {
    used = add(used, request::get, request.size(), sign);
  }

  private void used(long[] nodeUsed, int sign) {
    used = add(used, i -> nodeUsed[i], nodeUsed.length, sign);
  }

  /** The sums now; the same object while nothing changed. */
  ClusterTotals totals() {
    if (last == null) {
      last = new ClusterTotals(allocatable, used);
    }
    return last;
  }

  private long[] add(long[] target, java.util.function.IntToLongFunction value, int size, int sign) {
    last = null;
    long[] t = target.length < size ? Arrays.copyOf(target, size) : target;
    for (int i = 0; i < size; i++) {
      t[i] += sign * value.applyAsLong(i);
    }
    return t;
  }
}
