package io.basalt.search;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.NormalizingScorer;
import io.basalt.framework.PreparedScorer;
import io.basalt.session.ExplainRecorder;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One search's feasible nodes, for a task some {@link NormalizingScorer} scores (kube-scheduler's NormalizeScore,
 * Volcano's batch node order): the nodes are gathered in visit order with their per-node sums, each normalizing
 * scorer is then asked for its raw scores on all of them and normalizes them, and the best total is chosen as a scan
 * chooses (strictly higher wins, so the first in visit order on ties; nodes where the task fits now before nodes
 * where it would be pipelined). Nothing here outlives the search: a normalized score depends on which nodes were
 * found.
 */
final class Candidates {
  private final TaskInfo task;
  private final NormalizingScorer[] scorers;
  private final ToDoubleFunction<NodeInfo>[] raw;
  private final String[] plugins;
  private NodeInfo[] nodes = new NodeInfo[32];
  private double[] sums = new double[32];
  private boolean[] now = new boolean[32];
  private int size;

  private Candidates(TaskInfo task, NormalizingScorer[] scorers, ToDoubleFunction<NodeInfo>[] raw,
      String[] plugins) {
    this.task = task;
    this.scorers = scorers;
    this.raw = raw;
    this.plugins = plugins;
  }

  /**
   * The candidates of a search for {@code task}, or null when no normalizing scorer has anything to say for it (none
   * registered, or each one's {@link PreparedScorer#forTask} said null, as kube-scheduler's PreScore "skip"): the
   * search then chooses as it always did.
   */
  @SuppressWarnings("unchecked")
  static Candidates of(SessionPlugins plugins, TaskInfo task) {
    NormalizingScorer[] all = plugins.normalizers;
    if (all.length == 0) {
      return null;
    }
    // Most tasks carry no preference at all: nothing is allocated until some scorer has something to say.
    NormalizingScorer[] scorers = null;
    ToDoubleFunction<NodeInfo>[] raw = null;
    String[] names = null;
    int n = 0;
    for (int i = 0; i < all.length; i++) {
      NormalizingScorer s = all[i];
      ToDoubleFunction<NodeInfo> fn = s instanceof PreparedScorer p ? p.forTask(task) : node -> s.score(task, node);
      if (fn != null) {
        if (scorers == null) {
          scorers = new NormalizingScorer[all.length];
          raw = new ToDoubleFunction[all.length];
          names = new String[all.length];
        }
        scorers[n] = s;
        raw[n] = fn;
        names[n++] = plugins.normalizerPlugins[i];
      }
    }
    return n == 0 ? null
        : new Candidates(task, Arrays.copyOf(scorers, n), Arrays.copyOf(raw, n), Arrays.copyOf(names, n));
  }

  /** A feasible node, its per-node scorers' sum, and whether the task fits there now. */
  void add(NodeInfo node, double sum, boolean fitsNow) {
    if (size == nodes.length) {
      nodes = Arrays.copyOf(nodes, size * 2);
      sums = Arrays.copyOf(sums, size * 2);
      now = Arrays.copyOf(now, size * 2);
    }
    nodes[size] = node;
    sums[size] = sum;
    now[size++] = fitsNow;
  }

  /** The feasible nodes gathered, in visit order, for tests. */
  int size() {
    return size;
  }

  /**
   * Adds every normalizing scorer's normalized score to the sums and tells {@code result} the best node now and
   * once releasing pods are gone; each normalized score recorded under its plugin when {@code explain} is given.
   */
  void choose(FeasibilityTree.NodeSearchResult result, ExplainRecorder explain) {
    if (size == 0) {
      return;
    }
    double[] total = Arrays.copyOf(sums, size);
    List<NodeInfo> found = List.of(Arrays.copyOf(nodes, size));
    double[] scores = new double[size];
    for (int k = 0; k < scorers.length; k++) {
      for (int i = 0; i < size; i++) {
        scores[i] = raw[k].applyAsDouble(nodes[i]);
      }
      scorers[k].normalize(task, found, scores);
      for (int i = 0; i < size; i++) {
        total[i] += scores[i];
        if (explain != null) {
          explain.scored(task, nodes[i], plugins[k], scores[i]);
        }
      }
    }
    NodeInfo bestNow = null;
    NodeInfo bestLater = null;
    double nowScore = Double.NEGATIVE_INFINITY;
    double laterScore = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < size; i++) {
      if (now[i]) {
        if (total[i] > nowScore) {
          nowScore = total[i];
          bestNow = nodes[i];
        }
      } else if (total[i] > laterScore) {
        laterScore = total[i];
        bestLater = nodes[i];
      }
    }
    result.found(bestNow, bestLater);
  }
}
