package io.basalt.dra;

import java.util.List;

/**
 * A {@code resource.k8s.io/v1} ResourceClaim.
 *
 * @param allocation {@code status.allocation}, or null while unallocated
 * @param reservedFor the uids of the pods in {@code status.reservedFor}
 */
public record ResourceClaim(String namespace, String name, String uid, ClaimSpec spec, Allocation allocation,
    List<String> reservedFor) {
  public ResourceClaim {
    reservedFor = List.copyOf(reservedFor);
  }

  public String key() {
    return namespace + "/" + name;
  }

  public ResourceClaim withAllocation(Allocation value, List<String> reserved) {
    return new ResourceClaim(namespace, name, uid, spec, value, reserved);
  }
}
