package io.basalt.search;

import io.basalt.api.CycleState;
import io.basalt.api.TaskInfo;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import io.basalt.model.ResourceVector;
import io.basalt.model.Toleration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything about a pod that node filters may look at, and nothing that tells identical pods apart (name, uid,
 * creation time): two tasks of one shape fit the same nodes. Its hash covers the pod's labels and annotations, so it
 * is computed once and each task keeps its shape for the session ({@link CycleState}).
 */
final class TaskShape {
  private final String namespace;
  private final ResourceVector request;
  private final Map<String, String> nodeSelector;
  private final List<NodeSelectorTerm> affinity;
  private final List<Toleration> tolerations;
  private final Map<String, String> labels;
  private final Map<String, String> annotations;
  private final PodConstraints constraints;
  private final int hash;
  private final Pod pod;
  private Diagnosis.Key diagnosisKey;

  private TaskShape(Pod p) {
    this.pod = p;
    this.namespace = p.namespace();
    this.request = p.request();
    this.nodeSelector = p.nodeSelector();
    this.affinity = p.requiredNodeAffinity();
    this.tolerations = p.tolerations();
    this.labels = p.labels();
    this.annotations = p.annotations();
    this.constraints = p.constraints();
    this.hash = Objects.hash(namespace, request, nodeSelector, affinity, tolerations, labels, annotations,
        constraints);
  }

  private static final CycleState.Key<TaskShape> KEY = CycleState.key("task shape");

  static TaskShape of(TaskInfo task) {
    return task.cycleState(KEY, t -> new TaskShape(t.pod()));
  }

  /** What filters see of the shape, without the gang's name: the key of its {@link Diagnosis}. */
  Diagnosis.Key diagnosisKey() {
    if (diagnosisKey == null) {
      diagnosisKey = Diagnosis.Key.of(pod);
    }
    return diagnosisKey;
  }

  @Override
  public boolean equals(Object o) {
    return o == this || o instanceof TaskShape s && hash == s.hash && Objects.equals(namespace, s.namespace)
        && Objects.equals(request, s.request) && Objects.equals(nodeSelector, s.nodeSelector)
        && Objects.equals(affinity, s.affinity) && Objects.equals(tolerations, s.tolerations)
        && Objects.equals(labels, s.labels) && Objects.equals(annotations, s.annotations)
        && Objects.equals(constraints, s.constraints);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
