package io.basalt.kube.provisioning;

import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.ResourceVector;
import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether the cluster's nodes hold a workload of identical pods now: the question Kueue's provisioning check answers
 * with a ProvisioningRequest when the answer is no. Counted per node (how many of the pods its free room takes, by
 * request, node selector, taints; ready and schedulable nodes only), never placed: the scheduler still decides where
 * each pod goes. Affinity, spread and devices are not weighed, so a yes can still meet a gang that does not bind
 * (it then waits as any gang) but a no is never given for a workload the free room holds.
 */
public final class ClusterRoom {
  private ClusterRoom() {}

  /**
   * @param placed the pods on nodes (finished ones are skipped)
   * @param podRequest one pod's request by resource name, in the engine's units
   */
  public static boolean holds(Collection<Node> nodes, Collection<Pod> placed, Map<String, Long> podRequest,
      int count, Map<String, String> nodeSelector, List<Toleration> tolerations) {
    if (count <= 0) {
      return true;
    }
    Map<String, ResourceVector> used = new HashMap<>();
    for (Pod p : placed) {
      if (p.isAssigned() && !p.isFinished()) {
        used.merge(p.nodeName(), p.request(), ResourceVector::plus);
      }
    }
    ResourceVector.Builder b = ResourceVector.builder();
    podRequest.forEach(b::add);
    ResourceVector one = b.build();
    int left = count;
    for (Node n : nodes) {
      if (!n.ready() || n.unschedulable() || !selects(n, nodeSelector) || !tolerated(n, tolerations)) {
        continue;
      }
      ResourceVector free = n.allocatable().minus(used.getOrDefault(n.name(), ResourceVector.ZERO));
      while (left > 0 && one.lessEqual(free)) {
        free = free.minus(one);
        left--;
        if (one.isZero()) {
          return true;
        }
      }
      if (left == 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean selects(Node n, Map<String, String> selector) {
    return selector.entrySet().stream().allMatch(e -> e.getValue().equals(n.labels().get(e.getKey())));
  }

  private static boolean tolerated(Node n, List<Toleration> tolerations) {
    for (Taint t : n.taints()) {
      if (t.blocksScheduling() && tolerations.stream().noneMatch(x -> x.tolerates(t))) {
        return false;
      }
    }
    return true;
  }
}
