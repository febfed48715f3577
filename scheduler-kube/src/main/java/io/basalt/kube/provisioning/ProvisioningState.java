package io.basalt.kube.provisioning;

/** Where a ProvisioningRequest stands, from its conditions (the first true of Failed ... Provisioned). */
public enum ProvisioningState {
  /** No condition yet, or {@code Accepted} only: the autoscaler is working on it. */
  PENDING,
  /** {@code Provisioned=True}: its nodes are there; the pods consuming it may bind. */
  PROVISIONED,
  /** {@code Failed=True}: terminal; Kueue makes a new request after a backoff. */
  FAILED,
  /** {@code BookingExpired=True}: the nodes were released before the pods came. */
  BOOKING_EXPIRED,
  /** {@code CapacityRevoked=True}: the nodes went away. */
  CAPACITY_REVOKED;

  /** Whether the request is over without nodes: a new attempt is needed. */
  public boolean lost() {
    return this == FAILED || this == BOOKING_EXPIRED || this == CAPACITY_REVOKED;
  }
}
