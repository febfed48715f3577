package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.model.ResourceNames;
import java.util.function.ToDoubleFunction;

/**
 * A score, prepared for one task ({@link PreparedScorer#forTask}), that reads of a node only its cpu and memory: how
 * much of each it has allocatable and how much its pods use (the task's own request not included). A scorer returns
 * one when that holds for the task, as resource scores do for a pod asking for no GPU; a search then reads those four
 * numbers once for every such scorer and adds their answers in one step, instead of calling each scorer per node.
 */
@FunctionalInterface
public interface CpuMemoryScore extends ToDoubleFunction<NodeInfo> {
  /** The score on a node with these amounts; exactly what {@link #applyAsDouble} answers on it. */
  double score(long cpuAllocatable, long cpuUsed, long memoryAllocatable, long memoryUsed);

  @Override
  default double applyAsDouble(NodeInfo node) {
    return score(node.allocatable(ResourceNames.CPU), node.used(ResourceNames.CPU),
        node.allocatable(ResourceNames.MEMORY), node.used(ResourceNames.MEMORY));
  }
}
