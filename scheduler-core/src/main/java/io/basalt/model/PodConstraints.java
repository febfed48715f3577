package io.basalt.model;

import java.util.List;

/**
 * What else of a pod's spec kube-scheduler honours beyond its request, node selector, required node affinity and
 * tolerations: scheduling gates, host ports, preferred node affinity, inter-pod (anti-)affinity, topology spread and
 * the images (for image locality). Most pods carry none of it, and share {@link #NONE}.
 *
 * @param schedulingGates {@code spec.schedulingGates} names: while any remains the pod is not scheduled
 * @param volumes the pod's volumes backed by PersistentVolumeClaims (named or generic ephemeral), for the volume
 *     filters
 * @param resourceClaims {@code spec.resourceClaims}: DRA claims allocated before the pod runs
 */
public record PodConstraints(
    List<String> schedulingGates,
    List<HostPort> hostPorts,
    List<PreferredSchedulingTerm> preferredNodeAffinity,
    List<PodAffinityTerm> requiredAffinity,
    List<WeightedPodAffinityTerm> preferredAffinity,
    List<PodAffinityTerm> requiredAntiAffinity,
    List<WeightedPodAffinityTerm> preferredAntiAffinity,
    List<TopologySpreadConstraint> topologySpread,
    List<String> images,
    List<PodVolume> volumes,
    List<PodResourceClaim> resourceClaims) {
  public static final PodConstraints NONE =
      new PodConstraints(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
          List.of());

  public PodConstraints {
    schedulingGates = copy(schedulingGates);
    hostPorts = copy(hostPorts);
    preferredNodeAffinity = copy(preferredNodeAffinity);
    requiredAffinity = copy(requiredAffinity);
    preferredAffinity = copy(preferredAffinity);
    requiredAntiAffinity = copy(requiredAntiAffinity);
    preferredAntiAffinity = copy(preferredAntiAffinity);
    topologySpread = copy(topologySpread);
    images = copy(images);
    volumes = copy(volumes);
    resourceClaims = copy(resourceClaims);
  }

  /** Constraints without volumes or DRA claims. */
  public PodConstraints(List<String> schedulingGates, List<HostPort> hostPorts,
      List<PreferredSchedulingTerm> preferredNodeAffinity, List<PodAffinityTerm> requiredAffinity,
      List<WeightedPodAffinityTerm> preferredAffinity, List<PodAffinityTerm> requiredAntiAffinity,
      List<WeightedPodAffinityTerm> preferredAntiAffinity, List<TopologySpreadConstraint> topologySpread,
      List<String> images) {
    this(schedulingGates, hostPorts, preferredNodeAffinity, requiredAffinity, preferredAffinity, requiredAntiAffinity,
        preferredAntiAffinity, topologySpread, images, List.of(), List.of());
  }

  /** Whether the pod mounts any claim. */
  public boolean hasVolumes() {
    return !volumes.isEmpty();
  }

  /** The same constraints with {@code value} as the pod's claim-backed volumes. */
  public PodConstraints withVolumes(List<PodVolume> value) {
    return new PodConstraints(schedulingGates, hostPorts, preferredNodeAffinity, requiredAffinity, preferredAffinity,
        requiredAntiAffinity, preferredAntiAffinity, topologySpread, images, value, resourceClaims);
  }

  /** Whether the pod names any DRA claim. */
  public boolean hasResourceClaims() {
    return !resourceClaims.isEmpty();
  }

  /** The same constraints with {@code claims} as its DRA claims. */
  public PodConstraints withResourceClaims(List<PodResourceClaim> claims) {
    return new PodConstraints(schedulingGates, hostPorts, preferredNodeAffinity, requiredAffinity, preferredAffinity,
        requiredAntiAffinity, preferredAntiAffinity, topologySpread, images, volumes, claims);
  }

  public boolean isGated() {
    return !schedulingGates.isEmpty();
  }

  /** Whether the pod names any pod (anti-)affinity term, required or preferred. */
  public boolean hasPodAffinity() {
    return !requiredAffinity.isEmpty() || !preferredAffinity.isEmpty() || !requiredAntiAffinity.isEmpty()
        || !preferredAntiAffinity.isEmpty();
  }

  /** The same constraints without scheduling gates (the pod once ungated). */
  public PodConstraints withoutGates() {
    return new PodConstraints(List.of(), hostPorts, preferredNodeAffinity, requiredAffinity, preferredAffinity,
        requiredAntiAffinity, preferredAntiAffinity, topologySpread, images, volumes, resourceClaims);
  }

  private static <T> List<T> copy(List<T> list) {
    return list == null ? List.of() : List.copyOf(list);
  }
}
