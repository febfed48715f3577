package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;

/**
 * Score phase (Volcano's node order): higher is better; scores of all plugins are summed.
 *
 * <p>A scorer that implements nothing else is asked on every feasible node of every search, which is always correct.
 * Two optional interfaces make it cheaper: {@link PreparedScorer} (work out what depends on the task once per search)
 * and {@link PodSigner} (say what of the pod the score reads, so the node search may reuse it on an unchanged node).
 */
@FunctionalInterface
public interface NodeScorer {
  double score(TaskInfo task, NodeInfo node);
}
