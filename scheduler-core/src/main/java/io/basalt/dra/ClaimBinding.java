package io.basalt.dra;

/**
 * What the binder writes to one ResourceClaim before binding a pod: its {@code status.allocation} when the session
 * allocated it ({@code allocated}), and the pod added to {@code status.reservedFor}.
 *
 * @param allocated true when this binding carries the claim's new allocation; false for a claim allocated before
 *     (shared, or allocated by another scheduler), to which only the reservation is added
 */
public record ClaimBinding(String namespace, String name, String uid, Allocation allocation, boolean allocated) {
  public String key() {
    return namespace + "/" + name;
  }
}
