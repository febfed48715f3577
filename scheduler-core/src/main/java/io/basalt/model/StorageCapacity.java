package io.basalt.model;

/**
 * A CSIStorageCapacity: how much a class can still provision for the nodes its topology selects.
 *
 * @param nodeTopology the nodes it speaks for (their labels); null selects none
 * @param capacity {@code capacity} in bytes
 * @param maximumVolumeSize {@code maximumVolumeSize} in bytes, or -1 when absent (then {@code capacity} bounds one
 *     volume)
 */
public record StorageCapacity(String namespace, String name, String storageClassName, LabelSelector nodeTopology,
    long capacity, long maximumVolumeSize) {
  /** {@code namespace/name}. */
  public String key() {
    return namespace + "/" + name;
  }

  /** Whether a volume of {@code size} bytes fits here for {@code node}. */
  public boolean fits(Node node, long size) {
    if (nodeTopology == null || !nodeTopology.matches(node.labels())) {
      return false;
    }
    return (maximumVolumeSize >= 0 ? maximumVolumeSize : capacity) >= size;
  }
}
