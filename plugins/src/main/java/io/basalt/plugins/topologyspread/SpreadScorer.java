package io.basalt.plugins.topologyspread;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.NormalizingScorer;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedScorer;
import io.basalt.model.Pod;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * kube-scheduler's PodTopologySpread score, for ScheduleAnyway constraints (or the cluster's default ones): a node's
 * raw score is, over the constraints, the matching pods of its domain times {@code log(domains + 2)} (domains counted
 * among the candidate nodes) plus {@code maxSkew - 1}; {@link #normalize} then gives the least crowded candidate 100
 * and the others {@code 100 * (max + min - s) / max}, candidates lacking a constraint's key 0 (kube-scheduler ignores
 * them). Times the weight. Since the domain count depends on the candidates, the whole score is worked out in
 * {@link #normalize}; {@link #score} alone (a search that does not normalise) returns minus the weighted raw score
 * taken over every domain, so fewer matching pods still score higher. A pod without soft constraints scores 0 and is
 * signed; one with them is not.
 */
final class SpreadScorer implements PreparedScorer, NormalizingScorer, PodSigner {
  /** kube-scheduler's {@code framework.MaxNodeScore}. */
  static final long MAX_NODE_SCORE = 100;
  private static final Object UNCONSTRAINED = "no-topology-spread";

  private final PodCounts counts;
  private final int weight;
  private final boolean defaults;
  private final Map<Pod, Constraints> resolved = new IdentityHashMap<>();

  SpreadScorer(PodCounts counts, int weight, boolean defaults) {
    this.counts = counts;
    this.weight = weight;
    this.defaults = defaults;
  }

  @Override
  public Object sign(TaskInfo task) {
    return Constraints.any(task.pod(), false, defaults) ? null : UNCONSTRAINED;
  }

  private Constraints constraints(TaskInfo task) {
    if (!Constraints.any(task.pod(), false, defaults)) {
      return Constraints.NONE;
    }
    return resolved.computeIfAbsent(task.pod(), p -> Constraints.of(p, false, defaults, counts));
  }

  /** The raw score of one node alone, its domain counts weighted as if every domain were a candidate's. */
  @Override
  public double score(TaskInfo task, NodeInfo node) {
    Constraints cs = constraints(task);
    if (cs.isEmpty()) {
      return 0;
    }
    int p = counts.position(node);
    double raw = 0;
    for (Constraints.One c : cs.list()) {
      int v = p < 0 ? -1 : c.counts().domains.valueOf(p);
      if (v >= 0) {
        raw += c.counts().count(v) * Math.log(c.counts().domainCount() + 2) + (c.maxSkew() - 1);
      }
    }
    return -weight * raw;
  }

  /**
   * Null (skip) for a pod without soft constraints; else a per-node score the search hands to {@link #normalize},
   * which does not read it: kube-scheduler's score weighs each constraint by the candidates' domain count, known only
   * once every candidate is, so {@link #rawScores} works all of them out there.
   */
  @Override
  public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
    return constraints(task).isEmpty() ? null : NOT_READ;
  }

  private static final ToDoubleFunction<NodeInfo> NOT_READ = node -> 0;

  @Override
  public void normalize(TaskInfo task, List<NodeInfo> nodes, double[] scores) {
    Constraints cs = constraints(task);
    if (cs.isEmpty()) {
      java.util.Arrays.fill(scores, 0, nodes.size(), 0);
      return;
    }
    long[] raw = rawScores(cs, nodes);
    long min = Long.MAX_VALUE;
    long max = 0;
    for (long s : raw) {
      if (s >= 0) {
        min = Math.min(min, s);
        max = Math.max(max, s);
      }
    }
    for (int i = 0; i < raw.length; i++) {
      long normalized;
      if (raw[i] < 0) {
        normalized = 0;
      } else if (max == 0) {
        normalized = MAX_NODE_SCORE;
      } else {
        normalized = MAX_NODE_SCORE * (max + min - raw[i]) / max;
      }
      scores[i] = (double) weight * normalized;
    }
  }

  /**
   * kube-scheduler's PreScore and Score over the candidates: per candidate its rounded raw score, -1 for a candidate
   * ignored (it lacks a key of the pod's own constraints).
   */
  long[] rawScores(Constraints cs, List<NodeInfo> nodes) {
    Constraints.One[] list = cs.list().toArray(new Constraints.One[0]);
    int n = nodes.size();
    // Per candidate and constraint, the domain value of its node; -1 for a candidate ignored.
    int[][] values = new int[list.length][n];
    int kept = 0;
    for (int i = 0; i < n; i++) {
      int p = counts.position(nodes.get(i));
      boolean ignored = false;
      for (int k = 0; k < list.length; k++) {
        int v = p < 0 ? -1 : list[k].counts().domains.valueOf(p);
        values[k][i] = v;
        ignored |= v < 0 && !cs.defaulted();
      }
      if (ignored) {
        for (int k = 0; k < list.length; k++) {
          values[k][i] = IGNORED;
        }
      } else {
        kept++;
      }
    }
    double[] topologyWeight = new double[list.length];
    for (int k = 0; k < list.length; k++) {
      Constraints.One c = list[k];
      int size;
      if (Constraints.HOSTNAME.equals(c.key())) {
        size = kept;
      } else {
        boolean[] seen = new boolean[c.counts().domains.values()];
        size = 0;
        for (int i = 0; i < n; i++) {
          int v = values[k][i];
          if (v >= 0 && !seen[v]) {
            seen[v] = true;
            size++;
          }
        }
      }
      topologyWeight[k] = Math.log(size + 2);
    }
    long[] raw = new long[n];
    for (int i = 0; i < n; i++) {
      if (list.length > 0 && values[0][i] == IGNORED) {
        raw[i] = -1;
        continue;
      }
      double s = 0;
      for (int k = 0; k < list.length; k++) {
        int v = values[k][i];
        if (v >= 0) {
          Constraints.One c = list[k];
          s += c.counts().count(v) * topologyWeight[k] + (c.maxSkew() - 1);
        }
      }
      raw[i] = Math.round(s);
    }
    return raw;
  }

  /** A candidate left out of the score: it lacks a key of the pod's own constraints. */
  private static final int IGNORED = -2;
}
