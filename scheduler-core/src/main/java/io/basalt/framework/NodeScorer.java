package io.basalt.framework;

/** Score phase (Volcano's node order): higher is better; scores of all plugins are summed. */
@FunctionalInterface
public interface NodeScorer {
  double score(TaskInfo task, NodeInfo node);
}
