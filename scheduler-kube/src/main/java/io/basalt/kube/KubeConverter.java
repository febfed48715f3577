package io.basalt.kube;

import io.basalt.kube.gang.CoschedulingGroup;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kinds.coscheduling.CoschedulingPodGroup;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Quantities;
import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Converts client-java objects (and Volcano's CRDs) into the engine's immutable model. Shared by the YAML simulator and
 * live informers. Every method throws {@link KubeConversionException} naming the object and field for input the API
 * server would have rejected (a missing name, a negative or out-of-range quantity, a requirement without an operator).
 *
 * <p>This class is the entry point and holds what every kind shares (names, resource lists, quantities); the rules
 * of each kind live in {@link PodConversion}, {@link NodeConversion} and {@link VolcanoConversion}.
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

  /**
   * Converts a pod. The request follows Kubernetes' rules: the sum of app containers (a resource with only a limit
   * requests its limit), max'd per resource with each init container (restartable "sidecar" init containers add to
   * the sum and to every later init container), plus {@code spec.overhead}, plus one {@code pods}.
   */
  public static Pod toPod(V1Pod pod) {
    return PodConversion.toPod(pod);
  }

  /** The pod's effective request as {@link #toPod} computes it; {@code objectKey} only labels errors. */
  public static ResourceVector podRequest(V1PodSpec spec, String objectKey) {
    return PodConversion.podRequest(spec, new Ctx("Pod", objectKey));
  }

  /**
   * Converts a node: allocatable from {@code status.allocatable}, else {@code status.capacity}; {@code pods} defaults
   * to {@value #DEFAULT_MAX_PODS}. Ready is the Ready condition being "True", or true when the node reports no
   * conditions at all (fixtures usually omit them).
   */
  public static Node toNode(V1Node node) {
    return NodeConversion.toNode(node);
  }

  /** Converts a PriorityClass; {@code preemptionPolicy} defaults to PreemptLowerPriority. */
  public static PriorityClass toPriorityClass(V1PriorityClass pc) {
    Ctx ctx = Ctx.clusterScoped("PriorityClass", pc.getMetadata());
    if (pc.getValue() == null) {
      throw ctx.fail("value", "missing");
    }
    return new PriorityClass(pc.getMetadata().getName(), pc.getValue(), Boolean.TRUE.equals(pc.getGlobalDefault()),
        isBlank(pc.getPreemptionPolicy()) ? DEFAULT_PREEMPTION_POLICY : pc.getPreemptionPolicy());
  }

  /**
   * Converts a Volcano PodGroup: {@code minMember} 1 when unset, queue {@value Queue#DEFAULT} when unset (the CRD's
   * default), {@code minResources} null when unset, phase Pending when the status has none.
   */
  public static PodGroup toPodGroup(V1beta1PodGroup pg) {
    return VolcanoConversion.toPodGroup(pg);
  }

  /** Converts a coscheduling PodGroup: {@code minMember} 1 when unset (0 and negatives are errors). */
  public static CoschedulingGroup toCoschedulingGroup(CoschedulingPodGroup pg) {
    return VolcanoConversion.toCoschedulingGroup(pg);
  }

  /** What gang inference reads of a batch/v1 Job owning pods. */
  public static OwnerObject toOwner(V1Job job) {
    return toOwner("Job", job.getMetadata());
  }

  /** What gang inference reads of any workload owning pods (a PyTorchJob, a JobSet, ...): its metadata. */
  public static OwnerObject toOwner(String kind, V1ObjectMeta meta) {
    Ctx ctx = Ctx.namespaced(kind, meta);
    if (meta == null || isBlank(meta.getUid())) {
      throw ctx.fail("metadata.uid", "missing");
    }
    return new OwnerObject(kind, namespaceOf(meta), meta.getName(), meta.getUid(), strings(meta.getLabels()),
        strings(meta.getAnnotations()), instant(meta.getCreationTimestamp()));
  }

  /**
   * Converts a Volcano Queue: weight 1 when unset (or 0, which Go cannot tell from unset), capability / guarantee /
   * deserved null when unset or empty, reclaimable true when unset, priority 0, state Open when the status has none.
   */
  public static Queue toQueue(V1beta1Queue q) {
    return VolcanoConversion.toQueue(q);
  }

  // ---------------------------------------------------------------------------------------------------- Resources

  /** One quantity in the model's units for resource {@code name}: milli-CPU for cpu, base units otherwise. */
  public static long toAmount(String name, Quantity q) {
    return amount(name, q, name, new Ctx("Quantity", name));
  }

  /** {@link #resources}, or null for a list that is unset or empty (Volcano's "no limit" / "nothing reserved"). */
  static ResourceVector optionalResources(Map<String, Quantity> list, String field, Ctx ctx) {
    return list == null || list.isEmpty() ? null : resources(list, field, ctx);
  }

  /** A resource list as a vector; a bad entry fails naming {@code field.name}. */
  static ResourceVector resources(Map<String, Quantity> list, String field, Ctx ctx) {
    ResourceVector.Builder b = ResourceVector.builder();
    list.forEach((name, q) -> b.add(name, amount(name, q, field + "." + name, ctx)));
    return b.build();
  }

  /** One quantity in the model's units; missing, negative, out-of-range or malformed fails naming {@code field}. */
  static long amount(String name, Quantity q, String field, Ctx ctx) {
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

  static String namespaceOf(V1ObjectMeta meta) {
    return meta == null || isBlank(meta.getNamespace()) ? DEFAULT_NAMESPACE : meta.getNamespace();
  }

  /** A copy without null keys; null values (a bare {@code key:} in YAML) become empty strings. */
  static Map<String, String> strings(Map<String, String> in) {
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

  static Instant instant(OffsetDateTime t) {
    return t == null ? null : t.toInstant();
  }

  static boolean isBlank(String s) {
    return s == null || s.isEmpty();
  }

  static String emptyToNull(String s) {
    return isBlank(s) ? null : s;
  }

  /** Names the object being converted, for error messages. */
  record Ctx(String kind, String key) {
    /** The context of a namespaced object, keyed {@code namespace/name}; fails when it has no name. */
    static Ctx namespaced(String kind, V1ObjectMeta meta) {
      return named(kind, namespaceOf(meta) + "/", meta);
    }

    /** The context of a cluster-scoped object, keyed by its name; fails when it has none. */
    static Ctx clusterScoped(String kind, V1ObjectMeta meta) {
      return named(kind, "", meta);
    }

    private static Ctx named(String kind, String keyPrefix, V1ObjectMeta meta) {
      String name = meta == null ? null : meta.getName();
      Ctx ctx = new Ctx(kind, keyPrefix + (isBlank(name) ? "<unnamed>" : name));
      if (isBlank(name)) {
        throw ctx.fail("metadata.name", "missing");
      }
      return ctx;
    }

    KubeConversionException fail(String field, String problem) {
      return new KubeConversionException(kind, key, field, problem);
    }

    KubeConversionException fail(String field, String problem, Throwable cause) {
      return new KubeConversionException(kind, key, field, problem, cause);
    }
  }
}
