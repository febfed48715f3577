package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;

/**
 * Filter phase (Volcano's predicate): may this task run on this node? All registered filters must pass.
 *
 * <p>A filter that implements nothing else is asked on every node of every search, which is always correct. Two
 * optional interfaces make it cheaper: {@link PreparedFilter} (work out what depends on the task once per search)
 * and {@link PodSigner} (say what of the pod the answer reads, so the node search may reuse it on an unchanged node).
 */
@FunctionalInterface
public interface TaskFilter {
  FilterResult filter(TaskInfo task, NodeInfo node);
}
