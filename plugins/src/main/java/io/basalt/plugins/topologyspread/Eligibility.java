package io.basalt.plugins.topologyspread;

import io.basalt.model.Node;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * Which nodes' pods count for a constraint of one pod: nodes carrying every topology key of the pod's constraints
 * (kube-scheduler's {@code nodeLabelsMatchSpreadConstraints}), matching the pod's nodeSelector and required node
 * affinity when {@code nodeAffinityPolicy} is Honor, and with no NoSchedule/NoExecute taint the pod does not tolerate
 * when {@code nodeTaintsPolicy} is Honor.
 *
 * @param keys the topology keys a node must carry
 * @param nodeSelector null when the affinity policy is Ignore or the pod has no selector nor affinity
 * @param affinity the required node affinity terms (empty: none), read with {@code nodeSelector}
 * @param tolerations null when the taints policy is Ignore
 */
record Eligibility(List<String> keys, Map<String, String> nodeSelector, List<NodeSelectorTerm> affinity,
    List<Toleration> tolerations) {

  boolean admits(Node node) {
    Map<String, String> labels = node.labels();
    for (int i = 0, n = keys.size(); i < n; i++) {
      if (!labels.containsKey(keys.get(i))) {
        return false;
      }
    }
    if (nodeSelector != null) {
      for (Map.Entry<String, String> e : nodeSelector.entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
      if (!affinity.isEmpty() && affinity.stream().noneMatch(t -> t.matches(node))) {
        return false;
      }
    }
    if (tolerations != null) {
      for (Taint t : node.taints()) {
        if (t.blocksScheduling() && tolerations.stream().noneMatch(tol -> tol.tolerates(t))) {
          return false;
        }
      }
    }
    return true;
  }
}
