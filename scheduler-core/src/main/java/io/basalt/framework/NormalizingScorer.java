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
 *
 * <p>The contract, as the node search keeps it:
 * <ul>
 *   <li>{@link #score} is the raw score (kube-scheduler's Score); it may read anything the session shows (other pods,
 *       counts kept from an {@link AllocationListener}), since it is asked afresh in every search. {@link PodSigner}
 *       is ignored for a normalizing scorer.
 *   <li>A scorer that also implements {@link PreparedScorer} may return null from {@code forTask}: it has nothing to
 *       say for that task (kube-scheduler's PreScore "skip"), adds nothing and is not normalized. A task no
 *       normalizing scorer speaks for is searched exactly as in a session without them, with every shortcut.
 *   <li>{@link #normalize} gets the feasible nodes of one search (the same nodes {@code percentageOfNodesToScore}
 *       finds, those where the task fits now and those where it would wait for releasing pods), at least one, in
 *       visit order, and must leave in {@code scores} what is added to the node's sum: weighted by the plugin's
 *       weight, as the plugin's other scores are.
 *   <li>{@code Callbacks.score} (one node alone, as preemption's node order asks) leaves normalizing scorers out.
 *   <li>With {@code --explain} the normalised value is recorded under the registering plugin's name.
 * </ul>
 */
public interface NormalizingScorer extends NodeScorer {
  /** Rewrites in place {@code scores[i]}, the raw score of {@code nodes.get(i)} for {@code task}. */
  void normalize(TaskInfo task, List<NodeInfo> nodes, double[] scores);
}
