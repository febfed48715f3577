package io.basalt.cache;

import io.basalt.gpu.GpuTopology;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The cache's accounting for one node; may exist before its Node object when pods arrive first. */
final class CachedNode {
  final String name;
  Node node;
  GpuTopology gpus;
  long[] used = new long[0];
  long[] releasing = new long[0];
  long generation;
  final Map<String, Pod> pods = new LinkedHashMap<>();
  /** The snapshots' copy of {@link #pods}, dropped when one comes, changes or goes. */
  private List<Pod> podsCopy;

  CachedNode(String name) {
    this.name = name;
  }

  /** An immutable copy of the pods, shared by snapshots until they change. */
  List<Pod> podList() {
    if (podsCopy == null) {
      podsCopy = pods.isEmpty() ? List.of() : List.copyOf(pods.values());
    }
    return podsCopy;
  }

  /** The pods changed: the next {@link #podList} copies them again. */
  void podsChanged() {
    podsCopy = null;
  }
}
