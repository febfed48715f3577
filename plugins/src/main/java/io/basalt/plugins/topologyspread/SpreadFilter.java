package io.basalt.plugins.topologyspread;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.FilterResult;
import io.basalt.framework.PodSigner;
import io.basalt.framework.PreparedFilter;
import io.basalt.model.Pod;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * kube-scheduler's PodTopologySpread filter, for DoNotSchedule constraints: a node fits when, for each constraint, it
 * carries the topology key and the matching pods of its domain plus the pod itself (when it matches) exceed the
 * smallest domain's count by at most {@code maxSkew} (the smallest taken as 0 while there are fewer domains than
 * {@code minDomains}). The counts move as the session places pods, so the answer of an unchanged node changes: a pod
 * with such constraints is never signed, and a pod without any always passes (signed, so it keeps full reuse).
 */
final class SpreadFilter implements PreparedFilter, PodSigner {
  static final FilterResult NOT_MATCH = FilterResult.unfit("node(s) didn't match pod topology spread constraints");
  static final FilterResult MISSING_LABEL =
      FilterResult.unfit("node(s) didn't match pod topology spread constraints (missing required label)");

  /** The signature of a pod without hard constraints: it passes everywhere. */
  private static final Object UNCONSTRAINED = "no-topology-spread";

  private final PodCounts counts;
  private final Map<Pod, Constraints> resolved = new IdentityHashMap<>();

  SpreadFilter(PodCounts counts) {
    this.counts = counts;
  }

  @Override
  public Object sign(TaskInfo task) {
    return Constraints.any(task.pod(), true, false) ? null : UNCONSTRAINED;
  }

  @Override
  public FilterResult filter(TaskInfo task, NodeInfo node) {
    Function<NodeInfo, FilterResult> check = forTask(task);
    return check == null ? FilterResult.OK : check.apply(node);
  }

  @Override
  public Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
    if (!Constraints.any(task.pod(), true, false)) {
      return null;
    }
    List<Constraints.One> list = resolved.computeIfAbsent(task.pod(),
        p -> Constraints.of(p, true, false, counts)).list();
    return node -> verdict(list, counts.position(node));
  }

  /** The verdict on the node at {@code position}, reading one count and one minimum per constraint. */
  static FilterResult verdict(List<Constraints.One> list, int position) {
    if (position < 0) {
      return MISSING_LABEL;
    }
    for (int i = 0, n = list.size(); i < n; i++) {
      Constraints.One c = list.get(i);
      Counts counts = c.counts();
      int v = counts.domains.valueOf(position);
      if (v < 0) {
        return MISSING_LABEL;
      }
      long skew = (long) counts.count(v) + c.self() - counts.minMatch(c.minDomains());
      if (skew > c.maxSkew()) {
        return NOT_MATCH;
      }
    }
    return FilterResult.OK;
  }
}
