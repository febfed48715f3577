package io.basalt.kube.kinds.coscheduling;

import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;
import io.kubernetes.client.custom.Quantity;
import java.util.Map;

/**
 * The scheduler-plugins coscheduling PodGroup ({@code scheduling.x-k8s.io/v1alpha1}), read from manifests and by a
 * generic informer like the other custom resources. Pods join it by the
 * {@code scheduling.x-k8s.io/pod-group} label. Only the spec is modelled: Basalt does not write its status.
 */
public final class CoschedulingPodGroup
    extends CustomObject<CoschedulingPodGroup, CoschedulingPodGroup.Spec, CoschedulingPodGroup.Status> {
  public static final String GROUP = "scheduling.x-k8s.io";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "PodGroup";
  public static final String PLURAL = "podgroups";

  /** {@code spec}: the gang's size, the resources it needs at least, how long the coscheduling plugin waits. */
  public record Spec(Integer minMember, Map<String, Quantity> minResources, Integer scheduleTimeoutSeconds) {
    public Spec() {
      this(null, null, null);
    }
  }

  /** {@code status.phase}, as the coscheduling controller writes it; read for completeness, unused. */
  public record Status(String phase) {
    public Status() {
      this(null);
    }
  }

  /** {@code PodGroupList} of this API group, for client-java's generic API and informers. */
  public static final class List extends CustomObjectList<CoschedulingPodGroup> {}
}
