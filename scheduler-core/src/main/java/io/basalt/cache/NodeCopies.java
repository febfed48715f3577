package io.basalt.cache;

import io.basalt.api.NodeInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The snapshots' node copies: the present nodes sorted by name, each one's position, and the last copy at each
 * position. A copy is reused while neither the cluster nor a session changed it, and the walk goes by position, so a
 * snapshot of a cluster where few nodes changed costs little more than a pass over an array. Not thread-safe: the
 * cache calls it under its lock.
 */
final class NodeCopies {
  /** The present nodes in name order; null after a node came or went. */
  private List<CachedNode> order;
  private Map<String, Integer> positions = Map.of();
  private NodeInfo[] copies = new NodeInfo[0];

  /** A node came or went: the next {@link #refresh} sorts again. */
  void reorder() {
    order = null;
  }

  /**
   * The copies of the present nodes of {@code all} in name order, asked of {@code copy} (given the last copy, or
   * null, and the node) for the nodes whose generation moved or that a session touched.
   */
  List<NodeInfo> refresh(Collection<CachedNode> all, BiFunction<NodeInfo, CachedNode, NodeInfo> copy) {
    if (order == null) {
      sort(all);
    }
    for (int i = 0; i < copies.length; i++) {
      CachedNode c = order.get(i);
      NodeInfo prev = copies[i];
      if (prev == null || prev.generation() != c.generation || prev.touched()) {
        copies[i] = copy.apply(prev, c);
      }
    }
    return List.of(copies);
  }

  /** The pods on each present node in the last {@link #refresh}'s order. */
  @SuppressWarnings("unchecked")
  List<List<io.basalt.model.Pod>> podLists() {
    List<io.basalt.model.Pod>[] lists = new List[order.size()];
    for (int i = 0; i < lists.length; i++) {
      lists[i] = order.get(i).podList();
    }
    return List.of(lists);
  }

  /** Each present node's position in the last {@link #refresh}, by name; the same map until a node comes or goes. */
  Map<String, Integer> positions() {
    return positions;
  }

  /** Sorts the present nodes, keeping the copies of those that stay. */
  private void sort(Collection<CachedNode> all) {
    List<CachedNode> present = new ArrayList<>();
    for (CachedNode c : all) {
      if (c.node != null) {
        present.add(c);
      }
    }
    present.sort((a, b) -> a.name.compareTo(b.name));
    Map<String, Integer> at = new HashMap<>(present.size() * 2);
    NodeInfo[] kept = new NodeInfo[present.size()];
    for (int i = 0; i < kept.length; i++) {
      String name = present.get(i).name;
      at.put(name, i);
      Integer was = positions.get(name);
      kept[i] = was == null ? null : copies[was];
    }
    order = present;
    positions = Map.copyOf(at);
    copies = kept;
  }
}
