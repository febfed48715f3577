package io.basalt.model;

import java.time.Instant;
import java.util.Map;

/**
 * A Volcano PodGroup ({@code scheduling.volcano.sh/v1beta1}): the gang a set of pods is scheduled as.
 *
 * @param minResources null when the group does not declare it (then enqueue admits it unconditionally, as Volcano does)
 * @param phase Pending, Inqueue, Running, Unknown, Completed
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
    Instant creationTimestamp) {

  public PodGroup {
    minTaskMember = Map.copyOf(minTaskMember);
  }

  public String key() {
    return namespace + "/" + name;
  }

  public PodGroup withPhase(String newPhase) {
    return new PodGroup(namespace, name, minMember, minTaskMember, queue, priorityClassName, minResources, newPhase,
        creationTimestamp);
  }
}
