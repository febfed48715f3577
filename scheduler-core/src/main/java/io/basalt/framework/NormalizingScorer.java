package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import java.util.List;

/**
 * Optional for a {@link NodeScorer} whose raw scores mean something only next to the other candidates' (as
 * kube-scheduler's NormalizeScore and Volcano's batch node order): once the search has found its feasible nodes, it
 * asks this scorer for each, hands all raw scores to {@link #normalize} (typically to 0-100 of the best), and only
 * then sums them with the other scorers'. A normalised score depends on which nodes were found, so it is never kept
 * across searches.
 */
public interface NormalizingScorer extends NodeScorer {
  /** Rewrites in place {@code scores[i]}, the raw score of {@code nodes.get(i)} for {@code task}. */
  void normalize(TaskInfo task, List<NodeInfo> nodes, double[] scores);
}
