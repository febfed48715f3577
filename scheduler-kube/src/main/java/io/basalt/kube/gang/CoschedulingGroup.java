package io.basalt.kube.gang;

import io.basalt.model.ResourceVector;
import java.time.Instant;

/**
 * A scheduler-plugins coscheduling {@code PodGroup} ({@code scheduling.x-k8s.io/v1alpha1}), pods joining it by the
 * {@code scheduling.x-k8s.io/pod-group} label.
 *
 * @param minResources null when not declared
 * @param scheduleTimeoutSeconds read and reported, not acted on: Basalt keeps a gang waiting rather than failing it
 */
public record CoschedulingGroup(String namespace, String name, int minMember, ResourceVector minResources,
    Integer scheduleTimeoutSeconds, Instant creationTimestamp) {
  public String key() {
    return namespace + "/" + name;
  }
}
