package io.basalt.cache;

import io.basalt.api.ClusterTotals;
import io.basalt.model.Node;
import io.basalt.model.ResourceVector;
import io.basalt.model.Taint;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The running sums behind {@link ClusterTotals}: the cache adds a node's allocatable and used when the node appears,
 * takes them back when it goes, and follows every pod placed on or leaving a present node. Not thread-safe: the
 * cache calls it under its lock.
 */
final class NodeTotals {
  private long[] allocatable = new long[0];
  private long[] used = new long[0];
  /** How many present nodes carry each taint, and the set snapshots share until one comes or goes. */
  private final Map<Taint, Integer> taints = new HashMap<>();
  private Set<Taint> taintSet = Set.of();
  private ClusterTotals last;

  /** A node appeared ({@code sign} 1) or went (-1), with what its pods use. */
  void node(Node node, long[] nodeUsed, int sign) {
    for (Taint t : node.taints()) {
      int n = taints.merge(t, sign, Integer::sum);
      if (n == 0) {
        taints.remove(t);
      }
      taintSet = null;
      last = null;
    }
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
      if (taintSet == null) {
        taintSet = Set.copyOf(taints.keySet());
      }
      last = new ClusterTotals(allocatable, used, taintSet);
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
