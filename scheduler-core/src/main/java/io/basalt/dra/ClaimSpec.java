package io.basalt.dra;

import java.util.List;

/** What a ResourceClaim (or the template it is made from) asks for: {@code spec.devices}. */
public record ClaimSpec(List<DeviceRequest> requests, List<MatchConstraint> constraints) {
  public ClaimSpec {
    requests = List.copyOf(requests);
    constraints = List.copyOf(constraints);
  }
}
