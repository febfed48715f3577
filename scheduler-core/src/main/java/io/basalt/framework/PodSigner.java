package io.basalt.framework;

import io.basalt.api.NodeInfo;
import io.basalt.api.TaskInfo;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Optional for a {@link TaskFilter} or {@link NodeScorer} whose answer reads only the node's own state, the config and
 * some of the pod (as kube-scheduler's {@code SignPlugin} signs a pod): it says which part of the pod. Tasks with equal
 * signatures from every plugin form an equivalence class, and the node search keeps a node's answer for the class
 * until the node changes, across sessions too (the framework owns that reuse, in one place).
 *
 * <p>Sign only what holds: the answer may not read other nodes, other pods or the job's placements so far, nor any
 * state the plugin keeps that changes from session to session. A plugin that does not implement this is never
 * cached, which is always correct.
 */
public interface PodSigner {
  /**
   * What of {@code task} the answer depends on: equal signatures get equal answers on an unchanged node. Null when
   * this task's answer cannot be signed (it is then asked every time, and a search that finds no node for the task
   * does not remember so: its answer may change with no node changing, as when it reads other pods).
   */
  Object sign(TaskInfo task);

  /** {@code filter} signing with {@code signature}; prepared per task when {@code filter} is a {@link PreparedFilter}. */
  static TaskFilter signedFilter(TaskFilter filter, Function<TaskInfo, Object> signature) {
    return new SignedFilter(filter, signature);
  }

  /** {@code scorer} signing with {@code signature}; prepared per task when {@code scorer} is a {@link PreparedScorer}. */
  static NodeScorer signedScorer(NodeScorer scorer, Function<TaskInfo, Object> signature) {
    return new SignedScorer(scorer, signature);
  }

  /** A filter and its signature. */
  final class SignedFilter implements PreparedFilter, PodSigner {
    private final TaskFilter filter;
    private final Function<TaskInfo, Object> signature;

    private SignedFilter(TaskFilter filter, Function<TaskInfo, Object> signature) {
      this.filter = filter;
      this.signature = signature;
    }

    @Override
    public FilterResult filter(TaskInfo task, NodeInfo node) {
      return filter.filter(task, node);
    }

    @Override
    public Function<NodeInfo, FilterResult> forTask(TaskInfo task) {
      return filter instanceof PreparedFilter p ? p.forTask(task) : node -> filter.filter(task, node);
    }

    @Override
    public Object sign(TaskInfo task) {
      return signature.apply(task);
    }
  }

  /** A scorer and its signature. */
  final class SignedScorer implements PreparedScorer, PodSigner {
    private final NodeScorer scorer;
    private final Function<TaskInfo, Object> signature;

    private SignedScorer(NodeScorer scorer, Function<TaskInfo, Object> signature) {
      this.scorer = scorer;
      this.signature = signature;
    }

    @Override
    public double score(TaskInfo task, NodeInfo node) {
      return scorer.score(task, node);
    }

    @Override
    public ToDoubleFunction<NodeInfo> forTask(TaskInfo task) {
      return scorer instanceof PreparedScorer p ? p.forTask(task) : node -> scorer.score(task, node);
    }

    @Override
    public Object sign(TaskInfo task) {
      return signature.apply(task);
    }
  }
}
