package io.basalt.kube.kinds.resource;

import io.basalt.kube.kinds.Records;

/** {@code resource.k8s.io/v1} ResourceClaim, with its {@code status.allocation} and {@code status.reservedFor}. */
public final class ResourceClaimKind extends ResourceKind<ResourceClaimObject> {
  public ResourceClaimKind() {
    super(ResourceClaimObject.KIND, ResourceClaimObject.PLURAL, ResourceClaimObject.NAMESPACED,
        ResourceClaimObject.class, ResourceClaimObject.List.class);
  }

  @Override
  public void put(ResourceClaimObject o, Records out) {
    String key = key(o);
    out.resourceClaim(new DraJson(kind(), key).claim(namespace(o.getMetadata()), o.getMetadata().getName(),
        o.getMetadata().getUid(), o.getSpec(), o.getStatus()));
  }

  @Override
  void gone(String key, Records.Removals out) {
    out.resourceClaimGone(key);
  }
}
