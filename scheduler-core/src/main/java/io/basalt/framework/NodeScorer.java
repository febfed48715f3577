package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** Score phase (Volcano's node order): higher is better; scores of all plugins are summed. */
@FunctionalInterface
public interface NodeScorer {
  double score(TaskInfo task, NodeInfo node);

  /**
   * This scorer for {@code task} across the nodes of one search, answering exactly what {@link #score} answers on
   * each: a scorer that works something out from the task alone (the request's slots, whether it asks for GPUs) does
   * it here once instead of once per node, since a search visits hundreds of nodes per task.
   */
  default ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
    return node -> score(task, node);
  }

  /**
   * What of {@code task} this scorer's answer depends on besides the node's own state and the config, for a scorer
   * that reads nothing else (no other node, no job placed so far, no state of its own that changes from session to
   * session): two tasks with equal keys get equal scores on a node that did not change, so searches keep the answer,
   * across sessions too, and ask again only when the node changed. A search visits hundreds of nodes per pod and most of them did not change since the
   * last pod of the same request, which made scoring the largest share of a placement.
   *
   * <p>Null, the default, means the answer may depend on anything: it is asked for every node every time.
   */
  default Object taskKey(TaskInfo task) {
    return null;
  }

  /** {@code scorer} with {@code key} as its {@link #taskKey}. */
  static NodeScorer keyed(NodeScorer scorer, Function<TaskInfo, Object> key) {
    return new NodeScorer() {
      @Override
      public double score(TaskInfo task, NodeInfo node) {
        return scorer.score(task, node);
      }

      @Override
      public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
        return scorer.forTask(task);
      }

      @Override
      public Object taskKey(TaskInfo task) {
        return key.apply(task);
      }
    };
  }
}
