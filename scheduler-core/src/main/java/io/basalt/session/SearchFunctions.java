package io.basalt.session;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import io.basalt.framework.CpuMemoryScore;
import io.basalt.framework.FilterResult;
import io.basalt.framework.NodeScorer;
import io.basalt.framework.TaskFilter;
import io.basalt.model.ResourceNames;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The filters and scorers of a session put together for one task's search, each prepared for the task once
 * ({@link TaskFilter#forTask}, {@link NodeScorer#forTask}): a search then asks per node only what depends on the node.
 * The answers are those of {@link Callbacks#filter} and {@link Callbacks#score}, in the same order.
 */
final class SearchFunctions {
  private SearchFunctions() {}

  /**
   * Every filter prepared for {@code task}, then {@code devices} (the engine's own check, null when the task asks
   * for no device); the first failure answers. Filters that pass every node for this task are left out.
   */
  static Function<NodeInfo, FilterResult> filtering(TaskFilter[] filters, Function<NodeInfo, FilterResult> devices,
      TaskInfo task) {
    List<Function<NodeInfo, FilterResult>> checks = new ArrayList<>(filters.length + 1);
    for (TaskFilter f : filters) {
      Function<NodeInfo, FilterResult> check = f.forTask(task);
      if (check != null) {
        checks.add(check);
      }
    }
    if (devices != null) {
      checks.add(devices);
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
      fns[i] = scorers[i].forTask(task);
    }
    return fns;
  }

  /** The sum of {@code fns} on a node, added in their order from 0 as {@link Callbacks#score} adds. */
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
