package io.basalt.cache;

import io.basalt.gpu.GpuTopology;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import java.util.LinkedHashMap;
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

  CachedNode(String name) {
    this.name = name;
  }
}
