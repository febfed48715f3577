package io.basalt.kube.kinds.resource;

import com.google.gson.JsonObject;
import io.basalt.kube.kinds.CustomObject;
import io.basalt.kube.kinds.CustomObjectList;

/**
 * A {@code resource.k8s.io/v1} ResourceClaim, its spec and status kept as JSON trees: {@link DraJson} reads the fields Basalt
 * uses, naming the field when one is wrong.
 */
public final class ResourceClaimObject extends CustomObject<ResourceClaimObject, JsonObject, JsonObject> {
  public static final String KIND = "ResourceClaim";
  public static final String PLURAL = "resourceclaims";
  static final boolean NAMESPACED = true;

  /** {@code ResourceClaimList}, for client-java's generic API and informers. */
  public static final class List extends CustomObjectList<ResourceClaimObject> {}
}
