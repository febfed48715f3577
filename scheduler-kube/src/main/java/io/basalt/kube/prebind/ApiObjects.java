package io.basalt.kube.prebind;

import java.util.Map;

/**
 * What a {@link PreBindStep} may read and write besides the pod's binding: other objects' annotations, each write
 * guarded by the resourceVersion it was read at, so two writers of one annotation cannot both win. Live it is the API
 * server; in the simulator, objects kept in memory. A step writing another kind (a PVC, a ResourceClaim's status)
 * adds its kind here.
 */
public interface ApiObjects {
  enum Kind { NODE, POD }

  /** An object's annotations and resourceVersion; {@code annotations} null when it could not be read. */
  record Meta(Map<String, String> annotations, String resourceVersion, ApiReply reply) {}

  /** Reads an object ({@code namespace} null for a node). */
  Meta read(Kind kind, String namespace, String name);

  /**
   * Sets ({@code value} non-null) or removes one annotation, refused (409) when the object changed since
   * {@code resourceVersion}.
   */
  ApiReply annotate(Kind kind, String namespace, String name, String key, String value, String resourceVersion);

  /** A claim or PV as the API holds it now, with its resourceVersion; {@code value} null when it could not be read. */
  record Read<T>(T value, String resourceVersion, ApiReply reply) {}

  /** Reads a PersistentVolumeClaim (volume binding). */
  default Read<io.basalt.model.VolumeClaim> readClaim(String namespace, String name) {
    return new Read<>(null, null, ApiReply.UNSUPPORTED);
  }

  /** Reads a PersistentVolume (volume binding). */
  default Read<io.basalt.model.PersistentVolume> readVolume(String name) {
    return new Read<>(null, null, ApiReply.UNSUPPORTED);
  }

  /**
   * Sets ({@code node} non-null) or removes a claim's {@code volume.kubernetes.io/selected-node} annotation, refused
   * (409) when the claim changed since {@code resourceVersion}.
   */
  default ApiReply selectNode(String namespace, String claim, String node, String resourceVersion) {
    return ApiReply.UNSUPPORTED;
  }

  /**
   * Sets a PV's {@code spec.claimRef} to {@code claim} (null clears it), as kube-scheduler binds a static PV for the
   * PV controller to finish; refused (409) when the PV changed since {@code resourceVersion}.
   */
  default ApiReply reserveVolume(String volume, io.basalt.model.VolumeClaim claim, String resourceVersion) {
    return ApiReply.UNSUPPORTED;
  }

  /**
   * Tries {@code pod}'s binding to {@code node} without applying it (the binding POST with {@code dryRun=All}): the
   * API answers as it would for the binding (the pod gone or re-created, already bound, being deleted, refused by
   * admission), so a gang's volume reservation learns that a member cannot be bound before it writes any claim. An
   * implementation that cannot tell answers 200.
   */
  default ApiReply tryBind(io.basalt.model.Pod pod, String node) {
    return new ApiReply(200, "not tried here");
  }

  /** A DRA ResourceClaim's {@code status} (empty when it has none) and resourceVersion; status null when unread. */
  record ClaimStatus(com.google.gson.JsonObject status, String resourceVersion, ApiReply reply) {}

  /** Reads a ResourceClaim's status; an implementation without claims answers 501. */
  default ClaimStatus readClaimStatus(String namespace, String name) {
    return new ClaimStatus(null, null, new ApiReply(501, "ResourceClaims are not served here"));
  }

  /**
   * Replaces a ResourceClaim's status (its status subresource), refused (409) when the claim changed since
   * {@code resourceVersion}.
   */
  default ApiReply writeClaimStatus(String namespace, String name, com.google.gson.JsonObject status,
      String resourceVersion) {
    return new ApiReply(501, "ResourceClaims are not served here");
  }
}
