package io.basalt.dra;

import io.basalt.model.Node;
import io.basalt.model.NodeSelectorTerm;
import java.util.List;

/**
 * A {@code resource.k8s.io/v1} ResourceSlice: some of one driver's pool of devices, and which nodes reach them. A pool
 * is read at its highest {@code generation}; it is complete when that generation's slices number
 * {@code resourceSliceCount}.
 *
 * @param nodeName the one node that reaches the devices, or null
 * @param nodeSelector the nodes that reach them (terms OR'ed), or empty
 * @param allNodes every node reaches them
 */
public record ResourceSlice(String name, String driver, String pool, long generation, long resourceSliceCount,
    String nodeName, List<NodeSelectorTerm> nodeSelector, boolean allNodes, List<Device> devices) {
  public ResourceSlice {
    nodeSelector = List.copyOf(nodeSelector);
    devices = List.copyOf(devices);
  }

  /** Whether {@code node} can use this slice's devices. */
  public boolean reaches(Node node) {
    if (allNodes) {
      return true;
    }
    if (nodeName != null) {
      return nodeName.equals(node.name());
    }
    for (NodeSelectorTerm t : nodeSelector) {
      if (t.matches(node)) {
        return true;
      }
    }
    return false;
  }

  /** Whether its devices are node-local (a claim allocated from them pins the pod to that node). */
  public boolean nodeLocal() {
    return nodeName != null;
  }
}
