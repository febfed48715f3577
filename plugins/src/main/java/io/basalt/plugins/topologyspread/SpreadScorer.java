package io.basalt.plugins.topologyspread;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.NormalizingScorer;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedScorer;
import io.basalt.model.Pod;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  @Override
  public double score(TaskInfo task, NodeInfo node) {
    ToDoubleFunction<NodeInfo> f = forTask(task);
    return f == null ? 0 : f.applyAsDouble(node);
  }

  @Override
  public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
    Constraints cs = constraints(task);
    if (cs.isEmpty()) {
      return null; // nothing to say: the search skips this scorer for the task
    }
    return node -> {
      int p = counts.position(node);
      double raw = 0;
      for (Constraints.One c : cs.list()) {
        int v = p < 0 ? -1 : c.counts().domains.valueOf(p);
        if (v >= 0) {
          raw += c.counts().count(v) * Math.log(c.counts().domainCount() + 2) + (c.maxSkew() - 1);
        }
      }
      return -weight * raw;
    };
  }

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
    List<Constraints.One> list = cs.list();
    int n = nodes.size();
    int[] positions = new int[n];
    boolean[] ignored = new boolean[n];
    int kept = 0;
    for (int i = 0; i < n; i++) {
      positions[i] = counts.position(nodes.get(i));
      if (!cs.defaulted()) {
        for (Constraints.One c : list) {
          if (positions[i] < 0 || c.counts().domains.valueOf(positions[i]) < 0) {
            ignored[i] = true;
            break;
          }
        }
      }
      if (!ignored[i]) {
        kept++;
      }
    }
    double[] topologyWeight = new double[list.size()];
    for (int k = 0; k < list.size(); k++) {
      Constraints.One c = list.get(k);
      int size;
      if (Constraints.HOSTNAME.equals(c.key())) {
        size = kept;
      } else {
        Set<Integer> values = new HashSet<>();
        for (int i = 0; i < n; i++) {
          int v = positions[i] < 0 ? -1 : c.counts().domains.valueOf(positions[i]);
          if (!ignored[i] && v >= 0) {
            values.add(v);
          }
        }
        size = values.size();
      }
      topologyWeight[k] = Math.log(size + 2);
    }
    long[] raw = new long[n];
    for (int i = 0; i < n; i++) {
      if (ignored[i]) {
        raw[i] = -1;
        continue;
      }
      double s = 0;
      for (int k = 0; k < list.size(); k++) {
        Constraints.One c = list.get(k);
        int v = positions[i] < 0 ? -1 : c.counts().domains.valueOf(positions[i]);
        if (v >= 0) {
          s += c.counts().count(v) * topologyWeight[k] + (c.maxSkew() - 1);
        }
      }
      raw[i] = Math.round(s);
    }
    return raw;
  }
}
