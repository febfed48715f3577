package io.basalt.plugins.podaffinity;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.NormalizingScorer;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedScorer;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * kube-scheduler's InterPodAffinity score: per node, the weights of the incoming pod's preferred terms times the pods
 * they match in the node's domains (anti-affinity taken off), plus what existing pods' terms say of the incoming pod
 * (their required affinity by {@code hardPodAffinityWeight}, their preferred terms by weight). Normalised as
 * kube-scheduler does, to 0-100 between the lowest and highest raw score among the nodes found, then times the
 * configured weight, as Volcano's nodeorder applies {@code podaffinity.weight}.
 *
 * <p>The raw score reads other pods, so it is not signed, except for a pod with no preferred terms that no pod's terms
 * say anything of: it scores 0 everywhere and signs a constant.
 */
final class AffinityScorer implements PreparedScorer, NormalizingScorer, PodSigner {
  /** kube-scheduler's {@code MaxNodeScore}. */
  static final long MAX_NODE_SCORE = 100;
  /** The signature of a pod that scores 0 on every node. */
  static final String ZERO = "pod affinity: scores 0";

  private final PodState state;
  private final int weight;

  AffinityScorer(PodState state, int weight) {
    this.state = state;
    this.weight = weight;
  }

  @Override
  public Object sign(TaskInfo task) {
    Pod pod = task.pod();
    if (hasPreferredTerms(pod.constraints())) {
      return null;
    }
    return state.noTermPods() || state.view(pod).score.isEmpty() ? ZERO : null;
  }

  private static boolean hasPreferredTerms(PodConstraints c) {
    return !c.preferredAffinity().isEmpty() || !c.preferredAntiAffinity().isEmpty();
  }

  @Override
  public double score(TaskInfo task, NodeInfo node) {
    ToDoubleFunction<NodeInfo> f = forTask(task);
    return f == null ? 0 : f.applyAsDouble(node);
  }

  /** The raw score: a sum over a few topology pairs per node. */
  @Override
  public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
    Pod pod = task.pod();
    List<TopologyCounts> parts = new ArrayList<>(2);
    PodConstraints c = pod.constraints();
    if (hasPreferredTerms(c)) {
      PodState.Terms own = PodState.Terms.of(pod);
      List<Term> terms = new ArrayList<>(own.preferredAffinity());
      terms.addAll(own.preferredAnti());
      List<Integer> weights = new ArrayList<>(terms.size());
      for (int w : own.preferredAffinityWeights()) {
        weights.add(w);
      }
      for (int w : own.preferredAntiWeights()) {
        weights.add(-w);
      }
      TopologyCounts preferred = state.counts(new PodState.Tally(List.copyOf(terms), List.copyOf(weights), false));
      if (!preferred.isEmpty()) {
        parts.add(preferred);
      }
    }
    if (!state.noTermPods()) {
      TopologyCounts existing = state.view(pod).score;
      if (!existing.isEmpty()) {
        parts.add(existing);
      }
    }
    if (parts.isEmpty()) {
      return null; // nothing to say: the search skips this scorer for the task
    }
    TopologyCounts[] all = parts.toArray(TopologyCounts[]::new);
    return node -> {
      Map<String, String> labels = node.node().labels();
      long sum = 0;
      for (TopologyCounts p : all) {
        sum += p.sumFor(labels);
      }
      return sum;
    };
  }

  /**
   * kube-scheduler's NormalizeScore: {@code 100 * (raw - min) / (max - min)}, truncated, all 0 when the raw scores
   * are equal; then times the weight.
   */
  @Override
  public void normalize(TaskInfo task, List<NodeInfo> nodes, double[] scores) {
    normalize(scores, weight);
  }

  static void normalize(double[] scores, int weight) {
    if (scores.length == 0) {
      return;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (double s : scores) {
      min = Math.min(min, (long) s);
      max = Math.max(max, (long) s);
    }
    long diff = max - min;
    for (int i = 0; i < scores.length; i++) {
      long normalized = diff > 0 ? (long) (MAX_NODE_SCORE * ((double) ((long) scores[i] - min) / diff)) : 0;
      scores[i] = (double) normalized * weight;
    }
  }
}
