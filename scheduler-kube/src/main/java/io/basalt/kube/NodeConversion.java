package io.basalt.kube;

import static io.basalt.kube.KubeConverter.DEFAULT_MAX_PODS;
import static io.basalt.kube.KubeConverter.isBlank;
import static io.basalt.kube.KubeConverter.resources;
import static io.basalt.kube.KubeConverter.strings;

import io.basalt.kube.KubeConverter.Ctx;
import io.basalt.model.Node;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.model.Taint;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Nodes for {@link KubeConverter}: allocatable with its fallbacks, taints and readiness, kept together so the node
 * rules read in one place; callers go through {@link KubeConverter#toNode}.
 */
final class NodeConversion {
  private NodeConversion() {}

  static Node toNode(V1Node node) {
    V1ObjectMeta meta = node.getMetadata();
    Ctx ctx = Ctx.clusterScoped("Node", meta);
    V1NodeStatus status = node.getStatus();
    ResourceVector allocatable = ResourceVector.ZERO;
    if (status != null && status.getAllocatable() != null && !status.getAllocatable().isEmpty()) {
      allocatable = resources(status.getAllocatable(), "status.allocatable", ctx);
    } else if (status != null && status.getCapacity() != null) {
      allocatable = resources(status.getCapacity(), "status.capacity", ctx);
    }
    if (allocatable.get(ResourceNames.PODS) == 0 && !declaresPods(status)) {
      allocatable = allocatable.plus(ResourceVector.builder().add(ResourceNames.PODS, DEFAULT_MAX_PODS).build());
    }
    V1NodeSpec spec = node.getSpec();
    List<Taint> taints = new ArrayList<>();
    if (spec != null && spec.getTaints() != null) {
      List<V1Taint> source = spec.getTaints();
      for (int i = 0; i < source.size(); i++) {
        V1Taint t = source.get(i);
        if (t == null || isBlank(t.getKey())) {
          throw ctx.fail("spec.taints[" + i + "].key", "missing");
        }
        if (isBlank(t.getEffect())) {
          throw ctx.fail("spec.taints[" + i + "].effect", "missing");
        }
        taints.add(new Taint(t.getKey(), t.getValue(), t.getEffect()));
      }
    }
    boolean unschedulable = spec != null && Boolean.TRUE.equals(spec.getUnschedulable());
    return new Node(meta.getName(), allocatable, strings(meta.getLabels()), strings(meta.getAnnotations()), taints,
        unschedulable, isReady(status));
  }

  private static boolean declaresPods(V1NodeStatus status) {
    if (status == null) {
      return false;
    }
    Map<String, Quantity> used = status.getAllocatable() != null && !status.getAllocatable().isEmpty()
        ? status.getAllocatable() : status.getCapacity();
    return used != null && used.containsKey(ResourceNames.PODS_NAME);
  }

  private static boolean isReady(V1NodeStatus status) {
    if (status == null || status.getConditions() == null || status.getConditions().isEmpty()) {
      return true;
    }
    for (V1NodeCondition c : status.getConditions()) {
      if (c != null && "Ready".equals(c.getType())) {
        return "True".equals(c.getStatus());
      }
    }
    return false;
  }
}
