package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import java.util.function.ToDoubleFunction;

/**
 * Optional for a {@link NodeScorer}: the scorer for one task across the nodes of one search, for a scorer that works
 * something out from the task alone (the request's slots, whether it asks for GPUs) once instead of once per node,
 * since a search visits hundreds of nodes per task. It may return a {@link CpuMemoryScore} when the score reads only
 * the node's cpu and memory.
 */
public interface PreparedScorer extends NodeScorer {
  /** Answers exactly what {@link #score} answers on each node. */
  ToDoubleFunction<NodeInfo> forTask(TaskInfo task);
}
