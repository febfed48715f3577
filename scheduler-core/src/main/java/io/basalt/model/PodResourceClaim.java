package io.basalt.model;

/**
 * One entry of a pod's {@code spec.resourceClaims}: a DRA claim it needs allocated before it can run.
 *
 * @param name the entry's name in the pod
 * @param claimName the ResourceClaim used: {@code resourceClaimName}, or for a template the claim made from it (from
 *     {@code status.resourceClaimStatuses}); null while that claim is not made yet
 * @param templateName {@code resourceClaimTemplateName}, or null
 */
public record PodResourceClaim(String name, String claimName, String templateName) {
  /** The same entry using the claim {@code claim} (made from its template). */
  public PodResourceClaim withClaim(String claim) {
    return new PodResourceClaim(name, claim, templateName);
  }
}
