package io.basalt.kube;

import io.basalt.kube.gang.CoschedulingGroup;
import io.basalt.kube.gang.OwnerObject;
import io.basalt.kube.kinds.Conversion;
import io.basalt.kube.kinds.Conversion.Ctx;
import io.basalt.kube.kinds.coscheduling.CoschedulingPodGroup;
import io.basalt.kube.kinds.coscheduling.CoschedulingPodGroupKind;
import io.basalt.kube.kinds.core.NodeConversion;
import io.basalt.kube.kinds.core.PodConversion;
import io.basalt.kube.kinds.core.PriorityClassKind;
import io.basalt.kube.kinds.volcano.V1beta1PodGroup;
import io.basalt.kube.kinds.volcano.V1beta1Queue;
import io.basalt.kube.kinds.volcano.VolcanoConversion;
import io.basalt.model.Node;
import io.basalt.model.Pod;
import io.basalt.model.PodGroup;
import io.basalt.model.PriorityClass;
import io.basalt.model.Queue;
import io.basalt.model.ResourceVector;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PriorityClass;

/**
 * One object to its engine record, for callers holding a single client-java object (tests, tools): each method is
 * the conversion its kind's adapter applies (see {@link Kinds}). Every method throws
 * {@link io.basalt.kube.kinds.KubeConversionException} naming the object and field for input the API server would
 * have rejected (a missing name, a negative or out-of-range quantity, a requirement without an operator).
 */
public final class KubeConverter {
  /** The scheduler a pod names when {@code spec.schedulerName} is unset, as the API server defaults it. */
  public static final String DEFAULT_SCHEDULER_NAME = PodConversion.DEFAULT_SCHEDULER_NAME;
  /** The kubelet's default {@code --max-pods}, used when a node does not report {@code pods}. */
  public static final long DEFAULT_MAX_PODS = NodeConversion.DEFAULT_MAX_PODS;
  /** The namespace of a namespaced object that names none (kubectl's default context namespace). */
  public static final String DEFAULT_NAMESPACE = Conversion.DEFAULT_NAMESPACE;
  /** The API server's default for {@code PriorityClass.preemptionPolicy}. */
  public static final String DEFAULT_PREEMPTION_POLICY = PriorityClassKind.DEFAULT_PREEMPTION_POLICY;

  private KubeConverter() {}

  /** A pod (see {@link PodConversion}). */
  public static Pod toPod(V1Pod pod) {
    return PodConversion.toPod(pod);
  }

  /** The pod's effective request as {@link #toPod} computes it; {@code objectKey} only labels errors. */
  public static ResourceVector podRequest(V1PodSpec spec, String objectKey) {
    return PodConversion.podRequest(spec, new Ctx("Pod", objectKey));
  }

  /** A node (see {@link NodeConversion}). */
  public static Node toNode(V1Node node) {
    return NodeConversion.toNode(node);
  }

  /** A PriorityClass; {@code preemptionPolicy} defaults to PreemptLowerPriority. */
  public static PriorityClass toPriorityClass(V1PriorityClass pc) {
    return PriorityClassKind.toPriorityClass(pc);
  }

  /** A Volcano PodGroup (see {@link VolcanoConversion#toPodGroup}). */
  public static PodGroup toPodGroup(V1beta1PodGroup pg) {
    return VolcanoConversion.toPodGroup(pg);
  }

  /** A coscheduling PodGroup: {@code minMember} 1 when unset (0 and negatives are errors). */
  public static CoschedulingGroup toCoschedulingGroup(CoschedulingPodGroup pg) {
    return CoschedulingPodGroupKind.toGroup(pg);
  }

  /** What gang inference reads of a batch/v1 Job owning pods. */
  public static OwnerObject toOwner(V1Job job) {
    return toOwner("Job", job.getMetadata());
  }

  /** What gang inference reads of any workload owning pods (a PyTorchJob, a JobSet, ...): its metadata. */
  public static OwnerObject toOwner(String kind, V1ObjectMeta meta) {
    return Conversion.owner(kind, meta);
  }

  /** A Volcano Queue (see {@link VolcanoConversion#toQueue}). */
  public static Queue toQueue(V1beta1Queue q) {
    return VolcanoConversion.toQueue(q);
  }

  /** One quantity in the model's units for resource {@code name}: milli-CPU for cpu, base units otherwise. */
  public static long toAmount(String name, Quantity q) {
    return Conversion.amount(name, q, name, new Ctx("Quantity", name));
  }
}
