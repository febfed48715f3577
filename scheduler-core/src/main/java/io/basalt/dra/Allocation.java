package io.basalt.dra;

import java.util.List;

/**
 * A claim's {@code status.allocation}: its devices, and the node the pods using it must run on.
 *
 * @param nodeName the node every device is reachable from when one is node-local (written as the allocation's
 *     {@code nodeSelector} on {@code metadata.name}), or null when the devices are reachable from any node
 */
public record Allocation(List<AllocatedDevice> devices, String nodeName) {
  public Allocation {
    devices = List.copyOf(devices);
  }

  /** Whether pods using the claim may run on {@code node}. */
  public boolean allows(String node) {
    return nodeName == null || nodeName.equals(node);
  }
}
