package io.basalt.kube.provisioning;

import io.basalt.model.Pod;
import io.basalt.model.PodConstraints;
import java.util.ArrayList;
import java.util.List;

/**
 * Pods that consume a ProvisioningRequest ({@value #CONSUME_ANNOTATION}) wait until it is {@code Provisioned}: bound
 * earlier they would take room on nodes the autoscaler made for nobody in particular, or be counted twice by it. They
 * wait behind the scheduling gate {@value #GATE} (added by Basalt, never written to the API), so the session treats
 * them as gated pods: no task, no {@code Unschedulable} condition for the autoscaler to scale up for a second time.
 */
public final class ConsumeGate {
  /** The pod annotation naming the ProvisioningRequest (in the pod's namespace) whose nodes the pod is for. */
  public static final String CONSUME_ANNOTATION = "cluster-autoscaler.kubernetes.io/consume-provisioning-request";
  /** The pod annotation naming the request's class, as Kueue writes it beside {@link #CONSUME_ANNOTATION}. */
  public static final String CLASS_ANNOTATION = "cluster-autoscaler.kubernetes.io/provisioning-class-name";
  /** The gate Basalt holds a consuming pod behind until its request is provisioned. */
  public static final String GATE = "basalt.io/provisioning-request";

  private ConsumeGate() {}

  /** {@code namespace/name} of the request {@code pod} consumes, or null when it consumes none. */
  public static String requestOf(Pod pod) {
    String name = pod.annotations().get(CONSUME_ANNOTATION);
    return name == null || name.isBlank() ? null : pod.namespace() + "/" + name;
  }

  /**
   * {@code pod} as the scheduler should see it: behind {@link #GATE} while it is unassigned and its request is not
   * provisioned ({@code state} null when the request does not exist), as it came otherwise.
   */
  public static Pod apply(Pod pod, ProvisioningState state) {
    if (requestOf(pod) == null || pod.isAssigned() || state == ProvisioningState.PROVISIONED) {
      return pod;
    }
    PodConstraints c = pod.constraints();
    if (c.schedulingGates().contains(GATE)) {
      return pod;
    }
    List<String> gates = new ArrayList<>(c.schedulingGates());
    gates.add(GATE);
    PodConstraints gated = new PodConstraints(gates, c.hostPorts(), c.preferredNodeAffinity(), c.requiredAffinity(),
        c.preferredAffinity(), c.requiredAntiAffinity(), c.preferredAntiAffinity(), c.topologySpread(), c.images())
        .withVolumes(c.volumes()).withResourceClaims(c.resourceClaims());
    return pod.withConstraints(gated);
  }

  /** Why a consuming pod waits, for a warning. */
  public static String why(Pod pod, ProvisioningState state, String message) {
    String req = requestOf(pod);
    return "pod " + pod.key() + " waits for ProvisioningRequest " + req + " to be Provisioned: "
        + (state == null ? "it does not exist" : "it is " + state.name().toLowerCase(java.util.Locale.ROOT)
        .replace('_', ' ') + (message == null ? "" : " (" + message + ")"));
  }
}
