package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import java.util.function.Function;

/**
 * Optional for a {@link TaskFilter}: the filter for one task across the nodes of one search, for a filter that works
 * something out from the task alone (its selectors, whether it tolerates a taint) once instead of once per node.
 */
public interface PreparedFilter extends TaskFilter {
  /**
   * Answers exactly what {@link #filter} answers on each node; null when the answer is OK on every node whatever its
   * state, so a search need not ask at all.
   */
  Function<NodeInfo, FilterResult> forTask(TaskInfo task);
}
