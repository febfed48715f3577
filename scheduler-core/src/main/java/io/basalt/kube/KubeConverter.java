package io.basalt.kube;

import io.basalt.kube.volcano.V1beta1PodGroup;
import io.basalt.kube.volcano.V1beta1Queue;
import io.basalt.model.Node;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Quantities;
import io.basalt.model.Queue;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.model.Taint;
import io.basalt.model.Toleration;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts client-java objects (and Volcano's CRDs) into the engine's immutable model. Shared by the YAML simulator and
 * live informers. Every method throws {@link KubeConversionException} naming the object and field for input the API
 * server would have rejected (a missing name, a negative or out-of-range quantity, a requirement without an operator).
 */
public final class KubeConverter {
  /** The scheduler a pod names when {@code spec.schedulerName} is unset, as the API server defaults it. */
  public static final String DEFAULT_SCHEDULER_NAME = "default-scheduler";
  /** The kubelet's default {@code --max-pods}, used when a node does not report {@code pods}. */
  public static final long DEFAULT_MAX_PODS = 110;
  /** The namespace of a namespaced object that names none (kubectl's default context namespace). */
  public static final String DEFAULT_NAMESPACE = "default";
  /** The API server's default for {@code PriorityClass.preemptionPolicy}. */
  public static final String DEFAULT_PREEMPTION_POLICY = "PreemptLowerPriority";

  private KubeConverter() {}

  // ---------------------------------------------------------------------------------------------------------- Pod

  /**
   * Converts a pod. The request follows Kubernetes' rules: the sum of app containers (a resource with only a limit
   * requests its limit), max'd per resource with each init container (restartable "sidecar" init containers add to
   * the sum and to every later init container), plus {@code spec.overhead}, plus one {@code pods}.
   */
  public static Pod toPod(V1Pod pod) {
    V1ObjectMeta meta = pod.getMetadata();
    String namespace = namespaceOf(meta);
    String name = meta == null ? null : meta.getName();
    String key = namespace + "/" + (isBlank(name) ? "<unnamed>" : name);
    Ctx ctx = new Ctx("Pod", key);
    if (isBlank(name)) {
      throw ctx.fail("metadata.name", "missing");
    }
    V1PodSpec spec = pod.getSpec();
    if (spec == null) {
      throw ctx.fail("spec", "missing");
    }
    String uid = isBlank(meta.getUid()) ? namespace + "/" + name : meta.getUid();
    String phase = pod.getStatus() == null || isBlank(pod.getStatus().getPhase()) ? "Pending" : pod.getStatus().getPhase();
    return new Pod(
        uid,
        namespace,
        name,
        isBlank(spec.getSchedulerName()) ? DEFAULT_SCHEDULER_NAME : spec.getSchedulerName(),
        isBlank(spec.getNodeName()) ? null : spec.getNodeName(),
        phase,
        meta.getDeletionTimestamp() != null,
        spec.getPriority(),
        emptyToNull(spec.getPriorityClassName()),
        emptyToNull(spec.getPreemptionPolicy()),
        podRequest(spec, ctx),
        strings(meta.getLabels()),
        strings(meta.getAnnotations()),
        strings(spec.getNodeSelector()),
        requiredNodeAffinity(spec.getAffinity(), ctx),
        tolerations(spec.getTolerations()),
        instant(meta.getCreationTimestamp()));
  }

  /** The pod's effective request as {@link #toPod} computes it; {@code objectKey} only labels errors. */
  public static ResourceVector podRequest(V1PodSpec spec, String objectKey) {
    return podRequest(spec, new Ctx("Pod", objectKey));
  }

  private static ResourceVector podRequest(V1PodSpec spec, Ctx ctx) {
    ResourceVector sum = ResourceVector.ZERO;
    List<V1Container> containers = spec.getContainers();
    if (containers != null) {
      for (int i = 0; i < containers.size(); i++) {
        sum = sum.plus(containerRequest(containers.get(i), "spec.containers[" + i + "]", ctx));
      }
    }
    ResourceVector initMax = ResourceVector.ZERO;
    ResourceVector sidecars = ResourceVector.ZERO;
    List<V1Container> inits = spec.getInitContainers();
    if (inits != null) {
      for (int i = 0; i < inits.size(); i++) {
        V1Container c = inits.get(i);
        ResourceVector r = containerRequest(c, "spec.initContainers[" + i + "]", ctx);
        if ("Always".equals(c.getRestartPolicy())) {
          // A sidecar keeps running next to the app containers and every init container after it.
          sum = sum.plus(r);
          sidecars = sidecars.plus(r);
          initMax = initMax.max(sidecars);
        } else {
          initMax = initMax.max(r.plus(sidecars));
        }
      }
    }
    ResourceVector request = sum.max(initMax);
    if (spec.getOverhead() != null) {
      request = request.plus(resources(spec.getOverhead(), "spec.overhead", ctx));
    }
    return request.plus(ResourceVector.builder().add(ResourceNames.PODS, 1).build());
  }

  private static ResourceVector containerRequest(V1Container c, String path, Ctx ctx) {
    V1ResourceRequirements res = c.getResources();
    if (res == null) {
      return ResourceVector.ZERO;
    }
    Map<String, Quantity> requests = res.getRequests() == null ? Map.of() : res.getRequests();
    Map<String, Quantity> limits = res.getLimits() == null ? Map.of() : res.getLimits();
    ResourceVector.Builder b = ResourceVector.builder();
    requests.forEach((name, q) -> b.add(name, amount(name, q, path + ".resources.requests." + name, ctx)));
    limits.forEach((name, q) -> {
      long limit = amount(name, q, path + ".resources.limits." + name, ctx);
      if (!requests.containsKey(name)) {
        b.add(name, limit); // the API server defaults a missing request to the limit
      }
    });
    return b.build();
  }

  private static List<NodeSelectorTerm> requiredNodeAffinity(V1Affinity affinity, Ctx ctx) {
    if (affinity == null || affinity.getNodeAffinity() == null) {
      return List.of();
    }
    V1NodeSelector required = affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    if (required == null || required.getNodeSelectorTerms() == null) {
      return List.of();
    }
    String base = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    List<NodeSelectorTerm> terms = new ArrayList<>();
    List<V1NodeSelectorTerm> source = required.getNodeSelectorTerms();
    for (int t = 0; t < source.size(); t++) {
      V1NodeSelectorTerm term = source.get(t);
      List<NodeSelectorRequirement> reqs = new ArrayList<>();
      if (term != null) {
        addRequirements(reqs, term.getMatchExpressions(), false, base + "[" + t + "].matchExpressions", ctx);
        addRequirements(reqs, term.getMatchFields(), true, base + "[" + t + "].matchFields", ctx);
      }
      terms.add(new NodeSelectorTerm(reqs));
    }
    return terms;
  }

  private static void addRequirements(List<NodeSelectorRequirement> out, List<V1NodeSelectorRequirement> in,
      boolean field, String path, Ctx ctx) {
    if (in == null) {
      return;
    }
    for (int i = 0; i < in.size(); i++) {
      V1NodeSelectorRequirement r = in.get(i);
      if (r == null || isBlank(r.getKey())) {
        throw ctx.fail(path + "[" + i + "].key", "missing");
      }
      if (isBlank(r.getOperator())) {
        throw ctx.fail(path + "[" + i + "].operator", "missing");
      }
      out.add(new NodeSelectorRequirement(r.getKey(), r.getOperator(), r.getValues(), field));
    }
  }

  private static List<Toleration> tolerations(List<V1Toleration> in) {
    if (in == null) {
      return List.of();
    }
    List<Toleration> out = new ArrayList<>(in.size());
    for (V1Toleration t : in) {
      if (t != null) {
        out.add(new Toleration(t.getKey(), t.getOperator(), t.getValue(), t.getEffect()));
      }
    }
    return out;
  }

  // --------------------------------------------------------------------------------------------------------- Node

  /**
   * Converts a node: allocatable from {@code status.allocatable}, else {@code status.capacity}; {@code pods} defaults
   * to {@value #DEFAULT_MAX_PODS}. Ready is the Ready condition being "True", or true when the node reports no
   * conditions at all (fixtures usually omit them).
   */
  public static Node toNode(V1Node node) {
    V1ObjectMeta meta = node.getMetadata();
    String name = meta == null ? null : meta.getName();
    Ctx ctx = new Ctx("Node", isBlank(name) ? "<unnamed>" : name);
    if (isBlank(name)) {
      throw ctx.fail("metadata.name", "missing");
    }
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
    return new Node(name, allocatable, strings(meta.getLabels()), strings(meta.getAnnotations()), taints,
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

  // ------------------------------------------------------------------------------------------------ PriorityClass

  /** Converts a PriorityClass; {@code preemptionPolicy} defaults to PreemptLowerPriority. */
  public static PriorityClass toPriorityClass(V1PriorityClass pc) {
    String name = pc.getMetadata() == null ? null : pc.getMetadata().getName();
    Ctx ctx = new Ctx("PriorityClass", isBlank(name) ? "<unnamed>" : name);
    if (isBlank(name)) {
      throw ctx.fail("metadata.name", "missing");
    }
    if (pc.getValue() == null) {
      throw ctx.fail("value", "missing");
    }
    return new PriorityClass(name, pc.getValue(), Boolean.TRUE.equals(pc.getGlobalDefault()),
        isBlank(pc.getPreemptionPolicy()) ? DEFAULT_PREEMPTION_POLICY : pc.getPreemptionPolicy());
  }

  // ----------------------------------------------------------------------------------------------------- PodGroup

  /**
   * Converts a Volcano PodGroup: {@code minMember} 1 when unset, queue {@value Queue#DEFAULT} when unset (the CRD's
   * default), {@code minResources} null when unset, phase Pending when the status has none.
   */
  public static PodGroup toPodGroup(V1beta1PodGroup pg) {
    V1ObjectMeta meta = pg.getMetadata();
    String namespace = namespaceOf(meta);
    String name = meta == null ? null : meta.getName();
    Ctx ctx = new Ctx("PodGroup", namespace + "/" + (isBlank(name) ? "<unnamed>" : name));
    if (isBlank(name)) {
      throw ctx.fail("metadata.name", "missing");
    }
    V1beta1PodGroup.Spec spec = pg.getSpec() == null ? new V1beta1PodGroup.Spec() : pg.getSpec();
    int minMember = spec.getMinMember() == null ? 1 : spec.getMinMember();
    if (minMember < 0) {
      throw ctx.fail("spec.minMember", "negative value " + minMember);
    }
    Map<String, Integer> minTaskMember = new LinkedHashMap<>();
    if (spec.getMinTaskMember() != null) {
      for (Map.Entry<String, Integer> e : spec.getMinTaskMember().entrySet()) {
        if (e.getValue() == null || e.getValue() < 0) {
          throw ctx.fail("spec.minTaskMember." + e.getKey(), "expected a non-negative count, got " + e.getValue());
        }
        minTaskMember.put(e.getKey(), e.getValue());
      }
    }
    ResourceVector minResources =
        spec.getMinResources() == null ? null : resources(spec.getMinResources(), "spec.minResources", ctx);
    String phase = pg.getStatus() == null || isBlank(pg.getStatus().getPhase()) ? "Pending" : pg.getStatus().getPhase();
    return new PodGroup(namespace, name, minMember, minTaskMember,
        isBlank(spec.getQueue()) ? Queue.DEFAULT : spec.getQueue(), emptyToNull(spec.getPriorityClassName()),
        minResources, phase, instant(meta.getCreationTimestamp()));
  }

  // -------------------------------------------------------------------------------------------------------- Queue

  /**
   * Converts a Volcano Queue: weight 1 when unset (or 0, which Go cannot tell from unset), capability / guarantee /
   * deserved null when unset or empty, reclaimable true when unset, priority 0, state Open when the status has none.
   */
  public static Queue toQueue(V1beta1Queue q) {
    V1ObjectMeta meta = q.getMetadata();
    String name = meta == null ? null : meta.getName();
    Ctx ctx = new Ctx("Queue", isBlank(name) ? "<unnamed>" : name);
    if (isBlank(name)) {
      throw ctx.fail("metadata.name", "missing");
    }
    V1beta1Queue.Spec spec = q.getSpec() == null ? new V1beta1Queue.Spec() : q.getSpec();
    int weight = spec.getWeight() == null || spec.getWeight() == 0 ? 1 : spec.getWeight();
    if (weight < 0) {
      throw ctx.fail("spec.weight", "negative value " + weight);
    }
    int priority = spec.getPriority() == null ? 0 : spec.getPriority();
    if (priority < 0) {
      throw ctx.fail("spec.priority", "negative value " + priority);
    }
    ResourceVector guarantee = spec.getGuarantee() == null
        ? null : optionalResources(spec.getGuarantee().getResource(), "spec.guarantee.resource", ctx);
    String state = q.getStatus() == null || isBlank(q.getStatus().getState()) ? "Open" : q.getStatus().getState();
    return new Queue(name, weight,
        optionalResources(spec.getCapability(), "spec.capability", ctx),
        guarantee,
        optionalResources(spec.getDeserved(), "spec.deserved", ctx),
        spec.getReclaimable() == null || spec.getReclaimable(),
        priority,
        emptyToNull(spec.getParent()),
        state,
        strings(meta.getAnnotations()));
  }

  // ---------------------------------------------------------------------------------------------------- Resources

  /**
   * Converts a resource list ({@code {cpu: 500m, memory: 4Gi, nvidia.com/gpu: 8}}) to a vector in the model's units:
   * milli-CPU rounded up, everything else base units rounded up.
   *
   * @param kind and {@code objectKey} and {@code field} only label errors
   */
  public static ResourceVector toResourceVector(Map<String, Quantity> list, String kind, String objectKey,
      String field) {
    return resources(list, field, new Ctx(kind, objectKey));
  }

  /** One quantity in the model's units for resource {@code name}: milli-CPU for cpu, base units otherwise. */
  public static long toAmount(String name, Quantity q) {
    return amount(name, q, name, new Ctx("Quantity", name));
  }

  private static ResourceVector optionalResources(Map<String, Quantity> list, String field, Ctx ctx) {
    return list == null || list.isEmpty() ? null : resources(list, field, ctx);
  }

  private static ResourceVector resources(Map<String, Quantity> list, String field, Ctx ctx) {
    ResourceVector.Builder b = ResourceVector.builder();
    list.forEach((name, q) -> b.add(name, amount(name, q, field + "." + name, ctx)));
    return b.build();
  }

  private static long amount(String name, Quantity q, String field, Ctx ctx) {
    if (q == null || q.getNumber() == null) {
      throw ctx.fail(field, "missing quantity");
    }
    if (q.getNumber().signum() < 0) {
      throw ctx.fail(field, "negative quantity '" + text(q) + "'");
    }
    try {
      // The exact decimal, without the suffix round trip: Quantities applies the model's units and rounding.
      return Quantities.parse(name, q.getNumber().toPlainString());
    } catch (ArithmeticException e) {
      throw ctx.fail(field, "quantity '" + text(q) + "' is out of range", e);
    } catch (IllegalArgumentException e) {
      throw ctx.fail(field, "'" + text(q) + "' is not a Kubernetes quantity", e);
    }
  }

  private static String text(Quantity q) {
    try {
      return q.toSuffixedString();
    } catch (RuntimeException e) {
      return q.getNumber().toPlainString();
    }
  }

  // ------------------------------------------------------------------------------------------------------ Helpers

  private static String namespaceOf(V1ObjectMeta meta) {
    return meta == null || isBlank(meta.getNamespace()) ? DEFAULT_NAMESPACE : meta.getNamespace();
  }

  /** A copy without null keys; null values (a bare {@code key:} in YAML) become empty strings. */
  private static Map<String, String> strings(Map<String, String> in) {
    if (in == null || in.isEmpty()) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    in.forEach((k, v) -> {
      if (k != null) {
        out.put(k, v == null ? "" : v);
      }
    });
    return out;
  }

  private static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }

  private static boolean isBlank(String s) {
    return s == null || s.isEmpty();
  }

  private static String emptyToNull(String s) {
    return isBlank(s) ? null : s;
  }

  /** Names the object being converted, for error messages. */
  private record Ctx(String kind, String key) {
    KubeConversionException fail(String field, String problem) {
      return new KubeConversionException(kind, key, field, problem);
    }

    KubeConversionException fail(String field, String problem, Throwable cause) {
      return new KubeConversionException(kind, key, field, problem, cause);
    }
  }
}
