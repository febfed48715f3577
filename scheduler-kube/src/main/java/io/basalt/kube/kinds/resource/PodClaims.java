package io.basalt.kube.kinds.resource;

import io.basalt.model.PodConstraints;
import io.basalt.model.PodResourceClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodResourceClaim;
import io.kubernetes.client.openapi.models.V1PodResourceClaimStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's {@code spec.resourceClaims}: a claim named directly, or one made from a template, whose name the pod's
 * {@code status.resourceClaimStatuses} gives once kube-controller-manager made it.
 */
public final class PodClaims {
  private PodClaims() {}

  /** {@code constraints} with the pod's DRA claims; the same object when it names none. */
  public static PodConstraints with(PodConstraints constraints, V1Pod pod) {
    List<V1PodResourceClaim> refs = pod.getSpec() == null ? null : pod.getSpec().getResourceClaims();
    if (refs == null || refs.isEmpty()) {
      return constraints;
    }
    Map<String, String> made = new HashMap<>();
    if (pod.getStatus() != null && pod.getStatus().getResourceClaimStatuses() != null) {
      for (V1PodResourceClaimStatus s : pod.getStatus().getResourceClaimStatuses()) {
        made.put(s.getName(), s.getResourceClaimName());
      }
    }
    List<PodResourceClaim> claims = new ArrayList<>();
    for (V1PodResourceClaim r : refs) {
      String claim = r.getResourceClaimName() != null ? r.getResourceClaimName() : made.get(r.getName());
      claims.add(new PodResourceClaim(r.getName(), claim, r.getResourceClaimTemplateName()));
    }
    return constraints.withResourceClaims(claims);
  }
}
