package io.basalt.actions;

import io.basalt.api.TaskInfo;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.ResourceVector;
import io.basalt.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * Everything about a pod that node filters may look at, and nothing that tells identical pods apart (name, uid,
 * creation time): two tasks of one shape fit the same nodes.
 */
record TaskShape(
    String namespace,
    ResourceVector request,
    Map<String, String> nodeSelector,
    List<NodeSelectorTerm> affinity,
    List<Toleration> tolerations,
    Map<String, String> labels,
    Map<String, String> annotations) {

  static TaskShape of(TaskInfo task) {
    Pod p = task.pod();
    return new TaskShape(p.namespace(), p.request(), p.nodeSelector(), p.requiredNodeAffinity(), p.tolerations(),
        p.labels(), p.annotations());
  }
}
