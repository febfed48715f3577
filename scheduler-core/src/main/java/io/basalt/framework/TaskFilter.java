package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import java.util.function.Function;

/** Filter phase (Volcano's predicate): may this task run on this node? All registered filters must pass. */
@FunctionalInterface
public interface TaskFilter {
  FilterResult filter(TaskInfo task, NodeInfo node);

  /**
   * This filter for {@code task} across the nodes of one search, answering exactly what {@link #filter} answers on
   * each: a filter that works something out from the task alone (its selectors, whether it tolerates a taint) does it
   * here once instead of once per node. Null when the answer is OK on every node whatever its state, so a search
   * need not ask at all.
   */
  default Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
    return node -> filter(task, node);
  }

  /**
   * What of {@code task} this filter's verdict depends on besides the node's own state and the config, for a filter
   * that reads nothing else (no other node, no job placed so far, nothing that changes from session to session):
   * equal keys get equal verdicts on a node that did not change, so searches may keep a node's verdict for the next
   * task of the same key (see {@link NodeScorer#taskKey}). Null,
   * the default, means the verdict may depend on anything and is asked every time.
   */
  default Object taskKey(TaskInfo task) {
    return null;
  }

  /** {@code filter} with {@code key} as its {@link #taskKey}. */
  static TaskFilter keyed(TaskFilter filter, Function<TaskInfo, Object> key) {
    return new TaskFilter() {
      @Override
      public FilterResult filter(TaskInfo task, NodeInfo node) {
        return filter.filter(task, node);
      }

      @Override
      public Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
        return filter.forTask(task);
      }

      @Override
      public Object taskKey(TaskInfo task) {
        return key.apply(task);
      }
    };
  }
}
