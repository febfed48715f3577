package io.basalt.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A pod as the engine sees it. Immutable: a change in the cluster is a new record.
 *
 * @param request sum of app containers, max'd with each init container, plus overhead, plus one {@code pods}
 * @param priority {@code spec.priority} when the API server resolved it, else null (resolved from the class later)
 * @param nodeName the node it is bound to, or null while pending
 * @param terminating true once a deletion timestamp is set: its resources are releasing
 * @param group the PodGroup this pod is scheduled with (namespace-local name), or null for a pod on its own: Volcano's
 *     {@link #GROUP_NAME_ANNOTATION}, or a group the Kubernetes adapter inferred from the pod's owner or labels
 * @param controller the pod's controlling owner ({@code ownerReferences} entry with {@code controller: true}), or null
 * @param containers each container's own request, init containers first (HAMi's device annotations list devices per
 *     container in that order); empty when unknown, then the pod counts as one container holding {@code request}
 */
public record Pod(
    String uid,
    String namespace,
    String name,
    String schedulerName,
    String nodeName,
    String phase,
    boolean terminating,
    Integer priority,
    String priorityClassName,
    String preemptionPolicy,
    ResourceVector request,
    Map<String, String> labels,
    Map<String, String> annotations,
    Map<String, String> nodeSelector,
    List<NodeSelectorTerm> requiredNodeAffinity,
    List<Toleration> tolerations,
    Instant creationTimestamp,
    String group,
    OwnerReference controller,
    List<ContainerRequest> containers,
    PodConstraints constraints,
    String nominatedNodeName) {

  /** Volcano's annotation naming the PodGroup a pod belongs to. */
  public static final String GROUP_NAME_ANNOTATION = "scheduling.k8s.io/group-name";
  /** The task (role) within a Volcano job, as its job controller sets it; keys {@code minTaskMember}. */
  public static final String TASK_SPEC_ANNOTATION = "volcano.sh/task-spec";
  /** Queue of a pod that has no PodGroup. */
  public static final String QUEUE_NAME_ANNOTATION = "scheduling.volcano.sh/queue-name";

  /** A pod whose group, if any, is its {@link #GROUP_NAME_ANNOTATION} and which has no controller. */
  public Pod(String uid, String namespace, String name, String schedulerName, String nodeName, String phase,
      boolean terminating, Integer priority, String priorityClassName, String preemptionPolicy, ResourceVector request,
      Map<String, String> labels, Map<String, String> annotations, Map<String, String> nodeSelector,
      List<NodeSelectorTerm> requiredNodeAffinity, List<Toleration> tolerations, Instant creationTimestamp) {
    this(uid, namespace, name, schedulerName, nodeName, phase, terminating, priority, priorityClassName,
        preemptionPolicy, request, labels, annotations, nodeSelector, requiredNodeAffinity, tolerations,
        creationTimestamp, emptyToNull(annotations.get(GROUP_NAME_ANNOTATION)), null, List.of(), PodConstraints.NONE);
  }

  /** A pod with no {@link PodConstraints}. */
  public Pod(String uid, String namespace, String name, String schedulerName, String nodeName, String phase,
      boolean terminating, Integer priority, String priorityClassName, String preemptionPolicy, ResourceVector request,
      Map<String, String> labels, Map<String, String> annotations, Map<String, String> nodeSelector,
      List<NodeSelectorTerm> requiredNodeAffinity, List<Toleration> tolerations, Instant creationTimestamp,
      String group, OwnerReference controller, List<ContainerRequest> containers) {
    this(uid, namespace, name, schedulerName, nodeName, phase, terminating, priority, priorityClassName,
        preemptionPolicy, request, labels, annotations, nodeSelector, requiredNodeAffinity, tolerations,
        creationTimestamp, group, controller, containers, PodConstraints.NONE);
  }

  /** A pod no scheduler has nominated to a node. */
  public Pod(String uid, String namespace, String name, String schedulerName, String nodeName, String phase,
      boolean terminating, Integer priority, String priorityClassName, String preemptionPolicy, ResourceVector request,
      Map<String, String> labels, Map<String, String> annotations, Map<String, String> nodeSelector,
      List<NodeSelectorTerm> requiredNodeAffinity, List<Toleration> tolerations, Instant creationTimestamp,
      String group, OwnerReference controller, List<ContainerRequest> containers, PodConstraints constraints) {
    this(uid, namespace, name, schedulerName, nodeName, phase, terminating, priority, priorityClassName,
        preemptionPolicy, request, labels, annotations, nodeSelector, requiredNodeAffinity, tolerations,
        creationTimestamp, group, controller, containers, constraints, null);
  }

  public Pod {
    group = emptyToNull(group);
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    nodeSelector = Map.copyOf(nodeSelector);
    requiredNodeAffinity = List.copyOf(requiredNodeAffinity);
    tolerations = List.copyOf(tolerations);
    containers = containers == null ? List.of() : List.copyOf(containers);
    constraints = constraints == null ? PodConstraints.NONE : constraints;
    nominatedNodeName = emptyToNull(nominatedNodeName);
  }

  /** Whether {@code spec.schedulingGates} still holds the pod back. */
  public boolean isGated() {
    return constraints.isGated();
  }

  /** {@code namespace/name}, the key users and logs know a pod by. */
  public String key() {
    return namespace + "/" + name;
  }

  public boolean isAssigned() {
    return nodeName != null && !nodeName.isEmpty();
  }

  /** Succeeded or Failed pods hold no resources. */
  public boolean isFinished() {
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** The PodGroup's name (in this pod's namespace), or null for a pod scheduled on its own. */
  public String groupName() {
    return group;
  }

  public String taskSpec() {
    return annotations.get(TASK_SPEC_ANNOTATION);
  }

  public Pod withNodeName(String node) {
    return new Pod(uid, namespace, name, schedulerName, node, node == null ? phase : "Running", terminating, priority,
        priorityClassName, preemptionPolicy, request, labels, annotations, nodeSelector, requiredNodeAffinity,
        tolerations, creationTimestamp, group, controller, containers, constraints, nominatedNodeName);
  }

  public Pod withTerminating(boolean value) {
    return new Pod(uid, namespace, name, schedulerName, nodeName, phase, value, priority, priorityClassName,
        preemptionPolicy, request, labels, annotations, nodeSelector, requiredNodeAffinity, tolerations,
        creationTimestamp, group, controller, containers, constraints, nominatedNodeName);
  }

  public Pod withAnnotations(Map<String, String> newAnnotations) {
    return new Pod(uid, namespace, name, schedulerName, nodeName, phase, terminating, priority, priorityClassName,
        preemptionPolicy, request, labels, newAnnotations, nodeSelector, requiredNodeAffinity, tolerations,
        creationTimestamp, group, controller, containers, constraints, nominatedNodeName);
  }

  public Pod withLabels(Map<String, String> newLabels) {
    return new Pod(uid, namespace, name, schedulerName, nodeName, phase, terminating, priority, priorityClassName,
        preemptionPolicy, request, newLabels, annotations, nodeSelector, requiredNodeAffinity, tolerations,
        creationTimestamp, group, controller, containers, constraints, nominatedNodeName);
  }

  public Pod withConstraints(PodConstraints value) {
    return new Pod(uid, namespace, name, schedulerName, nodeName, phase, terminating, priority, priorityClassName,
        preemptionPolicy, request, labels, annotations, nodeSelector, requiredNodeAffinity, tolerations,
        creationTimestamp, group, controller, containers, value, nominatedNodeName);
  }

  public Pod withNominatedNodeName(String node) {
    return new Pod(uid, namespace, name, schedulerName, nodeName, phase, terminating, priority, priorityClassName,
        preemptionPolicy, request, labels, annotations, nodeSelector, requiredNodeAffinity, tolerations,
        creationTimestamp, group, controller, containers, constraints, node);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
