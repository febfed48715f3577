package io.basalt.search;

import io.basalt.api.Demand;
import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.CpuMemoryScore;
import io.basalt.framework.FilterResult;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.PreparedFilter;
import io.basalt.framework.PreparedScorer;
import io.basalt.framework.TaskFilter;
import io.basalt.model.ResourceNames;
import io.basalt.session.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * What a search asks of nodes, prepared for one task: the fit check's demand, the filters and the scorers, each
 * prepared once ({@link PreparedFilter}, {@link PreparedScorer}) so a visit asks per node only what depends
 * on the node. The answers are those of {@code Callbacks.filter} and {@code Callbacks.score}, in the same order. When
 * every filter and scorer keys its answer ({@link EquivalenceCache.Table}), tasks of one key get the same answers on
 * every node, so the first task's preparation serves the others of its key for the rest of the session.
 */
record PreparedChecks(Demand demand, Function<NodeInfo, FilterResult> filtering, ToDoubleFunction<NodeInfo> scoring) {
  /** Prepared for {@code task}, every scorer asked on every node: for searches that keep the sums themselves. */
  static PreparedChecks fresh(SessionPlugins plugins, TaskInfo task, boolean[] skip) {
    return fresh(plugins, plugins.filters, task, skip);
  }

  /** As {@link #fresh(SessionPlugins, TaskInfo, boolean[])} with {@code filters} of the session's, in their order. */
  static PreparedChecks fresh(SessionPlugins plugins, TaskFilter[] filters, TaskInfo task, boolean[] skip) {
    return new PreparedChecks(Demand.of(task.request(), skip), filtering(filters, task), freshScoring(plugins, task));
  }

  /**
   * As {@link #fresh(SessionPlugins, TaskFilter[], TaskInfo, boolean[])}, each scorer's answer recorded
   * ({@link GroupedScores.Sum}) for a key with a grouped scorer.
   */
  static PreparedChecks grouped(SessionPlugins plugins, TaskFilter[] filters, TaskInfo task, boolean[] skip) {
    return new PreparedChecks(Demand.of(task.request(), skip), filtering(filters, task),
        new GroupedScores.Sum(forTask(plugins.scorers, task)));
  }

  /** Prepared for {@code task}, the answers of scorers that name a key kept by {@code cache} for the session. */
  static PreparedChecks keepingScores(Session session, SessionPlugins plugins, TaskFilter[] filters,
      EquivalenceCache cache, TaskInfo task, boolean[] skip) {
    ToDoubleFunction<NodeInfo> kept = plugins.explaining ? null : cache.scoring(session, plugins, task);
    return new PreparedChecks(Demand.of(task.request(), skip), filtering(filters, task),
        kept != null ? kept : freshScoring(plugins, task));
  }

  /** The sum of every scorer; each plugin's score recorded through {@code Callbacks.score} when explaining. */
  private static ToDoubleFunction<NodeInfo> freshScoring(SessionPlugins plugins, TaskInfo task) {
    if (plugins.explaining) {
      return node -> plugins.callbacks.score(task, node);
    }
    return sum(forTask(plugins.scorers, task));
  }

  /** Every filter prepared for {@code task}, the first failure answering; filters that pass every node left out. */
  static Function<NodeInfo, FilterResult> filtering(TaskFilter[] filters, TaskInfo task) {
    List<Function<NodeInfo, FilterResult>> checks = new ArrayList<>(filters.length);
    for (TaskFilter f : filters) {
      Function<NodeInfo, FilterResult> check = f instanceof PreparedFilter p ? p.forTask(task)
          : node -> f.filter(task, node);
      if (check != null) {
        checks.add(check);
      }
    }
    if (checks.isEmpty()) {
      return node -> FilterResult.OK;
    }
    if (checks.size() == 1) {
      return checks.get(0);
    }
    @SuppressWarnings("unchecked")
    Function<NodeInfo, FilterResult>[] all = checks.toArray(new Function[0]);
    return node -> {
      for (Function<NodeInfo, FilterResult> check : all) {
        FilterResult r = check.apply(node);
        if (!r.ok()) {
          return r;
        }
      }
      return FilterResult.OK;
    };
  }

  /** Each of {@code scorers} prepared for {@code task}, in the same order. */
  @SuppressWarnings("unchecked")
  static ToDoubleFunction<NodeInfo>[] forTask(NodeScorer[] scorers, TaskInfo task) {
    ToDoubleFunction<NodeInfo>[] fns = new ToDoubleFunction[scorers.length];
    for (int i = 0; i < scorers.length; i++) {
      fns[i] = forTask(scorers[i], task);
    }
    return fns;
  }

  /** {@code scorer} prepared for {@code task}. */
  static ToDoubleFunction<NodeInfo> forTask(NodeScorer scorer, TaskInfo task) {
    return scorer instanceof PreparedScorer p ? p.forTask(task) : node -> scorer.score(task, node);
  }

  /** The sum of {@code fns} on a node, added in their order from 0 as {@code Callbacks.score} adds. */
  static ToDoubleFunction<NodeInfo> sum(ToDoubleFunction<NodeInfo>[] fns) {
    if (fns.length == 2 && fns[0] instanceof CpuMemoryScore a && fns[1] instanceof CpuMemoryScore b) {
      return new CpuMemorySum(a, b);
    }
    return node -> {
      double total = 0;
      for (ToDoubleFunction<NodeInfo> f : fns) {
        total += f.applyAsDouble(node);
      }
      return total;
    };
  }

  /**
   * Two scores that read only cpu and memory (the default tiers' nodeorder and binpack, for a pod asking for no GPU),
   * the node's four numbers read once and both scores worked out in one call: the same sum as the general form.
   */
  private static final class CpuMemorySum implements ToDoubleFunction<NodeInfo> {
    private final CpuMemoryScore first;
    private final CpuMemoryScore second;

    CpuMemorySum(CpuMemoryScore first, CpuMemoryScore second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public double applyAsDouble(NodeInfo node) {
      long cpuAllocatable = node.allocatable(ResourceNames.CPU);
      long cpuUsed = node.used(ResourceNames.CPU);
      long memoryAllocatable = node.allocatable(ResourceNames.MEMORY);
      long memoryUsed = node.used(ResourceNames.MEMORY);
      double total = 0;
      total += first.score(cpuAllocatable, cpuUsed, memoryAllocatable, memoryUsed);
      total += second.score(cpuAllocatable, cpuUsed, memoryAllocatable, memoryUsed);
      return total;
    }
  }
}
