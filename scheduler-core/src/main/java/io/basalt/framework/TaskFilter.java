package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;

/** Filter phase (Volcano's predicate): may this task run on this node? All registered filters must pass. */
@FunctionalInterface
public interface TaskFilter {
  FilterResult filter(TaskInfo task, NodeInfo node);
}
