package io.basalt.kube.kinds.core;

import io.basalt.kube.kinds.resource.PodClaims;

import static io.basalt.kube.kinds.Conversion.emptyToNull;
import static io.basalt.kube.kinds.Conversion.instant;
import static io.basalt.kube.kinds.Conversion.isBlank;
import static io.basalt.kube.kinds.Conversion.requestAmount;
import static io.basalt.kube.kinds.Conversion.namespaceOf;
import static io.basalt.kube.kinds.Conversion.resources;
import static io.basalt.kube.kinds.Conversion.strings;

import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.gang.GroupInference;
import io.basalt.model.ContainerRequest;
import io.basalt.model.NodeSelectorRequirement;
import io.basalt.model.NodeSelectorTerm;
import io.basalt.model.OwnerReference;
import io.basalt.model.Pod;
import io.basalt.model.ResourceNames;
import io.basalt.model.ResourceVector;
import io.basalt.model.Toleration;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * v1 Pods to the model: the effective request, required node affinity and tolerations. The request follows
 * Kubernetes' rules: the sum of app containers (a resource with only a limit requests its limit), max'd per resource
 * with each init container (restartable "sidecar" init containers add to the sum and to every later init container),
 * plus {@code spec.overhead}, plus one {@code pods}.
 */
public final class PodConversion {
  /** The scheduler a pod names when {@code spec.schedulerName} is unset, as the API server defaults it. */
  public static final String DEFAULT_SCHEDULER_NAME = "default-scheduler";

  private PodConversion() {}

  /** Converts a pod; throws {@link io.basalt.kube.kinds.KubeConversionException} naming the field it cannot take. */
  public static Pod toPod(V1Pod pod) {
    V1ObjectMeta meta = pod.getMetadata();
    Ctx ctx = Ctx.namespaced("Pod", meta);
    String namespace = namespaceOf(meta);
    String name = meta.getName();
    V1PodSpec spec = pod.getSpec();
    if (spec == null) {
      throw ctx.fail("spec", "missing");
    }
    String uid = isBlank(meta.getUid()) ? namespace + "/" + name : meta.getUid();
    String phase = pod.getStatus() == null || isBlank(pod.getStatus().getPhase()) ? "Pending" : pod.getStatus().getPhase();
    Map<String, String> labels = strings(meta.getLabels());
    Map<String, String> annotations = strings(meta.getAnnotations());
    OwnerReference controller = controllerOf(meta);
    GroupInference.Inferred group = GroupInference.of(namespace, labels, annotations, controller);
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
        labels,
        annotations,
        strings(spec.getNodeSelector()),
        requiredNodeAffinity(spec.getAffinity(), ctx),
        tolerations(spec.getTolerations()),
        instant(meta.getCreationTimestamp()),
        group == null ? null : group.name(),
        controller,
        containers(spec, ctx),
        PodClaims.with(PodVolumes.with(PodConstraintsConversion.of(spec, ctx), pod.getMetadata().getName(), spec, ctx),
            pod),
        pod.getStatus() == null ? null : emptyToNull(pod.getStatus().getNominatedNodeName()));
  }

  /** Each container's own request, init containers first, as HAMi's per-container device annotations order them. */
  static List<ContainerRequest> containers(V1PodSpec spec, Ctx ctx) {
    List<ContainerRequest> out = new ArrayList<>();
    List<V1Container> inits = spec.getInitContainers() == null ? List.of() : spec.getInitContainers();
    for (int i = 0; i < inits.size(); i++) {
      ResourceVector r = containerRequest(inits.get(i), "spec.initContainers[" + i + "]", ctx);
      out.add(new ContainerRequest(inits.get(i).getName(), true, r));
    }
    List<V1Container> apps = spec.getContainers() == null ? List.of() : spec.getContainers();
    for (int i = 0; i < apps.size(); i++) {
      ResourceVector r = containerRequest(apps.get(i), "spec.containers[" + i + "]", ctx);
      out.add(new ContainerRequest(apps.get(i).getName(), false, r));
    }
    return out;
  }

  /** The owner reference marked {@code controller: true}, or null. */
  private static OwnerReference controllerOf(V1ObjectMeta meta) {
    if (meta.getOwnerReferences() == null) {
      return null;
    }
    for (V1OwnerReference r : meta.getOwnerReferences()) {
      if (r != null && Boolean.TRUE.equals(r.getController()) && !isBlank(r.getKind())) {
        return new OwnerReference(r.getApiVersion(), r.getKind(), r.getName(), r.getUid());
      }
    }
    return null;
  }

  public static ResourceVector podRequest(V1PodSpec spec, Ctx ctx) {
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
    if (c == null) {
      throw ctx.fail(path, "null, expected a container");
    }
    V1ResourceRequirements res = c.getResources();
    if (res == null) {
      return ResourceVector.ZERO;
    }
    Map<String, Quantity> requests = res.getRequests() == null ? Map.of() : res.getRequests();
    Map<String, Quantity> limits = res.getLimits() == null ? Map.of() : res.getLimits();
    ResourceVector.Builder b = ResourceVector.builder();
    requests.forEach((name, q) -> {
      String field = path + ".resources.requests." + name;
      Conversion.add(b, name, requestAmount(name, q, field, ctx), field, ctx);
    });
    limits.forEach((name, q) -> {
      String field = path + ".resources.limits." + name;
      long limit = requestAmount(name, q, field, ctx);
      if (!requests.containsKey(name)) {
        Conversion.add(b, name, limit, field, ctx); // the API server defaults a missing request to the limit
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

  static void addRequirements(List<NodeSelectorRequirement> out, List<V1NodeSelectorRequirement> in,
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
}
