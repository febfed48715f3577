package io.basalt.plugins.nodeorder;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.NormalizingScorer;
import io.basalt.framework.PreparedScorer;
import io.basalt.model.Node;
import io.basalt.model.PreferredSchedulingTerm;
import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * kube-scheduler's preference scores that mean something only across the candidate nodes, as Volcano's nodeorder
 * runs them in its batch node order: each node's raw score, normalized over the feasible nodes of the search
 * ({@link #normalize}, kube-scheduler's {@code DefaultNormalizeScore}), times the plugin weight.
 */
final class PreferenceScores {
  private PreferenceScores() {}

  /**
   * kube-scheduler's {@code helper.DefaultNormalizeScore} with {@code MaxNodeScore} 100, integer arithmetic, then
   * times {@code weight}: each score becomes {@code 100 * score / max} (reversed: {@code 100 - that}); when every
   * score is 0 they stay 0, or all become 100 reversed.
   */
  static void normalize(double[] scores, boolean reverse, int weight) {
    long max = 0;
    for (double s : scores) {
      max = Math.max(max, (long) s);
    }
    for (int i = 0; i < scores.length; i++) {
      long score;
      if (max == 0) {
        score = reverse ? KubeScores.MAX_NODE_SCORE : 0;
      } else {
        score = KubeScores.MAX_NODE_SCORE * (long) scores[i] / max;
        if (reverse) {
          score = KubeScores.MAX_NODE_SCORE - score;
        }
      }
      scores[i] = (double) score * weight;
    }
  }

  /**
   * kube-scheduler's NodeAffinity score: the sum of the weights of the pod's preferred node affinity terms the node
   * matches, normalized to 0..100 of the best node. A pod without preferred terms is not scored (PreScore's skip).
   */
  static final class NodeAffinity implements NormalizingScorer, PreparedScorer {
    private final int weight;

    NodeAffinity(int weight) {
      this.weight = weight;
    }

    @Override
    public double score(TaskInfo task, NodeInfo node) {
      return matched(task.pod().constraints().preferredNodeAffinity(), node.node());
    }

    @Override
    public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
      List<PreferredSchedulingTerm> terms = task.pod().constraints().preferredNodeAffinity();
      boolean any = false;
      for (PreferredSchedulingTerm t : terms) {
        any |= t.weight() != 0;
      }
      return any ? node -> matched(terms, node.node()) : null;
    }

    private static long matched(List<PreferredSchedulingTerm> terms, Node node) {
      long sum = 0;
      for (PreferredSchedulingTerm t : terms) {
        if (t.weight() != 0 && t.term().matches(node)) {
          sum += t.weight();
        }
      }
      return sum;
    }

    @Override
    public void normalize(TaskInfo task, List<NodeInfo> nodes, double[] scores) {
      PreferenceScores.normalize(scores, false, weight);
    }
  }

  /**
   * kube-scheduler's TaintToleration score: the node's PreferNoSchedule taints the pod does not tolerate, counted,
   * then reverse-normalized (the node with the most scores 0, a node with none 100).
   *
   * <p>With no such taint on any node, or when the pod tolerates every one the session's nodes carry, every node
   * scores the same 100 times the weight, which changes no choice: the scorer is then left out (not registered, or
   * null from {@link #forTask}), so such searches keep every shortcut. A node's absolute score then lacks that
   * constant, unlike Volcano's.
   */
  static final class TaintToleration implements NormalizingScorer, PreparedScorer {
    private final int weight;
    /** The distinct PreferNoSchedule taints of the session's nodes. */
    private final List<Taint> taints;

    private TaintToleration(int weight, List<Taint> taints) {
      this.weight = weight;
      this.taints = taints;
    }

    /**
     * The scorer for a session whose nodes carry {@code nodeTaints} (distinct), or null when none of them is a
     * PreferNoSchedule taint.
     */
    static TaintToleration of(int weight, Collection<Taint> nodeTaints) {
      List<Taint> soft = new ArrayList<>();
      for (Taint t : nodeTaints) {
        if (prefersNoSchedule(t)) {
          soft.add(t);
        }
      }
      return soft.isEmpty() ? null : new TaintToleration(weight, soft);
    }

    private static boolean prefersNoSchedule(Taint t) {
      return "PreferNoSchedule".equals(t.effect());
    }

    @Override
    public double score(TaskInfo task, NodeInfo node) {
      return intolerable(task.pod().tolerations(), node.node());
    }

    @Override
    public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
      List<Toleration> tolerations = task.pod().tolerations();
      for (Taint t : taints) {
        if (!tolerated(tolerations, t)) {
          return node -> intolerable(tolerations, node.node());
        }
      }
      return null;
    }

    private static long intolerable(List<Toleration> tolerations, Node node) {
      long count = 0;
      for (Taint t : node.taints()) {
        if (prefersNoSchedule(t) && !tolerated(tolerations, t)) {
          count++;
        }
      }
      return count;
    }

    /** Whether a toleration of effect PreferNoSchedule or of any effect tolerates {@code taint}. */
    private static boolean tolerated(List<Toleration> tolerations, Taint taint) {
      for (Toleration t : tolerations) {
        if (t.tolerates(taint)) {
          return true;
        }
      }
      return false;
    }

    @Override
    public void normalize(TaskInfo task, List<NodeInfo> nodes, double[] scores) {
      PreferenceScores.normalize(scores, true, weight);
    }
  }
}
