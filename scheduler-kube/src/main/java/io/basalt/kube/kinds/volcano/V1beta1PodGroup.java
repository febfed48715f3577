package io.basalt.kube.kinds.volcano;

import io.basalt.kube.kinds.CustomObject;
import io.kubernetes.client.custom.Quantity;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code scheduling.volcano.sh/v1beta1} PodGroup custom resource, shaped for client-java's Gson (usable with
 * {@code GenericKubernetesApi<V1beta1PodGroup, V1beta1PodGroupList>} and shared informers). Only the fields Basalt
 * reads are modelled; unknown fields (subGroupPolicy, ...) are ignored when read.
 *
 * <p>Spec, status and condition are records: Gson reads and writes them by component name, as it did the JavaBeans
 * they replace, and a change is a copy ({@code spec.minMember(4)}) rather than a setter on a shared object.
 */
public final class V1beta1PodGroup
    extends CustomObject<V1beta1PodGroup, V1beta1PodGroup.Spec, V1beta1PodGroup.Status> {
  public static final String GROUP = "scheduling.volcano.sh";
  public static final String VERSION = "v1beta1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "PodGroup";
  public static final String PLURAL = "podgroups";

  /**
   * {@code spec}: the gang's size, queue, priority and minimum resources. {@code minResources} is null when the group
   * does not declare it, which Volcano treats differently from an empty list.
   */
  public record Spec(Integer minMember, Map<String, Integer> minTaskMember, String queue, String priorityClassName,
      Map<String, Quantity> minResources, NetworkTopology networkTopology) {
    /** Nothing set. */
    public Spec() {
      this(null, null, null, null, null, null);
    }

    public Spec(Integer minMember, Map<String, Integer> minTaskMember, String queue, String priorityClassName,
        Map<String, Quantity> minResources) {
      this(minMember, minTaskMember, queue, priorityClassName, minResources, null);
    }

    public Spec minMember(Integer v) {
      return new Spec(v, minTaskMember, queue, priorityClassName, minResources, networkTopology);
    }

    public Spec minTaskMember(Map<String, Integer> v) {
      return new Spec(minMember, v, queue, priorityClassName, minResources, networkTopology);
    }

    public Spec queue(String v) {
      return new Spec(minMember, minTaskMember, v, priorityClassName, minResources, networkTopology);
    }

    public Spec priorityClassName(String v) {
      return new Spec(minMember, minTaskMember, queue, v, minResources, networkTopology);
    }

    public Spec minResources(Map<String, Quantity> v) {
      return new Spec(minMember, minTaskMember, queue, priorityClassName, v, networkTopology);
    }

    public Spec networkTopology(NetworkTopology v) {
      return new Spec(minMember, minTaskMember, queue, priorityClassName, minResources, v);
    }
  }

  /**
   * {@code spec.networkTopology}: {@code mode} hard (default) or soft; {@code highestTierAllowed} or
   * {@code highestTierName}, the widest tier of HyperNode the gang may span.
   */
  public record NetworkTopology(String mode, Integer highestTierAllowed, String highestTierName) {}

  /** {@code status}: phase (Pending, Inqueue, Running, Unknown, Completed), conditions and pod counts. */
  public record Status(String phase, List<Condition> conditions, Integer running, Integer succeeded, Integer failed) {
    /** Nothing set. */
    public Status() {
      this(null, null, null, null, null);
    }

    public Status phase(String v) {
      return new Status(v, conditions, running, succeeded, failed);
    }

    public Status conditions(List<Condition> v) {
      return new Status(phase, v, running, succeeded, failed);
    }

    public Status running(Integer v) {
      return new Status(phase, conditions, v, succeeded, failed);
    }

    public Status succeeded(Integer v) {
      return new Status(phase, conditions, running, v, failed);
    }

    public Status failed(Integer v) {
      return new Status(phase, conditions, running, succeeded, v);
    }
  }

  /** One entry of {@code status.conditions}; types Volcano sets are Unschedulable and Scheduled. */
  public record Condition(String type, String status, String transitionID, OffsetDateTime lastTransitionTime,
      String reason, String message) {
    /** Nothing set. */
    public Condition() {
      this(null, null, null, null, null, null);
    }

    public Condition type(String v) {
      return new Condition(v, status, transitionID, lastTransitionTime, reason, message);
    }

    public Condition status(String v) {
      return new Condition(type, v, transitionID, lastTransitionTime, reason, message);
    }

    public Condition transitionID(String v) {
      return new Condition(type, status, v, lastTransitionTime, reason, message);
    }

    public Condition lastTransitionTime(OffsetDateTime v) {
      return new Condition(type, status, transitionID, v, reason, message);
    }

    public Condition reason(String v) {
      return new Condition(type, status, transitionID, lastTransitionTime, v, message);
    }

    public Condition message(String v) {
      return new Condition(type, status, transitionID, lastTransitionTime, reason, v);
    }
  }
}
