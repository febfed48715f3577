package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;

/** Score phase (Volcano's node order): higher is better; scores of all plugins are summed. */
@FunctionalInterface
public interface NodeScorer {
  double score(TaskInfo task, NodeInfo node);
}
