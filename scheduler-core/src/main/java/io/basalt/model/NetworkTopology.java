package io.basalt.model;

/**
 * Where a gang's pods must sit in the network fabric, as users already ask for it: Volcano's PodGroup
 * {@code spec.networkTopology} ({@code mode}, {@code highestTierAllowed} or {@code highestTierName}), and MetaX's
 * {@code metax-tech.com/gpu-group-size} (GPUs per communication group; each group inside one tier-1 domain).
 *
 * @param mode hard: inside one domain no wider than the highest tier allowed, or not at all; soft: as tight as
 *     possible, the whole cluster as the fallback
 * @param highestTierAllowed null when not given (then {@code highestTierName}, or tier 1 in hard mode)
 * @param highestTierName a tier by its name, e.g. {@code dragonfly}; null when not given
 * @param gpuGroupSize MetaX's GPUs per group, or null
 */
public record NetworkTopology(Mode mode, Integer highestTierAllowed, String highestTierName, Integer gpuGroupSize) {
  /** Volcano's modes; hard is the default. */
  public enum Mode { HARD, SOFT }

  /** MetaX's annotation, on any pod of the job (its template) or on the PodGroup. */
  public static final String GPU_GROUP_SIZE_ANNOTATION = "metax-tech.com/gpu-group-size";

  public static NetworkTopology groupSize(int gpus) {
    return new NetworkTopology(Mode.HARD, null, null, gpus);
  }

  public NetworkTopology withGpuGroupSize(Integer gpus) {
    return new NetworkTopology(mode, highestTierAllowed, highestTierName, gpus);
  }
}
