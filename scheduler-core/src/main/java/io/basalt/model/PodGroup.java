package io.basalt.model;

import java.time.Instant;
import java.util.Map;

/**
 * The gang a set of pods is scheduled as: a Volcano PodGroup ({@code scheduling.volcano.sh/v1beta1}) read from the
 * cluster, or one the Kubernetes adapter inferred the way a podgroup controller would (from a Job owning the pods, a
 * coscheduling {@code scheduling.x-k8s.io} PodGroup, Kueue's pod-group labels).
 *
 * @param minResources null when the group does not declare it (then enqueue admits it unconditionally, as Volcano does)
 * @param phase Pending, Inqueue, Running, Unknown, Completed
 * @param inferredFrom null for a Volcano PodGroup object; else what the group was inferred from, for messages
 *     ({@code Job ml/train}): no Volcano PodGroup object exists to write status to
 * @param networkTopology where in the network fabric its pods must sit, or null when it does not say
 * @param owner for an inferred group, the object its pods belong to (a Job, a JobSet), or null: what a PodGroup
 *     object written for it ({@code --create-podgroups}) is owned by, so it is garbage-collected with the workload
 */
public record PodGroup(
    String namespace,
    String name,
    int minMember,
    Map<String, Integer> minTaskMember,
    String queue,
    String priorityClassName,
    ResourceVector minResources,
    String phase,
    Instant creationTimestamp,
    String inferredFrom,
    NetworkTopology networkTopology,
    OwnerReference owner) {

  /** A Volcano PodGroup object. */
  public PodGroup(String namespace, String name, int minMember, Map<String, Integer> minTaskMember, String queue,
      String priorityClassName, ResourceVector minResources, String phase, Instant creationTimestamp) {
    this(namespace, name, minMember, minTaskMember, queue, priorityClassName, minResources, phase, creationTimestamp,
        null, null, null);
  }

  /** A group inferred from pods' owners or labels (see {@link #inferredFrom}). */
  public PodGroup(String namespace, String name, int minMember, Map<String, Integer> minTaskMember, String queue,
      String priorityClassName, ResourceVector minResources, String phase, Instant creationTimestamp,
      String inferredFrom, OwnerReference owner) {
    this(namespace, name, minMember, minTaskMember, queue, priorityClassName, minResources, phase, creationTimestamp,
        inferredFrom, null, owner);
  }

  public PodGroup {
    minTaskMember = Map.copyOf(minTaskMember);
  }

  public String key() {
    return namespace + "/" + name;
  }

  /** True when no Volcano PodGroup object stands behind this group. */
  public boolean inferred() {
    return inferredFrom != null;
  }

  public PodGroup withPhase(String newPhase) {
    return new PodGroup(namespace, name, minMember, minTaskMember, queue, priorityClassName, minResources, newPhase,
        creationTimestamp, inferredFrom, networkTopology, owner);
  }
}
