package io.basalt.kube.kinds.core;


import static io.basalt.kube.kinds.Conversion.isBlank;
import static io.basalt.kube.kinds.Conversion.capacities;
import static io.basalt.kube.kinds.Conversion.strings;

import io.basalt.kube.kinds.Conversion.Ctx;
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
 * v1 Nodes to the model: allocatable from {@code status.allocatable}, else {@code status.capacity}; {@code pods}
 * defaults to {@value #DEFAULT_MAX_PODS}. Ready is the Ready condition being "True", or true when the node reports no
 * conditions at all (fixtures usually omit them).
 */
public final class NodeConversion {
  /** The kubelet's default {@code --max-pods}, used when a node does not report {@code pods}. */
  public static final long DEFAULT_MAX_PODS = 110;

  private NodeConversion() {}

  /** Converts a node; throws {@link io.basalt.kube.kinds.KubeConversionException} naming the field it cannot take. */
  public static Node toNode(V1Node node) {
    V1ObjectMeta meta = node.getMetadata();
    Ctx ctx = Ctx.clusterScoped("Node", meta);
    V1NodeStatus status = node.getStatus();
    ResourceVector allocatable = ResourceVector.ZERO;
    if (status != null && status.getAllocatable() != null && !status.getAllocatable().isEmpty()) {
      allocatable = capacities(status.getAllocatable(), "status.allocatable", ctx);
    } else if (status != null && status.getCapacity() != null) {
      allocatable = capacities(status.getCapacity(), "status.capacity", ctx);
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
